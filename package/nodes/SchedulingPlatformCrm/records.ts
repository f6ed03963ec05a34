import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { Fail } from '../shared/transport/answers';
import { readRecord } from '../shared/transport/answers';
import type { ApiRequest } from '../shared/transport/request';
import type { ModeResolvers, OperationCall } from '../shared/types';
import { each, matches, searchPage } from '../shared/listSearch';
import { locator } from '../shared/locators';
import { apiRequest } from '../shared/transport/request';

/**
 * The CRM records other nodes pick too (the Invoicing node, the triggers' filters): contacts, companies, deals and
 * pipelines, their "From List" loaders and resource locators (By ID takes any non-empty text: the reference shows
 * no form of these IDs). The CRM node's own pickers (tasks, stages, lost reasons, data fields) are in its folder.
 */

/** Companies come under `companies` or `result` (api-reference §3, unconfirmed). */
export const COMPANY_ITEMS = ['companies', 'result'];

/** A contact From List or By ID (the triggers' filters and the rows of Deal Create take this one). */
export const contactLocator = locator('searchContacts', 'Contact ID');

/** The "By Email" mode of the contact locator: the contact is found by its email when the node runs. */
const contactEmailMode: Pick<INodeProperties, 'modes'> = {
	modes: [
		{
			displayName: 'By Email',
			name: 'email',
			type: 'string',
			placeholder: 'e.g. jane@example.com',
			validation: [{ type: 'regex', properties: { regex: '^([^\\s@]+@[^\\s@]+\\.[^\\s@]+)?$', errorMessage: 'Contact email must be an email address, such as jane@example.com' } }],
		},
	],
};

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

/**
 * CRM contacts found by email or phone number, for the nodes that name a contact (CRM, Invoicing): the API's search is
 * a substring search of name, email and phone (api-reference §3), so the matches are compared here, exactly.
 */

/** The contact of an answer: under `item` (create, details, list rows), or bare (update: unconfirmed, §3). */
export const readContact = (answer: unknown, fail: Fail) => readRecord(answer, 'item', fail);

/** What a contact is found by: its email, or its phone number. */
export interface MatchKey {
	field: 'email' | 'phoneNumber';
	value: string;
}

/** The form two values of a match key are compared in: emails ignoring case, phone numbers as they are (the API's search finds text as stored). */
export const comparable = (field: MatchKey['field'], value: unknown) => (field === 'email' ? String(value ?? '').toLowerCase() : String(value ?? ''));

/** The contacts whose email (or phone number) is exactly this one, read page by page with `read` (sent anew, or kept for the node run). */
export async function contactsWith(read: (request: ApiRequest) => Promise<unknown>, { field, value }: MatchKey, fail: Fail): Promise<IDataObject[]> {
	const found: IDataObject[] = [];
	for (let page = 1; ; page++) {
		const answer = (await read({ method: 'GET', path: '/crm', qs: { searchTerm: value, page, limit: 100 } })) as IDataObject;
		const rows = ((answer.result ?? []) as IDataObject[]).map((row) => readContact(row, fail));
		found.push(...rows.filter((contact) => comparable(field, contact[field]) === comparable(field, value)));
		if (page >= Number(answer.totalPages ?? 0)) return found;
	}
}

/** The ID of the one contact with this email (searched once per node run); none or several stop the item, saying which. */
async function contactIdOfEmail(email: string, call: Pick<OperationCall, 'lookup' | 'fail'>, label: string): Promise<string> {
	const found = await contactsWith(async (request) => await call.lookup(request), { field: 'email', value: email }, call.fail);
	if (found.length === 1) return String(found[0].id);
	if (!found.length) {
		call.fail(`${label}: no CRM contact has the email ${email}`, 'Check the address, pick the contact From List, or create it first (Contact → Create or Update).');
	}
	const ids = found.map((contact) => String(contact.id));
	return call.fail(
		`${label}: ${ids.length} CRM contacts have the email ${email} (${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', …' : ''})`,
		'Pick the one you mean From List or By ID, or merge the duplicates in the CRM first.',
	);
}

/** The contact locators' modes that name a contact another way than its ID (By Email): the executor finds the ID. */
export const contactResolvers: ModeResolvers = { email: contactIdOfEmail };
