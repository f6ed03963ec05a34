import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import type { Pagination } from '../transport/pagination';
import type { EventFilters } from './watch';
import { readPage } from '../transport/pagination';
import { clockOff, momentOf, pollDeadline, serverTime } from './time';
import { isInstant, LOOKBACK_MS, shortHash } from './watermark';

/**
 * Events that no list order shows (api-reference §8: no appointment list is sorted by update time, so a cancellation
 * or a reschedule moves nothing to the top). Every poll reads a window of records (nearest first) and compares each
 * with a compact snapshot of what the last poll saw: an id hash and a short print of the state that matters. A record
 * the snapshot does not know (new in the window, or beyond the snapshot's bound) fires when its own event time is
 * after the last poll, less the lookback.
 *
 * State: 8 characters of id hash, the print, and one character that says whether the record was missing from the
 * last reading (a record may slip between two pages while the list changes; it is kept for one poll). At most
 * SNAPSHOT_MAX records: 2,000 × (9 + print) characters, under 30 KB. When the window holds more, the snapshot keeps
 * first the records whose own event time the next poll would still read as new (else they would fire again), then
 * the nearest; the others fire by their event time only.
 *
 * A poll reads at most MAX_PAGES pages (and in n8n 2.x half of its time budget). A reading cut short is compared as
 * far as it goes: its records fire as in a whole reading, and the snapshot entries of records it did not reach are
 * kept as they were (room permitting), so they fire when a later poll reads them.
 */

export const SNAPSHOT_MAX = 2000;
const ID_HASH = 8;
const STATE_VERSION = 1;
/** Pages read at most in one poll: the window's records beyond them are not seen (logged). */
export const MAX_PAGES = 100;
/** The page size of a window reading. */
const PAGE_SIZE = 100;

export interface SnapshotEvent extends EventFilters {
	noun: string;
	list: { path: string; qs: IDataObject; pagination: Pagination };
	/** The window's query keys, from the API's now (or this machine's, before the first answer). */
	window: (now: number) => IDataObject;
	/** The state that matters, in `printWidth` characters. */
	print: (record: IDataObject) => string;
	printWidth: number;
	/** Whether the record shows the event: against its print at the last poll, or (unknown) by its event time after `since`. */
	fired: (record: IDataObject, before: string | undefined, since: number) => boolean;
	/** When the event happened, for Fetch Test Event (the newest is shown). */
	happenedAt: (record: IDataObject) => unknown;
	/** Words of the warnings when a window exceeds a bound. */
	limits: {
		/** The records of the window, plural ("appointments"). */
		records: string;
		/** The window's order: "start first". */
		first: string;
		/** What an event time is ("cancellation or move"), and what makes it recent ("cancelled or moved"). */
		eventTime: string;
		recent: string;
		/** What the user can change. */
		narrow: string;
	};
}

interface SnapshotState {
	v: typeof STATE_VERSION;
	watch: string;
	/** The API's now at the last reading. */
	at: string;
	/** The records of the last reading: id hash, print, missing flag ("0" read, "1" missing once). */
	snap: string;
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
		state.snap.length % entryWidth(event) === 0;
	if (!valid) return { problem: 'unreadable' };
	if (state.watch !== watch) return { problem: 'otherWatch' };
	return { state: state as SnapshotState };
}

interface WindowReading {
	records: IDataObject[];
	serverNow: number;
	/** Why the reading stopped before the window's end: the page bound or the poll's time. */
	cut?: 'pages' | 'time';
	pages: number;
	/** The window's size as the first page says it. */
	total?: number;
}

/** The window, nearest first, in pages: cut short by the page bound or the poll's budget. */
async function readWindow(ctx: IPollFunctions, event: SnapshotEvent, qs: IDataObject, deadline: number, now?: number): Promise<WindowReading> {
	const request = { method: 'GET' as const, path: event.list.path, qs: { ...event.list.qs, ...qs, ...event.window(now ?? Date.now()) } };
	const records: IDataObject[] = [];
	let serverNow = Date.now();
	let total: number | undefined;
	for (let index = 0; index < MAX_PAGES; index++) {
		if (index > 0 && Date.now() >= deadline) return { records, serverNow, cut: 'time', pages: index, total };
		const page = await readPage(ctx, request, event.list.pagination, index, undefined, PAGE_SIZE);
		if (index === 0) serverNow = serverTime(page.headers);
		if (index === 0 && clockOff(serverNow, now)) return await readWindow(ctx, event, qs, deadline, serverNow);
		if (index === 0 && typeof page.body.total === 'number') total = page.body.total;
		records.push(...page.items);
		if (!page.more) return { records, serverNow, pages: index + 1, total };
	}
	return { records, serverNow, cut: 'pages', pages: MAX_PAGES, total };
}

/**
 * The snapshot of this reading, and what fired. Kept first: the records whose event time the next poll (from
 * `nextSince`) would read as new, then the others as read (nearest first), then the last snapshot's entries this
 * reading did not see: of a whole reading those missing once, of a cut one all as they were; up to the bound.
 */
function compare(event: SnapshotEvent, previous: Map<string, Entry>, records: IDataObject[], since: number, nextSince: number, whole: boolean) {
	const read = new Map<string, IDataObject>();
	for (const record of records) {
		const id = shortHash(String(record.id), ID_HASH);
		if (!read.has(id)) read.set(id, record);
	}
	const fired: IDataObject[] = [];
	const recent: string[] = [];
	const others: string[] = [];
	for (const [id, record] of read) {
		if (event.fired(record, previous.get(id)?.print, since)) fired.push(record);
		(event.fired(record, undefined, nextSince) ? recent : others).push(id);
	}
	const next = new Map<string, Entry>();
	for (const id of [...recent, ...others].slice(0, SNAPSHOT_MAX)) next.set(id, { print: event.print(read.get(id)!), missing: false });
	for (const [id, entry] of previous) {
		if (next.size >= SNAPSHOT_MAX) break;
		if (read.has(id)) continue;
		if (!whole) next.set(id, entry);
		else if (!entry.missing) next.set(id, { print: entry.print, missing: true });
	}
	return { next, fired, read: read.size, unremembered: Math.max(0, recent.length - SNAPSHOT_MAX) };
}

function snapOf(entries: Map<string, Entry>): string {
	return [...entries].map(([id, entry]) => `${id}${entry.print}${entry.missing ? '1' : '0'}`).join('');
}

const count = (n: number) => n.toLocaleString('en-US');

/** The warnings of a reading that exceeds a bound: the pages a poll reads, its time, the snapshot. */
function warnLimits(ctx: IPollFunctions, event: SnapshotEvent, reading: WindowReading, read: number, unremembered: number): void {
	const { records, first, eventTime, recent, narrow } = event.limits;
	const pages = reading.pages === 1 ? '1 page' : `${reading.pages} pages`;
	if (reading.cut === 'pages') {
		const total = reading.total !== undefined ? count(reading.total) : `more than ${count(MAX_PAGES * PAGE_SIZE)}`;
		ctx.logger.warn(`The Watched Window holds ${total} ${records}, more than the ${count(MAX_PAGES * PAGE_SIZE)} (${MAX_PAGES} pages of ${PAGE_SIZE}) a poll reads: the trigger watches the ${count(reading.records.length)} that ${first}; changes to later ones are not seen. ${narrow}`);
	}
	if (reading.cut === 'time') {
		ctx.logger.warn(`The poll's time ran out after ${pages} of the Watched Window: the trigger compared the ${count(reading.records.length)} ${records} that ${first}; later ones are compared when a poll reads them. ${narrow}`);
	}
	if (read > SNAPSHOT_MAX) {
		ctx.logger.warn(`The trigger read ${count(read)} ${records} of the Watched Window and remembers ${count(SNAPSHOT_MAX)} of them (those ${recent} in the last minute first, then those that ${first}); the others fire by their own time of ${eventTime} after the last poll. ${narrow}`);
	}
	if (unremembered > 0) {
		ctx.logger.warn(`${count(unremembered)} ${records} ${recent} in the last minute did not fit in what the trigger remembers; they may fire again at the next poll.`);
	}
}

/** Fetch Test Event: the newest record of the window that shows the event, the state untouched; none: null (as in watch.ts). */
async function testEvent(ctx: IPollFunctions, event: SnapshotEvent, qs: IDataObject): Promise<INodeExecutionData[][] | null> {
	const { records } = await readWindow(ctx, event, qs, pollDeadline(ctx));
	const shown = records
		.map((record) => ({ record, at: momentOf(event.happenedAt(record)) }))
		.filter((candidate): candidate is { record: IDataObject; at: number } => candidate.at !== undefined && event.fired(candidate.record, undefined, -Infinity))
		.sort((a, b) => b.at - a.at);
	if (shown.length) return [[{ json: shown[0].record }]];
	ctx.logger.info(`Fetch Test Event: no ${event.noun} in the trigger's window matches the filters yet. Make one (or widen the window or loosen the filters) and fetch again.`);
	return null;
}

/** One poll of a snapshot event: null when nothing fired. Errors leave the state as it was. */
export async function pollSnapshot(ctx: IPollFunctions, event: SnapshotEvent, qs: IDataObject, watch: string, onStart: () => Promise<void>): Promise<INodeExecutionData[][] | null> {
	if (ctx.getMode() === 'manual') return await testEvent(ctx, event, qs);
	const data = ctx.getWorkflowStaticData('node');
	const { state, problem } = readSnapshotState(event, data, watch);
	if (!state) await onStart();
	const reading = await readWindow(ctx, event, qs, pollDeadline(ctx));
	const previous = state ? parseSnap(event, state.snap) : new Map<string, Entry>();
	const since = state ? Date.parse(state.at) - LOOKBACK_MS : Infinity;
	const { next, fired, read, unremembered } = compare(event, previous, reading.records, since, reading.serverNow - LOOKBACK_MS, reading.cut === undefined);
	warnLimits(ctx, event, reading, read, unremembered);
	if (problem === 'unreadable') ctx.logger.warn(`The trigger's stored snapshot could not be read (damaged, or written by another version); it watches again from now. Changes since the last poll are not emitted.`);
	if (problem === 'otherWatch') ctx.logger.info('The trigger\'s event, filters or window changed; it watches from now.');
	for (const key of Object.keys(data)) delete data[key];
	data.state = { v: STATE_VERSION, watch, at: new Date(reading.serverNow).toISOString(), snap: snapOf(next) } satisfies SnapshotState as unknown as IDataObject;
	if (!state) return null;
	return fired.length ? [fired.map((json) => ({ json }))] : null;
}
