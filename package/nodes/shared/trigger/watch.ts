import type { IDataObject, INodeExecutionData, INodeProperties, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isEmpty, propertyOf, readCheckedParameter } from '../inputChecks';
import type { Pagination } from '../transport/pagination';
import { MAX_PAGE_SIZE, readPage } from '../transport/pagination';
import { asNodeError, isApiStatus } from '../transport/errors';
import { apiRequest } from '../transport/request';
import type { EventFilters, RecordCheck, RecordDetail } from './eventParts';
import type { SnapshotEvent } from './snapshot';
import { pollSnapshot } from './snapshot';
import type { Reading, Sighting, WatchState } from './watermark';
import { CHANGE_SLACK_MS, clockOff, DATE_HEADER_SLACK_MS, momentOf, pollDeadline, serverTime } from './time';
import { advance, readState, SEEN_BURST_MAX, SEEN_MAX, startState, writeState } from './watermark';

/**
 * How the trigger polls, for every event alike: the first activation, manual mode, reading a list newest first
 * down to the watermark (within n8n's poll budget), the full record where asked, and the state written only
 * after everything succeeded. What is new is decided in watermark.ts; what to read, per event, in the event files.
 */

/** One event the trigger watches, as data. */
export interface WatchedEvent extends EventFilters {
	/** What one record is called in messages: "booking". */
	noun: string;
	/**
	 * The list, asked newest first by the field `sortedBy` reads (default: the event's own moment). The trigger checks
	 * the order of what comes back: when the API did not sort, it reads the whole list instead of stopping early.
	 */
	list: { path: string; qs: IDataObject; pagination: Pagination };
	/** The list has no order the trigger may use (its reference row names no sort): every poll reads it whole. */
	unordered?: boolean;
	/** Query keys that narrow an unordered list to the records that can be new after a moment (a window of appointments by start). */
	range?: (since: number | undefined, now: number) => IDataObject;
	/** A query parameter that narrows the list to records after a moment (exclusive), sent with the watermark. */
	sinceParam?: string;
	/** When the event happened to this record; undefined when the record is not (yet) this event. */
	happenedAt: (record: IDataObject) => unknown;
	/** The list's sort field, when it is not the event's moment (an update time): reading stops at the watermark. */
	sortedBy?: (record: IDataObject) => unknown;
	/** One occurrence of the event (default: the record's id); a record rescheduled twice is two events. */
	key?: (record: IDataObject) => string;
	/** The events are records inside each listed record (the messages of a conversation), read newest first. */
	within?: { path: string; pagination: Pagination; keep: (child: IDataObject) => boolean; parentKey: string };
	/** The full record, one read each (the Full Record option). */
	detail?: RecordDetail;
	/**
	 * A record may leave the list or change its key before its event is emitted (a deal won, reopened, won again): what
	 * a poll reads cannot wait for a later one. Every event read comes out at once (up to SEEN_BURST_MAX within the
	 * lookback window, not SEEN_MAX), and a list that moved while it was read is read once more in the same poll.
	 */
	changes?: boolean;
}

/** An event as the trigger node lists it: its definition, or one made from the node's options at each poll. */
export type TriggerEvent = WatchedEvent | SnapshotEvent | ((ctx: IPollFunctions) => WatchedEvent | SnapshotEvent);

/** Pages read at most in one poll; a longer backlog continues at the next poll. */
const MAX_PAGES = 100;
/** Full records read at once. */
const DETAIL_BATCH = 10;
/** Lists read at most to find a test event in manual mode. */
const TEST_PAGES = 3;

interface Watch {
	ctx: IPollFunctions;
	event: WatchedEvent;
	qs: IDataObject;
	/** Event and filters: a state written for another watch does not apply. */
	id: string;
}

const keyOf = (event: WatchedEvent, record: IDataObject) => (event.key ? event.key(record) : String(record.id));
const sortMoment = (event: WatchedEvent, record: IDataObject) => momentOf((event.sortedBy ?? event.happenedAt)(record));

/** The event's filters as query parameters, each checked as its field's type (inputChecks.ts) before anything is sent. */
function filterQuery(ctx: IPollFunctions, event: EventFilters, properties: INodeProperties[]): IDataObject {
	const qs: IDataObject = {};
	for (const [key, param] of Object.entries(event.filters ?? {})) {
		const { value, problem, label } = readCheckedParameter(ctx, properties, param);
		if (problem) throw new NodeOperationError(ctx.getNode(), problem, { description: `Nothing was read: fix the value of "${label}" in the trigger's Filters.` });
		if (!isEmpty(value)) qs[key] = value as IDataObject[string];
	}
	return qs;
}

/**
 * At the first activation, every filter that names a record must name one that exists: a filter on a deleted or
 * mistyped ID would otherwise watch an empty list forever without a word.
 */
export async function checkFilterRecords(ctx: IPollFunctions, event: EventFilters, qs: IDataObject, properties: INodeProperties[]): Promise<void> {
	for (const [key, param] of Object.entries(event.filters ?? {})) {
		const check = event.filterRecords?.[param];
		if (!check || qs[key] === undefined) continue;
		const id = String(qs[key]);
		if (await recordExists(ctx, check, id)) continue;
		const label = propertyOf(properties, param)?.displayName ?? param;
		throw Object.assign(
			new NodeOperationError(ctx.getNode(), `The ${label} filter names a ${check.noun} that does not exist (ID ${id})`, {
				description: `Nothing would ever match it. Pick the ${check.noun} from the list in the trigger's Filters, or remove the filter.`,
			}),
			{ failure: { cause: 'configuration-invalid' } },
		);
	}
}

async function recordExists(ctx: IPollFunctions, check: RecordCheck, id: string): Promise<boolean> {
	const request = { method: 'GET' as const, path: check.path, pathParams: { id }, qs: check.qs?.(id) };
	const answer = await apiRequest(ctx, 0, request).catch((error: Error) => error);
	if (isApiStatus(answer, '404')) return false;
	if (answer instanceof Error) throw asNodeError(ctx, answer, 0);
	return !check.inList || (Array.isArray(answer) && answer.some((record) => String((record as IDataObject).id) === id));
}

/** `now` is this machine's clock unless the API's answered otherwise (a range of records by time depends on it). */
function listRequest(watch: Watch, since?: number, now = Date.now()) {
	const { event, qs } = watch;
	const extra = since !== undefined && event.sinceParam ? { [event.sinceParam]: new Date(since).toISOString() } : {};
	return { method: 'GET' as const, path: event.list.path, qs: { ...event.list.qs, ...qs, ...event.range?.(since, now), ...extra } };
}


/** The events inside one listed record, newest first, down to a moment (all when none). */
async function eventsWithin(watch: Watch, parent: IDataObject, since?: number, enough?: number): Promise<IDataObject[]> {
	const within = watch.event.within;
	if (!within) return [parent];
	const found: IDataObject[] = [];
	let cursor: unknown;
	for (;;) {
		const request = { method: 'GET' as const, path: within.path, pathParams: { id: String(parent.id) } };
		const page = await readPage(watch.ctx, request, within.pagination, 0, cursor);
		for (const child of page.items) {
			const at = momentOf(watch.event.happenedAt(child));
			if (since !== undefined && at !== undefined && at <= since) return found;
			if (within.keep(child)) found.push({ ...child, [within.parentKey]: parent });
			if (enough !== undefined && found.length >= enough) return found;
		}
		cursor = page.body.nextCursor;
		if (!page.more) return found;
	}
}

/** The events among the records; one whose moment lies ahead of `until` has not happened yet. */
function sightingsOf(watch: Watch, records: IDataObject[], until = Infinity): Array<Sighting & { record: IDataObject }> {
	const sightings: Array<Sighting & { record: IDataObject }> = [];
	for (const record of records) {
		const at = momentOf(watch.event.happenedAt(record));
		if (at !== undefined && at <= until) sightings.push({ key: keyOf(watch.event, record), at, record });
	}
	return sightings;
}

/** What one poll read of the list: the records in list order, with their positions, and how the reading went. */
interface ListReading {
	listed: Array<{ record: IDataObject; position: number }>;
	serverNow: number;
	complete: boolean;
	pages: number;
	steady: boolean;
	ordered: boolean;
	topAt?: number;
	/** The reading started below the top at a page already past the watermark (the list shrank): read from the top. */
	restart?: boolean;
	/** A group of one moment larger than a page crossed a page edge: a record of it may have been on no page. */
	gaps?: boolean;
	/** Records an earlier reading of this poll listed and this one did not (read again: `changes`). */
	earlier?: IDataObject[];
}

/**
 * Reads the list from a page on, newest first down to the watermark, within the poll's budget. The order of what
 * comes back is checked, not trusted: once a record is newer than the one before it, the API did not sort (or
 * sorted otherwise), and the reading goes on to the end of the list instead of stopping at the watermark. It stops
 * early only once it has seen the order (one record older than the one before it).
 */
async function readList(watch: Watch, since: number, startPage: number, deadline: number, now?: number): Promise<ListReading> {
	const { event } = watch;
	const request = listRequest(watch, since, now);
	const size = event.list.pagination.maxPageSize ?? MAX_PAGE_SIZE;
	const reading: ListReading = { listed: [], serverNow: 0, complete: false, pages: 0, steady: true, ordered: !event.unordered };
	const totals = new Set<unknown>();
	let last = Infinity;
	// Evidence of the order asked for: a page of one moment shows none (an ignored sort looks the same).
	let decreased = false;
	for (let index = startPage; reading.pages < MAX_PAGES && (reading.pages === 0 || Date.now() < deadline); index++) {
		const page = await readPage(watch.ctx, request, event.list.pagination, index);
		if (reading.pages++ === 0) {
			reading.serverNow = serverTime(page.headers);
			if (event.range && clockOff(reading.serverNow, now)) return await readList(watch, since, startPage, deadline, reading.serverNow);
			reading.topAt = startPage > 0 ? sortMoment(event, page.items[0] ?? {}) : undefined;
			if (startPage > 0 && (reading.topAt === undefined || reading.topAt <= since)) return { ...reading, restart: true };
		}
		totals.add(page.body.total);
		page.items.forEach((record, i) => {
			const at = sortMoment(event, record);
			// Order is judged within a page: records that jump to the top between two pages shift the list down, so a page
			// may start with records newer than the last one read, while the API keeps the order asked for.
			if (reading.ordered && i > 0 && at !== undefined && at > last) reading.ordered = false;
			if (at !== undefined && at < last && last !== Infinity) decreased = true;
			last = at ?? last;
			reading.listed.push({ record, position: index * size + i });
		});
		if ((reading.ordered && decreased && last <= since) || !page.more) {
			reading.complete = true;
			break;
		}
	}
	reading.steady = totals.size <= 1;
	return reading;
}

/**
 * Records that share one moment may come back in another order on each page request (the API gives no tie order), so
 * a group of them across a page edge can lose a record between two pages. Such a group is read again in one page of
 * a size that holds it with a neighbour on each side; when that page does not show it whole (the list moved), the
 * reading counts as unsteady (the watermark stays for the next poll). A group no page can hold (larger than a page, or
 * across an edge where no page size up to the largest holds it whole: page-numbered lists start pages only at
 * multiples of their size) is taken as read, with a warning; the keys it emitted are kept (README: the risk).
 */
async function rereadTies(watch: Watch, reading: ListReading, since: number): Promise<void> {
	const { event } = watch;
	const size = event.list.pagination.maxPageSize ?? MAX_PAGE_SIZE;
	const moments = reading.listed.map(({ record }) => sortMoment(event, record));
	for (let i = 1; i < reading.listed.length; i++) {
		const { position } = reading.listed[i];
		const at = moments[i];
		if (position % size !== 0 || at === undefined || at !== moments[i - 1] || at <= since) continue;
		let first = i - 1;
		let last = i;
		while (first > 0 && moments[first - 1] === at) first--;
		while (last + 1 < moments.length && moments[last + 1] === at) last++;
		const group = await readStretch(watch, reading.listed[first].position, reading.listed[last].position, at);
		if (Array.isArray(group)) reading.listed.push(...group.map((record) => ({ record, position: -1 })));
		else if (group === 'moved') reading.steady = false;
		else reading.gaps = true;
		if (group === 'tooLarge') watch.ctx.logger.warn(`${last - first + 1} ${event.noun}s share one moment across a page edge, and no page of up to ${size} holds them all; if the API returns them in another order on each page, some may be missed.`);
		i = last;
	}
}

/**
 * The records of one moment between two positions, read in one page: with a neighbour on each side where a page of
 * an allowed size holds them, else exactly the group's positions (the list's total, checked across the reading,
 * keeps them in place). Every position must still hold the moment.
 */
async function readStretch(watch: Watch, first: number, last: number, at: number): Promise<IDataObject[] | 'tooLarge' | 'moved'> {
	const { pagination } = watch.event.list;
	const largest = pagination.maxPageSize ?? MAX_PAGE_SIZE;
	const cover = pageHolding(Math.max(0, first - 1), last + 1, largest) ?? pageHolding(first, last, largest);
	if (!cover) return 'tooLarge';
	const page = await readPage(watch.ctx, listRequest(watch), pagination, cover.index, undefined, cover.size);
	const offset = cover.index * cover.size;
	const group = page.items.slice(first - offset, last - offset + 1);
	const sameMoment = (record: IDataObject | undefined) => record !== undefined && sortMoment(watch.event, record) === at;
	const whole = group.length === last - first + 1 && group.every(sameMoment);
	if (!whole || sameMoment(page.items[first - offset - 1]) || sameMoment(page.items[last - offset + 1])) return 'moved';
	return group;
}

/** A page (index and size up to the largest) that holds both positions. */
function pageHolding(from: number, to: number, largest: number): { index: number; size: number } | undefined {
	for (let size = to - from + 1; size <= largest; size++) if (Math.floor(from / size) === Math.floor(to / size)) return { index: Math.floor(from / size), size };
	return undefined;
}

/**
 * A list sorted by a moving time (a conversation's last message, a deal's update) lets a record jump to the top
 * while the poll reads later pages: it would be on no page read. After a reading of several pages the first page
 * is read again, and a record found there with a newer sort moment than read (or not read at all) joins the reading.
 */
async function recheckTop(watch: Watch, reading: ListReading): Promise<void> {
	const { event } = watch;
	const read = new Map(reading.listed.map(({ record }) => [keyOf(event, record), sortMoment(event, record)]));
	const page = await readPage(watch.ctx, listRequest(watch), event.list.pagination, 0);
	const moved = page.items.filter((record) => {
		const before = read.get(keyOf(event, record));
		return before === undefined || (sortMoment(event, record) ?? 0) > before;
	});
	reading.listed.push(...moved.map((record) => ({ record, position: -1 })));
	if (page.more && moved.length === page.items.length) reading.steady = false;
}

/**
 * Whether the list may have moved between two page requests so that a record slipped to a page read already: its
 * total changed; or, when it came in no order (a new or changed record may then land anywhere), a record shows a change
 * from about the reading's start on. In the order asked for, a record that changes goes to the top, before every edge.
 */
function listMoved(watch: Watch, list: ListReading): boolean {
	if (!list.steady) return true;
	const from = list.serverNow - CHANGE_SLACK_MS;
	return !list.ordered && list.listed.some(({ record }) => (sortMoment(watch.event, record) ?? -Infinity) >= from);
}

/**
 * A list of an event whose records may vanish before they are emitted (`changes`) that moved while it was read: read
 * once more from the top down to the watermark. The second reading counts, with the records only the first one listed
 * (left the list meanwhile, or slipped in the second); it is steady when it did not move itself. When the second cannot
 * be read whole in the poll's time, the first stays as it was (unsteady: the watermark stays).
 */
async function readAgain(watch: Watch, first: ListReading, since: number, deadline: number): Promise<ListReading> {
	const again = await readList(watch, since, 0, deadline);
	if (again.restart || !again.complete) return first;
	const listed = new Set(again.listed.map(({ record }) => keyOf(watch.event, record)));
	const earlier = first.listed.map(({ record }) => record).filter((record) => !listed.has(keyOf(watch.event, record)));
	return { ...again, serverNow: first.serverNow, pages: first.pages + again.pages, ordered: first.ordered && again.ordered, steady: !listMoved(watch, again), earlier };
}

/** Reads newest first from a page down to the watermark, within the poll's budget; the events after it. */
async function readSince(watch: Watch, state: WatchState, startPage: number): Promise<{ reading: Reading; records: Map<string, IDataObject> }> {
	const since = Date.parse(state.since);
	const { event } = watch;
	const deadline = pollDeadline(watch.ctx);
	let list = await readList(watch, since, startPage, deadline);
	if (list.restart) return await readSince(watch, state, 0);
	if (event.changes && list.complete && list.pages > 1 && listMoved(watch, list)) list = await readAgain(watch, list, since, deadline);
	if (!list.ordered && !event.unordered) watch.ctx.logger.info(`The API did not return the ${event.noun}s in the order asked for; the trigger read the whole list.`);
	const topAt = list.topAt;
	if (list.complete && list.ordered) await rereadTies(watch, list, since);
	list.listed.push(...(list.earlier ?? []).map((record) => ({ record, position: -1 })));
	if (list.complete && event.sortedBy && list.pages > 1) await recheckTop(watch, list);
	const records = new Map<string, IDataObject>();
	let complete = list.complete;
	for (const { record: parent } of list.listed) {
		if ((sortMoment(event, parent) ?? Infinity) <= since) continue;
		if (event.within && Date.now() >= deadline) complete = false;
		if (!complete) break;
		for (const record of await eventsWithin(watch, parent, since)) records.set(keyOf(event, record), record);
	}
	const sightings = sightingsOf(watch, [...records.values()], list.serverNow + DATE_HEADER_SLACK_MS);
	const resumable = !event.sortedBy && !event.within && list.ordered;
	return { reading: { sightings, serverNow: list.serverNow, complete, startPage, pages: list.pages, steady: list.steady, topAt, resumable, gaps: list.gaps }, records };
}

/** The records as output: with Full Record, each as its own read answers. */
async function fullRecords(ctx: IPollFunctions, detail: WatchedEvent['detail'], records: IDataObject[]): Promise<IDataObject[]> {
	const wanted = ctx.getNodeParameter('options.fullRecord', false) as boolean;
	if (!detail || !wanted) return records;
	const full: IDataObject[] = [];
	for (let i = 0; i < records.length; i += DETAIL_BATCH) {
		full.push(...(await Promise.all(records.slice(i, i + DETAIL_BATCH).map(async (record) => await fullRecord(ctx, detail, record)))));
	}
	return full;
}

/** The record as its own read answers; the listed record when it is gone meanwhile (nothing is skipped for it). */
async function fullRecord(ctx: IPollFunctions, detail: NonNullable<WatchedEvent['detail']>, record: IDataObject): Promise<IDataObject> {
	const request = { method: 'GET' as const, path: detail.path, pathParams: { id: String(record.id) }, qs: detail.qs?.(record) };
	const answer = await apiRequest(ctx, 0, request).catch((error: Error) => error);
	if (isApiStatus(answer, '404')) return record;
	if (answer instanceof Error) throw asNodeError(ctx, answer, 0);
	return detail.pick ? detail.pick(answer) : (answer as IDataObject);
}

/**
 * Manual mode ("Fetch Test Event"): the newest record of the event, the state left as it is. None: null, as n8n's own
 * polling triggers do; the editor then says "No <node> data found" in a notice (not an error) and asks to make one.
 */
async function testEvent(watch: Watch, now?: number): Promise<INodeExecutionData[][] | null> {
	const { pagination } = watch.event.list;
	const found: Array<Sighting & { record: IDataObject }> = [];
	for (let index = 0; index < TEST_PAGES; index++) {
		const page = await readPage(watch.ctx, listRequest(watch, undefined, now), pagination, index);
		if (index === 0 && watch.event.range && clockOff(serverTime(page.headers), now)) return await testEvent(watch, serverTime(page.headers));
		const until = serverTime(page.headers) + DATE_HEADER_SLACK_MS;
		for (const parent of page.items) {
			found.push(...sightingsOf(watch, await eventsWithin(watch, parent, undefined, 1), until));
			// A sorted list shows its newest event first; an unordered one is looked through.
			if (found.length && !watch.event.unordered) break;
		}
		if (!page.more || (found.length && !watch.event.unordered)) break;
	}
	const [newest] = found.sort((a, b) => b.at - a.at);
	if (newest) return [(await fullRecords(watch.ctx, watch.event.detail, [newest.record])).map((json) => ({ json }))];
	watch.ctx.logger.info(`Fetch Test Event: no ${watch.event.noun} matches the event and filters yet. Make one (or loosen the filters) and fetch again.`);
	return null;
}

/** The first poll of a watch: remembers the API's now and the events already there, emits nothing. */
async function startWatching(watch: Watch): Promise<WatchState> {
	const page = await readPage(watch.ctx, listRequest(watch), watch.event.list.pagination, 0);
	const serverNow = serverTime(page.headers);
	// Moments ahead of the API's now are not events yet (an appointment's start); only the Date header's rounding counts.
	const moments = page.items.map((record) => sortMoment(watch.event, record) ?? -Infinity).filter((at) => at <= serverNow + DATE_HEADER_SLACK_MS);
	return startState(watch.id, serverNow, Math.max(-Infinity, ...moments));
}

/** The polls of trigger nodes running now in this process (workflow and node): when each began. */
const running = new Map<string, { since: number }>();
/** A poll running longer than this is taken as hung, and no longer keeps others from running. */
const HUNG_POLL_MS = 5 * 60_000;

/**
 * Runs a poll unless another poll of the same trigger node is still running in this process; then returns null and
 * changes nothing. Two polls at once read the same stored state and would both emit the same events: n8n starts one
 * poll per Poll Times entry, so entries that fall on the same second (two custom crons; in n8n 2.x Every Minute and
 * Every Hour share one seeded second) start two at once, and n8n 2.x's scheduler runs a poll again when its lease
 * expires while it still runs. The next poll reads on from what the running one stored. Manual mode stores nothing.
 * Polls on two n8n main instances (multi-main) do not see each other here.
 */
async function alone(ctx: IPollFunctions, poll: () => Promise<INodeExecutionData[][] | null>): Promise<INodeExecutionData[][] | null> {
	if (ctx.getMode() === 'manual') return await poll();
	const node = ctx.getNode();
	const key = `${String(ctx.getWorkflow().id)}\n${node.id ?? node.name}`;
	const other = running.get(key);
	if (other && Date.now() - other.since < HUNG_POLL_MS) {
		ctx.logger.info(`Another poll of this trigger (started ${Math.round((Date.now() - other.since) / 1000)} s ago) is still running; this one reads nothing, so the same events are not emitted twice.`);
		return null;
	}
	const mine = { since: Date.now() };
	running.set(key, mine);
	try {
		return await poll();
	} finally {
		if (running.get(key) === mine) running.delete(key);
	}
}

/** One poll of the trigger: null when nothing is new (n8n then starts no execution). */
export async function pollEvent(ctx: IPollFunctions, eventName: string, definition: TriggerEvent, properties: INodeProperties[]): Promise<INodeExecutionData[][] | null> {
	return await alone(ctx, async () => await pollOnce(ctx, eventName, definition, properties));
}

async function pollOnce(ctx: IPollFunctions, eventName: string, definition: TriggerEvent, properties: INodeProperties[]): Promise<INodeExecutionData[][] | null> {
	const event = typeof definition === 'function' ? definition(ctx) : definition;
	const qs = filterQuery(ctx, event, properties);
	const id = JSON.stringify(event.settings === undefined ? [eventName, qs] : [eventName, qs, event.settings]);
	if ('print' in event) {
		const onStart = async () => await checkFilterRecords(ctx, event, qs, properties);
		return await pollSnapshot(ctx, event, qs, id, onStart, async (records) => await fullRecords(ctx, event.detail, records));
	}
	const watch: Watch = { ctx, event, qs, id };
	if (ctx.getMode() === 'manual') return await testEvent(watch);
	const data = ctx.getWorkflowStaticData('node');
	const { state, problem } = readState(data, watch.id);
	if (!state) {
		await checkFilterRecords(ctx, event, qs, properties);
		const start = await startWatching(watch);
		if (problem === 'unreadable') ctx.logger.warn(`The trigger's stored position could not be read (damaged, or written by another version); it watches again from ${start.since}. Events between the last poll and now are not emitted.`);
		if (problem === 'otherWatch') ctx.logger.info(`The trigger's event or filters changed; it watches from ${start.since}.`);
		writeState(data, start);
		return null;
	}
	const { reading, records } = await readSince(watch, state, state.page ?? 0);
	const { emit, next, waiting } = advance(state, reading, event.changes ? SEEN_BURST_MAX : SEEN_MAX);
	if (event.changes && waiting > 0) {
		ctx.logger.warn(`More than ${SEEN_BURST_MAX.toLocaleString('en-US')} ${event.noun}s in the last minute: ${waiting.toLocaleString('en-US')} of them come out at the next poll; one that changes again before it does may be missed.`);
	}
	if (!reading.complete) {
		const pages = `${reading.pages} page${reading.pages === 1 ? '' : 's'}`;
		ctx.logger.info(`The trigger read ${pages} of ${event.noun}s without reaching the last poll's position; it reads on at the next poll.`);
	}
	const output = await fullRecords(ctx, event.detail, emit.map((sighting) => records.get(sighting.key)!));
	writeState(data, next);
	return output.length ? [output.map((json) => ({ json }))] : null;
}
