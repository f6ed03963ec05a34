import type { IDataObject } from 'n8n-workflow';

import { asTenant, crmParent, freshTenant, FRESH_SELLER, recordCounts } from '../harness/crm';
import { byId, useWorld } from '../harness/world';

/**
 * How the polling triggers poll (shared/trigger/watch.ts), on the CRM Trigger's New Contact event (contacts are quick
 * to make in bulk through the control API): manual mode (and that Fetch Test Event of every event only reads), errors
 * that must leave the stored position alone, two polls at once, a damaged or foreign state, bursts over several pages,
 * the room of `seen`, and n8n 2.x's poll budget. Each test works in a tenant of its own.
 */

const world = useWorld();

type Tenant = Awaited<ReturnType<typeof freshTenant>>;

const EVENT = { event: 'newContact' };
const LIST = '/crm';

beforeAll(async () => {
	await world().control('POST', '/__sandbox/clock/set', { now: '2027-03-01T06:00:00Z' });
});

/**
 * Contacts made at once, createdAt each `stepMs` after the previous one and ending now, after the clock moved on
 * by their span (so all of them are after any earlier activation); their IDs, oldest first.
 */
async function contacts(tenant: Tenant, count: number, prefix: string, stepMs = 10): Promise<string[]> {
	const span = Math.ceil((count * stepMs) / 1000) + 1;
	const now = Date.parse((await world().control('POST', '/__sandbox/clock/advance', { seconds: span }) as { now: string }).now);
	const rows = Array.from({ length: count }, (_, i) => ({ email: `${prefix}${i}@example.com`, createdAt: new Date(now - (count - 1 - i) * stepMs).toISOString() }));
	return ((await world().control('POST', '/__sandbox/crm-contacts', { companyId: tenant.companyId, contacts: rows })) as { ids: string[] }).ids;
}

async function activated(tenant: Tenant): Promise<IDataObject> {
	const first = await world().poll(EVENT, world().pat(tenant.token));
	expect(first.items).toBeNull();
	return first.staticData;
}

const ids = (items: IDataObject[] | null) => (items ?? []).map((item) => item.id);

describe('Polling trigger: manual mode', () => {
	test('Fetch Test Event returns the newest record and leaves the stored state as it was', async () => {
		const tenant = await freshTenant(world());
		const state = await activated(tenant);
		const [, newest] = await contacts(tenant, 2, 'manual');
		const manual = await world().poll(EVENT, world().pat(tenant.token), { state, mode: 'manual' });
		expect(ids(manual.items)).toEqual([newest]);
		expect(manual.staticData).toEqual(state);
	});

	test.each([
		['a listed event', { event: 'dealWon' }, 'Fetch Test Event: no won deal matches the event and filters yet. Make one (or loosen the filters) and fetch again.'],
		['a window event', { event: 'bookingCancelled' }, 'Fetch Test Event: no cancelled booking in the trigger\'s window matches the filters yet. Make one (or widen the window or loosen the filters) and fetch again.'],
	])('with nothing to show (%s) it returns nothing, as n8n\'s own polling triggers do, and logs what to do', async (_name, parameters, log) => {
		const tenant = await freshTenant(world());
		const manual = await world().poll(parameters, world().pat(tenant.token), { mode: 'manual' });
		expect(manual.error).toBeUndefined();
		expect(manual.items).toBeNull();
		expect(manual.logs).toEqual([{ level: 'info', message: log }]);
		expect(manual.staticData).toEqual({});
		// The editor's Fetch Test Event: a manual run that ends without an error and without the trigger's run data,
		// which n8n's editor (1.x and 2.x) shows as the notice "No Scheduling Platform CRM data found" instead of an error.
		const run = await world().fetchTestEvent(parameters, world().pat(tenant.token));
		expect(run.data.resultData.error).toBeUndefined();
		expect(run.data.resultData.runData).toEqual({});
	});
});

describe('Polling trigger: Fetch Test Event only reads', () => {
	const EVENTS = ['newBooking', 'bookingCancelled', 'bookingRescheduled', 'appointmentStartingSoon', 'appointmentEnded', 'newContact', 'newDeal', 'dealWon', 'dealLost', 'newConversation', 'newInboundMessage', 'signatureCompleted', 'invoicePaid', 'invoiceOverdue', 'offerAccepted'];

	/** A tenant with something for most events: bookings (one cancelled, one moved), a won deal, a conversation, invoices overdue and paid, an accepted offer. */
	async function eventfulTenant(): Promise<Tenant> {
		const tenant = await freshTenant(world());
		const call = (method: string, path: string, body?: unknown) => asTenant(world(), tenant, method, path, body);
		const [meetingType] = (await call('GET', '/v4/meeting-type')) as unknown as IDataObject[];
		const book = async (time: string) =>
			await call('POST', '/v4/booking', { meetingTypeId: meetingType.id, start: `2027-03-01T${time}:00Z`, hostIds: [tenant.userId], attendee: { email: `ann.${time.slice(0, 2)}@example.com`, firstname: 'Ann', lastname: 'Lee', receiveReminders: true, notes: {} } });
		const [, cancelled, moved] = [await book('09:00'), await book('10:00'), await book('11:00')];
		await call('POST', `/v4/appointment/${String(cancelled.appointmentId)}/cancel`, { reason: 'No longer needed' });
		await call('POST', `/v4/appointment/${String(moved.appointmentId)}/reschedule`, { start: '2027-03-01T14:00:00Z', ignoreAvailability: true });
		await call('PATCH', `/crm/deals/${await crmParent(world(), 'deal', 'Roof repair', tenant.companyId)}/won`, {});
		await world().control('POST', '/__sandbox/messenger/inbound', { phone: '+4915112345678', text: 'Hello', companyId: tenant.companyId });
		await call('PATCH', '/invoicing/settings', FRESH_SELLER);
		const contactId = ((await call('GET', '/crm?limit=1')).result as Array<{ item: IDataObject }>)[0].item.id;
		const document = async (type: string, dates: IDataObject = {}) => {
			const made = await call('POST', '/invoicing/documents', { type, contactId, lineItems: [{ description: 'Service', quantity: 1, unitPrice: 100, taxRate: 19 }], ...dates });
			await call('POST', `/invoicing/documents/${String(made.id)}/finalise`);
			return String(made.id);
		};
		await call('POST', `/invoicing/documents/${await document('invoice', { issueDate: '2027-02-01', dueDate: '2027-02-10' })}/send`, {});
		const paid = await document('invoice');
		await call('POST', `/invoicing/documents/${paid}/send`, {});
		await call('POST', `/invoicing/documents/${paid}/payments`, { amount: 119 });
		await call('POST', `/invoicing/documents/${await document('offer')}/convert`);
		await world().clearRequests();
		return tenant;
	}

	test('every event of every polling trigger, with Full Record: GET requests only, and the tenant\'s records are as they were', async () => {
		const tenant = await eventfulTenant();
		const before = await recordCounts(world(), tenant);
		const shown: string[] = [];
		for (const event of EVENTS) {
			const run = await world().fetchTestEvent({ event, minutesBefore: 240, options: { fullRecord: true } }, world().pat(tenant.token));
			expect({ event, error: run.data.resultData.error?.message }).toEqual({ event, error: undefined });
			if (run.data.resultData.runData['Scheduling Platform Trigger']?.[0]?.data?.main?.[0]?.length) shown.push(event);
		}
		expect(shown).toEqual(EVENTS.filter((event) => !['appointmentEnded', 'dealLost', 'signatureCompleted'].includes(event)));
		const methods = new Set((await world().requests()).map((request) => request.method));
		expect([...methods]).toEqual(['GET']);
		expect(await recordCounts(world(), tenant)).toEqual(before);
	});
});

describe('Polling trigger: errors leave the stored position alone', () => {
	const cases: Array<[string, IDataObject]> = [
		['a 500', { status: 500, body: { statusCode: 500, message: 'Internal server error', error: 'Internal Server Error' } }],
		['a 429 whose Retry-After is longer than the node waits', { status: 429, retryAfter: '120', body: { statusCode: 429, message: 'Too Many Requests', error: 'Too Many Requests' } }],
		['a dropped connection, three times (every try of the read)', { drop: true, times: 3 }],
	];

	test.each(cases)('%s: nothing is emitted, the state is unchanged, and the next poll delivers what this one missed', async (_name, fault) => {
		const tenant = await freshTenant(world());
		const state = await activated(tenant);
		const made = await contacts(tenant, 3, 'error');
		await world().control('POST', '/__sandbox/faults', { method: 'GET', path: LIST, ...fault });
		const failed = await world().poll(EVENT, world().pat(tenant.token), { state });
		expect(failed.error).toBeDefined();
		expect(failed.items).toBeNull();
		expect(failed.staticData).toEqual(state);
		const next = await world().poll(EVENT, world().pat(tenant.token), { state: failed.staticData });
		expect(ids(next.items)).toEqual(made);
	});

	test('an error on the second page of a burst: nothing of the first page is emitted either', async () => {
		const tenant = await freshTenant(world());
		const state = await activated(tenant);
		const made = await contacts(tenant, 130, 'mid');
		await world().control('POST', '/__sandbox/faults', { method: 'GET', path: LIST, after: 1, status: 500, body: { statusCode: 500, message: 'Internal server error', error: 'Internal Server Error' } });
		const failed = await world().poll(EVENT, world().pat(tenant.token), { state });
		expect(failed.error?.message).toContain('(HTTP 500)');
		expect(failed.staticData).toEqual(state);
		const next = await world().poll(EVENT, world().pat(tenant.token), { state });
		expect(ids(next.items)).toEqual(made);
	});
});

describe('Polling trigger: two polls of one trigger at once', () => {
	test('the second reads nothing and changes nothing while the first runs (same state, both would emit); the next poll reads on from the first', async () => {
		const tenant = await freshTenant(world());
		const state = await activated(tenant);
		const made = await contacts(tenant, 3, 'overlap');
		// The first poll's list answer is held, so the second starts while the first runs.
		await world().control('POST', '/__sandbox/faults', { method: 'GET', path: LIST, delayMs: 500 });
		const before = (await world().requests()).length;
		const [first, second] = await Promise.all([
			world().poll(EVENT, world().pat(tenant.token), { state }),
			world().poll(EVENT, world().pat(tenant.token), { state }),
		]);
		const [emitted, skipped] = first.items ? [first, second] : [second, first];
		expect(ids(emitted.items)).toEqual(made);
		expect(skipped.items).toBeNull();
		expect(skipped.error).toBeUndefined();
		expect(skipped.staticData).toEqual(state);
		expect(skipped.logs).toEqual([{ level: 'info', message: expect.stringContaining('Another poll of this trigger') }]);
		expect((await world().requests()).slice(before).filter((request) => request.path === LIST)).toHaveLength(1);
		const next = await world().poll(EVENT, world().pat(tenant.token), { state: emitted.staticData });
		expect(next.items).toBeNull();
	});

	test('once the first has finished, or failed, the next poll runs', async () => {
		const tenant = await freshTenant(world());
		const state = await activated(tenant);
		await world().control('POST', '/__sandbox/faults', { method: 'GET', path: LIST, status: 500 });
		const failed = await world().poll(EVENT, world().pat(tenant.token), { state });
		expect(failed.error).toBeDefined();
		const made = await contacts(tenant, 2, 'after');
		expect(ids((await world().poll(EVENT, world().pat(tenant.token), { state })).items)).toEqual(made);
	});
});

describe('Polling trigger: stored state', () => {
	test('a damaged state starts again from now, emits nothing, and says so in the log', async () => {
		const tenant = await freshTenant(world());
		await contacts(tenant, 2, 'damaged');
		const outcome = await world().poll(EVENT, world().pat(tenant.token), { state: { state: { v: 1, since: 'yesterday', seen: '' } } });
		expect(outcome.items).toBeNull();
		expect(outcome.logs).toEqual([expect.objectContaining({ level: 'warn', message: expect.stringContaining('stored position could not be read') })]);
		expect((outcome.staticData.state as IDataObject).v).toBe(1);
	});

	test('a state of another event or other filters starts again from now (logged), so changing a filter never floods the workflow', async () => {
		const tenant = await freshTenant(world());
		const state = await activated(tenant);
		await contacts(tenant, 2, 'filters');
		const outcome = await world().poll({ event: 'newDeal' }, world().pat(tenant.token), { state });
		expect(outcome.items).toBeNull();
		expect(outcome.logs).toEqual([expect.objectContaining({ level: 'info', message: expect.stringContaining('event or filters changed') })]);
	});
});

describe('Polling trigger: bursts', () => {
	test('250 new contacts: read over three pages, emitted oldest first up to the room of 150, the rest after the lookback window', async () => {
		const tenant = await freshTenant(world());
		const state = await activated(tenant);
		const made = await contacts(tenant, 250, 'burst');
		await world().clearRequests();
		const first = await world().poll(EVENT, world().pat(tenant.token), { state });
		const pages = (await world().requests()).map((request) => request.query);
		expect(pages).toEqual([1, 2, 3].map((page) => `sortBy=createdAt&sortOrder=DESC&page=${page}&limit=100`));
		expect(ids(first.items)).toEqual(made.slice(0, 150));
		expect(JSON.stringify(first.staticData).length).toBeLessThan(2048);
		const soon = await world().poll(EVENT, world().pat(tenant.token), { state: first.staticData });
		expect(soon.items).toBeNull();
		await world().control('POST', '/__sandbox/clock/advance', { seconds: 61 });
		const later = await world().poll(EVENT, world().pat(tenant.token), { state: soon.staticData });
		expect(ids(later.items)).toEqual(made.slice(150));
	});

	test('a poll budget too short for the backlog: nothing is emitted, the next poll starts at the next unread page, nothing is lost', async () => {
		const tenant = await freshTenant(world());
		let state = await activated(tenant);
		const made = await contacts(tenant, 250, 'budget', 1000);
		await world().control('POST', '/__sandbox/clock/advance', { seconds: 120 });
		const cut = await world().poll(EVENT, world().pat(tenant.token), { state, budgetMs: 1 });
		expect(cut.items).toBeNull();
		expect((cut.staticData.state as IDataObject).page).toBe(1);
		expect(cut.logs).toEqual([expect.objectContaining({ level: 'info', message: expect.stringContaining('reads on at the next poll') })]);
		state = cut.staticData;
		const emitted: unknown[] = [];
		for (let poll = 0; poll < 10 && emitted.length < made.length; poll++) {
			await world().control('POST', '/__sandbox/clock/advance', { seconds: 61 });
			const next = await world().poll(EVENT, world().pat(tenant.token), { state });
			emitted.push(...ids(next.items));
			state = next.staticData;
		}
		expect(emitted).toEqual(made);
	});

	test('180 contacts of one same millisecond: 150 at once, the other 30 when the moment is older than the lookback window, each once', async () => {
		const tenant = await freshTenant(world());
		const state = await activated(tenant);
		const made = await contacts(tenant, 180, 'moment', 0);
		const first = await world().poll(EVENT, world().pat(tenant.token), { state });
		expect(first.items).toHaveLength(150);
		await world().control('POST', '/__sandbox/clock/advance', { seconds: 61 });
		const later = await world().poll(EVENT, world().pat(tenant.token), { state: first.staticData });
		expect([...ids(first.items), ...ids(later.items)].sort()).toEqual([...made].sort());
		const again = await world().poll(EVENT, world().pat(tenant.token), { state: later.staticData });
		expect(again.items).toBeNull();
	});
});

describe('Polling trigger: filters', () => {
	test('a Host that is not a user ID (here from an expression) is refused before anything is sent, naming the field', async () => {
		const tenant = await freshTenant(world());
		await world().clearRequests();
		const outcome = await world().poll({ event: 'newBooking', bookingFilters: { host: byId('={{ "ada" }}') } }, world().pat(tenant.token));
		expect(outcome.error?.message).toBe('User ID must be in UUID form, such as 6f1c2a7e-1b2c-4d5e-8f90-123456789abc; "ada" is not');
		expect(outcome.error?.description).toBe('Nothing was read: fix the value of "Host" in the trigger\'s Filters.');
		expect(await world().requests()).toEqual([]);
		expect(outcome.staticData).toEqual({});
	});
});
