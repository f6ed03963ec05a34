import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { matches } from '../shared/listSearch';
import { MAX_PAGE_SIZE } from '../shared/transport/pagination';
import { apiRequest } from '../shared/transport/request';

/** "From List" loaders of the CRM resources; users are shared (../shared/listSearch.ts). */

/** Contacts by name, the API searching names, emails and phone numbers itself (page by page, 100 at a time). */
export async function searchContacts(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const page = Number(paginationToken ?? 1);
	const qs: IDataObject = { page, limit: MAX_PAGE_SIZE, sortBy: 'lastName', sortOrder: 'ASC' };
	if (filter) qs.searchTerm = filter;
	const answer = (await apiRequest(this, 0, { method: 'GET', path: '/crm', qs })) as IDataObject;
	const contacts = ((answer.result ?? []) as IDataObject[]).map((row) => row.item as IDataObject);
	return {
		results: contacts.map((contact) => {
			const name = [contact.firstName, contact.lastName].filter(Boolean).join(' ');
			const reach = String(contact.email ?? contact.phoneNumber ?? '');
			return { name: name ? `${name} (${reach})` : reach, value: String(contact.id) };
		}),
		paginationToken: page < Number(answer.totalPages ?? 0) ? String(page + 1) : undefined,
	};
}

/** The company's data fields, in their order. */
export async function searchDataFields(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const offset = Number(paginationToken ?? 0);
	const answer = (await apiRequest(this, 0, { method: 'GET', path: '/v4/data-field', qs: { limit: MAX_PAGE_SIZE, offset } })) as IDataObject;
	const fields = (answer.dataFields ?? []) as IDataObject[];
	const next = offset + fields.length;
	return {
		results: fields
			.filter((field) => matches(filter, field.label, field.name, field.id))
			.map((field) => ({ name: `${String(field.label)} (${String(field.name)}, ${String(field.fieldType)})`, value: String(field.id) })),
		paginationToken: fields.length === MAX_PAGE_SIZE && next < Number(answer.total ?? 0) ? String(next) : undefined,
	};
}
