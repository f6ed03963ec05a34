import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { Fail } from './transport/answers';
import { readRecord } from './transport/answers';
import type { ApiRequest } from './transport/request';
import type { OperationCall } from './types';

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

/** The "By Email" mode of the contact locator: the contact is found by its email when the node runs. */
export const contactEmailMode: Pick<INodeProperties, 'modes'> = {
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

/** The ID of the one contact with this email (searched once per node run); none or several stop the item, saying which. */
export async function contactIdOfEmail(email: string, call: Pick<OperationCall, 'lookup' | 'fail'>, label: string): Promise<string> {
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
