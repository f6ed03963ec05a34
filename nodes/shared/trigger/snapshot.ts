import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import type { Pagination } from '../transport/pagination';
import type { EventFilters } from './watch';
import { readPage } from '../transport/pagination';
import { clockOff, momentOf, pollDeadline, serverTime } from './time';
import { isInstant, LOOKBACK_MS, shortHash } from './watermark';

/**
 * Events that no list order shows (api-reference §8: no appointment list is sorted by update time, so a cancellation
 * or a reschedule moves nothing to the top). Every poll reads a window of records whole and compares each with a
 * compact snapshot of what the last poll saw: an id hash and a short print of the state that matters. A record the
 * snapshot does not know (new in the window, or beyond the snapshot's bound) fires when its own event time is after
 * the last poll, less the lookback.
 *
 * State: 8 characters of id hash, the print, and one character that says whether the record was missing from the
 * last reading (a record may slip between two pages while the list changes; it is kept for one poll). At most
 * SNAPSHOT_MAX records: 2,000 × (9 + print) characters, under 30 KB.
 */

export const SNAPSHOT_MAX = 2000;
const ID_HASH = 8;
const STATE_VERSION = 1;
/** Pages read at most in one poll: the window's records beyond them are not seen (logged). */
const MAX_PAGES = 100;

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
	complete: boolean;
	steady: boolean;
}

/** The whole window, in pages; incomplete when the poll's budget or the page bound ends it first. */
async function readWindow(ctx: IPollFunctions, event: SnapshotEvent, qs: IDataObject, deadline: number, now?: number): Promise<WindowReading> {
	const request = { method: 'GET' as const, path: event.list.path, qs: { ...event.list.qs, ...qs, ...event.window(now ?? Date.now()) } };
	const records: IDataObject[] = [];
	const totals = new Set<unknown>();
	let serverNow = Date.now();
	for (let index = 0; index < MAX_PAGES; index++) {
		if (index > 0 && Date.now() >= deadline) return { records, serverNow, complete: false, steady: false };
		const page = await readPage(ctx, request, event.list.pagination, index);
		if (index === 0) serverNow = serverTime(page.headers);
		if (index === 0 && clockOff(serverNow, now)) return await readWindow(ctx, event, qs, deadline, serverNow);
		totals.add(page.body.total);
		records.push(...page.items);
		if (!page.more) return { records, serverNow, complete: true, steady: totals.size <= 1 };
	}
	return { records, serverNow, complete: false, steady: false };
}

/** The snapshot of this reading, and what fired: records read first (nearest first), then those missing once, up to the bound. */
function compare(event: SnapshotEvent, previous: Map<string, Entry>, records: IDataObject[], since: number) {
	const next = new Map<string, Entry>();
	const fired: IDataObject[] = [];
	for (const record of records) {
		const id = shortHash(String(record.id), ID_HASH);
		if (next.has(id)) continue;
		if (event.fired(record, previous.get(id)?.print, since)) fired.push(record);
		if (next.size < SNAPSHOT_MAX) next.set(id, { print: event.print(record), missing: false });
	}
	for (const [id, entry] of previous) {
		if (!next.has(id) && !entry.missing && next.size < SNAPSHOT_MAX) next.set(id, { print: entry.print, missing: true });
	}
	return { next, fired, over: records.length > SNAPSHOT_MAX };
}

function snapOf(entries: Map<string, Entry>): string {
	return [...entries].map(([id, entry]) => `${id}${entry.print}${entry.missing ? '1' : '0'}`).join('');
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
	if (!reading.complete) {
		ctx.logger.warn(`The trigger could not read the whole window of ${event.noun}s in one poll (more than ${MAX_PAGES} pages, or the poll's time ran out); nothing was emitted and it reads again at the next poll. Narrow the window in the trigger's options.`);
		return null;
	}
	const previous = state ? parseSnap(event, state.snap) : new Map<string, Entry>();
	const since = state ? Date.parse(state.at) - LOOKBACK_MS : Infinity;
	const { next, fired, over } = compare(event, previous, reading.records, since);
	if (over) ctx.logger.warn(`The window holds ${reading.records.length} ${event.noun}s; the trigger remembers ${SNAPSHOT_MAX}. Those beyond fire by their own event time only. Narrow the window in the trigger's options.`);
	if (problem === 'unreadable') ctx.logger.warn(`The trigger's stored snapshot could not be read (damaged, or written by another version); it watches again from now. Changes since the last poll are not emitted.`);
	if (problem === 'otherWatch') ctx.logger.info('The trigger\'s event, filters or window changed; it watches from now.');
	for (const key of Object.keys(data)) delete data[key];
	data.state = { v: STATE_VERSION, watch, at: new Date(reading.serverNow).toISOString(), snap: snapOf(next) } satisfies SnapshotState as unknown as IDataObject;
	if (!state) return null;
	return fired.length ? [fired.map((json) => ({ json }))] : null;
}
