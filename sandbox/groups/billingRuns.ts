import { randomUUID } from 'node:crypto';
import { page1 } from '../crm';
import { ApiError, apiError } from '../errors';
import { Call, Group } from '../handler';
import { BillingRun, periodDate, recompute, StoredRecurring, tenant, today, totalsOf } from '../invoicing';
import { createDraft, finalise, send } from './invoiceDocuments';
import { periodEnd, recurringOf, refreshed } from './recurringInvoices';

/**
 * Billing runs (api-reference §6, designed): each active schedule is billed once per period up to the run date.
 * The whole run is one synchronous step, so two runs cannot bill the same period, and a second run for the same
 * date finds nothing due.
 */

interface RunInput {
	runDate?: string;
	recurringIds?: string[];
	dryRun: boolean;
}

/** The periods of a schedule due by the run date (missed ones too), as indexes. */
function duePeriods(stored: StoredRecurring, runDate: string): number[] {
	const { recurring } = stored;
	const due: number[] = [];
	for (let index = stored.periodIndex; ; index += 1) {
		const day = periodDate(recurring, index);
		if (day > runDate || (recurring.endDate !== null && day > recurring.endDate)) return due;
		due.push(index);
	}
}

function chosen(call: Call, ids: string[] | undefined): StoredRecurring[] {
	if (ids) return ids.map((id) => recurringOf(call, id));
	return [...tenant(call.store, call.actor).recurring.values()].map(refreshed);
}

/**
 * One invoice draft for one period; finalised and sent when the schedule says so. A failure is reported in
 * `errors`: a draft that could not be made leaves its period due (false), a failed finalise or send keeps the draft.
 */
function bill(call: Call, run: BillingRun, stored: StoredRecurring, index: number): boolean {
	const { recurring } = stored;
	const issueDate = periodDate(recurring, index);
	const extra = { recurringId: recurring.id, periodStart: issueDate, periodEnd: periodEnd(recurring, index) };
	if (run.dryRun) {
		run.plannedDocuments.push({ ...extra, issueDate, grossTotal: totalsOf(recurring.lineItems).grossTotal, currency: recurring.currency });
		return true;
	}
	let created = false;
	try {
		const terms = recurring.paymentTermsDays === null ? {} : { paymentTermsDays: recurring.paymentTermsDays };
		const draft = createDraft(call, 'invoice', { contactId: recurring.contactId, currency: recurring.currency, issueDate, ...terms }, extra);
		draft.document.lineItems = recurring.lineItems.map((line) => ({ ...line }));
		recompute(draft);
		run.createdDocumentIds.push(draft.document.id);
		created = true;
		if (recurring.autoFinalise || recurring.autoSend) finalise(call, draft);
		if (recurring.autoSend) send(call, draft, { attachEInvoice: false });
	} catch (error) {
		if (!(error instanceof ApiError)) throw error;
		const { message } = error.body;
		run.errors.push({ recurringId: recurring.id, message: Array.isArray(message) ? message.join('; ') : String(message) });
	}
	return created;
}

/** Bills the due periods in order, up to the first that could not be made; the schedule moves past those billed. */
function billSchedule(call: Call, run: BillingRun, stored: StoredRecurring): void {
	const { recurring } = stored;
	const due = duePeriods(stored, run.runDate);
	if (!due.length && call.body.recurringIds) run.skipped.push({ recurringId: recurring.id, reason: `not due until ${recurring.nextRunDate}` });
	const billed = due.findIndex((index) => !bill(call, run, stored, index));
	const done = billed < 0 ? due : due.slice(0, billed);
	if (!done.length || run.dryRun) return;
	const last = done[done.length - 1];
	stored.periodIndex = last + 1;
	stored.lastBilled = periodDate(recurring, last);
	recurring.lastRunAt = run.createdAt;
	refreshed(stored);
}

function start(call: Call): BillingRun {
	const { store, actor } = call;
	const input = call.body as unknown as RunInput;
	const runDate = input.runDate ?? today(store);
	if (runDate > today(store)) throw apiError(400, [`runDate must not be after today (${today(store)})`]);
	const run: BillingRun = { id: randomUUID(), runDate, dryRun: input.dryRun, status: 'completed', createdDocumentIds: [], plannedDocuments: [], skipped: [], errors: [], createdAt: store.clock.iso() };
	for (const stored of chosen(call, input.recurringIds)) {
		if (stored.recurring.status === 'active') billSchedule(call, run, stored);
		else run.skipped.push({ recurringId: stored.recurring.id, reason: stored.recurring.status });
	}
	if (run.errors.length) run.status = 'partial';
	tenant(store, actor).billingRuns.push(run);
	return run;
}

function list({ store, actor, query }: Call) {
	const { page, limit } = query as { page: number; limit: number };
	return page1('billingRuns', [...tenant(store, actor).billingRuns].reverse(), { page, limit });
}

export const billingRuns: Group = {
	startBillingRun: start,
	listBillingRuns: list,
	getBillingRun: ({ store, actor, params }) => {
		const run = tenant(store, actor).billingRuns.find((candidate) => candidate.id === params.id);
		if (!run) throw apiError(404, 'Billing run not found');
		return run;
	},
};
