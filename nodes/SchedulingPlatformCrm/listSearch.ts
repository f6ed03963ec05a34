import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult, INodePropertyOptions } from 'n8n-workflow';

import { matches } from '../shared/listSearch';
import { MAX_PAGE_SIZE } from '../shared/transport/pagination';
import type { ItemsKey } from '../shared/transport/answers';
import { failWith, readItems } from '../shared/transport/answers';
import { apiRequest } from '../shared/transport/request';
import type { RecordType } from './customFields';
import { settingsRequest } from './customFields';
import { COMPANY_ITEMS } from './resources/company';
import { DATA_FIELD_ITEMS } from './resources/dataField';
import { LOST_REASON_SETTINGS } from './resources/lostReason';

/**
 * "From List" loaders of the CRM records. The CRM lists are page1 lists (page from 1, `totalPages`): one page
 * per call, the next page number as the pagination token.
 */

export interface PageList {
	path: string;
	itemsKey: ItemsKey;
	/** The query parameter the API searches with; none: the filter is applied to each page here. */
	searchParam?: string;
	/** Other query parameters, such as the order. */
	query?: IDataObject;
	/** Items per page: the API's most, unless the options read something per item (the contact names of documents). */
	pageSize?: number;
	/** The options of a page's items (`each` makes them one by one; a loader may read more first). */
	options: (items: IDataObject[]) => INodePropertyOptions[] | Promise<INodePropertyOptions[]>;
}

/** Options made one by one from a page's items. */
export const each = (option: (item: IDataObject) => INodePropertyOptions) => (items: IDataObject[]) => items.map(option);

export async function searchPage(ctx: ILoadOptionsFunctions, list: PageList, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const page = Number(paginationToken ?? 1);
	const qs: IDataObject = { page, limit: list.pageSize ?? MAX_PAGE_SIZE, ...list.query };
	if (filter && list.searchParam) qs[list.searchParam] = filter;
	const answer = (await apiRequest(ctx, 0, { method: 'GET', path: list.path, qs })) as IDataObject;
	const options = await list.options(readItems(answer, list.itemsKey, failWith(ctx.getNode())));
	return {
		results: list.searchParam ? options : options.filter((option) => matches(filter, option.name, option.value)),
		paginationToken: page < Number(answer.totalPages ?? 0) ? String(page + 1) : undefined,
	};
}

function contactName(row: IDataObject): INodePropertyOptions {
	const contact = row.item as IDataObject;
	const name = [contact.firstName, contact.lastName].filter(Boolean).join(' ');
	const reach = String(contact.email ?? contact.phoneNumber ?? '');
	return { name: name ? `${name} (${reach})` : reach, value: String(contact.id) };
}

export async function searchContacts(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const query = { sortBy: 'lastName', sortOrder: 'ASC' };
	return await searchPage(this, { path: '/crm', itemsKey: 'result', searchParam: 'searchTerm', query, options: each(contactName) }, filter, paginationToken);
}

export async function searchCompanies(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const option = (company: IDataObject) => ({
		name: company.domain ? `${String(company.name)} (${String(company.domain)})` : String(company.name),
		value: String(company.id),
	});
	return await searchPage(this, { path: '/crm/companies', itemsKey: COMPANY_ITEMS, searchParam: 'search', options: each(option) }, filter, paginationToken);
}

export async function searchDeals(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const option = (deal: IDataObject) => ({
		name: `${String(deal.name)} (${String((deal.stage as IDataObject | null)?.name ?? 'no stage')})`,
		value: String(deal.id),
	});
	return await searchPage(this, { path: '/crm/deals', itemsKey: 'deals', searchParam: 'search', options: each(option) }, filter, paginationToken);
}

/** Tasks by title, the earliest due first ("done" when completed); the API has no search, so each page is filtered here. */
export async function searchTasks(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const option = (task: IDataObject) => ({
		name: `${String(task.title)}${task.dueDate ? ` (due ${String(task.dueDate)})` : ''}${task.completedAt ? ', done' : ''}`,
		value: String(task.id),
	});
	return await searchPage(this, { path: '/crm/tasks', itemsKey: 'tasks', options: each(option) }, filter, paginationToken);
}

async function pipelines(ctx: ILoadOptionsFunctions): Promise<IDataObject[]> {
	return (await apiRequest(ctx, 0, { method: 'GET', path: '/crm/pipelines' })) as IDataObject[];
}

/** Pipelines: a bare array, filtered here. */
export async function searchPipelines(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	return {
		results: (await pipelines(this))
			.filter((pipeline) => matches(filter, pipeline.name, pipeline.id))
			.map((pipeline) => ({ name: `${String(pipeline.name)}${pipeline.isDefault ? ' (default)' : ''}`, value: String(pipeline.id) })),
	};
}

/** A fixed value of a resource locator or text parameter ("" when unset or an expression). */
function fixedValue(given: unknown): string {
	const value = given && typeof given === 'object' ? (given as IDataObject).value : given;
	return typeof value === 'string' && !value.startsWith('=') ? value.trim() : '';
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
	const shown = (await pipelines(this)).filter((pipeline) => !chosen || pipeline.id === chosen);
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
