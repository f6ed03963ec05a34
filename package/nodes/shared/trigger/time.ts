import type { IDataObject, IPollFunctions } from 'n8n-workflow';

/** Time as the trigger reads it: moments of records, the API's clock, and the poll's time budget. Pure, no requests. */

/** A moment (ms) from an ISO text or a Date; undefined for anything else. */
export function momentOf(value: unknown): number | undefined {
	if (typeof value !== 'string' && !(value instanceof Date)) return undefined;
	const ms = Date.parse(String(value instanceof Date ? value.toISOString() : value));
	return Number.isNaN(ms) ? undefined : ms;
}

/** The API's clock from an answer's Date header (whole seconds, rounded down); this machine's clock without one. */
export function serverTime(headers: IDataObject): number {
	return momentOf(headers.date) ?? Date.now();
}

/** The Date header counts whole seconds: a record up to a second after it has happened already. */
export const DATE_HEADER_SLACK_MS = 1000;

/** How far this machine's clock may differ from the API's before a range by time is read again with the API's. */
export const CLOCK_SLACK_MS = 5 * 60_000;

/** A range by time was built on this machine's clock, and the API's differs by more than the slack. */
export function clockOff(serverNow: number, now?: number): boolean {
	return now === undefined && Math.abs(serverNow - Date.now()) > CLOCK_SLACK_MS;
}

/** n8n 2.x gives each poll a time budget; half of it is spent reading at most (1.x has none). */
export function pollDeadline(ctx: IPollFunctions): number {
	const budget = typeof ctx.getPollBudgetMs === 'function' ? ctx.getPollBudgetMs() : undefined;
	return typeof budget === 'number' && budget > 0 ? Date.now() + budget / 2 : Infinity;
}

/**
 * A record whose own change time (updatedAt, a booking, a move) lies this close before a reading's first answer, or
 * after it, may have changed while the reading paged: the list may have moved between two page requests. The Date
 * header counts whole seconds, and the API's servers may differ a little.
 */
export const CHANGE_SLACK_MS = 1000;
