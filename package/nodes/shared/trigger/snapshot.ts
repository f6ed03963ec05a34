import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import type { Pagination } from '../transport/pagination';
import type { EventFilters, WatchedEvent } from './watch';
import { readPage } from '../transport/pagination';
import { clockOff, momentOf, pollDeadline, serverTime } from './time';
import { hashKey, isInstant, LOOKBACK_MS, readState, seenSet, shortHash } from './watermark';

/**
 * Events that no list order shows (api-reference §8: no appointment list is sorted by update time, so a cancellation
 * or a reschedule moves nothing to the top). Every poll reads a window of records (nearest first) and compares each
 * with a compact snapshot of what the last poll saw: an id hash and a short print of the state that matters. A record
 * the snapshot does not know (new in the window, or beyond the snapshot's bound) fires when its own event time is
 * after the last poll, less the lookback.
 *
 * State: 8 characters of id hash, the print, and one character that says whether the record was missing from the
 * last reading (a record may slip between two pages while the list changes: missing from a whole reading of several
 * pages, it is kept for one poll, and as long as the list's total changes while it is read; missing from a reading of
 * one page, it is gone). At most SNAPSHOT_MAX records: 2,000 × (9 + print) characters, under 30 KB. When the window
 * holds more, the snapshot keeps first the records whose own event time the next poll would still read as new (else
 * they would fire again), then the nearest (or the newest, `keepNewest`); the others fire by their event time only.
 *
 * A poll reads at most MAX_PAGES pages (and in n8n 2.x half of its time budget). A reading cut short is compared as
 * far as it goes: its records fire as in a whole reading, and the snapshot entries of records it did not reach are
 * kept as they were (room permitting), so they fire when a later poll reads them.
 *
 * The same comparison makes the events of a record entering a list that has no order to show it (enteringList: the
 * invoices of status overdue): the list is the window, read whole, and the print is empty (9 characters a record).
 */

export const SNAPSHOT_MAX = 2000;
const ID_HASH = 8;
const STATE_VERSION = 1;
/** Pages read at most in one poll: the window's records beyond them are not seen (logged). */
export const MAX_PAGES = 100;
/** The page size of a window reading. */
const PAGE_SIZE = 100;

/** The words of the warnings when a reading exceeds a bound. */
export interface Limits {
	/** What is read: "the Watched Window", "the list of paid invoices". */
	scope: string;
	/** The records, plural: "appointments". */
	records: string;
	/** Which are read when not all can be: those that "start first". */
	first: string;
	/** Which the snapshot keeps over its bound, and how the others fire. */
	kept: string;
	othersFire: string;
	/** What makes a record recent: "cancelled or moved" (in the last minute). */
	recent: string;
	/** What the user can change. */
	narrow: string;
}

export interface SnapshotEvent extends EventFilters {
	noun: string;
	list: { path: string; qs: IDataObject; pagination: Pagination };
	/** The window's query keys, from the API's now (or this machine's, before the first answer); none: the whole list. */
	window?: (now: number) => IDataObject;
	/** The state that matters, in `printWidth` characters. */
	print: (record: IDataObject) => string;
	printWidth: number;
	/**
	 * Whether the record shows the event: against its print at the last poll, or (unknown) by its event time after
	 * `since`; `whole`: the last poll's snapshot held every record it read (none was beyond the bound).
	 */
	fired: (record: IDataObject, before: string | undefined, since: number, whole: boolean) => boolean;
	/** When the event happened, for Fetch Test Event (the newest is shown). */
	happenedAt: (record: IDataObject) => unknown;
	/** Words of the warnings when a reading exceeds a bound. */
	limits: Limits;
	/** Over the bound, remember the records of the newest event times (default: the first read). */
	keepNewest?: boolean;
	/** The full record, one read each (the Full Record option). */
	detail?: WatchedEvent['detail'];
	/**
	 * The occurrence key of the earlier release, which watched this event by a watermark (watermark.ts): its stored
	 * position is read once, and what happened after it (by `happenedAt`) and was not emitted yet comes out.
	 */
	carryOver?: (record: IDataObject) => string;
}

interface SnapshotState {
	v: typeof STATE_VERSION;
	watch: string;
	/** The API's now at the last reading. */
	at: string;
	/** The records of the last reading: id hash, print, missing flag ("0" read, "1" missing once). */
	snap: string;
	/** The last reading held more records than the bound: those beyond it are not in `snap`. */
	over?: true;
}

interface Entry {
	print: string;
	missing: boolean;
}

function entryWidth(event: SnapshotEvent): number {
	return ID_HASH + event.printWidth + 1;
}

function parseSnap(event: SnapshotEvent, snap: string): Map<string, Entry> {
	const width = entryWidth(event);
	const entries = new Map<string, Entry>();
	for (let i = 0; i + width <= snap.length; i += width) {
		const entry = snap.slice(i, i + width);
		entries.set(entry.slice(0, ID_HASH), { print: entry.slice(ID_HASH, -1), missing: entry.endsWith('1') });
	}
	return entries;
}

function readSnapshotState(event: SnapshotEvent, data: IDataObject, watch: string): { state?: SnapshotState; problem?: string } {
	const state = data.state as Partial<SnapshotState> | undefined;
	if (state === undefined) return {};
	const valid =
		typeof state === 'object' &&
		state !== null &&
		state.v === STATE_VERSION &&
		typeof state.watch === 'string' &&
		isInstant(state.at) &&
		typeof state.snap === 'string' &&
		/^[\w-]*$/.test(state.snap) &&
		state.snap.length % entryWidth(event) === 0 &&
		state.snap.length <= SNAPSHOT_MAX * entryWidth(event) &&
		(state.over === undefined || state.over === true);
	if (!valid) return { problem: 'unreadable' };
	if (state.watch !== watch) return { problem: 'otherWatch' };
	return { state: state as SnapshotState };
}

interface WindowReading {
	records: IDataObject[];
	serverNow: number;
	/** Why the reading stopped before the list's end: the page bound or the poll's time. */
	cut?: 'pages' | 'time';
	pages: number;
	/** The list's size as the first page says it. */
	total?: number;
	/** The list's total stayed the same on every page read. */
	steady: boolean;
}

/** The window, nearest first, in pages: cut short by the page bound or the poll's budget. */
async function readWindow(ctx: IPollFunctions, event: SnapshotEvent, qs: IDataObject, deadline: number, now?: number): Promise<WindowReading> {
	const request = { method: 'GET' as const, path: event.list.path, qs: { ...event.list.qs, ...qs, ...event.window?.(now ?? Date.now()) } };
	const records: IDataObject[] = [];
	let serverNow = Date.now();
	let total: number | undefined;
	const totals = new Set<unknown>();
	for (let index = 0; index < MAX_PAGES; index++) {
		if (index > 0 && Date.now() >= deadline) return { records, serverNow, cut: 'time', pages: index, total, steady: false };
		const page = await readPage(ctx, request, event.list.pagination, index, undefined, PAGE_SIZE);
		if (index === 0) serverNow = serverTime(page.headers);
		if (index === 0 && event.window && clockOff(serverNow, now)) return await readWindow(ctx, event, qs, deadline, serverNow);
		if (index === 0 && typeof page.body.total === 'number') total = page.body.total;
		totals.add(page.body.total);
		records.push(...page.items);
		if (!page.more) return { records, serverNow, pages: index + 1, total, steady: totals.size <= 1 };
	}
	return { records, serverNow, cut: 'pages', pages: MAX_PAGES, total, steady: false };
}

/** Newest event time first; records without one last (the sort is stable). */
function newestFirst(event: SnapshotEvent, records: IDataObject[]): IDataObject[] {
	const at = new Map(records.map((record) => [record, momentOf(event.happenedAt(record)) ?? -Infinity]));
	return [...records].sort((a, b) => at.get(b)! - at.get(a)!);
}

/**
 * The snapshot of this reading, and what fired (`fires` decides for a record). Kept first: the records whose event
 * time the next poll (from `nextSince`) would read as new, then the others as read (nearest first, or newest event
 * first), then the last snapshot's entries this reading did not see: of a cut reading all as they were; of a whole
 * reading of several pages those that may have slipped between pages (once; as long as the list's total changed
 * while it was read); up to the bound.
 */
function compare(event: SnapshotEvent, previous: Map<string, Entry>, reading: WindowReading, fires: (record: IDataObject, before: string | undefined) => boolean, nextSince: number) {
	const read = new Map<string, IDataObject>();
	for (const record of event.keepNewest ? newestFirst(event, reading.records) : reading.records) {
		const id = shortHash(String(record.id), ID_HASH);
		if (!read.has(id)) read.set(id, record);
	}
	const fired: IDataObject[] = [];
	const recent: string[] = [];
	const others: string[] = [];
	for (const [id, record] of read) {
		if (fires(record, previous.get(id)?.print)) fired.push(record);
		(event.fired(record, undefined, nextSince, false) ? recent : others).push(id);
	}
	const next = new Map<string, Entry>();
	for (const id of [...recent, ...others].slice(0, SNAPSHOT_MAX)) next.set(id, { print: event.print(read.get(id)!), missing: false });
	for (const [id, entry] of previous) {
		if (next.size >= SNAPSHOT_MAX) break;
		if (read.has(id)) continue;
		if (reading.cut) next.set(id, entry);
		else if (reading.pages > 1 && (!entry.missing || !reading.steady)) next.set(id, { print: entry.print, missing: true });
	}
	return { next, fired, read: read.size, unremembered: Math.max(0, recent.length - SNAPSHOT_MAX) };
}

function snapOf(entries: Map<string, Entry>): string {
	return [...entries].map(([id, entry]) => `${id}${entry.print}${entry.missing ? '1' : '0'}`).join('');
}

const count = (n: number) => n.toLocaleString('en-US');
const sentence = (text: string) => `${text[0].toUpperCase()}${text.slice(1)}`;

/** The warnings of a reading that exceeds a bound: the pages a poll reads, its time, the snapshot. */
function warnLimits(ctx: IPollFunctions, event: SnapshotEvent, reading: WindowReading, read: number, unremembered: number): void {
	const { scope, records, first, kept, othersFire, recent, narrow } = event.limits;
	const pages = reading.pages === 1 ? '1 page' : `${reading.pages} pages`;
	if (reading.cut === 'pages') {
		const total = reading.total !== undefined ? count(reading.total) : `more than ${count(MAX_PAGES * PAGE_SIZE)}`;
		ctx.logger.warn(`${sentence(scope)} holds ${total} ${records}, more than the ${count(MAX_PAGES * PAGE_SIZE)} (${MAX_PAGES} pages of ${PAGE_SIZE}) a poll reads: the trigger watches the ${count(reading.records.length)} that ${first}; changes to later ones are not seen. ${narrow}`);
	}
	if (reading.cut === 'time') {
		ctx.logger.warn(`The poll's time ran out after ${pages} of ${scope}: the trigger compared the ${count(reading.records.length)} ${records} that ${first}; later ones are compared when a poll reads them. ${narrow}`);
	}
	if (read > SNAPSHOT_MAX) {
		ctx.logger.warn(`The trigger read ${count(read)} ${records} of ${scope} and remembers ${count(SNAPSHOT_MAX)} of them (${kept}); ${othersFire}. ${narrow}`);
	}
	if (unremembered > 0) {
		ctx.logger.warn(`${count(unremembered)} ${records} ${recent} in the last minute did not fit in what the trigger remembers; they may fire again at the next poll.`);
	}
}

/** The records as output: each read on its own with Full Record (`complete`). */
type Complete = (records: IDataObject[]) => Promise<IDataObject[]>;
const asListed: Complete = (records) => Promise.resolve(records);

/** Fetch Test Event: the newest record of the window that shows the event, the state untouched; none: null (as in watch.ts). */
async function testEvent(ctx: IPollFunctions, event: SnapshotEvent, qs: IDataObject, complete: Complete): Promise<INodeExecutionData[][] | null> {
	const { records } = await readWindow(ctx, event, qs, pollDeadline(ctx));
	const shown = records
		.map((record) => ({ record, at: momentOf(event.happenedAt(record)) }))
		.filter((candidate): candidate is { record: IDataObject; at: number } => candidate.at !== undefined && event.fired(candidate.record, undefined, -Infinity, false))
		.sort((a, b) => b.at - a.at);
	if (shown.length) return [(await complete([shown[0].record])).map((json) => ({ json }))];
	const loosen = event.window ? 'widen the window or loosen the filters' : 'loosen the filters';
	ctx.logger.info(`Fetch Test Event: no ${event.noun} in the trigger's ${event.window ? 'window' : 'list'} matches the filters yet. Make one (or ${loosen}) and fetch again.`);
	return null;
}

/**
 * The earlier release's position of an event that now keeps a snapshot (carryOver): its watermark and the keys it
 * emitted after it. A record fires when its event time is after the watermark and its old key was not emitted.
 */
function carriedPosition(event: SnapshotEvent, data: IDataObject, watch: string): ((record: IDataObject) => boolean) | 'otherWatch' | undefined {
	const key = event.carryOver;
	if (!key) return undefined;
	const { state, problem } = readState(data, watch);
	if (!state) return problem === 'otherWatch' ? problem : undefined;
	const since = Date.parse(state.since);
	const seen = seenSet(state.seen);
	return (record) => (momentOf(event.happenedAt(record)) ?? -Infinity) > since && !seen.has(hashKey(key(record)));
}

/** One poll of a snapshot event: null when nothing fired. Errors leave the state as it was. */
export async function pollSnapshot(
	ctx: IPollFunctions,
	event: SnapshotEvent,
	qs: IDataObject,
	watch: string,
	onStart: () => Promise<void>,
	complete: Complete = asListed,
): Promise<INodeExecutionData[][] | null> {
	if (ctx.getMode() === 'manual') return await testEvent(ctx, event, qs, complete);
	const data = ctx.getWorkflowStaticData('node');
	const read = readSnapshotState(event, data, watch);
	const { state } = read;
	const earlier = read.problem === 'unreadable' ? carriedPosition(event, data, watch) : undefined;
	const carried = typeof earlier === 'function' ? earlier : undefined;
	const problem = earlier === 'otherWatch' ? earlier : read.problem;
	if (!state && !carried) await onStart();
	const reading = await readWindow(ctx, event, qs, pollDeadline(ctx));
	const previous = state ? parseSnap(event, state.snap) : new Map<string, Entry>();
	const since = state ? Date.parse(state.at) - LOOKBACK_MS : Infinity;
	const whole = state !== undefined && state.over !== true;
	const fires = carried ? (record: IDataObject) => carried(record) : (record: IDataObject, before: string | undefined) => event.fired(record, before, since, whole);
	const { next, fired, read: readCount, unremembered } = compare(event, previous, reading, fires, reading.serverNow - LOOKBACK_MS);
	// A reading cut short or over the bound leaves records the snapshot does not hold: the next poll fires those by time.
	const over = readCount > SNAPSHOT_MAX || reading.cut !== undefined;
	// Oldest first, as the other events emit.
	const output = state || carried ? await complete(event.keepNewest ? fired.reverse() : fired) : [];
	warnLimits(ctx, event, reading, readCount, unremembered);
	if (carried) ctx.logger.info(`The trigger now remembers the ${event.noun}s it has seen; it read on from the position the earlier version stored.`);
	else if (problem === 'unreadable') ctx.logger.warn(`The trigger's stored snapshot could not be read (damaged, or written by another version); it watches again from now. Changes since the last poll are not emitted.`);
	if (problem === 'otherWatch') ctx.logger.info(`The trigger's event${event.window ? ', filters or window' : ' or filters'} changed; it watches from now.`);
	for (const key of Object.keys(data)) delete data[key];
	const written: SnapshotState = { v: STATE_VERSION, watch, at: new Date(reading.serverNow).toISOString(), snap: snapOf(next), ...(over ? { over: true as const } : {}) };
	data.state = written as unknown as IDataObject;
	return output.length ? [output.map((json) => ({ json }))] : null;
}

/** An event that is a record entering a list: the invoices of status paid. What `enteringList` needs of it. */
export interface EnteringEvent extends EventFilters {
	noun: string;
	list: { path: string; qs: IDataObject; pagination: Pagination };
	/** When the record entered the list, as far as its fields tell (for Fetch Test Event and beyond the bound). */
	happenedAt: (record: IDataObject) => unknown;
	detail?: WatchedEvent['detail'];
	carryOver?: (record: IDataObject) => string;
}

/**
 * A record entering a list fires once, whatever later changes its fields (a document sent again, a reminder): each
 * poll reads the list whole and remembers the IDs in it (9 characters each, at most SNAPSHOT_MAX, those of the newest
 * event times). An ID not remembered fires; when the last reading held more than the bound, only if its event time is
 * after the last poll (less the lookback). A record that leaves the list and enters it again fires again: missing
 * from a reading of one page, or from two readings in a row (compare).
 */
export function enteringList(definition: EnteringEvent): SnapshotEvent {
	return {
		...definition,
		print: () => '',
		printWidth: 0,
		keepNewest: true,
		limits: {
			scope: `the list of ${definition.noun}s`,
			records: `${definition.noun}s`,
			first: 'come first in the list',
			kept: 'those of the newest dates',
			othersFire: 'the others fire by their own date after the last poll only',
			recent: 'that entered the list',
			narrow: 'Narrow the list with the trigger\'s Filters.',
		},
		fired: (record, before, since, whole) => before === undefined && (whole || (momentOf(definition.happenedAt(record)) ?? -Infinity) > since),
	};
}
