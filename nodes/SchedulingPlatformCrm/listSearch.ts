import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult, INodePropertyOptions } from 'n8n-workflow';

import { matches } from '../shared/listSearch';
import { MAX_PAGE_SIZE } from '../shared/transport/pagination';
import { apiRequest } from '../shared/transport/request';

/**
 * "From List" loaders of the CRM records. The CRM lists are page1 lists (page from 1, `totalPages`): one page
 * per call, the next page number as the pagination token.
 */

interface PageList {
	path: string;
	itemsKey: string;
	/** The query parameter the API searches with; none: the filter is applied to each page here. */
	searchParam?: string;
	option: (item: IDataObject) => INodePropertyOptions;
}

async function searchPage(ctx: ILoadOptionsFunctions, list: PageList, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const page = Number(paginationToken ?? 1);
	const qs: IDataObject = { page, limit: MAX_PAGE_SIZE };
	if (filter && list.searchParam) qs[list.searchParam] = filter;
	const answer = (await apiRequest(ctx, 0, { method: 'GET', path: list.path, qs })) as IDataObject;
	const options = ((answer[list.itemsKey] ?? []) as IDataObject[]).map(list.option);
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
	return await searchPage(this, { path: '/crm', itemsKey: 'result', searchParam: 'searchTerm', option: contactName }, filter, paginationToken);
}

export async function searchCompanies(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const option = (company: IDataObject) => ({ name: String(company.name), value: String(company.id) });
	return await searchPage(this, { path: '/crm/companies', itemsKey: 'companies', searchParam: 'search', option }, filter, paginationToken);
}

export async function searchDeals(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const option = (deal: IDataObject) => ({ name: String(deal.name), value: String(deal.id) });
	return await searchPage(this, { path: '/crm/deals', itemsKey: 'deals', searchParam: 'search', option }, filter, paginationToken);
}

/** Tasks by title, the earliest due first ("done" when completed); the API has no search, so each page is filtered here. */
export async function searchTasks(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const option = (task: IDataObject) => ({
		name: `${String(task.title)}${task.dueDate ? ` (due ${String(task.dueDate)})` : ''}${task.completedAt ? ', done' : ''}`,
		value: String(task.id),
	});
	return await searchPage(this, { path: '/crm/tasks', itemsKey: 'tasks', option }, filter, paginationToken);
}
