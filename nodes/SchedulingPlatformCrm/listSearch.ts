import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult, INodePropertyOptions } from 'n8n-workflow';

import { matches } from '../shared/listSearch';
import { MAX_PAGE_SIZE } from '../shared/transport/pagination';
import { apiRequest } from '../shared/transport/request';

/** "From List" loaders and dropdowns of the CRM records; users are shared (../shared/listSearch.ts). */

/** One page1 page of a CRM list the API searches itself (§1.3): the next page while there are more. */
async function searchPage1(
	ctx: ILoadOptionsFunctions,
	request: { path: string; itemsKey: string; searchKey: string },
	filter: string | undefined,
	paginationToken: string | undefined,
): Promise<{ rows: IDataObject[]; paginationToken?: string }> {
	const page = Number(paginationToken ?? 1);
	const qs: IDataObject = { page, limit: MAX_PAGE_SIZE };
	if (filter) qs[request.searchKey] = filter;
	const answer = (await apiRequest(ctx, 0, { method: 'GET', path: request.path, qs })) as IDataObject;
	const rows = (answer[request.itemsKey] ?? []) as IDataObject[];
	return { rows, paginationToken: page < Number(answer.totalPages ?? 0) ? String(page + 1) : undefined };
}

export async function searchCompanies(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const { rows, paginationToken: next } = await searchPage1(this, { path: '/crm/companies', itemsKey: 'companies', searchKey: 'search' }, filter, paginationToken);
	return {
		results: rows.map((company) => ({ name: company.domain ? `${String(company.name)} (${String(company.domain)})` : String(company.name), value: String(company.id) })),
		paginationToken: next,
	};
}

export async function searchDeals(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const { rows, paginationToken: next } = await searchPage1(this, { path: '/crm/deals', itemsKey: 'deals', searchKey: 'search' }, filter, paginationToken);
	return {
		results: rows.map((deal) => ({ name: `${String(deal.name)} (${String((deal.stage as IDataObject | null)?.name ?? 'no stage')})`, value: String(deal.id) })),
		paginationToken: next,
	};
}

/** Contacts: the API searches name, email and phone (searchTerm); rows are `{ item, ... }`. */
export async function searchContacts(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const { rows, paginationToken: next } = await searchPage1(this, { path: '/crm', itemsKey: 'result', searchKey: 'searchTerm' }, filter, paginationToken);
	return {
		results: rows.map(({ item }) => {
			const contact = item as IDataObject;
			const name = [contact.firstName, contact.lastName].filter(Boolean).join(' ');
			const reach = String(contact.email ?? contact.phoneNumber ?? '');
			return { name: name ? `${name} (${reach})` : reach, value: String(contact.id) };
		}),
		paginationToken: next,
	};
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

/** The pipeline chosen in the node (Pipeline, or Pipeline under Update Fields), if any. */
function chosenPipeline(ctx: ILoadOptionsFunctions): string {
	const parameters = (ctx.getCurrentNodeParameters() ?? {}) as IDataObject;
	const given = parameters.pipelineId ?? (parameters.updateFields as IDataObject | undefined)?.pipelineId;
	const value = given && typeof given === 'object' ? (given as IDataObject).value : given;
	return typeof value === 'string' ? value.trim() : '';
}

/** The Stage dropdowns: the stages of the chosen pipeline in their order; with none chosen, every pipeline's stages. */
export async function getPipelineStages(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const chosen = chosenPipeline(this);
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
	const settings = (await apiRequest(this, 0, { method: 'GET', path: '/crm/settings/lost-reasons' })) as IDataObject;
	return ((settings.reasons ?? []) as IDataObject[])
		.filter((reason) => !reason.archived)
		.map((reason) => ({ name: String(reason.label), value: String(reason.key) }));
}
