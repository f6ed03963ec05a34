import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import type { Pagination } from '../transport/pagination';
import type { EventFilters, RecordDetail } from './eventParts';
import { readPage } from '../transport/pagination';
import { CHANGE_SLACK_MS, clockOff, momentOf, pollDeadline, serverTime } from './time';
import { hashKey, isInstant, LOOKBACK_MS, readState, seenSet, shortHash } from './watermark';

/**
 * Events that no list order shows (api-reference §8: no appointment list is sorted by update time, so a cancellation
 * or a reschedule moves nothing to the top). Every poll reads a window of records (nearest first) and compares each
 * with a compact snapshot of what the last poll saw: a key hash (the record's id, or what makes one occurrence:
 * Invoice Paid's id and paidAt) and a short print of the state that matters. A record the snapshot does not know (new
 * in the window, or beyond the snapshot's bound) fires when its own event time is after `at`, less the lookback.
 *
 * `at` is the API's now at the last reading that left nothing unread: a reading cut short by the poll's time keeps
 * it, so the records on the pages it did not read are judged at the next whole reading from the same moment (a
 * record booked and cancelled before the cut poll fires then). Its own records are compared as in a whole reading;
 * the snapshot entries of records it did not reach are kept as they were.
 *
 * A reading of several pages during which the list changed (its total moved between pages, a record came twice, or
 * a record shows a change from that time on: others moved between the page requests, so a record may have slipped
 * to a page read already) is read once more, and the two readings are compared together, the later version of each
 * record first. When the second reading changed as well, what neither saw keeps its entry as it was and `at` stays,
 * as after a cut reading: it is compared at the next poll, nothing is taken as gone.
 *
 * State: 8 characters of key hash, the print, and one character that says whether the record was missing from the
 * last reading (a record missing from a whole reading of several pages is kept for one poll, and as long as the list's
 * total changes while it is read; missing from a reading of one page, it is gone; `keepLeft`: it stays). At most
 * SNAPSHOT_MAX records: 2,000 × (9 + print) characters, under 30 KB. When the window holds more, the snapshot keeps
 * first the records whose own event time the next poll would still read as new (else they would fire again), then the
 * nearest (or the newest, `keepNewest`); the others fire by their event time only.
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
/** Readings of one poll at most while the list moves between page requests: the first, and once more. */
const MAX_READINGS = 2;

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
	 * `since`; `whole`: the last poll's snapshot held every record of the list (none was beyond the bound).
	 */
	fired: (record: IDataObject, before: string | undefined, since: number, whole: boolean) => boolean;
	/** When the event happened, for Fetch Test Event (the newest is shown). */
	happenedAt: (record: IDataObject) => unknown;
	/** The record's own moments of change (update, creation, a move): a reading during which one falls is read again. */
	changedAt: (record: IDataObject) => unknown[];
	/** One occurrence of the event (default: the record's id): a record whose key changes fires again. */
	key?: (record: IDataObject) => string;
	/** The name `key` is stored under (a state without it was keyed by id, and is read by id once). */
	keyName?: string;
	/** The entries of records that leave the list stay (up to the bound): a key that comes back is not new. */
	keepLeft?: boolean;
	/** Words of the warnings when a reading exceeds a bound. */
	limits: Limits;
	/** Over the bound, remember the records of the newest event times (default: the first read). */
	keepNewest?: boolean;
	/** The full record, one read each (the Full Record option). */
	detail?: RecordDetail;
	/**
	 * The occurrence key of the earlier release, which watched this event by a watermark (watermark.ts): its stored
	 * position is read once, and what happened after it (by `happenedAt`) and was not emitted yet comes out.
	 */
	carryOver?: (record: IDataObject) => string;
}

interface SnapshotState {
	v: typeof STATE_VERSION;
	watch: string;
	/** The API's now at the last reading that left nothing unread (or at the first reading). */
	at: string;
	/** The records of the last reading: key hash, print, missing flag ("0" read, "1" missing once). */
	snap: string;
	/** The snapshot may lack records that were in the list at `at` (over the bound, or a first reading cut short). */
	over?: true;
	/** What the key hashes are of, when not the record's id (the event's `keyName`). */
	keys?: string;
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
		(state.over === undefined || state.over === true) &&
		(state.keys === undefined || (typeof state.keys === 'string' && /^\w+$/.test(state.keys)));
	if (!valid) return { problem: 'unreadable' };
	if (state.watch !== watch) return { problem: 'otherWatch' };
	return { state: state as SnapshotState };
}

type Request = { method: 'GET'; path: string; qs: IDataObject };

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
	/** What every page asked (a second reading asks the same window). */
	request: Request;
}

/** The window, nearest first, in pages: cut short by the page bound or the poll's budget. */
async function readWindow(ctx: IPollFunctions, event: SnapshotEvent, qs: IDataObject, deadline: number, now?: number): Promise<WindowReading> {
	const request = { method: 'GET' as const, path: event.list.path, qs: { ...event.list.qs, ...qs, ...event.window?.(now ?? Date.now()) } };
	const reading = await readPages(ctx, event, request, deadline, now);
	// A window built on this machine's clock, which differs from the API's: read again with the API's.
	return 'clockOff' in reading ? await readWindow(ctx, event, qs, deadline, reading.clockOff) : reading;
}

/** The pages of one request from the first on; `clockOff`: the API's now, when a window was built on another clock. */
async function readPages(ctx: IPollFunctions, event: SnapshotEvent, request: Request, deadline: number, now?: number): Promise<WindowReading | { clockOff: number }> {
	const records: IDataObject[] = [];
	let serverNow = Date.now();
	let total: number | undefined;
	const totals = new Set<unknown>();
	for (let index = 0; index < MAX_PAGES; index++) {
		if (index > 0 && Date.now() >= deadline) return { records, serverNow, cut: 'time', pages: index, total, steady: false, request };
		const page = await readPage(ctx, request, event.list.pagination, index, undefined, PAGE_SIZE);
		if (index === 0) serverNow = serverTime(page.headers);
		if (index === 0 && event.window && clockOff(serverNow, now)) return { clockOff: serverNow };
		if (index === 0 && typeof page.body.total === 'number') total = page.body.total;
		totals.add(page.body.total);
		records.push(...page.items);
		if (!page.more) return { records, serverNow, pages: index + 1, total, steady: totals.size <= 1, request };
	}
	return { records, serverNow, cut: 'pages', pages: MAX_PAGES, total, steady: false, request };
}

/** A record's own moments of change, as one text: another text is another version of the record. */
const versionOf = (event: SnapshotEvent, record: IDataObject) => event.changedAt(record).map((moment) => momentOf(moment) ?? '').join('|');

/**
 * Whether the list may have moved between two page requests of this reading, so that a record slipped to a page read
 * already: its total changed, a record came twice, or a record shows a change from (about) the reading's start on. A
 * reading of one page cannot lose a record that way. For a second reading, `earlier` holds the versions the first one
 * saw: a record it shows alike changed before the second reading began.
 */
function disturbed(event: SnapshotEvent, reading: WindowReading, earlier?: Map<string, string>): boolean {
	if (reading.pages < 2) return false;
	if (!reading.steady) return true;
	const ids = new Set<string>();
	const from = reading.serverNow - CHANGE_SLACK_MS;
	for (const record of reading.records) {
		const id = String(record.id);
		if (ids.has(id)) return true;
		ids.add(id);
		const recent = event.changedAt(record).some((moment) => (momentOf(moment) ?? -Infinity) >= from);
		if (recent && earlier?.get(id) !== versionOf(event, record)) return true;
	}
	return false;
}

/** Newest event time first; records without one last (the sort is stable). */
function newestFirst(event: SnapshotEvent, records: IDataObject[]): IDataObject[] {
	const at = new Map(records.map((record) => [record, momentOf(event.happenedAt(record)) ?? -Infinity]));
	return [...records].sort((a, b) => at.get(b)! - at.get(a)!);
}

/** How one poll compares: which key finds a record's last entry and which it is stored under, and what was read. */
interface Comparison {
	/** The key hash of the record's entry in the last snapshot. */
	lookup: (record: IDataObject) => string;
	/** The key hash it is stored under now. */
	store: (record: IDataObject) => string;
	/** Whether the record shows the event, against its last entry's print. */
	fires: (record: IDataObject, before: string | undefined) => boolean;
	/** The `since` of the next poll: records whose event time is after it are remembered first. */
	nextSince: number;
	/** The reading left records unread (cut by time, or changed twice while read): their entries stay as they were. */
	partial: boolean;
	/** The reading stopped at the page bound: the entries beyond it stay as they were. */
	beyondPages: boolean;
	/** The last snapshot was keyed by id and is keyed otherwise now: what it does not find is gone. */
	migrating: boolean;
	pages: number;
	steady: boolean;
}

/**
 * The snapshot of this reading, and what fired. Kept first: the records whose event time the next poll (from
 * `nextSince`) would read as new, then the others as read (nearest first, or newest event first), then the last
 * snapshot's entries this reading did not see: of a partial reading (or beyond the page bound) all as they were; of
 * records that leave the list (`keepLeft`) all; of a whole reading of several pages those that may have slipped
 * between pages (once; as long as the list's total changed while it was read); up to the bound. Each record once, in
 * its latest version (a second reading's).
 */
function compare(event: SnapshotEvent, previous: Map<string, Entry>, records: IDataObject[], how: Comparison) {
	const latest = new Map<string, IDataObject>();
	for (const record of records) latest.set(String(record.id), record);
	const read = event.keepNewest ? newestFirst(event, [...latest.values()]) : [...latest.values()];
	const fired: IDataObject[] = [];
	const recent: IDataObject[] = [];
	const others: IDataObject[] = [];
	const seen = new Set<string>();
	for (const record of read) {
		const key = how.lookup(record);
		const before = previous.get(key);
		if (before) seen.add(key);
		if (how.fires(record, before?.print)) fired.push(record);
		(event.fired(record, undefined, how.nextSince, false) ? recent : others).push(record);
	}
	const next = new Map<string, Entry>();
	for (const record of [...recent, ...others].slice(0, SNAPSHOT_MAX)) next.set(how.store(record), { print: event.print(record), missing: false });
	// Read records beyond the bound, or entries of records that may still be in the list that do not fit: not whole.
	let evicted = read.length > SNAPSHOT_MAX;
	for (const [key, entry] of previous) {
		if (seen.has(key) || next.has(key)) continue;
		let kept: Entry | undefined;
		if (how.partial || how.beyondPages) kept = entry;
		else if (how.migrating) kept = undefined;
		else if (event.keepLeft) kept = entry;
		else if (how.pages > 1 && (!entry.missing || !how.steady)) kept = { print: entry.print, missing: true };
		if (!kept) continue;
		if (next.size < SNAPSHOT_MAX) next.set(key, kept);
		else if (how.partial && !entry.missing) evicted = true;
	}
	return { next, fired, read: read.length, unremembered: Math.max(0, recent.length - SNAPSHOT_MAX), evicted };
}

function snapOf(entries: Map<string, Entry>): string {
	return [...entries].map(([id, entry]) => `${id}${entry.print}${entry.missing ? '1' : '0'}`).join('');
}

const count = (n: number) => n.toLocaleString('en-US');
const capitalised = (text: string) => `${text[0].toUpperCase()}${text.slice(1)}`;

/** The warnings of a reading that exceeds a bound: the pages a poll reads, its time, the snapshot. */
function warnLimits(ctx: IPollFunctions, event: SnapshotEvent, reading: WindowReading, read: number, unremembered: number): void {
	const { scope, records, first, kept, othersFire, recent, narrow } = event.limits;
	const pages = reading.pages === 1 ? '1 page' : `${reading.pages} pages`;
	if (reading.cut === 'pages') {
		const total = reading.total !== undefined ? count(reading.total) : `more than ${count(MAX_PAGES * PAGE_SIZE)}`;
		ctx.logger.warn(`${capitalised(scope)} holds ${total} ${records}, more than the ${count(MAX_PAGES * PAGE_SIZE)} (${MAX_PAGES} pages of ${PAGE_SIZE}) a poll reads: the trigger watches the ${count(read)} that ${first}; changes to later ones are not seen. ${narrow}`);
	}
	if (reading.cut === 'time') {
		ctx.logger.warn(`The poll's time ran out after ${pages} of ${scope}: the trigger compared the ${count(read)} ${records} that ${first}; later ones are compared when a poll reads them. ${narrow}`);
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

/**
 * The reading of one poll: the window, and when the list moved while it was read (a record may have slipped to a
 * page read already), the window once more (up to MAX_READINGS in all, while it keeps moving), all compared together.
 * `partial`: records may be unread (the poll's time ran out, or the last reading moved as well).
 */
async function readWhole(ctx: IPollFunctions, event: SnapshotEvent, qs: IDataObject): Promise<{ reading: WindowReading; records: IDataObject[]; partial: boolean }> {
	const deadline = pollDeadline(ctx);
	const first = await readWindow(ctx, event, qs, deadline);
	if (first.cut === 'time') return { reading: first, records: first.records, partial: true };
	if (first.cut || !disturbed(event, first)) return { reading: first, records: first.records, partial: false };
	const records = [...first.records];
	let reading = first;
	for (let readings = 1; readings < MAX_READINGS; readings++) {
		const seen = new Map(records.map((record) => [String(record.id), versionOf(event, record)]));
		const again = (await readPages(ctx, event, first.request, deadline, first.serverNow)) as WindowReading;
		records.push(...again.records);
		reading = { ...again, serverNow: first.serverNow, pages: reading.pages + again.pages };
		if (again.cut === 'time') return { reading, records, partial: true };
		if (!disturbed(event, again, seen)) return { reading, records, partial: false };
	}
	return { reading, records, partial: true };
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
	const { reading, records, partial } = await readWhole(ctx, event, qs);
	const previous = state ? parseSnap(event, state.snap) : new Map<string, Entry>();
	const since = state ? Date.parse(state.at) - LOOKBACK_MS : Infinity;
	const whole = state !== undefined && state.over !== true;
	// A partial reading keeps the moment of the last whole one: the records it did not read are judged from there.
	const at = partial && state ? Date.parse(state.at) : reading.serverNow;
	// A snapshot of ids meets an event keyed otherwise (Invoice Paid's id and paidAt): found by id once, stored by key.
	const byId = (record: IDataObject) => shortHash(String(record.id), ID_HASH);
	const byKey = (record: IDataObject) => shortHash(event.key ? event.key(record) : String(record.id), ID_HASH);
	const legacy = state !== undefined && event.keyName !== undefined && state.keys !== event.keyName;
	const keepIds = legacy && partial;
	const fires = carried ? (record: IDataObject) => carried(record) : (record: IDataObject, before: string | undefined) => event.fired(record, before, since, whole);
	const { next, fired, read: readCount, unremembered, evicted } = compare(event, previous, records, {
		lookup: legacy ? byId : byKey,
		store: keepIds ? byId : byKey,
		fires,
		nextSince: at - LOOKBACK_MS,
		partial,
		beyondPages: reading.cut === 'pages',
		migrating: legacy && !partial,
		pages: reading.pages,
		steady: reading.steady,
	});
	// Records the snapshot may lack (over the bound, or never read: a first reading cut short) fire by time at the next poll.
	const over = evicted || reading.cut === 'pages' || (partial && (!state || state.over === true));
	// Oldest first, as the other events emit.
	const output = state || carried ? await complete(event.keepNewest ? fired.reverse() : fired) : [];
	warnLimits(ctx, event, reading, readCount, unremembered);
	if (carried) ctx.logger.info(`The trigger now remembers the ${event.noun}s it has seen; it read on from the position the earlier version stored.`);
	else if (problem === 'unreadable') ctx.logger.warn(`The trigger's stored snapshot could not be read (damaged, or written by another version); it watches again from now. Changes since the last poll are not emitted.`);
	if (problem === 'otherWatch') ctx.logger.info(`The trigger's event${event.window ? ', filters or window' : ' or filters'} changed; it watches from now.`);
	for (const key of Object.keys(data)) delete data[key];
	const keys = event.keyName !== undefined && !keepIds ? { keys: event.keyName } : {};
	const written: SnapshotState = { v: STATE_VERSION, watch, at: new Date(at).toISOString(), snap: snapOf(next), ...(over ? { over: true as const } : {}), ...keys };
	data.state = written as unknown as IDataObject;
	return output.length ? [output.map((json) => ({ json }))] : null;
}

/** An event that is a record entering a list: the invoices of status paid. What `enteringList` needs of it. */
export interface EnteringEvent extends EventFilters {
	noun: string;
	list: { path: string; qs: IDataObject; pagination: Pagination };
	/** When the record entered the list, as far as its fields tell (for Fetch Test Event and beyond the bound). */
	happenedAt: (record: IDataObject) => unknown;
	detail?: RecordDetail;
	carryOver?: (record: IDataObject) => string;
	/** One occurrence (default: the record's id, so a record fires once while it stays in the list). */
	key?: (record: IDataObject) => string;
	keyName?: string;
	/** Keys of records that left the list stay known: one that comes back with the same key fires nothing. */
	keepLeft?: boolean;
}

/**
 * A record entering a list fires once, whatever later changes its fields (a document sent again, a reminder): each
 * poll reads the list whole and remembers the keys in it (9 characters each, at most SNAPSHOT_MAX, those of the
 * newest event times). A key not remembered fires; when the last reading held more than the bound, only if its event
 * time is after the last poll (less the lookback). A record that leaves the list and enters it again fires again:
 * missing from a reading of one page, or from two readings in a row (compare); unless its key stays known
 * (`keepLeft`). A record whose key changes while in the list (Invoice Paid: a new paidAt) fires again.
 */
export function enteringList(definition: EnteringEvent): SnapshotEvent {
	return {
		...definition,
		print: () => '',
		printWidth: 0,
		keepNewest: true,
		changedAt: (record) => [record.updatedAt, record.createdAt],
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
