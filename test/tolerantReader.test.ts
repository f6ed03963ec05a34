import type { IDataObject } from 'n8n-workflow';

import { byId, useWorld } from './harness/world';

/**
 * The answers the reference marks unconfirmed (§1.3, §3) read through the one tolerant reader: every accepted form
 * gives the same items, in the operation, its list search and the mapper alike; a form none of them accepts is an
 * error that names the keys that came back, never a value, instead of 0 items. The sandbox answers the first form;
 * the other forms come from a fault that replaces one answer.
 */

const world = useWorld();

const FIELD = { id: 7, name: 'shoeSize', label: 'Shoe Size', fieldType: 'number', required: false, hidden: false, options: [], target: 'contact', default: null, mutable: true };
const COMPANY = { id: '00000000-0000-4000-8000-00000000c0de', name: 'Initech', domain: 'initech.example' };

async function answerOnce(path: string, body: unknown): Promise<void> {
	await world().control('POST', '/__sandbox/faults', { method: 'GET', path, status: 200, body });
}

describe('the tolerant reader', () => {
	test.each([
		['dataFields', { dataFields: [FIELD], total: 1, count: 1, offset: 0 }],
		['items', { items: [FIELD], total: 1 }],
		['data', { data: [FIELD], total: 1 }],
		['a bare list', [FIELD]],
	])('Data Field Get Many, its list search and the Contact Fields mapper read the fields under %s', async (_form, body) => {
		await answerOnce('/v4/data-field', body);
		const run = await world().runNode({ resource: 'dataField', operation: 'getAll', returnAll: true }, world().pat());
		expect(run.error).toBeUndefined();
		expect(run.items).toEqual([FIELD]);

		await answerOnce('/v4/data-field', body);
		const search = await world().listSearch('searchDataFields', { resource: 'dataField', operation: 'get' }, world().pat());
		expect(search.result?.results).toEqual([{ name: 'Shoe Size (shoeSize, number)', value: '7' }]);

		await answerOnce('/v4/data-field', body);
		const mapper = await world().resourceMapping('getContactFields', { resource: 'contact', operation: 'create' }, world().pat());
		expect(mapper.result?.fields.map((field) => field.id)).toContain('shoeSize');
	});

	test.each([
		['companies', { companies: [COMPANY], page: 1, limit: 100, total: 1, totalPages: 1 }],
		['result', { result: [COMPANY], page: 1, limit: 100, total: 1, totalPages: 1 }],
	])('Company Get Many and the company list read the companies under %s', async (_form, body) => {
		await answerOnce('/crm/companies', body);
		const run = await world().runNode({ resource: 'company', operation: 'getAll', returnAll: true }, world().pat());
		expect(run.error).toBeUndefined();
		expect(run.items).toEqual([COMPANY]);

		await answerOnce('/crm/companies', body);
		const search = await world().listSearch('searchCompanies', { resource: 'company', operation: 'get' }, world().pat());
		expect(search.result?.results).toEqual([{ name: 'Initech (initech.example)', value: COMPANY.id }]);
	});

	test('an answer in none of the accepted forms names its keys (no values) instead of giving 0 items', async () => {
		await answerOnce('/v4/data-field', { fields: [FIELD], total: 1, secretish: 'do-not-show' });
		const run = await world().runNode({ resource: 'dataField', operation: 'getAll', returnAll: true }, world().pat());
		expect(run.items).toEqual([]);
		expect(run.error?.message).toBe('The API answered in a form this node does not read: an object with the keys fields, total, secretish');
		expect(run.error?.description).toContain('Expected a list or the items under "dataFields" or "items" or "data"');
		expect(JSON.stringify(run.error)).not.toContain('do-not-show');

		await answerOnce('/crm/companies', { rows: [COMPANY] });
		const search = await world().listSearch('searchCompanies', { resource: 'company', operation: 'get' }, world().pat());
		expect(search.error?.message).toContain('an object with the keys rows');
	});

	test('the same for the data field list, the Contact Fields mapper (its notice), Contact Create\'s data fields and Company Get Many', async () => {
		const unread = { fields: [FIELD], total: 1, secretish: 'do-not-show' };
		const keys = 'The API answered in a form this node does not read: an object with the keys fields, total, secretish';
		// The editor shows one line: the message with its advice.
		const inEditor = `${keys}. Expected a list or the items under "dataFields" or "items" or "data". The API may have changed its answer: please report this to the package's maintainers with the keys above.`;

		await answerOnce('/v4/data-field', unread);
		const search = await world().listSearch('searchDataFields', { resource: 'dataField', operation: 'get' }, world().pat());
		expect(search.error?.message).toBe(inEditor);

		await answerOnce('/v4/data-field', unread);
		const mapper = await world().resourceMapping('getContactFields', { resource: 'contact', operation: 'create' }, world().pat());
		expect(mapper.result?.emptyFieldsNotice).toBe(`The company's data fields could not be loaded, so only the contact's own fields are listed: ${inEditor}`);
		expect(JSON.stringify(mapper.result)).not.toContain('do-not-show');

		await world().clearRequests();
		await answerOnce('/v4/data-field', unread);
		const create = await world().runNode({ resource: 'contact', operation: 'create', contactFields: { mappingMode: 'defineBelow', value: { email: 'unread@example.com' } } }, world().pat());
		expect(create.error?.message).toBe(keys);
		expect((await world().requests()).map((request) => `${request.method} ${request.path}`)).toEqual(['GET /v4/data-field']);

		await answerOnce('/crm/companies', { rows: [COMPANY], total: 1 });
		const companies = await world().runNode({ resource: 'company', operation: 'getAll', returnAll: true }, world().pat());
		expect(companies.items).toEqual([]);
		expect(companies.error?.message).toBe('The API answered in a form this node does not read: an object with the keys rows, total');
	});

	test('Contact Update outputs the contact whether the API wraps it in { item } or answers it bare', async () => {
		const created = await world().api('POST', '/crm', world().seed.credentials.ownerPat, { body: { email: 'bare@example.com', firstName: 'Bea' } });
		const contact = (created.body as IDataObject).item as IDataObject;
		const parameters = { resource: 'contact', operation: 'update', contactId: byId(String(contact.id)), contactFields: { mappingMode: 'defineBelow', value: { lastName: 'Bare' } }, updateFields: {} };

		const wrapped = await world().runNode(parameters, world().pat());
		expect(wrapped.error).toBeUndefined();
		expect(wrapped.items).toEqual([expect.objectContaining({ id: contact.id, firstName: 'Bea', lastName: 'Bare' })]);

		await world().control('POST', '/__sandbox/faults', { method: 'PATCH', path: `/crm/${String(contact.id)}`, status: 200, body: { ...contact, lastName: 'Bare' } });
		const bare = await world().runNode(parameters, world().pat());
		expect(bare.error).toBeUndefined();
		expect(bare.items).toEqual([expect.objectContaining({ id: contact.id, firstName: 'Bea', lastName: 'Bare' })]);

		await world().control('POST', '/__sandbox/faults', { method: 'PATCH', path: `/crm/${String(contact.id)}`, status: 200, body: 'ok', headers: { 'Content-Type': 'text/plain' } });
		const odd = await world().runNode(parameters, world().pat());
		expect(odd.error?.message).toBe('The API answered in a form this node does not read: a text');
	});
});
