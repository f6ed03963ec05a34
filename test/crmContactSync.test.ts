import type { IDataObject } from 'n8n-workflow';

import { useWorld } from './harness/world';

/**
 * Nightly sync through Create or Update, under the API's real limits (100 per minute, burst 200): 250 source
 * rows of new, changed, unchanged and case-differing emails (some new emails twice in one run) give the right
 * creates and updates and no duplicate; a second run writes nothing; a 429 mid-run fails no item. Each run
 * uses a fresh token, as a nightly run starts with a full bucket.
 */

const world = useWorld();

const EXISTING = 200;
const email = (index: number) => `sync${index}@nightly.example`;

/** 0–179 unchanged (0–59 with the email in upper case), 180–199 renamed, 200–239 new, 240–249 new ones of 200–209 again in upper case. */
function sourceRows(): IDataObject[] {
	const rows: IDataObject[] = [];
	for (let index = 0; index < 240; index++) {
		const given = index < 60 ? email(index).toUpperCase() : email(index);
		rows.push({ email: given, firstName: index >= 180 && index < 200 ? `Renamed ${index}` : `Name ${index}`, lastName: 'Nightly' });
	}
	for (let index = 200; index < 210; index++) rows.push({ email: email(index).toUpperCase(), firstName: `Name ${index}`, lastName: 'Nightly' });
	return rows;
}

async function freshToken(): Promise<string> {
	return (await world().mintPat(world().seed.users.owner.id)).token;
}

async function allContacts(token: string): Promise<IDataObject[]> {
	const contacts: IDataObject[] = [];
	for (let page = 1; ; page++) {
		const answer = await world().api('GET', `/crm?searchTerm=nightly.example&page=${page}&limit=100`, token);
		contacts.push(...(answer.body.result as IDataObject[]).map((row) => row.item as IDataObject));
		if (page >= (answer.body.totalPages as number)) return contacts;
	}
}

const sync = { resource: 'contact', operation: 'upsert', contactFields: { mappingMode: 'autoMapInputData', value: null } };

test('250 rows: the right creates and updates, no duplicate email, unchanged rows send no write; a second run writes nothing; a 429 mid-run fails no item', async () => {
	const setup = await freshToken();
	const existing = Array.from({ length: EXISTING }, (_, index) => ({ email: email(index), firstName: `Name ${index}`, lastName: 'Nightly' }));
	const imported = await world().api('POST', '/crm/bulk', setup, { body: { contacts: existing } });
	expect(imported.body).toMatchObject({ created: EXISTING, failed: 0 });
	const renamed = (await allContacts(setup)).find((contact) => contact.email === email(190))!;
	await world().clearRequests();
	await world().control('POST', '/__sandbox/faults', { method: 'PATCH', path: `/crm/${String(renamed.id)}`, status: 429, retryAfter: '2' });

	const rows = sourceRows();
	const first = await world().runNode(sync, world().pat(await freshToken()), { input: rows });
	expect(first.error).toBeUndefined();
	expect(first.paired).toEqual(rows.map((_, index) => index));
	const outcomes = first.items.map((item) => item.outcome);
	expect(outcomes.slice(0, 180).every((outcome) => outcome === 'unchanged')).toBe(true);
	expect(outcomes.slice(180, 200).every((outcome) => outcome === 'updated')).toBe(true);
	expect(outcomes.slice(200, 240).every((outcome) => outcome === 'created')).toBe(true);
	expect(outcomes.slice(240).every((outcome) => outcome === 'unchanged')).toBe(true);
	const log = await world().requests();
	const count = (method: string, status?: number) => log.filter((request) => request.method === method && (status === undefined || request.status === status)).length;
	expect([count('GET', 200), count('POST', 201), count('PATCH', 200)]).toEqual([251, 40, 20]);
	// The injected 429 on item 191's update, and at most three more: after a 429 the process shares the credential as if
	// another process used it, until a drain (requests back to back until one 429, retried) finds it alone; one drain
	// comes near the end of the run, and a drain that finds room drains again soon.
	const refused = log.filter((request) => request.status === 429);
	expect(refused.filter((request) => request.method === 'PATCH' && request.path === `/crm/${String(renamed.id)}`)).not.toHaveLength(0);
	expect(refused.length).toBeLessThanOrEqual(4);
	expect(log).toHaveLength(251 + 40 + 20 + refused.length);

	const contacts = await allContacts(setup);
	expect(contacts).toHaveLength(240);
	expect(new Set(contacts.map((contact) => String(contact.email).toLowerCase())).size).toBe(240);
	expect(contacts.find((contact) => contact.email === email(190))).toMatchObject({ firstName: 'Renamed 190' });
	expect(contacts.find((contact) => contact.email === email(5))).toMatchObject({ firstName: 'Name 5' });

	await world().clearRequests();
	const second = await world().runNode(sync, world().pat(await freshToken()), { input: rows });
	expect(second.error).toBeUndefined();
	expect(second.items.every((item) => item.outcome === 'unchanged')).toBe(true);
	const again = await world().requests();
	expect(again.filter((request) => request.method !== 'GET')).toEqual([]);
	expect(again.every((request) => request.status === 200)).toBe(true);
}, 300_000);
