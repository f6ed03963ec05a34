import type { IDataObject } from 'n8n-workflow';

import { shortHash, hashKey } from '../../package/nodes/shared/trigger/watermark';
import { asTenant, crmParent, freshTenant, FRESH_SELLER } from '../harness/crm';
import type { CredentialRef, LoggedRequest } from '../harness/world';
import { useWorld } from '../harness/world';

/**
 * The change events lose nothing (issue 33): Booking Cancelled / Rescheduled, Deal Won / Lost, Invoice Paid / Overdue
 * and Offer Accepted, through n8n-core's poll context against the sandbox, in the cases where they lost events:
 * - a poll cut short by n8n 2.x's poll budget: what lay on the pages it did not read, and changed before it, fires at
 *   the next whole poll (appointments booked and cancelled or moved; an invoice overdue again, an invoice paid, an
 *   offer accepted, each on the second page of its list);
 * - more than 150 deals won within a minute: every one comes out at once, so one reopened and won again (or only
 *   reopened) before the next poll keeps its first win;
 * - a record that slips to a page already read while the poll reads the next one (others moved out of the list between
 *   the two requests): it fires at that poll, so a later change of it does not replace its first;
 * - Invoice Paid: each new paidAt of a paid invoice is one event, whether or not a poll saw the invoice unpaid;
 * - the state the earlier release stored (the same shapes; Invoice Paid's snapshot kept by invoice ID) is read on: no
 *   event lost, none repeated;
 * - what an idle poll costs (requests, stored bytes) with large windows and lists, as docs/triggers.md states it.
 * Each test has its own tenant; the sandbox clock stays at real time (set back before each test) where the windows
 * are built on this machine's clock.
 */

const world = useWorld();

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const APPOINTMENTS = '/v4/appointment/paginated';
const DOCUMENTS = '/invoicing/documents';
const CANCELLED = { event: 'bookingCancelled' };
const RESCHEDULED = { event: 'bookingRescheduled' };
const OVERDUE = { event: 'invoiceOverdue' };
const PAID = { event: 'invoicePaid' };
const ACCEPTED = { event: 'offerAccepted' };
const WON = { event: 'dealWon' };
/** One seeded appointment every 8 minutes from a whole minute a day ahead. */
const SPACING = 8 * MINUTE;
/** An invoice issued on 1 February and due on 15 February: overdue as soon as it is sent (the clock is later). */
const PAST_DUE = { issueDate: '2027-02-01', dueDate: '2027-02-15' };

type Tenant = Awaited<ReturnType<typeof freshTenant>>;

const iso = (ms: number) => new Date(ms).toISOString();
const ids = (items: IDataObject[] | null) => (items ?? []).map((item) => String(item.id));
const call = (tenant: Tenant, method: string, path: string, body?: unknown) => asTenant(world(), tenant, method, path, body);

beforeAll(async () => {
	await world().control('POST', '/__sandbox/rate-limit', { perMinute: 1_000_000, burst: 1_000_000 });
});

beforeEach(async () => {
	await world().control('DELETE', '/__sandbox/faults');
	await world().control('POST', '/__sandbox/clock/set', { now: new Date().toISOString() });
});

/** The tenant's PAT with the sandbox's raised limit as its Requests per Minute and Burst. */
function credentialOf(tenant: Tenant): CredentialRef {
	const base = world().pat(tenant.token);
	return { ...base, data: { ...base.data, requestsPerMinute: 1_000_000, burst: 1_000_000 } };
}

async function advance(seconds: number): Promise<number> {
	return Date.parse(((await world().control('POST', '/__sandbox/clock/advance', { seconds })) as { now: string }).now);
}

/** The requests since the last call. */
async function sent(): Promise<LoggedRequest[]> {
	const requests = await world().requests();
	await world().clearRequests();
	return requests;
}

/** Runs `work` over the items, `size` at a time. */
async function inBatches<T, R>(items: T[], size: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
	const results: R[] = [];
	for (let i = 0; i < items.length; i += size) results.push(...(await Promise.all(items.slice(i, i + size).map(async (item, j) => await work(item, i + j)))));
	return results;
}

/** Polls from `state`, expecting no error; the outcome. */
async function poll(parameters: IDataObject, credential: CredentialRef, state: IDataObject, options: { budgetMs?: number } = {}) {
	const outcome = await world().poll(parameters, credential, { state, ...options });
	expect(outcome.error).toBeUndefined();
	return outcome;
}

/**
 * Starts a poll whose second request of `path` is held (a delay fault) while `change` runs, once the poll has sent
 * both; the poll's outcome.
 */
async function whilePaging(parameters: IDataObject, credential: CredentialRef, state: IDataObject, path: string, change: () => Promise<void>) {
	await world().control('POST', '/__sandbox/faults', { method: 'GET', path, delayMs: 400, after: 1 });
	await world().clearRequests();
	const polling = world().poll(parameters, credential, { state });
	for (let waited = 0; waited < 5000; waited += 10) {
		if ((await world().requests()).filter((request) => request.path === path).length >= 2) break;
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
	await change();
	const outcome = await polling;
	await world().control('DELETE', '/__sandbox/faults');
	expect(outcome.error).toBeUndefined();
	return outcome;
}

describe('Booking Cancelled and Booking Rescheduled', () => {
	/** A tenant and its meeting type, for appointments seeded in bulk. */
	async function bookingTenant(): Promise<Tenant & { meetingTypeId: string }> {
		const tenant = await freshTenant(world());
		const [meetingType] = (await call(tenant, 'GET', '/v4/meeting-type')) as unknown as IDataObject[];
		return { ...tenant, meetingTypeId: String(meetingType.id) };
	}

	/** Appointments of the tenant at these starts (booked now); their ids. */
	async function seed(tenant: Awaited<ReturnType<typeof bookingTenant>>, starts: number[]): Promise<string[]> {
		return ((await world().control('POST', '/__sandbox/appointments', { meetingTypeId: tenant.meetingTypeId, starts: starts.map(iso) })) as { ids: string[] }).ids;
	}

	async function windowBase(): Promise<number> {
		const now = Date.parse(((await world().control('POST', '/__sandbox/clock/advance', { seconds: 0 })) as { now: string }).now);
		return Math.ceil((now + DAY) / MINUTE) * MINUTE;
	}

	const cancel = (tenant: Tenant, id: string) => call(tenant, 'POST', `/v4/appointment/${id}/cancel`, { reason: 'No longer needed' });
	const reschedule = (tenant: Tenant, id: string, startMs: number) => call(tenant, 'POST', `/v4/appointment/${id}/reschedule`, { start: iso(startMs), ignoreAvailability: true });

	test('a poll cut short by its time budget: an appointment on a page it did not read, booked and cancelled (or moved) two minutes before it, fires at the next whole poll, once', async () => {
		const tenant = await bookingTenant();
		const credential = credentialOf(tenant);
		const base = await windowBase();
		await seed(tenant, Array.from({ length: 250 }, (_, i) => base + i * SPACING));
		const cancelled = await poll(CANCELLED, credential, {});
		const moved = await poll(RESCHEDULED, credential, {});
		expect([cancelled.items, moved.items]).toEqual([null, null]);

		// Booked after the activation, starting late in the window (the third page), then cancelled or moved.
		const [late, later] = await seed(tenant, [base + 240 * SPACING + 2 * MINUTE, base + 241 * SPACING + 2 * MINUTE]);
		await cancel(tenant, late);
		const to = base + 245 * SPACING + 4 * MINUTE;
		await reschedule(tenant, later, to);
		await advance(120);
		await world().clearRequests();
		const cutCancelled = await poll(CANCELLED, credential, cancelled.staticData, { budgetMs: 1 });
		const cutMoved = await poll(RESCHEDULED, credential, moved.staticData, { budgetMs: 1 });
		expect([cutCancelled.items, cutMoved.items]).toEqual([null, null]);
		expect(cutCancelled.logs.map((log) => log.message)).toEqual([expect.stringContaining('The poll\'s time ran out after 1 page of the Watched Window')]);
		expect((await sent()).map((request) => new URLSearchParams(request.query).get('page'))).toEqual(['0', '0']);

		await advance(120);
		const wholeCancelled = await poll(CANCELLED, credential, cutCancelled.staticData);
		const wholeMoved = await poll(RESCHEDULED, credential, cutMoved.staticData);
		expect(ids(wholeCancelled.items)).toEqual([late]);
		expect(ids(wholeMoved.items)).toEqual([later]);
		expect(wholeMoved.items![0]).toMatchObject({ start: iso(to), rescheduleCount: 1 });
		expect((await poll(CANCELLED, credential, wholeCancelled.staticData)).items).toBeNull();
		expect((await poll(RESCHEDULED, credential, wholeMoved.staticData)).items).toBeNull();
	});

	test('an appointment that slips to the page read already while the poll reads the next (three before it moved out of the window meanwhile) fires at that poll; moved again, it fires again', async () => {
		const tenant = await bookingTenant();
		const credential = credentialOf(tenant);
		const base = await windowBase();
		const made = await seed(tenant, Array.from({ length: 150 }, (_, i) => base + i * SPACING));
		const first = await poll(RESCHEDULED, credential, {});
		expect(first.items).toBeNull();

		// The first appointment of the second page moves by two minutes (it stays there): a move before the poll.
		await reschedule(tenant, made[100], base + 100 * SPACING + 2 * MINUTE);
		const during = await whilePaging(RESCHEDULED, credential, first.staticData, APPOINTMENTS, async () => {
			for (const id of made.slice(0, 3)) await reschedule(tenant, id, base + 200 * DAY);
		});
		expect(ids(during.items)).toEqual([made[100]]);
		expect(during.items![0]).toMatchObject({ rescheduleCount: 1, start: iso(base + 100 * SPACING + 2 * MINUTE) });

		// Moved once more before the next poll: a second event, with the new time.
		await reschedule(tenant, made[100], base + 100 * SPACING + 3 * MINUTE);
		const next = await poll(RESCHEDULED, credential, during.staticData);
		expect(ids(next.items)).toEqual([made[100]]);
		expect(next.items![0]).toMatchObject({ rescheduleCount: 2 });
		expect((await poll(RESCHEDULED, credential, next.staticData)).items).toBeNull();
	});
});

describe('Invoice Paid, Invoice Overdue and Offer Accepted', () => {
	// Overdue is the sandbox's day against a due date: the clock starts each test on Monday 2027-03-01 06:00 UTC.
	beforeEach(async () => {
		await world().control('POST', '/__sandbox/clock/set', { now: '2027-03-01T06:00:00.000Z' });
	});

	async function invoicingTenant(): Promise<Tenant & { contactId: string }> {
		const tenant = await freshTenant(world());
		const contactId = await crmParent(world(), 'contact', 'payer@example.com', tenant.companyId);
		const made = { ...tenant, contactId };
		await call(made, 'PATCH', '/invoicing/settings', FRESH_SELLER);
		return made;
	}

	/** A finalised document of 100 net (119 gross), sent when asked. */
	async function document(tenant: Tenant & { contactId: string }, type: 'invoice' | 'offer', dates: IDataObject, send: boolean): Promise<IDataObject> {
		const created = await call(tenant, 'POST', DOCUMENTS, { type, contactId: tenant.contactId, ...dates, lineItems: [{ description: 'Work', quantity: 1, unitPrice: 100 }] });
		await call(tenant, 'POST', `${DOCUMENTS}/${String(created.id)}/finalise`);
		if (send) await call(tenant, 'POST', `${DOCUMENTS}/${String(created.id)}/send`, {});
		return created;
	}

	const pay = (tenant: Tenant, record: IDataObject, body: IDataObject) => call(tenant, 'POST', `${DOCUMENTS}/${String(record.id)}/payments`, body);
	const unpay = (tenant: Tenant, record: IDataObject, payment: IDataObject) => call(tenant, 'DELETE', `${DOCUMENTS}/${String(record.id)}/payments/${String(payment.id)}`);

	test('a poll cut short by its time budget: an invoice overdue again, an invoice paid and an offer accepted two minutes before it, each on the second page of its list, fire at the next whole poll, once', async () => {
		const tenant = await invoicingTenant();
		const credential = credentialOf(tenant);
		// The oldest documents (the lists are newest created first): they come on the second page.
		const lateOverdue = await document(tenant, 'invoice', PAST_DUE, true);
		const payment = await pay(tenant, lateOverdue, { amount: 119 });
		const latePaid = await document(tenant, 'invoice', { paymentTermsDays: 14 }, true);
		const lateOffer = await document(tenant, 'offer', { paymentTermsDays: 30 }, true);
		await inBatches(Array.from({ length: 110 }), 25, async () => await document(tenant, 'invoice', PAST_DUE, true));
		await inBatches(Array.from({ length: 110 }), 25, async () => await pay(tenant, await document(tenant, 'invoice', { paymentTermsDays: 14 }, true), { amount: 119 }));
		await inBatches(Array.from({ length: 110 }), 25, async () => await call(tenant, 'POST', `${DOCUMENTS}/${String((await document(tenant, 'offer', { paymentTermsDays: 30 }, true)).id)}/convert`));
		const events: IDataObject[] = [OVERDUE, PAID, ACCEPTED];
		const states: IDataObject[] = [];
		for (const event of events) {
			const first = await poll(event, credential, {});
			expect(first.items).toBeNull();
			states.push(first.staticData);
		}

		await advance(3600);
		await unpay(tenant, lateOverdue, payment);
		await pay(tenant, latePaid, { amount: 119 });
		await call(tenant, 'POST', `${DOCUMENTS}/${String(lateOffer.id)}/convert`);
		await advance(120);
		for (const [index, event] of events.entries()) {
			const cut = await poll(event, credential, states[index], { budgetMs: 1 });
			expect({ event, items: cut.items, logs: cut.logs.map((log) => log.message) }).toEqual({ event, items: null, logs: [expect.stringContaining('The poll\'s time ran out after 1 page')] });
			states[index] = cut.staticData;
		}
		await advance(120);
		const late = [lateOverdue, latePaid, lateOffer].map((record) => String(record.id));
		for (const [index, event] of events.entries()) {
			const whole = await poll(event, credential, states[index]);
			expect({ event, fired: ids(whole.items) }).toEqual({ event, fired: [late[index]] });
			expect((await poll(event, credential, whole.staticData)).items).toBeNull();
		}
	});

	test('Invoice Overdue: an invoice overdue again before a poll that slips to the first page while the poll reads the second (three invoices there paid meanwhile) fires at that poll; paid before the next, it has fired once', async () => {
		const tenant = await invoicingTenant();
		const credential = credentialOf(tenant);
		await inBatches(Array.from({ length: 50 }), 25, async () => await document(tenant, 'invoice', PAST_DUE, true));
		const slipping = await document(tenant, 'invoice', PAST_DUE, true);
		const payment = await pay(tenant, slipping, { amount: 119 });
		const newer: IDataObject[] = [];
		newer.push(...(await inBatches(Array.from({ length: 100 }), 25, async () => await document(tenant, 'invoice', PAST_DUE, true))));
		const first = await poll(OVERDUE, credential, {});
		expect(first.items).toBeNull();

		// Overdue again: 101st in the list, the first of the second page.
		await unpay(tenant, slipping, payment);
		const during = await whilePaging(OVERDUE, credential, first.staticData, DOCUMENTS, async () => {
			for (const record of newer.slice(0, 3)) await pay(tenant, record, { amount: 119 });
		});
		expect(ids(during.items)).toEqual([String(slipping.id)]);
		await pay(tenant, slipping, { amount: 119 });
		expect((await poll(OVERDUE, credential, during.staticData)).items).toBeNull();
	});

	test('Invoice Paid: a payment deleted and recorded anew between two polls with another date fires again; recorded anew with the same date it does not, even when a poll saw the invoice unpaid', async () => {
		const tenant = await invoicingTenant();
		const credential = credentialOf(tenant);
		const invoice = await document(tenant, 'invoice', { paymentTermsDays: 14 }, true);
		const other = await document(tenant, 'invoice', { paymentTermsDays: 14 }, true);
		const first = await poll(PAID, credential, {});
		const payment = await pay(tenant, invoice, { amount: 119, paidAt: '2027-02-26T10:00:00.000Z' });
		const otherPayment = await pay(tenant, other, { amount: 119, paidAt: '2027-02-27T10:00:00.000Z' });
		const paid = await poll(PAID, credential, first.staticData);
		expect(ids(paid.items).sort()).toEqual([String(invoice.id), String(other.id)].sort());

		// Between two polls: deleted and recorded anew, dated a day later.
		await unpay(tenant, invoice, payment);
		await pay(tenant, invoice, { amount: 119, paidAt: '2027-02-27T09:00:00.000Z' });
		const again = await poll(PAID, credential, paid.staticData);
		expect(ids(again.items)).toEqual([String(invoice.id)]);
		expect(again.items![0]).toMatchObject({ paidAt: '2027-02-27T09:00:00.000Z' });

		// A poll sees the other unpaid, then the same payment date is recorded again: not a new payment in full.
		await unpay(tenant, other, otherPayment);
		const unpaid = await poll(PAID, credential, again.staticData);
		expect(unpaid.items).toBeNull();
		await pay(tenant, other, { amount: 119, paidAt: '2027-02-27T10:00:00.000Z' });
		const same = await poll(PAID, credential, unpaid.staticData);
		expect(same.items).toBeNull();
		expect((await poll(PAID, credential, same.staticData)).items).toBeNull();
	});
});

describe('Deal Won', () => {
	test('160 deals won within a minute: all 160 come out at the next poll; the newest, reopened and won again before the following poll, fires again, and one only reopened has fired', async () => {
		const tenant = await freshTenant(world());
		const credential = credentialOf(tenant);
		const parent = await call(tenant, 'GET', `/crm/deals/${await crmParent(world(), 'deal', 'Seed deal', tenant.companyId)}`);
		const deals = await inBatches(Array.from({ length: 160 }), 20, async (_, i) => String((await call(tenant, 'POST', '/crm/deals', { name: `Deal ${i}`, pipelineId: parent.pipelineId, stageId: parent.stageId })).id));
		const first = await poll(WON, credential, {});
		expect(first.items).toBeNull();
		await advance(1);
		// Won one after another: the last ones are the newest.
		const wins: string[] = [];
		for (const id of deals) wins.push(`${id}:${String((await call(tenant, 'PATCH', `/crm/deals/${id}/won`, {})).wonAt)}`);
		const keys = (items: IDataObject[] | null) => (items ?? []).map((item) => `${String(item.id)}:${String(item.wonAt)}`);

		const burst = await poll(WON, credential, first.staticData);
		await advance(1);
		const [newest, secondNewest] = [deals[159], deals[158]];
		await call(tenant, 'PATCH', `/crm/deals/${newest}/reopen`, {});
		const rewon = `${newest}:${String((await call(tenant, 'PATCH', `/crm/deals/${newest}/won`, {})).wonAt)}`;
		await call(tenant, 'PATCH', `/crm/deals/${secondNewest}/reopen`, {});
		const emitted = [...keys(burst.items)];
		let state = burst.staticData;
		for (let i = 0; i < 3; i++) {
			const next = await poll(WON, credential, state);
			emitted.push(...keys(next.items));
			state = next.staticData;
			await advance(61);
		}
		expect(emitted.sort()).toEqual([...wins, rewon].sort());
		expect(keys(burst.items).sort()).toEqual([...wins].sort());
	});
});

describe('State stored by the earlier release (the same shapes; Invoice Paid\'s snapshot by invoice ID)', () => {
	test('Booking Cancelled, Booking Rescheduled, Invoice Paid and Deal Won poll on from it: what changed after it fires once, nothing before it, nothing twice', async () => {
		const tenant = await freshTenant(world());
		const credential = credentialOf(tenant);
		const [meetingType] = (await call(tenant, 'GET', '/v4/meeting-type')) as unknown as IDataObject[];
		const now = Date.parse(((await world().control('POST', '/__sandbox/clock/advance', { seconds: 0 })) as { now: string }).now);
		const base = Math.ceil((now + DAY) / MINUTE) * MINUTE;
		const made = ((await world().control('POST', '/__sandbox/appointments', { meetingTypeId: meetingType.id, starts: [0, 1, 2, 3].map((i) => iso(base + i * SPACING)) })) as { ids: string[] }).ids;
		await call(tenant, 'POST', `/v4/appointment/${made[0]}/cancel`, { reason: 'Before' });
		const listed = ((await call(tenant, 'GET', `${APPOINTMENTS}?page=0&pageSize=100`)) as unknown as { appointments: IDataObject[] }).appointments;
		// As the earlier release wrote them: 8 characters of id hash, the print, the missing flag.
		const at = iso(now);
		const window = { pastDays: 1, aheadDays: 90 };
		const cancelledState = { state: { v: 1, watch: JSON.stringify(['bookingCancelled', {}, window]), at, snap: listed.map((a) => `${shortHash(String(a.id), 8)}${a.isCancelled ? 'C' : 'O'}0`).join('') } };
		const print = (a: IDataObject) => shortHash(`${String(a.start)}|${String(a.rescheduleCount ?? 0)}`, 4);
		const movedState = { state: { v: 1, watch: JSON.stringify(['bookingRescheduled', {}, window]), at, snap: listed.map((a) => `${shortHash(String(a.id), 8)}${print(a)}0`).join(''), over: true } };

		await advance(5);
		await call(tenant, 'POST', `/v4/appointment/${made[1]}/cancel`, { reason: 'After' });
		await call(tenant, 'POST', `/v4/appointment/${made[2]}/reschedule`, { start: iso(base + 10 * SPACING), ignoreAvailability: true });
		const cancelled = await poll(CANCELLED, credential, cancelledState);
		expect(ids(cancelled.items)).toEqual([made[1]]);
		const moved = await poll(RESCHEDULED, credential, movedState);
		expect(ids(moved.items)).toEqual([made[2]]);
		await advance(61);
		expect((await poll(CANCELLED, credential, cancelled.staticData)).items).toBeNull();
		expect((await poll(RESCHEDULED, credential, moved.staticData)).items).toBeNull();

		// Invoice Paid: the earlier release remembered the paid invoices by ID (9 characters each, no paidAt).
		const contactId = await crmParent(world(), 'contact', 'payer@example.com', tenant.companyId);
		await call(tenant, 'PATCH', '/invoicing/settings', FRESH_SELLER);
		const invoice = async () => {
			const created = await call(tenant, 'POST', DOCUMENTS, { type: 'invoice', contactId, paymentTermsDays: 14, lineItems: [{ description: 'Work', quantity: 1, unitPrice: 100 }] });
			await call(tenant, 'POST', `${DOCUMENTS}/${String(created.id)}/finalise`);
			return created;
		};
		const old = await invoice();
		const oldPayment = await call(tenant, 'POST', `${DOCUMENTS}/${String(old.id)}/payments`, { amount: 119, paidAt: '2027-01-10T10:00:00.000Z' });
		const fresh = await invoice();
		const paidAt = await advance(5);
		const paidState = { state: { v: 1, watch: JSON.stringify(['invoicePaid', {}]), at: iso(paidAt), snap: `${shortHash(String(old.id), 8)}0` } };
		await advance(5);
		await call(tenant, 'POST', `${DOCUMENTS}/${String(fresh.id)}/payments`, { amount: 119 });
		const paid = await poll(PAID, credential, paidState);
		expect(ids(paid.items)).toEqual([String(fresh.id)]);
		expect(paid.staticData.state).toMatchObject({ keys: 'paidAt' });
		expect(String((paid.staticData.state as IDataObject).snap)).toHaveLength(18);
		expect((await poll(PAID, credential, paid.staticData)).items).toBeNull();
		// From now on each new paidAt is an event: the old invoice's payment recorded anew, dated otherwise.
		await call(tenant, 'DELETE', `${DOCUMENTS}/${String(old.id)}/payments/${String(oldPayment.id)}`);
		await call(tenant, 'POST', `${DOCUMENTS}/${String(old.id)}/payments`, { amount: 119, paidAt: '2027-01-11T10:00:00.000Z' });
		const repaid = await poll(PAID, credential, paid.staticData);
		expect(ids(repaid.items)).toEqual([String(old.id)]);
		expect((await poll(PAID, credential, repaid.staticData)).items).toBeNull();

		// Deal Won: a watermark and the keys emitted after it.
		const parent = await call(tenant, 'GET', `/crm/deals/${await crmParent(world(), 'deal', 'Seed deal', tenant.companyId)}`);
		const deal = async (name: string) => String((await call(tenant, 'POST', '/crm/deals', { name, pipelineId: parent.pipelineId, stageId: parent.stageId })).id);
		const [before, emitted, waiting] = [await deal('Before'), await deal('Emitted'), await deal('Waiting')];
		await call(tenant, 'PATCH', `/crm/deals/${before}/won`, {});
		const since = iso(await advance(5));
		await advance(1);
		const wonEmitted = await call(tenant, 'PATCH', `/crm/deals/${emitted}/won`, {});
		await call(tenant, 'PATCH', `/crm/deals/${waiting}/won`, {});
		const dealState = { state: { v: 1, watch: JSON.stringify(['dealWon', {}]), since, seen: hashKey(`${emitted}:${String(wonEmitted.wonAt)}`) } };
		const won = await poll(WON, credential, dealState);
		expect(ids(won.items)).toEqual([waiting]);
		await advance(61);
		expect((await poll(WON, credential, won.staticData)).items).toBeNull();
	});
});

describe('What an idle poll costs', () => {
	/** Requests and stored bytes of an idle poll from `state` (a little later: nothing changed just before it). */
	async function idleCost(parameters: IDataObject, credential: CredentialRef, state: IDataObject): Promise<{ requests: number; bytes: number }> {
		await advance(5);
		const settled = await poll(parameters, credential, state);
		await world().clearRequests();
		const idle = await poll(parameters, credential, settled.staticData);
		expect(idle.items).toBeNull();
		return { requests: (await sent()).length, bytes: JSON.stringify(idle.staticData).length };
	}

	test('Booking Cancelled and Rescheduled with 1,000 appointments in the window: 10 requests, at most 12 and 16 bytes of state per appointment; Appointment Starting Soon and Ended with 1,000 in their ranges: 10 requests', async () => {
		const costs: Record<string, { requests: number; bytes: number }> = {};
		/** A tenant with 1,000 appointments at these starts, and the cost of an idle poll of each event on it. */
		const measure = async (starts: (now: number) => number[], events: string[]) => {
			const tenant = await freshTenant(world());
			const credential = credentialOf(tenant);
			const [meetingType] = (await call(tenant, 'GET', '/v4/meeting-type')) as unknown as IDataObject[];
			const now = Date.parse(((await world().control('POST', '/__sandbox/clock/advance', { seconds: 0 })) as { now: string }).now);
			await world().control('POST', '/__sandbox/appointments', { meetingTypeId: meetingType.id, starts: starts(now).map(iso) });
			for (const event of events) costs[event] = await idleCost({ event }, credential, (await poll({ event }, credential, {})).staticData);
		};
		// From a day ahead, one every 8 minutes; starting within the next 15 minutes; started within the last 8 hours.
		await measure((now) => Array.from({ length: 1000 }, (_, i) => Math.ceil((now + DAY) / MINUTE) * MINUTE + i * SPACING), ['bookingCancelled', 'bookingRescheduled']);
		await measure((now) => Array.from({ length: 1000 }, (_, i) => now + MINUTE + i * 780), ['appointmentStartingSoon']);
		await measure((now) => Array.from({ length: 1000 }, (_, i) => now - 8 * 60 * MINUTE + MINUTE + i * 25_000), ['appointmentEnded']);
		console.log(`Idle poll costs with 1,000 appointments: ${JSON.stringify(costs)}`);
		expect(costs.bookingCancelled.requests).toBe(10);
		expect(costs.bookingRescheduled.requests).toBe(10);
		expect(costs.bookingCancelled.bytes).toBeLessThanOrEqual(1000 * 12);
		expect(costs.bookingRescheduled.bytes).toBeLessThanOrEqual(1000 * 16);
		expect(costs.appointmentStartingSoon.requests).toBe(10);
		expect(costs.appointmentEnded.requests).toBe(10);
	}, 120_000);

	test('Invoice Paid with 150 paid invoices: 2 requests, 9 bytes of state per invoice', async () => {
		const tenant = await freshTenant(world());
		const credential = credentialOf(tenant);
		const contactId = await crmParent(world(), 'contact', 'payer@example.com', tenant.companyId);
		await call(tenant, 'PATCH', '/invoicing/settings', FRESH_SELLER);
		await inBatches(Array.from({ length: 150 }), 25, async () => {
			const created = await call(tenant, 'POST', DOCUMENTS, { type: 'invoice', contactId, paymentTermsDays: 14, lineItems: [{ description: 'Work', quantity: 1, unitPrice: 100 }] });
			await call(tenant, 'POST', `${DOCUMENTS}/${String(created.id)}/finalise`);
			await call(tenant, 'POST', `${DOCUMENTS}/${String(created.id)}/payments`, { amount: 119 });
		});
		const cost = await idleCost(PAID, credential, (await poll(PAID, credential, {})).staticData);
		console.log(`Idle poll cost of Invoice Paid with 150 paid invoices: ${JSON.stringify(cost)}`);
		expect(cost.requests).toBe(2);
		expect(String(((await poll(PAID, credential, {})).staticData.state as IDataObject).snap)).toHaveLength(150 * 9);
		expect(cost.bytes).toBeLessThanOrEqual(150 * 9 + 120);
	}, 120_000);
});
