import type { IDataObject } from 'n8n-workflow';

import { hashKey } from '../../package/dist/nodes/shared/trigger/watermark';
import { asTenant, crmParent, freshTenant, FRESH_SELLER } from '../harness/crm';
import type { CredentialRef } from '../harness/world';
import { useWorld, wire } from '../harness/world';

/**
 * The invoicing events are a document reaching a status (Invoice Paid, Invoice Overdue, Offer Accepted) on lists
 * that name no sort, and a document names no moment of its status change: its sentAt and updatedAt move when it is
 * sent again, and a payment may be recorded with an earlier paidAt. Through n8n-core's poll context against the
 * sandbox: each document fires once when it reaches the status, and never again for what happens to it later (sent
 * again, a reminder, a part payment), nor at all when it was in the status at the first activation; a payment dated
 * back fires; a document that leaves the status and reaches it again fires again; the position an earlier release
 * stored (a watermark and the keys it emitted) is read on once; the bound of 2,000 remembered documents; errors leave
 * the state byte-identical and manual mode leaves it alone. The sandbox clock starts each test on Monday 2027-03-01
 * 06:00 UTC; each test has its own tenant.
 */

const world = useWorld();

type Tenant = Awaited<ReturnType<typeof freshTenant>> & { contactId: string };

const DOCUMENTS = '/invoicing/documents';
const START = '2027-03-01T06:00:00.000Z';
const HOUR = 3600;
const DAY = 24 * HOUR;
const OVERDUE = { event: 'invoiceOverdue' };
const PAID = { event: 'invoicePaid' };
const ACCEPTED = { event: 'offerAccepted' };

const ids = (items: IDataObject[] | null) => (items ?? []).map((item) => String(item.id));
const call = (tenant: Tenant, method: string, path: string, body?: unknown) => asTenant(world(), tenant, method, path, body);

beforeAll(async () => {
	await world().control('POST', '/__sandbox/rate-limit', { perMinute: 1_000_000, burst: 1_000_000 });
});

beforeEach(async () => {
	await world().control('POST', '/__sandbox/clock/set', { now: START });
});

async function advance(seconds: number): Promise<string> {
	return ((await world().control('POST', '/__sandbox/clock/advance', { seconds })) as { now: string }).now;
}

/** A tenant whose seller settings allow finalising, with one contact that has an email address. */
async function invoicingTenant(): Promise<Tenant> {
	const tenant = await freshTenant(world());
	const contactId = await crmParent(world(), 'contact', 'payer@example.com', tenant.companyId);
	const made = { ...tenant, contactId };
	await call(made, 'PATCH', '/invoicing/settings', FRESH_SELLER);
	return made;
}

/** The tenant's PAT with the sandbox's raised limit as its Requests per Minute and Burst. */
function credentialOf(tenant: Tenant): CredentialRef {
	const base = world().pat(tenant.token);
	return { ...base, data: { ...base.data, requestsPerMinute: 1_000_000, burst: 1_000_000 } };
}

/** A finalised document of 100 net (119 gross), sent when asked; as the API reads it now. */
async function document(tenant: Tenant, type: 'invoice' | 'offer', dates: IDataObject, sent: boolean): Promise<IDataObject> {
	const created = await call(tenant, 'POST', DOCUMENTS, { type, contactId: tenant.contactId, ...dates, lineItems: [{ description: 'Work', quantity: 1, unitPrice: 100 }] });
	await call(tenant, 'POST', `${DOCUMENTS}/${String(created.id)}/finalise`);
	if (sent) await sendAgain(tenant, created);
	return await call(tenant, 'GET', `${DOCUMENTS}/${String(created.id)}`);
}

/** POST …/send: the sandbox sets sentAt and updatedAt to now (the status of an accepted offer or a paid invoice stays). */
const sendAgain = (tenant: Tenant, record: IDataObject) => call(tenant, 'POST', `${DOCUMENTS}/${String(record.id)}/send`, {});
const pay = (tenant: Tenant, record: IDataObject, body: IDataObject) => call(tenant, 'POST', `${DOCUMENTS}/${String(record.id)}/payments`, body);
/** An invoice issued on 1 February and due on 15 February: overdue as soon as it is sent. */
const PAST_DUE = { issueDate: '2027-02-01', dueDate: '2027-02-15' };

/** The list request of one poll, as the node sends it. */
const listRequest = (tenant: Tenant, query: string) => ({ method: 'GET', path: DOCUMENTS, query: `${query}&page=1&limit=100`, headers: world().patHeaders(tenant.token), body: null });

async function sent(): Promise<Array<ReturnType<typeof wire>>> {
	const requests = await world().requests();
	await world().clearRequests();
	return requests.map(wire);
}

/** Polls from `state`, expecting nothing to come out and no log; the state after. */
async function quiet(parameters: IDataObject, credential: CredentialRef, state: IDataObject): Promise<IDataObject> {
	const outcome = await world().poll(parameters, credential, { state });
	expect(outcome.error).toBeUndefined();
	expect(outcome.items).toBeNull();
	expect(outcome.logs).toEqual([]);
	return outcome.staticData;
}

/** The stored snapshot of these events: 9 characters per remembered document. */
const remembered = (state: IDataObject) => String((state.state as IDataObject).snap).length / 9;

describe('Invoicing Trigger: each document once when it reaches the status', () => {
	test('Invoice Overdue: fires once the day after the due date; sent again (twice), a reminder and a part payment later fire nothing', async () => {
		const tenant = await invoicingTenant();
		const credential = credentialOf(tenant);
		const invoice = await document(tenant, 'invoice', { paymentTermsDays: 0 }, true);
		await world().clearRequests();
		const first = await world().poll(OVERDUE, credential);
		expect(first.error).toBeUndefined();
		expect(first.items).toBeNull();
		const overdueList = listRequest(tenant, 'type=invoice&status=overdue');
		expect(await sent()).toEqual([overdueList]);

		await advance(DAY);
		const fired = await world().poll(OVERDUE, credential, { state: first.staticData });
		expect(fired.error).toBeUndefined();
		expect(ids(fired.items)).toEqual([String(invoice.id)]);
		expect(fired.items![0]).toMatchObject({ status: 'overdue', dueDate: '2027-03-01', dunningLevel: 0 });
		expect(await sent()).toEqual([overdueList]);
		await advance(HOUR);
		let state = await quiet(OVERDUE, credential, fired.staticData);

		// The reviewer's reproduction: sending it again moves sentAt and updatedAt past the last poll.
		await sendAgain(tenant, invoice);
		const resent = (await call(tenant, 'GET', `${DOCUMENTS}/${String(invoice.id)}`)) as IDataObject;
		expect(Date.parse(String(resent.sentAt))).toBeGreaterThan(Date.parse(String(invoice.sentAt)));
		state = await quiet(OVERDUE, credential, state);
		await advance(2 * 60);
		state = await quiet(OVERDUE, credential, state);

		// A reminder and a part payment: still overdue, changed again.
		await call(tenant, 'POST', `${DOCUMENTS}/${String(invoice.id)}/dunning`, { fee: 5 });
		await pay(tenant, invoice, { amount: 50 });
		await advance(HOUR);
		state = await quiet(OVERDUE, credential, state);
		await sendAgain(tenant, invoice);
		await advance(DAY);
		state = await quiet(OVERDUE, credential, state);
		expect(remembered(state)).toBe(1);
		// Each poll: the one list request (the test's own requests go to the documents' paths).
		expect((await sent()).filter((request) => request.path === DOCUMENTS)).toEqual(Array.from({ length: 5 }, () => overdueList));
	});

	test('Offer Accepted: fires once; the accepted offer sent again, twice, fires nothing', async () => {
		const tenant = await invoicingTenant();
		const credential = credentialOf(tenant);
		const offer = await document(tenant, 'offer', { paymentTermsDays: 30 }, true);
		const first = await world().poll(ACCEPTED, credential);
		expect(first.items).toBeNull();
		await advance(HOUR);
		await call(tenant, 'POST', `${DOCUMENTS}/${String(offer.id)}/convert`);
		await world().clearRequests();
		const fired = await world().poll(ACCEPTED, credential, { state: first.staticData });
		expect(fired.error).toBeUndefined();
		expect(ids(fired.items)).toEqual([String(offer.id)]);
		expect(fired.items![0]).toMatchObject({ type: 'offer', status: 'accepted' });
		expect(await sent()).toEqual([listRequest(tenant, 'type=offer&status=accepted')]);

		// The reviewer's reproduction: an idle poll an hour later, then the document sent again.
		await advance(HOUR);
		let state = await quiet(ACCEPTED, credential, fired.staticData);
		await sendAgain(tenant, offer);
		const resent = (await call(tenant, 'GET', `${DOCUMENTS}/${String(offer.id)}`)) as IDataObject;
		expect(resent).toMatchObject({ status: 'accepted' });
		expect(Date.parse(String(resent.updatedAt))).toBeGreaterThan(Date.parse(String(fired.items![0].updatedAt)));
		state = await quiet(ACCEPTED, credential, state);
		await advance(HOUR);
		state = await quiet(ACCEPTED, credential, state);
		await sendAgain(tenant, offer);
		await advance(2 * 60);
		await quiet(ACCEPTED, credential, state);
	});

	test('Invoice Paid: a payment dated three days back fires; the paid invoice sent again fires nothing; paid again (another paidAt) after its payment was deleted, it fires again', async () => {
		const tenant = await invoicingTenant();
		const credential = credentialOf(tenant);
		const invoice = await document(tenant, 'invoice', { paymentTermsDays: 14 }, true);
		const first = await world().poll(PAID, credential);
		expect(first.items).toBeNull();
		await advance(HOUR);

		// A bank transfer recorded when it shows on the statement: paidAt lies before the last poll.
		const payment = await pay(tenant, invoice, { amount: 119, paidAt: '2027-02-26T10:00:00.000Z' });
		const fired = await world().poll(PAID, credential, { state: first.staticData });
		expect(fired.error).toBeUndefined();
		expect(ids(fired.items)).toEqual([String(invoice.id)]);
		expect(fired.items![0]).toMatchObject({ status: 'paid', amountDue: 0, paidAt: '2027-02-26T10:00:00.000Z' });

		await advance(HOUR);
		await sendAgain(tenant, invoice);
		let state = await quiet(PAID, credential, fired.staticData);
		await advance(HOUR);

		await call(tenant, 'DELETE', `${DOCUMENTS}/${String(invoice.id)}/payments/${String(payment.id)}`);
		state = await quiet(PAID, credential, state);
		// Unpaid now, it stays remembered with its paidAt: paid again with the same date it would fire nothing.
		expect(remembered(state)).toBe(1);
		await advance(HOUR);
		await pay(tenant, invoice, { amount: 119 });
		const again = await world().poll(PAID, credential, { state });
		expect(ids(again.items)).toEqual([String(invoice.id)]);
		await quiet(PAID, credential, again.staticData);
	});

	test('the first activation: documents already overdue, paid or accepted never fire, not even when sent again; manual mode shows the newest and leaves the state', async () => {
		const tenant = await invoicingTenant();
		const credential = credentialOf(tenant);
		const overdue = await document(tenant, 'invoice', PAST_DUE, true);
		const paid = await document(tenant, 'invoice', { paymentTermsDays: 14 }, true);
		await pay(tenant, paid, { amount: 119 });
		const offer = await document(tenant, 'offer', { paymentTermsDays: 30 }, true);
		await call(tenant, 'POST', `${DOCUMENTS}/${String(offer.id)}/convert`);
		const events: Array<[IDataObject, IDataObject]> = [
			[OVERDUE, overdue],
			[PAID, paid],
			[ACCEPTED, offer],
		];
		const states: IDataObject[] = [];
		for (const [event] of events) {
			const first = await world().poll(event, credential);
			expect(first.error).toBeUndefined();
			expect(first.items).toBeNull();
			expect(remembered(first.staticData)).toBe(1);
			states.push(first.staticData);
		}
		await advance(HOUR);
		for (const [, record] of events) await sendAgain(tenant, record);
		for (const [index, [event]] of events.entries()) states[index] = await quiet(event, credential, states[index]);
		await advance(2 * 60);
		for (const [index, [event]] of events.entries()) states[index] = await quiet(event, credential, states[index]);

		const later = await document(tenant, 'invoice', PAST_DUE, true);
		await advance(60);
		const manual = await world().poll({ ...OVERDUE, options: { fullRecord: true } }, credential, { state: states[0], mode: 'manual' });
		expect(manual.error).toBeUndefined();
		expect(ids(manual.items)).toEqual([String(later.id)]);
		expect(manual.staticData).toEqual(states[0]);
		const live = await world().poll(OVERDUE, credential, { state: states[0] });
		expect(ids(live.items)).toEqual([String(later.id)]);
	});

	test('errors on the list or on a Full Record read leave the state byte-identical; the next poll emits the document once', async () => {
		const tenant = await invoicingTenant();
		const credential = credentialOf(tenant);
		const parameters = { ...OVERDUE, options: { fullRecord: true } };
		const first = await world().poll(parameters, credential);
		const stored = JSON.stringify(first.staticData);
		const invoice = await document(tenant, 'invoice', PAST_DUE, true);
		const faults: IDataObject[] = [
			{ method: 'GET', path: DOCUMENTS, status: 503, times: 10, body: { statusCode: 503, message: 'Service Unavailable' } },
			{ method: 'GET', path: `${DOCUMENTS}/${String(invoice.id)}`, status: 503, times: 10, body: { statusCode: 503, message: 'Service Unavailable' } },
			{ method: 'GET', path: `${DOCUMENTS}/${String(invoice.id)}`, status: 401, body: { statusCode: 401, message: 'Unauthorized' } },
		];
		for (const fault of faults) {
			await world().control('DELETE', '/__sandbox/faults');
			await world().control('POST', '/__sandbox/faults', fault);
			const failed = await world().poll(parameters, credential, { state: first.staticData });
			expect(failed.error).toBeDefined();
			expect(failed.items).toBeNull();
			expect(JSON.stringify(failed.staticData)).toBe(stored);
		}
		await world().control('DELETE', '/__sandbox/faults');
		await world().clearRequests();
		const next = await world().poll(parameters, credential, { state: first.staticData });
		expect(next.error).toBeUndefined();
		expect(ids(next.items)).toEqual([String(invoice.id)]);
		expect(await sent()).toEqual([
			listRequest(tenant, 'type=invoice&status=overdue'),
			{ method: 'GET', path: `${DOCUMENTS}/${String(invoice.id)}`, query: '', headers: world().patHeaders(tenant.token), body: null },
		]);
		await quiet(parameters, credential, next.staticData);
	});
});

describe('Invoicing Trigger: a list of several pages that changes while it is read', () => {
	test('150 overdue invoices; one on the first page is paid while the poll waits for the second: the invoice that moves up to the first page is missed by that reading, so the poll reads the list again and finds it; nothing fires, the paid one is gone after two polls', async () => {
		const tenant = await invoicingTenant();
		const credential = credentialOf(tenant);
		const invoices: IDataObject[] = [];
		for (let index = 0; index < 150; index += 25) {
			invoices.push(...(await Promise.all(Array.from({ length: 25 }, async () => await document(tenant, 'invoice', PAST_DUE, true)))));
		}
		const first = await world().poll(OVERDUE, credential);
		expect(first.items).toBeNull();
		expect(remembered(first.staticData)).toBe(150);
		await advance(HOUR);

		// The list is newest created first (the reference names no order): page 1 holds the 100 newest.
		const page = async (number: number) => {
			const answer = (await call(tenant, 'GET', `${DOCUMENTS}?type=invoice&status=overdue&page=${number}&limit=100`)) as unknown as { documents: IDataObject[] };
			return answer.documents.map((record) => String(record.id));
		};
		const [top] = await page(1);
		const [movesUp] = await page(2);
		await world().control('POST', '/__sandbox/faults', { method: 'GET', path: DOCUMENTS, delayMs: 300, after: 1 });
		await world().clearRequests();
		const polling = world().poll(OVERDUE, credential, { state: first.staticData });
		for (let waited = 0; waited < 5000; waited += 10) {
			if ((await world().requests()).filter((request) => request.path === DOCUMENTS).length >= 2) break;
			await new Promise((resolve) => setTimeout(resolve, 10));
		}
		await pay(tenant, invoices.find((record) => String(record.id) === top)!, { amount: 119 });
		const during = await polling;
		expect(during.error).toBeUndefined();
		expect(during.items).toBeNull();
		// The total changed between the two pages: read again (the paid one on page 1, before it was paid, stays read).
		expect((await sent()).filter((request) => request.path === DOCUMENTS).map((request) => request.query)).toEqual([
			'type=invoice&status=overdue&page=1&limit=100',
			'type=invoice&status=overdue&page=2&limit=100',
			'type=invoice&status=overdue&page=1&limit=100',
			'type=invoice&status=overdue&page=2&limit=100',
		]);
		expect((await page(1))[99]).toBe(movesUp);
		expect(remembered(during.staticData)).toBe(150);

		// The paid one is missing once (kept), then gone.
		await advance(HOUR);
		const next = await world().poll(OVERDUE, credential, { state: during.staticData });
		expect(next.error).toBeUndefined();
		expect(next.items).toBeNull();
		expect(remembered(next.staticData)).toBe(150);
		const after = await world().poll(OVERDUE, credential, { state: next.staticData });
		expect(after.items).toBeNull();
		expect(remembered(after.staticData)).toBe(149);
	});
});

describe('Invoicing Trigger: the position an earlier release stored', () => {
	test('Invoice Overdue reads on from the stored watermark once: what came after it and was not emitted comes out, nothing else; later sends fire nothing', async () => {
		const tenant = await invoicingTenant();
		const credential = credentialOf(tenant);
		// Overdue before the watermark (emitted by the earlier release long ago).
		const before = await document(tenant, 'invoice', PAST_DUE, true);
		const since = await advance(HOUR);
		await advance(10);
		// Overdue after the watermark and emitted by the earlier release: its key is among the stored ones.
		const emitted = await document(tenant, 'invoice', PAST_DUE, true);
		await advance(30);
		// Overdue after the watermark, not emitted yet (the update came between two polls).
		const waiting = await document(tenant, 'invoice', PAST_DUE, true);
		const stored = { state: { v: 1, watch: '["invoiceOverdue",{}]', since, seen: hashKey(`${String(emitted.id)}:${String(emitted.dueDate)}`) } };

		const carried = await world().poll(OVERDUE, credential, { state: stored });
		expect(carried.error).toBeUndefined();
		expect(ids(carried.items)).toEqual([String(waiting.id)]);
		expect(carried.logs).toEqual([{ level: 'info', message: 'The trigger now remembers the overdue invoices it has seen; it read on from the position the earlier version stored.' }]);
		expect(carried.staticData.state).toMatchObject({ v: 1, watch: '["invoiceOverdue",{}]' });
		expect(remembered(carried.staticData)).toBe(3);

		await advance(HOUR);
		for (const record of [before, emitted, waiting]) await sendAgain(tenant, record);
		const state = await quiet(OVERDUE, credential, carried.staticData);
		await advance(2 * 60);
		await quiet(OVERDUE, credential, state);
	});

	test('Offer Accepted and Invoice Paid read on likewise; a stored position of other filters or of a day that does not exist starts anew (logged), emitting nothing', async () => {
		const tenant = await invoicingTenant();
		const credential = credentialOf(tenant);
		const early = await document(tenant, 'offer', { paymentTermsDays: 30 }, true);
		await call(tenant, 'POST', `${DOCUMENTS}/${String(early.id)}/convert`);
		const since = await advance(HOUR);
		const late = await document(tenant, 'offer', { paymentTermsDays: 30 }, true);
		await advance(10);
		await call(tenant, 'POST', `${DOCUMENTS}/${String(late.id)}/convert`);
		const carried = await world().poll(ACCEPTED, credential, { state: { state: { v: 1, watch: '["offerAccepted",{}]', since, seen: '' } } });
		expect(carried.error).toBeUndefined();
		expect(ids(carried.items)).toEqual([String(late.id)]);
		await advance(HOUR);
		await sendAgain(tenant, early);
		await sendAgain(tenant, late);
		await quiet(ACCEPTED, credential, carried.staticData);

		const paid = await document(tenant, 'invoice', { paymentTermsDays: 14 }, true);
		const paidSince = await advance(10);
		// Paid after the stored position: on loopback the payment may come within the same millisecond.
		await advance(1);
		await pay(tenant, paid, { amount: 119 });
		const paidCarried = await world().poll(PAID, credential, { state: { state: { v: 1, watch: '["invoicePaid",{}]', since: paidSince, seen: '' } } });
		expect(ids(paidCarried.items)).toEqual([String(paid.id)]);

		const other = await world().poll(ACCEPTED, credential, { state: { state: { v: 1, watch: `["offerAccepted",{"contactId":"${tenant.contactId}"}]`, since, seen: '' } } });
		expect(other.error).toBeUndefined();
		expect(other.items).toBeNull();
		expect(other.logs).toEqual([{ level: 'info', message: 'The trigger\'s event or filters changed; it watches from now.' }]);
		expect(remembered(other.staticData)).toBe(2);
		const damaged = await world().poll(ACCEPTED, credential, { state: { state: { v: 1, watch: '["offerAccepted",{}]', since: '2027-02-30T00:00:00.000Z', seen: '' } } });
		expect(damaged.error).toBeUndefined();
		expect(damaged.items).toBeNull();
		expect(damaged.logs).toEqual([{ level: 'warn', message: expect.stringContaining('stored snapshot could not be read') }]);
		expect(remembered(damaged.staticData)).toBe(2);
	});
});

describe('Invoicing Trigger: the bound of 2,000 remembered documents', () => {
	test('2,005 paid invoices: 2,000 remembered (the newest paidAt, 9 bytes each, logged); beyond the bound a new one fires by its paidAt, a paid one sent again fires nothing', async () => {
		const tenant = await invoicingTenant();
		const credential = credentialOf(tenant);
		const base = Date.parse(START) - DAY * 1000;
		const invoices: IDataObject[] = [];
		// Paid a minute apart, the newest first: the 5 oldest lie beyond the bound.
		const make = async (index: number) => {
			const created = await call(tenant, 'POST', DOCUMENTS, { type: 'invoice', contactId: tenant.contactId, paymentTermsDays: 14, lineItems: [{ description: 'Work', quantity: 1, unitPrice: 100 }] });
			await call(tenant, 'POST', `${DOCUMENTS}/${String(created.id)}/finalise`);
			await pay(tenant, created, { amount: 119, paidAt: new Date(base - index * 60_000).toISOString() });
			invoices[index] = created;
		};
		for (let index = 0; index < 2005; index += 25) await Promise.all(Array.from({ length: Math.min(25, 2005 - index) }, async (_, i) => await make(index + i)));
		// Recorded a little before the first poll: a list changed just before (or while) it is read is read twice.
		await advance(5);

		await world().clearRequests();
		const first = await world().poll(PAID, credential);
		expect(first.error).toBeUndefined();
		expect(first.items).toBeNull();
		expect(first.logs).toEqual([
			{ level: 'warn', message: 'The trigger read 2,005 paid invoices of the list of paid invoices and remembers 2,000 of them (those of the newest dates); the others fire by their own date after the last poll only. Narrow the list with the trigger\'s Filters.' },
		]);
		expect((await sent()).map((request) => request.query)).toEqual(Array.from({ length: 21 }, (_, page) => `type=invoice&status=paid&page=${page + 1}&limit=100`));
		expect(remembered(first.staticData)).toBe(2000);
		expect(first.staticData.state).toMatchObject({ over: true });
		expect(JSON.stringify(first.staticData).length).toBeLessThan(2000 * 9 + 200);

		await advance(HOUR);
		const fresh = await document(tenant, 'invoice', { paymentTermsDays: 14 }, true);
		await pay(tenant, fresh, { amount: 119 });
		await sendAgain(tenant, invoices[0]);
		await sendAgain(tenant, invoices[2004]);
		const next = await world().poll(PAID, credential, { state: first.staticData });
		expect(next.error).toBeUndefined();
		expect(ids(next.items)).toEqual([String(fresh.id)]);
		expect(remembered(next.staticData)).toBe(2000);
		await advance(HOUR);
		const idle = await world().poll(PAID, credential, { state: next.staticData });
		expect(idle.error).toBeUndefined();
		expect(idle.items).toBeNull();
	});
});
