import type { IDataObject } from 'n8n-workflow';

import { asTenant } from './harness/crm';
import { byId, useWorld, wire } from './harness/world';

/**
 * Deal → Import Many: requests of up to 500 rows, the pipeline and stage checked before sending, items of another
 * pipeline, stage or Existing Contacts in requests of their own, a bad row failing alone, and each item's output.
 */

const world = useWorld();

type Pipeline = IDataObject & { id: string; stages: Array<IDataObject & { id: string }> };

let sales: Pipeline;
let partners: Pipeline;

const asOwner = (method: string, path: string, body?: unknown) => asTenant(world(), { token: world().seed.credentials.ownerPat }, method, path, body);

beforeAll(async () => {
	await world().control('POST', '/__sandbox/rate-limit', { perMinute: 10000, burst: 10000 });
	const stages = (names: string[]) => names.map((name) => ({ name, color: '#1a73e8' }));
	sales = (await asOwner('POST', '/crm/pipelines', { name: 'Imports', stages: stages(['Lead', 'Offer']) })) as Pipeline;
	partners = (await asOwner('POST', '/crm/pipelines', { name: 'Partners', stages: stages(['Intro']) })) as Pipeline;
	await world().clearRequests();
});

function importMany(extra: IDataObject = {}): IDataObject {
	return {
		resource: 'deal',
		operation: 'importMany',
		pipelineId: byId(sales.id),
		stageId: sales.stages[0].id,
		existingContacts: 'update',
		contactFields: { mappingMode: 'autoMapInputData', value: null },
		dealFields: { dealName: '={{ $json.deal }}', dealValue: '={{ $json.amount }}', dealCurrency: 'EUR' },
		...extra,
	};
}

const posts = async () => (await world().requests()).filter((request) => request.method === 'POST');
const rowsOf = (request: { body: unknown }) => (request.body as IDataObject).rows as IDataObject[];

describe('Deal Import Many', () => {
	test('1,203 items: requests of 500, 500 and 202 rows, the row without email or phone failing alone before sending; each item its call\'s counts', async () => {
		const input = Array.from({ length: 1203 }, (_, index) =>
			index === 5 ? { firstName: 'Nobody', deal: 'Lost row' } : { email: `row${index}@deal.example`, firstName: 'Row', lastName: String(index), deal: `Deal ${index}`, amount: index },
		);
		const { items, paired, error } = await world().runNode(importMany(), world().pat(), { input, continueOnFail: true });
		expect(error).toBeUndefined();
		const log = await world().requests();
		expect(log.filter((request) => request.method === 'GET').map((request) => request.path)).toEqual(['/v4/data-field', '/crm/pipelines']);
		const sent = log.filter((request) => request.method === 'POST');
		expect(sent.map((request) => [request.path, request.status, rowsOf(request).length])).toEqual([
			['/crm/deals/bulk-import', 201, 500],
			['/crm/deals/bulk-import', 201, 500],
			['/crm/deals/bulk-import', 201, 202],
		]);
		expect(wire(sent[0])).toEqual({
			method: 'POST',
			path: '/crm/deals/bulk-import',
			query: '',
			headers: world().patHeaders(undefined, true),
			body: expect.objectContaining({ pipelineId: sales.id, stageId: sales.stages[0].id, updateExisting: true }),
		});
		expect(Object.keys(sent[0].body as IDataObject).sort()).toEqual(['pipelineId', 'rows', 'stageId', 'updateExisting']);
		expect(rowsOf(sent[0])[0]).toEqual({ email: 'row0@deal.example', firstName: 'Row', lastName: '0', dealName: 'Deal 0', dealValue: 0, dealCurrency: 'EUR' });
		expect(rowsOf(sent[0])[5]).toEqual(expect.objectContaining({ email: 'row6@deal.example', dealValue: 6 }));

		expect(items).toHaveLength(1203);
		expect(paired).toEqual(input.map((_, index) => index));
		const counts = (rows: number) => ({ rows, contactsCreated: rows, contactsUpdated: 0, contactsSkipped: 0, dealsCreated: rows, dealsSkipped: 0, failed: 0 });
		expect(items[0]).toEqual({ email: 'row0@deal.example', accepted: true, call: counts(500) });
		expect(items[5]).toEqual({ error: 'A row needs an email or a phone number', message: expect.stringContaining('Item 6: map Email or Phone Number in Contact Fields') });
		expect(items[600]).toEqual({ email: 'row600@deal.example', accepted: true, call: counts(500) });
		expect(items[1202]).toEqual({ email: 'row1202@deal.example', accepted: true, call: counts(202) });
		expect(((await asOwner('GET', '/crm/deals/limits')) as IDataObject).count).toBe(1202);
		const [deal] = ((await asOwner('GET', '/crm/deals?search=Deal%201202')) as IDataObject).deals as IDataObject[];
		expect(deal).toEqual(expect.objectContaining({ name: 'Deal 1202', value: 1202, currency: 'EUR', pipelineId: sales.id, stageId: sales.stages[0].id }));
	}, 120_000);

	test('items of another stage (by expression) go in a request of their own; outputs stay in input order', async () => {
		const input = [
			{ email: 'ann@group.example', stage: sales.stages[0].id },
			{ email: 'ben@group.example', stage: sales.stages[1].id },
			{ email: 'cem@group.example', stage: sales.stages[0].id },
		];
		const { items, error } = await world().runNode(importMany({ stageId: '={{ $json.stage }}', dealFields: {} }), world().pat(), { input });
		expect(error).toBeUndefined();
		const sent = await posts();
		expect(sent.map((request) => [(request.body as IDataObject).stageId, rowsOf(request).map((row) => row.email)])).toEqual([
			[sales.stages[0].id, ['ann@group.example', 'cem@group.example']],
			[sales.stages[1].id, ['ben@group.example']],
		]);
		expect(items.map((item) => [item.email, (item.call as IDataObject).rows])).toEqual([
			['ann@group.example', 2],
			['ben@group.example', 1],
			['cem@group.example', 2],
		]);
	});

	test('a stage of another pipeline, a currency that is no ISO 4217 code and a day that does not exist are refused before sending', async () => {
		const other = await world().runNode(importMany({ stageId: partners.stages[0].id }), world().pat(), { input: [{ email: 'x@refused.example' }] });
		expect(other.error?.message).toBe(`Stage Name or ID "${partners.stages[0].id}" is not a stage of the pipeline "Imports"`);
		const euro = await world().runNode(importMany({ dealFields: { dealCurrency: 'EURO' } }), world().pat(), { input: [{ email: 'x@refused.example' }] });
		expect(euro.error?.message).toBe('Deal Currency must be an ISO 4217 currency code in capitals, such as EUR, USD or CHF; "EURO" is not');
		const day = await world().runNode(importMany({ dealFields: { dealExpectedCloseDate: '2026-02-30' } }), world().pat(), { input: [{ email: 'x@refused.example' }] });
		expect(day.error?.message).toBe('Deal Expected Close Date must be a real date; 2026-02-30 does not exist');
		expect(await posts()).toEqual([]);
	});

	test('Existing Contacts "Keep As They Are" sends updateExisting false: the known contact stays unchanged and still gets a deal; the date goes as YYYY-MM-DD', async () => {
		const { items } = await world().runNode(
			importMany({ existingContacts: 'skip', dealFields: { dealName: 'Second deal', dealExpectedCloseDate: '2026-06-30T00:00:00' } }),
			world().pat(),
			{ input: [{ email: 'ROW0@deal.example', firstName: 'Changed' }] },
		);
		const [sent] = await posts();
		expect(sent.body).toEqual({
			rows: [{ email: 'ROW0@deal.example', firstName: 'Changed', dealName: 'Second deal', dealExpectedCloseDate: '2026-06-30' }],
			pipelineId: sales.id,
			stageId: sales.stages[0].id,
			updateExisting: false,
		});
		expect(items).toEqual([
			{ email: 'ROW0@deal.example', accepted: true, call: { rows: 1, contactsCreated: 0, contactsUpdated: 0, contactsSkipped: 1, dealsCreated: 1, dealsSkipped: 0, failed: 0 } },
		]);
		const [row] = ((await asOwner('GET', '/crm?searchTerm=row0%40deal.example')) as IDataObject).result as IDataObject[];
		expect((row.item as IDataObject).firstName).toBe('Row');
	});

	test('beyond the plan\'s deal limit the contacts are imported and the deals skipped, as the counts say', async () => {
		const company = (await world().control('POST', '/__sandbox/companies', { name: 'Small Ltd.', plan: 'free' })) as { id: string };
		const user = (await world().control('POST', '/__sandbox/users', { companyId: company.id, email: 'sam@small.example', givenName: 'Sam', familyName: 'Small' })) as { id: string };
		const tenant = { token: (await world().mintPat(user.id)).token };
		const pipeline = (await asTenant(world(), tenant, 'POST', '/crm/pipelines', { name: 'Small', stages: [{ name: 'New', color: '#1a73e8' }] })) as Pipeline;
		await world().clearRequests();
		const input = Array.from({ length: 12 }, (_, index) => ({ email: `lead${index}@small.example` }));
		const { items, error } = await world().runNode(importMany({ pipelineId: byId(pipeline.id), stageId: pipeline.stages[0].id, dealFields: {} }), world().pat(tenant.token), { input });
		expect(error).toBeUndefined();
		expect((await posts()).map((request) => rowsOf(request).length)).toEqual([12]);
		const call = { rows: 12, contactsCreated: 12, contactsUpdated: 0, contactsSkipped: 0, dealsCreated: 10, dealsSkipped: 2, failed: 0 };
		expect(items).toEqual(input.map(({ email }) => ({ email, accepted: true, call })));
		expect(await asTenant(world(), tenant, 'GET', '/crm/deals/limits')).toEqual({ count: 10, limit: 10 });
	});
});
