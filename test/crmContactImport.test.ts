import type { IDataObject } from 'n8n-workflow';

import { useWorld } from './harness/world';

/**
 * Import Many of 2,500 rows: calls of up to 1,000 rows, spaced for the endpoint's own limit of 3 calls per
 * minute (a call made just before counts too) so the API never answers 429; every item gets its call's
 * counts, and each row problem is paired with its own input item.
 */

const world = useWorld();

const ROWS = 2500;
const importMany = {
	resource: 'contact',
	operation: 'importMany',
	existingContacts: 'update',
	contactFields: { mappingMode: 'autoMapInputData', value: null },
	importFields: { accountOwnerEmail: '={{ $json.owner }}' },
};

function rows(): IDataObject[] {
	return Array.from({ length: ROWS }, (_, index) => {
		if (index === 7 || index === ROWS - 1) return { firstName: `Unreachable ${index}` };
		return { email: `row${index}@import.example`, firstName: `Row ${index}`, ...(index === 1503 && { owner: 'ghost@example.com' }) };
	});
}

test('2,500 rows after one call in the same minute: 3 calls of 1,000, 1,000 and 500, the third waits for the minute, no 429; problems paired with their items', async () => {
	const credential = world().pat((await world().mintPat(world().seed.users.owner.id)).token);
	const warmUp = await world().runNode(importMany, credential, { input: [{ email: 'row0@import.example', firstName: 'Before' }] });
	expect(warmUp.items).toEqual([{ email: 'row0@import.example', accepted: true, call: { rows: 1, created: 1, updated: 0, skipped: 0, failed: 0 } }]);

	const { items, paired, error } = await world().runNode(importMany, credential, { input: rows() });
	expect(error).toBeUndefined();
	const everything = await world().requests();
	// Each run reads the data fields once, for all its items.
	expect(everything.filter((request) => request.method === 'GET').map((request) => request.path)).toEqual(['/v4/data-field', '/v4/data-field']);
	const log = everything.filter((request) => request.method === 'POST');
	expect(log.map((request) => [request.method, request.path, request.status, ((request.body as IDataObject).contacts as unknown[]).length])).toEqual([
		['POST', '/crm/bulk', 201, 1],
		['POST', '/crm/bulk', 201, 1000],
		['POST', '/crm/bulk', 201, 1000],
		['POST', '/crm/bulk', 201, 500],
	]);
	expect(log[3].receivedAt - log[0].receivedAt).toBeGreaterThanOrEqual(60_000);
	expect((log[1].body as IDataObject).updateExisting).toBe(true);
	expect(((log[2].body as IDataObject).contacts as IDataObject[])[503]).toEqual({ email: 'row1503@import.example', firstName: 'Row 1503', accountOwnerEmail: 'ghost@example.com' });

	expect(items).toHaveLength(ROWS);
	expect(paired).toEqual(Array.from({ length: ROWS }, (_, index) => index));
	const first = { rows: 1000, created: 998, updated: 1, skipped: 0, failed: 1 };
	expect(items[0]).toEqual({ email: 'row0@import.example', accepted: true, call: first });
	expect(items[7]).toEqual({ email: null, accepted: false, problem: 'email or phoneNumber must be provided', call: first });
	expect(items[1503]).toEqual({
		email: 'row1503@import.example',
		accepted: false,
		problem: 'accountOwnerEmail ghost@example.com is not a user of the company',
		call: { rows: 1000, created: 999, updated: 0, skipped: 0, failed: 1 },
	});
	expect(items[ROWS - 1]).toEqual({ email: null, accepted: false, problem: 'email or phoneNumber must be provided', call: { rows: 500, created: 499, updated: 0, skipped: 0, failed: 1 } });
	expect(items.filter((item) => !item.accepted)).toHaveLength(3);
}, 180_000);
