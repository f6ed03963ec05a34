import type { IDataObject } from 'n8n-workflow';

import type { World } from './world';

/** Set-up helpers: parent records, an empty tenant, requests as its owner and its invoicing seller settings. */

/** A contact (`name` is its email), deal or CRM company of a tenant (the seed's Acme by default); its ID. */
export async function crmParent(world: World, kind: 'contact' | 'deal' | 'company', name: string, companyId = world.seed.companies.acme.id): Promise<string> {
	const created = (await world.control('POST', '/__sandbox/crm-parents', { companyId, kind, name })) as { id: string };
	return created.id;
}

/** A new tenant with one user (its owner), for lists that must hold only what the test made: the user's PAT and the IDs. */
export async function freshTenant(world: World): Promise<{ token: string; userId: string; companyId: string }> {
	const company = (await world.control('POST', '/__sandbox/companies', { name: 'Fresh Ltd.' })) as { id: string };
	const user = (await world.control('POST', '/__sandbox/users', { companyId: company.id, email: 'fay@fresh.example', givenName: 'Fay', familyName: 'Fresh' })) as { id: string };
	return { token: (await world.mintPat(user.id)).token, userId: user.id, companyId: company.id };
}

/** A request as a tenant's owner (its PAT): the answer's body, or an error naming the request when it failed. */
export async function asTenant(world: World, tenant: { token: string }, method: string, path: string, body?: unknown): Promise<IDataObject> {
	return await world.call(method, path, tenant.token, body, { keepLog: true });
}

/** Complete invoicing seller settings for a fresh tenant (finalising needs them). */
export const FRESH_SELLER = { companyName: 'Fresh Ltd.', addressLine1: 'Main Street 1', zip: '10115', city: 'Berlin', country: 'DE', vatId: 'DE999999999', iban: 'DE02120300000000202051' };

type Parent = Partial<Record<'contactId' | 'dealId' | 'crmCompanyId', string>>;

/** Creates through the API with the owner's PAT and returns the answer; the request log is cleared after. */
async function made(world: World, method: string, path: string, body: unknown): Promise<{ id: string }> {
	return (await world.call(method, path, world.seed.credentials.ownerPat, body)) as unknown as { id: string };
}

/** A note on one parent (pinned when asked); its ID. */
export async function addNote(world: World, parent: Parent, content: string, isPinned = false): Promise<string> {
	const { id } = await made(world, 'POST', '/crm/notes', { content, ...parent });
	if (isPinned) await made(world, 'PATCH', `/crm/notes/${id}`, { isPinned });
	return id;
}

/** A call logged on one parent at `occurredAt`; its ID. */
export async function logCall(world: World, parent: Parent, occurredAt: string, body: string): Promise<string> {
	return (await made(world, 'POST', '/crm/communications', { type: 'call', direction: 'outbound', body, occurredAt, ...parent })).id;
}

/** A To Do task on one parent, due at `dueDate` (type and due date are required); its ID. */
export async function addTask(world: World, parent: Parent, title: string, dueDate = '2027-03-31T12:00:00Z'): Promise<string> {
	return (await made(world, 'POST', '/crm/tasks', { title, type: 'todo', dueDate, ...parent })).id;
}

/** Lists whose size says what a tenant has (api-reference paths), and where each answer gives it. */
const COUNTED: Record<string, [string, (body: IDataObject) => number]> = {
	appointments: ['/v4/appointment/paginated?page=0&pageSize=1', (body) => Number(body.total)],
	provisionalBookings: ['/v4/provisional-booking/paginated?page=0&pageSize=1', (body) => Number(body.total)],
	pendingAttendees: ['/v4/attendee/pending', (body) => (body as unknown as unknown[]).length],
	meetingTypes: ['/v4/meeting-type', (body) => (body as unknown as unknown[]).length],
	users: ['/v4/user?limit=1', (body) => Number(body.total)],
	contacts: ['/crm?limit=1', (body) => Number(body.total)],
	companies: ['/crm/companies?limit=1', (body) => Number(body.total)],
	deals: ['/crm/deals?limit=1', (body) => Number(body.total)],
	tasks: ['/crm/tasks?limit=1', (body) => Number(body.total)],
	conversations: ['/v4/messenger/conversations?limit=1', (body) => Number(body.total)],
	signatures: ['/v4/signatures?limit=1', (body) => Number(body.total)],
	documents: ['/invoicing/documents?limit=1', (body) => Number(body.total)],
	webhooks: ['/webhooks', (body) => (body as unknown as unknown[]).length],
};

/** How many records of each kind a tenant has, read through the API as its owner; the request log is cleared after. */
export async function recordCounts(world: World, tenant: { token: string }): Promise<Record<string, number>> {
	const counts: Record<string, number> = {};
	for (const [kind, [path, count]] of Object.entries(COUNTED)) counts[kind] = count(await asTenant(world, tenant, 'GET', path));
	await world.clearRequests();
	return counts;
}
