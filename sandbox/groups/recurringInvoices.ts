import { randomUUID } from 'node:crypto';
import { page1, tenantRecord } from '../crm';
import { apiError } from '../errors';
import { Call, Group } from '../handler';
import { addDays, Interval, LineInput, lineItemOf, periodDate, Recurring, StoredRecurring, tenant, today } from '../invoicing';

/**
 * Recurring invoices (api-reference §6, designed): a schedule of lines billed every interval from its start
 * date. Periods count from the start date (`periodDate`), so a change of interval keeps the dates aligned and a
 * billing run moves `nextRunDate` on by whole periods. Ended is derived: the next run lies after the end date.
 */

export function recurringOf(call: Call, id: string): StoredRecurring {
	const stored = tenant(call.store, call.actor).recurring.get(id);
	if (!stored) throw apiError(404, 'Recurring invoice not found');
	return refreshed(stored);
}

/** The period dates and status that follow from the schedule's fields. */
export function refreshed(stored: StoredRecurring): StoredRecurring {
	const { recurring } = stored;
	recurring.nextRunDate = periodDate(recurring, stored.periodIndex);
	const ended = recurring.endDate !== null && recurring.nextRunDate > recurring.endDate;
	if (ended) recurring.status = 'ended';
	else if (recurring.status === 'ended') recurring.status = 'active';
	return stored;
}

/** The first period index whose date is after `date` (or on it, when `inclusive`). */
function firstPeriodAfter(recurring: Recurring, date: string, inclusive: boolean): number {
	let index = 0;
	for (;;) {
		const day = periodDate(recurring, index);
		if (day > date || (inclusive && day === date)) return index;
		index += 1;
	}
}

/** The last day of period `index`: the day before the next period starts. */
export function periodEnd(recurring: Recurring, index: number): string {
	return addDays(periodDate(recurring, index + 1), -1);
}

function linesOf(call: Call, lines: LineInput[], currency: string) {
	const { products, settings } = tenant(call.store, call.actor);
	return lines.map((line, index) => lineItemOf(line, index, products, settings.defaultTaxRate, currency));
}

function checkEnd(recurring: Recurring): void {
	if (recurring.endDate !== null && recurring.endDate < recurring.startDate) throw apiError(400, [`endDate must not be before startDate (${recurring.startDate})`]);
}

function create(call: Call): Recurring {
	const { store, actor, body } = call;
	tenantRecord(store, actor, 'contacts', body.contactId as string);
	const now = store.clock.iso();
	const recurring: Recurring = {
		id: randomUUID(),
		name: body.name as string,
		contactId: body.contactId as string,
		lineItems: [],
		currency: (body.currency as string | undefined) ?? tenant(store, actor).settings.currency,
		paymentTermsDays: (body.paymentTermsDays as number | undefined) ?? null,
		interval: body.interval as Interval,
		intervalCount: body.intervalCount as number,
		startDate: body.startDate as string,
		endDate: (body.endDate as string | undefined) ?? null,
		nextRunDate: body.startDate as string,
		autoFinalise: body.autoFinalise as boolean,
		autoSend: body.autoSend as boolean,
		status: 'active',
		lastRunAt: null,
		createdAt: now,
		updatedAt: now,
	};
	recurring.lineItems = linesOf(call, body.lineItems as LineInput[], recurring.currency);
	checkEnd(recurring);
	const stored = refreshed({ recurring, periodIndex: 0, lastBilled: null });
	tenant(store, actor).recurring.set(recurring.id, stored);
	return recurring;
}

function update(call: Call): Recurring {
	const { store, body, params } = call;
	const stored = recurringOf(call, params.id);
	const { recurring } = stored;
	if (body.startDate !== undefined && stored.lastBilled !== null && body.startDate !== recurring.startDate) {
		throw apiError(409, 'startDate can only change before the first billing run');
	}
	const { lineItems, ...fields } = body;
	Object.assign(recurring, fields, { updatedAt: store.clock.iso() });
	if (lineItems) recurring.lineItems = linesOf(call, lineItems as LineInput[], recurring.currency);
	checkEnd(recurring);
	// The next period: the first after the last one billed (the first one when none was billed).
	stored.periodIndex = stored.lastBilled === null ? 0 : firstPeriodAfter(recurring, stored.lastBilled, false);
	return refreshed(stored).recurring;
}

function list(call: Call) {
	const { status, contactId, page, limit } = call.query as { status?: string; contactId?: string; page: number; limit: number };
	const found = [...tenant(call.store, call.actor).recurring.values()]
		.map((stored) => refreshed(stored).recurring)
		.filter((recurring) => (!status || recurring.status === status) && (!contactId || recurring.contactId === contactId))
		.reverse();
	return page1('recurring', found, { page, limit });
}

function pause(call: Call): Recurring {
	const { recurring } = recurringOf(call, call.params.id);
	if (recurring.status !== 'active') throw apiError(409, `Only active recurring invoices can be paused; this one is ${recurring.status}`);
	return Object.assign(recurring, { status: 'paused', updatedAt: call.store.clock.iso() });
}

/** Periods that passed while paused are not billed: the next run is the first period from today on. */
function resume(call: Call): Recurring {
	const stored = recurringOf(call, call.params.id);
	const { recurring } = stored;
	if (recurring.status !== 'paused') throw apiError(409, `Only paused recurring invoices can be resumed; this one is ${recurring.status}`);
	Object.assign(recurring, { status: 'active', updatedAt: call.store.clock.iso() });
	stored.periodIndex = Math.max(stored.periodIndex, firstPeriodAfter(recurring, today(call.store), true));
	return refreshed(stored).recurring;
}

export const recurringInvoices: Group = {
	listRecurring: list,
	createRecurring: create,
	getRecurring: (call) => recurringOf(call, call.params.id).recurring,
	updateRecurring: update,
	deleteRecurring: (call) => {
		recurringOf(call, call.params.id);
		tenant(call.store, call.actor).recurring.delete(call.params.id);
	},
	pauseRecurring: pause,
	resumeRecurring: resume,
};
