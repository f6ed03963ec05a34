import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult, INodePropertyOptions } from 'n8n-workflow';

import { contactEmailMode } from '../contacts';
import { each, matches, searchPage } from '../listSearch';
import { locator } from '../locators';
import { apiRequest } from '../transport/request';

/**
 * The CRM records other nodes pick too (the Invoicing node, the triggers' filters): contacts, companies, deals and
 * pipelines, their "From List" loaders and resource locators (By ID takes any non-empty text: the reference shows
 * no form of these IDs). The CRM node's own pickers (tasks, stages, lost reasons, data fields) are in its folder.
 */

/** Companies come under `companies` or `result` (api-reference §3, unconfirmed). */
export const COMPANY_ITEMS = ['companies', 'result'];

/** A contact From List or By ID (the triggers' filters and the rows of Deal Create take this one). */
export const contactLocator = locator('searchContacts', 'Contact ID');

/** A contact From List, By ID, or By Email (found when the node runs: exactly one contact must have it). */
export const contactOrEmailLocator = locator('searchContacts', 'Contact ID', 'text', contactEmailMode);

export const companyLocator = locator('searchCompanies', 'Company ID');

export const dealLocator = locator('searchDeals', 'Deal ID');

export const pipelineLocator = locator('searchPipelines', 'Pipeline ID');

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

export async function readPipelines(ctx: ILoadOptionsFunctions): Promise<IDataObject[]> {
	return (await apiRequest(ctx, 0, { method: 'GET', path: '/crm/pipelines' })) as IDataObject[];
}

/** Pipelines: a bare array, filtered here. */
export async function searchPipelines(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	return {
		results: (await readPipelines(this))
			.filter((pipeline) => matches(filter, pipeline.name, pipeline.id))
			.map((pipeline) => ({ name: `${String(pipeline.name)}${pipeline.isDefault ? ' (default)' : ''}`, value: String(pipeline.id) })),
	};
}
