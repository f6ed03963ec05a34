import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { FRESH_SELLER } from '../harness/crm';
import type { CommittedPoll, CommonStep, HistoryTenant, ListOrder } from '../harness/triggerHistory';
import { assertHistories, changeTally, emittedItems, fullPollWithin, historyTenant, PolledHistory, pollTotals, PROPERTY_SEED, propertyRuns, Ticks } from '../harness/triggerHistory';
import { useWorld } from '../harness/world';

/**
 * Invoice Paid, Invoice Overdue and Offer Accepted on random histories: each document reaching its status comes out
 * once, none lost, none repeated. The three triggers watch one tenant's documents: the invoices of status paid, of
 * status overdue, the offers of status accepted, lists that name no sort (the sandbox gives the newest created first),
 * read whole each poll and compared with the keys the last poll saw. Each history runs the compiled Invoicing Trigger
 * through n8n-core's poll context against the sandbox, in a tenant of its own after a sandbox reset, its clock on
 * Monday 2027-03-01 (harness/triggerHistory.ts):
 * - invoices sent past their due date (overdue at once), paid in full (dated now, or days back), their payment
 *   deleted (overdue again), deleted and recorded anew (another date, or the same), offers made and accepted,
 * - bursts of 151 to 220 payments within a minute, some deleted and recorded anew before the next poll,
 * - changes while a poll pages: documents at the second page's start change just before the poll (a payment recorded
 *   anew with another date; an invoice overdue again); while the poll waits for its second page, documents of its
 *   first page leave the list (paid, or their payment deleted), so those slip to the first page, read already; just
 *   after the poll they change again (leave the list, or another date); some of these polls are abandoned,
 * - polls with n8n 2.x's budget so short that only the first page is read, failing polls (a 500 on the first or second
 *   page), abandoned polls, restarts (from the stored state, or the state of the last poll that emitted: n8n 1.x),
 * - the clock moving on.
 * Truth, in the order of things (harness Ticks):
 * - Invoice Paid: each paidAt of an invoice is one event: it comes out at most once, and once when a committed poll with
 *   its whole budget saw the invoice paid with it from start to end (after the activation); never when the invoice was
 *   paid with it at the activation (also when it comes back later).
 * - Invoice Overdue: an invoice overdue after the activation comes out once for its first stretch of being overdue that
 *   a whole-budget poll saw; again for a later stretch after two quiet whole-budget polls saw it not overdue (the
 *   stated rule: missing from a reading of several pages, it is kept for one poll); never more often than it was seen
 *   leaving and coming back.
 * - Offer Accepted: once, when a whole-budget poll began after the acceptance.
 * Lost and duplicated are printed.
 */

const world = useWorld();

/** Default 30 histories (about 25 s on two cores); TRIGGER_PROPERTY_RUNS sets more, for every property test alike. */
const RUNS = propertyRuns(30);
const DOCUMENTS = '/invoicing/documents';
const START = '2027-03-01T06:00:00.000Z';
const DAY = 24 * 60 * 60_000;
/** Sent at once, due on 15 February: overdue as soon as it is sent. */
const PAST_DUE = { issueDate: '2027-02-01', dueDate: '2027-02-15' };

type Step =
	| { kind: 'invoices'; count: number }
	| { kind: 'pay'; count: number; pick: number; back: boolean }
	| { kind: 'unpay'; count: number; pick: number }
	| { kind: 'repay'; count: number; pick: number; same: boolean }
	| { kind: 'offers'; count: number; accept: number }
	| { kind: 'accept'; count: number; pick: number }
	| { kind: 'burst'; count: number; again: number; same: boolean }
	| { kind: 'whilePaging'; trigger: 'paid' | 'overdue'; before: number; leave: number; after: 'leave' | 'change' | 'none'; abandon: boolean }
	| { kind: 'failingPoll'; page: 0 | 1 }
	| { kind: 'abandoned' }
	| CommonStep;

const step: fc.Arbitrary<Step> = fc.oneof(
	{ weight: 2, arbitrary: fc.record({ kind: fc.constant('invoices' as const), count: fc.integer({ min: 1, max: 15 }) }) },
	{ weight: 4, arbitrary: fc.record({ kind: fc.constant('pay' as const), count: fc.integer({ min: 1, max: 10 }), pick: fc.nat(), back: fc.boolean() }) },
	{ weight: 2, arbitrary: fc.record({ kind: fc.constant('unpay' as const), count: fc.integer({ min: 1, max: 6 }), pick: fc.nat() }) },
	{ weight: 3, arbitrary: fc.record({ kind: fc.constant('repay' as const), count: fc.integer({ min: 1, max: 6 }), pick: fc.nat(), same: fc.boolean() }) },
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant('offers' as const), count: fc.integer({ min: 1, max: 8 }), accept: fc.nat({ max: 8 }) }) },
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant('accept' as const), count: fc.integer({ min: 1, max: 5 }), pick: fc.nat() }) },
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant('burst' as const), count: fc.integer({ min: 151, max: 220 }), again: fc.integer({ min: 0, max: 30 }), same: fc.boolean() }) },
	{
		weight: 3,
		arbitrary: fc.record({
			kind: fc.constant('whilePaging' as const),
			trigger: fc.constantFrom('paid' as const, 'overdue' as const),
			before: fc.integer({ min: 1, max: 4 }),
			leave: fc.integer({ min: 1, max: 5 }),
			after: fc.constantFrom('leave' as const, 'change' as const, 'none' as const),
			abandon: fc.nat({ max: 4 }).map((draw) => draw === 0),
		}),
	},
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant('failingPoll' as const), page: fc.constantFrom(0 as const, 1 as const) }) },
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant('abandoned' as const) }) },
	{ weight: 2, arbitrary: fc.record({ kind: fc.constant('advance' as const), seconds: fc.integer({ min: 1, max: 180 }) }) },
	{ weight: 5, arbitrary: fc.record({ kind: fc.constant('poll' as const), shortBudget: fc.boolean() }) },
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant('restart' as const), fromLastEmit: fc.boolean() }) },
);

/**
 * The lists name no sort, and the trigger reads them by page: it relies on the service keeping one order between two
 * page requests (the sandbox: newest created first). A service that returned documents of one moment in a new order on
 * each request could hide one at a page edge from a poll (docs/triggers.md states it): not drawn here.
 */
const listOrder: fc.Arbitrary<ListOrder> = fc.constant('sorted');

const { byListOrder, ...pollCounts } = pollTotals();
const totals = {
	histories: 0,
	...pollCounts,
	invoices: 0,
	payments: 0,
	paymentsDeleted: 0,
	recordedAnew: 0,
	recordedAnewSameDate: 0,
	accepted: 0,
	bursts: 0,
	whilePaging: 0,
	slippedWhilePaging: 0,
	paid: changeTally(),
	overdue: changeTally(),
	offerAccepted: changeTally(),
	byListOrder,
};

/** A stretch of one status, from one tick to the next change (Infinity: still). */
interface Span {
	from: number;
	to: number;
}

interface Invoice {
	id: string;
	/** The payment in full, while paid. */
	payment?: { id: string; paidAt: string };
	/** Each change: overdue, or paid with a paidAt. */
	versions: Array<{ tick: number; paidAt?: string }>;
}

interface Offer {
	id: string;
	acceptedTick?: number;
}

const paidNow = (invoice: Invoice) => invoice.payment !== undefined;

/** The stretches of each value `value` gives a version (undefined: none). */
function spansOf<T>(versions: Array<{ tick: number }>, value: (version: number) => T | undefined): Map<T, Span[]> {
	const spans = new Map<T, Span[]>();
	versions.forEach((version, i) => {
		const key = value(i);
		if (key === undefined) return;
		spans.set(key, [...(spans.get(key) ?? []), { from: version.tick, to: versions[i + 1]?.tick ?? Infinity }]);
	});
	return spans;
}

/** One history: a tenant, its documents, and the three triggers watching them. */
class InvoiceHistory {
	invoices: Invoice[] = [];
	offers: Offer[] = [];
	readonly ticks = new Ticks();
	/** The ticks of every change, in order (a poll within which none fell was quiet). */
	readonly changes: number[] = [];
	readonly paid: PolledHistory;
	readonly overdue: PolledHistory;
	readonly accepted: PolledHistory;
	private dates = 0;

	private constructor(
		readonly tenant: HistoryTenant,
		private readonly contactId: string,
	) {
		const options = { ticks: this.ticks, stateLimit: 20_000 };
		this.paid = new PolledHistory(world(), tenant, { event: 'invoicePaid' }, totals, options);
		this.overdue = new PolledHistory(world(), tenant, { event: 'invoiceOverdue' }, totals, options);
		this.accepted = new PolledHistory(world(), tenant, { event: 'offerAccepted' }, totals, options);
	}

	static async start(order: ListOrder): Promise<InvoiceHistory> {
		const tenant = await historyTenant(world(), order);
		totals.byListOrder[order]++;
		await world().control('POST', '/__sandbox/clock/set', { now: START });
		const contact = (await world().control('POST', '/__sandbox/crm-parents', { companyId: tenant.companyId, kind: 'contact', name: 'payer@example.com' })) as { id: string };
		const history = new InvoiceHistory(tenant, contact.id);
		await history.api('PATCH', '/invoicing/settings', FRESH_SELLER);
		return history;
	}

	get triggers(): PolledHistory[] {
		return [this.paid, this.overdue, this.accepted];
	}

	async api(method: string, path: string, body: IDataObject = {}): Promise<IDataObject> {
		return await world().call(method, path, this.tenant.token, method === 'GET' ? undefined : body, { keepLog: true });
	}

	private tick(): number {
		const tick = this.ticks.next();
		this.changes.push(tick);
		return tick;
	}

	/** A document of 119 gross, finalised and sent. */
	private async document(type: 'invoice' | 'offer'): Promise<string> {
		const dates = type === 'invoice' ? PAST_DUE : { paymentTermsDays: 30 };
		const created = await this.api('POST', DOCUMENTS, { type, contactId: this.contactId, ...dates, lineItems: [{ description: 'Work', quantity: 1, unitPrice: 100 }] });
		await this.api('POST', `${DOCUMENTS}/${String(created.id)}/finalise`);
		await this.api('POST', `${DOCUMENTS}/${String(created.id)}/send`);
		return String(created.id);
	}

	/** Overdue invoices, ten at a time. */
	async makeInvoices(count: number): Promise<void> {
		for (let i = 0; i < count; i += 10) {
			const ids = await Promise.all(Array.from({ length: Math.min(10, count - i) }, async () => await this.document('invoice')));
			const tick = this.tick();
			this.invoices.push(...ids.map((id) => ({ id, versions: [{ tick }] })));
			totals.invoices += ids.length;
		}
	}

	async makeOffers(count: number): Promise<void> {
		for (let i = 0; i < count; i++) this.offers.push({ id: await this.document('offer') });
	}

	/** A date for a payment: now, or days back (each one its own). */
	private async dateOf(back: boolean): Promise<string | undefined> {
		if (!back) return undefined;
		return new Date(Date.parse(START) - DAY - ++this.dates * 60_000).toISOString();
	}

	async pay(invoice: Invoice, paidAt?: string): Promise<void> {
		if (paidNow(invoice)) return;
		const payment = await this.api('POST', `${DOCUMENTS}/${invoice.id}/payments`, { amount: 119, ...(paidAt && { paidAt }) });
		invoice.payment = { id: String(payment.id), paidAt: String(payment.paidAt) };
		invoice.versions.push({ tick: this.tick(), paidAt: invoice.payment.paidAt });
		totals.payments++;
	}

	async unpay(invoice: Invoice): Promise<void> {
		if (!invoice.payment) return;
		await this.api('DELETE', `${DOCUMENTS}/${invoice.id}/payments/${invoice.payment.id}`);
		invoice.payment = undefined;
		invoice.versions.push({ tick: this.tick() });
		totals.paymentsDeleted++;
	}

	/** The payment deleted and recorded anew: with the same date, or another. */
	async repay(invoice: Invoice, same: boolean): Promise<void> {
		if (!invoice.payment) return;
		const before = invoice.payment.paidAt;
		await this.unpay(invoice);
		await this.pay(invoice, same ? before : await this.dateOf(true));
		totals.recordedAnew++;
		if (same) totals.recordedAnewSameDate++;
	}

	async accept(offer: Offer): Promise<void> {
		if (offer.acceptedTick !== undefined) return;
		await this.api('POST', `${DOCUMENTS}/${offer.id}/convert`);
		offer.acceptedTick = this.tick();
		totals.accepted++;
	}

	private some<T>(items: T[], count: number, pick: number): T[] {
		return Array.from({ length: Math.min(count, items.length) }, (_, i) => items[(pick + i * 31) % items.length]).filter((item, i, all) => all.indexOf(item) === i);
	}

	/** A list's ids in the order the API gives them now (read as the owner; the triggers' logs are not touched). */
	private async listed(status: 'paid' | 'overdue' | undefined): Promise<string[]> {
		const ids: string[] = [];
		for (let page = 1; ; page++) {
			const answer = (await this.api('GET', `${DOCUMENTS}?type=invoice${status ? `&status=${status}` : ''}&page=${page}&limit=100`)) as unknown as { documents: IDataObject[]; totalPages: number };
			ids.push(...answer.documents.map((record) => String(record.id)));
			if (page >= answer.totalPages) return ids;
		}
	}

	async activate(): Promise<void> {
		await this.makeInvoices(130);
		for (const invoice of this.invoices.slice(0, 20)) await this.pay(invoice, await this.dateOf(invoice.id.charCodeAt(0) % 2 === 0));
		await this.makeOffers(6);
		await this.accept(this.offers[0]);
		for (const trigger of this.triggers) await trigger.activate();
	}

	async run(step: Step): Promise<void> {
		switch (step.kind) {
			case 'invoices':
				return await this.makeInvoices(step.count);
			case 'pay':
				for (const invoice of this.some(this.invoices.filter((invoice) => !paidNow(invoice)), step.count, step.pick)) await this.pay(invoice, await this.dateOf(step.back));
				return;
			case 'unpay':
				for (const invoice of this.some(this.invoices.filter(paidNow), step.count, step.pick)) await this.unpay(invoice);
				return;
			case 'repay':
				for (const invoice of this.some(this.invoices.filter(paidNow), step.count, step.pick)) await this.repay(invoice, step.same);
				return;
			case 'offers': {
				await this.makeOffers(step.count);
				for (const offer of this.offers.slice(-Math.min(step.accept, step.count))) await this.accept(offer);
				return;
			}
			case 'accept':
				for (const offer of this.some(this.offers.filter((offer) => offer.acceptedTick === undefined), step.count, step.pick)) await this.accept(offer);
				return;
			case 'burst':
				return await this.burst(step);
			case 'whilePaging':
				return await this.whilePaging(step);
			case 'failingPoll':
				return await this.paid.failingPoll({ path: DOCUMENTS, after: step.page });
			case 'abandoned':
				for (const trigger of this.triggers) await trigger.abandoned();
				return;
			case 'advance':
				await world().control('POST', '/__sandbox/clock/advance', { seconds: step.seconds });
				return;
			case 'poll':
				for (const trigger of this.triggers) await trigger.poll(step.shortBudget ? { budgetMs: 1 } : {});
				return;
			case 'restart':
				for (const trigger of this.triggers) trigger.restart(step.fromLastEmit);
				return;
		}
	}

	/** More than 150 payments within a minute; `again` of them deleted and recorded anew before the next poll. */
	async burst({ count, again, same }: Extract<Step, { kind: 'burst' }>): Promise<void> {
		const unpaid = () => this.invoices.filter((invoice) => !paidNow(invoice));
		if (unpaid().length < count) await this.makeInvoices(count - unpaid().length);
		const paying = unpaid().slice(0, count);
		for (const invoice of paying) await this.pay(invoice);
		for (const invoice of paying.slice(-again)) await this.repay(invoice, same);
		totals.bursts++;
	}

	/**
	 * Documents at the start of the second page change just before the poll (another paidAt; overdue again); while the
	 * poll waits for its second page, documents of its first page leave the list, so those slip to the first page; just
	 * after the poll they change again.
	 */
	async whilePaging({ trigger, before, leave, after, abandon }: Extract<Step, { kind: 'whilePaging' }>): Promise<void> {
		const invoiceOf = (id: string) => this.invoices.find((invoice) => invoice.id === id);
		let edge: Invoice[];
		let first: Invoice[];
		if (trigger === 'paid') {
			const paid = () => this.invoices.filter(paidNow).length;
			if (paid() < 110) for (const invoice of this.invoices.filter((invoice) => !paidNow(invoice)).slice(0, 110 - paid())) await this.pay(invoice);
			const listed = (await this.listed('paid')).map((id) => invoiceOf(id)!);
			edge = listed.slice(100, 100 + before);
			first = listed.slice(0, 100).filter((_, i) => i % 7 === 3).slice(0, leave);
			for (const invoice of edge) await this.repay(invoice, false);
		} else {
			const overdue = () => this.invoices.filter((invoice) => !paidNow(invoice)).length;
			if (overdue() < 110) await this.makeInvoices(110 - overdue());
			// Paid ones that, overdue again, come at the start of the second page (the list is newest created first).
			const all = (await this.listed(undefined)).map(invoiceOf).filter((invoice): invoice is Invoice => invoice !== undefined);
			let position = 0;
			edge = [];
			for (const invoice of all) {
				if (!paidNow(invoice)) position++;
				else if (position >= 100 && edge.length < before) edge.push(invoice);
			}
			for (const invoice of edge) await this.unpay(invoice);
			first = (await this.listed('overdue')).slice(0, 100).map((id) => invoiceOf(id)!).filter((_, i) => i % 7 === 3).slice(0, leave);
		}
		const history = trigger === 'paid' ? this.paid : this.overdue;
		await history.whilePaging(
			DOCUMENTS,
			async (paging) => {
				if (paging) {
					totals.whilePaging++;
					totals.slippedWhilePaging += edge.length;
				}
				for (const invoice of first) {
					if (trigger === 'paid') await this.unpay(invoice);
					else await this.pay(invoice);
				}
			},
			{ abandon },
		);
		for (const invoice of edge) {
			if (after === 'leave' && trigger === 'paid') await this.unpay(invoice);
			if (after === 'leave' && trigger === 'overdue') await this.pay(invoice);
			if (after === 'change' && trigger === 'paid') await this.repay(invoice, false);
			if (after === 'change' && trigger === 'overdue') {
				await this.pay(invoice, await this.dateOf(true));
				await this.unpay(invoice);
			}
		}
	}

	async drain(): Promise<void> {
		for (const trigger of this.triggers) await trigger.drain();
	}

	check(): void {
		const wrong: IDataObject[] = [];
		this.checkPaid(wrong);
		this.checkOverdue(wrong);
		this.checkAccepted(wrong);
		expect(wrong).toEqual([]);
	}

	/** How often each key came out of a history. */
	private static times(history: PolledHistory, key: (item: IDataObject) => string): Map<string, number> {
		const times = new Map<string, number>();
		for (const { item } of emittedItems(history)) times.set(key(item), (times.get(key(item)) ?? 0) + 1);
		return times;
	}

	/** Each paidAt of an invoice: at most once; once when a whole-budget poll saw it from start to end; never when paid with it at the activation. */
	private checkPaid(wrong: IDataObject[]): void {
		const history = this.paid;
		const { start, end } = history.activation;
		const tally = totals.paid;
		const times = InvoiceHistory.times(history, (item) => `${String(item.id)}:${String(item.paidAt)}`);
		tally.emitted += [...times.values()].reduce((sum, n) => sum + n, 0);
		for (const invoice of this.invoices) {
			for (const [paidAt, spans] of spansOf(invoice.versions, (i) => invoice.versions[i].paidAt)) {
				const key = `${invoice.id}:${paidAt}`;
				const emitted = times.get(key) ?? 0;
				times.delete(key);
				const known = spans.some((span) => span.from < start && span.to > end);
				const atActivation = spans.some((span) => span.from < end && span.to > start);
				const allowed = !known && spans.some((span) => span.to > start);
				const required = !atActivation && spans.some((span) => span.from > end && fullPollWithin(history, span.from, span.to));
				if (required) tally.required++;
				const problem = emitted > 1 ? 'duplicated' : required && emitted === 0 ? 'lost' : !allowed && emitted > 0 ? 'foreign' : undefined;
				if (!problem) continue;
				tally[problem]++;
				wrong.push({ event: 'invoicePaid', problem, key, emitted, spans });
			}
		}
		for (const [key, emitted] of times) {
			tally.foreign += emitted;
			wrong.push({ event: 'invoicePaid', problem: 'foreign', key, emitted });
		}
	}

	/** Whether a committed whole-budget poll within the ticks saw no change while it read. */
	private quietPolls(history: PolledHistory, from: number, to: number): number {
		const quiet = (poll: CommittedPoll) => !this.changes.some((tick) => tick > poll.start && tick < poll.end);
		return history.committed.slice(1).filter((poll) => poll.full && poll.start > from && poll.end < to && quiet(poll)).length;
	}

	/**
	 * The stretches of being overdue after the activation, grouped where no committed whole-budget poll lay between two
	 * (the trigger cannot have seen the invoice leave). Each group may come out once (not one overdue at the
	 * activation); once it must: the first group a whole-budget poll saw, and a later one when two quiet whole-budget
	 * polls saw the invoice not overdue before it (missing from two readings, it is gone from the snapshot).
	 */
	private checkOverdue(wrong: IDataObject[]): void {
		const history = this.overdue;
		const { start, end } = history.activation;
		const tally = totals.overdue;
		const times = InvoiceHistory.times(history, (item) => String(item.id));
		tally.emitted += [...times.values()].reduce((sum, n) => sum + n, 0);
		for (const invoice of this.invoices) {
			const emitted = times.get(invoice.id) ?? 0;
			times.delete(invoice.id);
			const spans = (spansOf(invoice.versions, (i) => (invoice.versions[i].paidAt === undefined ? 'overdue' : undefined)).get('overdue') ?? []).filter((span) => span.to > start);
			const groups: Span[][] = [];
			for (const span of spans) {
				const last = groups[groups.length - 1];
				if (last && !fullPollWithin(history, last[last.length - 1].to, span.from)) last.push(span);
				else groups.push([span]);
			}
			let lower = 0;
			let upper = 0;
			groups.forEach((group, g) => {
				const [first] = group;
				if (g === 0 && first.from < start && first.to > end) return;
				upper++;
				if (g === 0 && first.from < end) return;
				const seen = group.some((span) => span.from > end && fullPollWithin(history, span.from, span.to));
				const before = groups[g - 1]?.[groups[g - 1].length - 1];
				if (seen && (!before || this.quietPolls(history, before.to, first.from) >= 2)) lower++;
			});
			tally.required += lower;
			const problem = emitted > upper ? 'duplicated' : emitted < lower ? 'lost' : undefined;
			if (!problem) continue;
			tally[problem]++;
			wrong.push({ event: 'invoiceOverdue', problem, id: invoice.id, emitted, lower, upper, spans });
		}
		for (const [id, emitted] of times) {
			tally.foreign += emitted;
			wrong.push({ event: 'invoiceOverdue', problem: 'foreign', id, emitted });
		}
	}

	/** Each acceptance after the activation began: at most once; once when a whole-budget poll began after it. */
	private checkAccepted(wrong: IDataObject[]): void {
		const history = this.accepted;
		const tally = totals.offerAccepted;
		const times = InvoiceHistory.times(history, (item) => String(item.id));
		tally.emitted += [...times.values()].reduce((sum, n) => sum + n, 0);
		for (const offer of this.offers) {
			const emitted = times.get(offer.id) ?? 0;
			times.delete(offer.id);
			const tick = offer.acceptedTick;
			const allowed = tick !== undefined && tick > history.activation.start;
			const required = tick !== undefined && tick > history.activation.end && fullPollWithin(history, tick);
			if (required) tally.required++;
			const problem = emitted > 1 ? 'duplicated' : required && emitted === 0 ? 'lost' : !allowed && emitted > 0 ? 'foreign' : undefined;
			if (!problem) continue;
			tally[problem]++;
			wrong.push({ event: 'offerAccepted', problem, id: offer.id, emitted });
		}
		for (const [id, emitted] of times) {
			tally.foreign += emitted;
			wrong.push({ event: 'offerAccepted', problem: 'foreign', id, emitted });
		}
	}
}

test(`Invoice Paid, Invoice Overdue and Offer Accepted, random histories (${RUNS}): each document reaching its status (each paidAt) comes out once, none lost, none repeated`, async () => {
	await assertHistories(
		async (order) => {
			const history = await InvoiceHistory.start(order);
			return { activate: () => history.activate(), run: (next: Step) => history.run(next), drain: () => history.drain(), check: () => history.check() };
		},
		listOrder,
		step,
		12,
		RUNS,
		() => totals.histories++,
	);
	console.log(`Invoicing property (runs ${RUNS}, seed ${PROPERTY_SEED}): ${JSON.stringify(totals)}`);
	expect(totals.histories).toBeGreaterThanOrEqual(RUNS);
	if (RUNS >= 25) expect(totals.recordedAnew).toBeGreaterThan(0);
	for (const tally of [totals.paid, totals.overdue, totals.offerAccepted]) {
		expect(tally.lost).toBe(0);
		expect(tally.duplicated).toBe(0);
		expect(tally.foreign).toBe(0);
	}
}, 10 * 60_000);
