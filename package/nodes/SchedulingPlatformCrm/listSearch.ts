import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult, INodePropertyOptions } from 'n8n-workflow';

import { each, fixedValue, matches, searchPage } from '../shared/listSearch';
import { readPipelines } from './records';
import { MAX_PAGE_SIZE } from '../shared/transport/pagination';
import { failWith, readItems } from '../shared/transport/answers';
import { apiRequest } from '../shared/transport/request';
import type { RecordType } from './customFields';
import { settingsRequest } from './customFields';
import { DATA_FIELD_ITEMS } from './resources/dataField';
import { LOST_REASON_SETTINGS } from './resources/lostReason';

/** "From List" loaders and dropdowns of the CRM node's own records (contacts, companies, deals, pipelines: records.ts). */

/** Tasks by title, the earliest due first ("done" when completed); the API has no search, so each page is filtered here. */
export async function searchTasks(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const option = (task: IDataObject) => ({
		name: `${String(task.title)}${task.dueDate ? ` (due ${String(task.dueDate)})` : ''}${task.completedAt ? ', done' : ''}`,
		value: String(task.id),
	});
	return await searchPage(this, { path: '/crm/tasks', itemsKey: 'tasks', options: each(option) }, filter, paginationToken);
}

/**
 * The pipeline whose stages a Stage dropdown lists: the chosen Pipeline (Create, or the Get Many filter), else
 * the pipeline of the chosen deal (its stages are the only ones Update, Mark Won, Mark Lost and Reopen take).
 */
async function chosenPipeline(ctx: ILoadOptionsFunctions): Promise<string> {
	const parameters = (ctx.getCurrentNodeParameters() ?? {}) as IDataObject;
	const pipelineId = fixedValue(parameters.pipelineId ?? (parameters.filters as IDataObject | undefined)?.pipelineId);
	const dealId = fixedValue(parameters.dealId);
	if (pipelineId || !dealId) return pipelineId;
	const deal = (await apiRequest(ctx, 0, { method: 'GET', path: '/crm/deals/{id}', pathParams: { id: dealId } })) as IDataObject;
	return String(deal.pipelineId ?? '');
}

/** The Stage dropdowns: the stages of the chosen pipeline in their order; with none chosen, every pipeline's stages. */
export async function getPipelineStages(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const chosen = await chosenPipeline(this);
	const shown = (await readPipelines(this)).filter((pipeline) => !chosen || pipeline.id === chosen);
	return shown.flatMap((pipeline) =>
		((pipeline.stages ?? []) as IDataObject[]).map((stage) => ({
			name: chosen ? String(stage.name) : `${String(pipeline.name)}: ${String(stage.name)}`,
			value: String(stage.id),
			description: stage.isWon ? 'Won stage' : stage.isLost ? 'Lost stage' : undefined,
		})),
	);
}

/** The company's lost reasons that are not archived. */
export async function getLostReasons(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const settings = (await apiRequest(this, 0, { method: 'GET', path: LOST_REASON_SETTINGS })) as IDataObject;
	return ((settings.reasons ?? []) as IDataObject[])
		.filter((reason) => !reason.archived)
		.map((reason) => ({ name: String(reason.label), value: String(reason.key) }));
}

/** The company's data fields, in their order. */
export async function searchDataFields(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const offset = Number(paginationToken ?? 0);
	const answer = (await apiRequest(this, 0, { method: 'GET', path: '/v4/data-field', qs: { limit: MAX_PAGE_SIZE, offset } })) as IDataObject;
	const fields = readItems(answer, DATA_FIELD_ITEMS, failWith(this.getNode()));
	const next = offset + fields.length;
	return {
		results: fields
			.filter((field) => matches(filter, field.label, field.name, field.id))
			.map((field) => ({ name: `${String(field.label)} (${String(field.name)}, ${String(field.fieldType)})`, value: String(field.id) })),
		paginationToken: fields.length === MAX_PAGE_SIZE && next < Number(answer.total ?? 0) ? String(next) : undefined,
	};
}

/** The custom fields of the chosen Record Type, by label, their key as the value. */
export async function getCustomFieldKeys(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const answer = await apiRequest(this, 0, settingsRequest(this.getNodeParameter('recordType', 'deal') as RecordType));
	return readItems(answer, 'fields', failWith(this.getNode())).map((field) => ({ name: `${String(field.label)} (${String(field.key)})`, value: String(field.key) }));
}
