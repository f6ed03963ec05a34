import type { IDataObject, INodeExecutionData, INodeProperties, IPollFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { checkedParameter, isEmpty, propertyOf } from '../inputChecks';
import type { Pagination } from '../transport/pagination';
import { readPage } from '../transport/pagination';
import { asNodeError } from '../transport/errors';
import { apiRequest } from '../transport/request';
import type { Reading, Sighting, WatchState } from './watermark';
import { advance, readState, startState, writeState } from './watermark';

/**
 * How the trigger polls, for every event alike: the first activation, manual mode, reading a list newest first
 * down to the watermark (within n8n's poll budget), the full record where asked, and the state written only
 * after everything succeeded. What is new is decided in watermark.ts; what to read, per event, in the event files.
 */

/** One event the trigger watches, as data. */
export interface WatchedEvent {
	/** What one record is called in messages: "booking". */
	noun: string;
	/** The list, newest first by the field `sortedBy` reads (default: the event's own moment). */
	list: { path: string; qs: IDataObject; pagination: Pagination };
	/** Query key → parameter of the event's Filters collection (resource locators give their value). */
	filters?: Record<string, string>;
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
	detail?: { path: string; qs?: (record: IDataObject) => IDataObject; pick?: (answer: unknown) => IDataObject };
}

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

function momentOf(value: unknown): number | undefined {
	if (typeof value !== 'string' && !(value instanceof Date)) return undefined;
	const ms = Date.parse(String(value instanceof Date ? value.toISOString() : value));
	return Number.isNaN(ms) ? undefined : ms;
}

const keyOf = (event: WatchedEvent, record: IDataObject) => (event.key ? event.key(record) : String(record.id));
const sortMoment = (event: WatchedEvent, record: IDataObject) => momentOf((event.sortedBy ?? event.happenedAt)(record));

/** The API's clock from an answer's Date header (whole seconds, rounded down); this machine's clock without one. */
function serverTime(headers: IDataObject): number {
	return momentOf(headers.date) ?? Date.now();
}

/** The event's filters as query parameters, each checked as its field's type (inputChecks.ts) before anything is sent. */
function filterQuery(ctx: IPollFunctions, event: WatchedEvent, properties: INodeProperties[]): IDataObject {
	const qs: IDataObject = {};
	for (const [key, param] of Object.entries(event.filters ?? {})) {
		const property = propertyOf(properties, param);
		const label = property?.displayName ?? param;
		const locator = property?.type === 'resourceLocator' ? (ctx.getNodeParameter(param, null) as { mode?: string } | null) : null;
		const { value, problem } = checkedParameter(property, label, ctx.getNodeParameter(param, null, { extractValue: true }), locator?.mode);
		if (problem) throw new NodeOperationError(ctx.getNode(), problem, { description: `Nothing was read: fix the value of "${label}" in the trigger's Filters.` });
		if (!isEmpty(value)) qs[key] = value as IDataObject[string];
	}
	return qs;
}

function listRequest(watch: Watch, since?: number) {
	const { event, qs } = watch;
	const extra = since !== undefined && event.sinceParam ? { [event.sinceParam]: new Date(since).toISOString() } : {};
	return { method: 'GET' as const, path: event.list.path, qs: { ...event.list.qs, ...qs, ...extra } };
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

function sightingsOf(watch: Watch, records: IDataObject[]): Array<Sighting & { record: IDataObject }> {
	const sightings: Array<Sighting & { record: IDataObject }> = [];
	for (const record of records) {
		const at = momentOf(watch.event.happenedAt(record));
		if (at !== undefined) sightings.push({ key: keyOf(watch.event, record), at, record });
	}
	return sightings;
}

/** n8n 2.x gives each poll a time budget; half of it is spent reading at most. */
function deadlineOf(ctx: IPollFunctions): number {
	const budget = typeof ctx.getPollBudgetMs === 'function' ? ctx.getPollBudgetMs() : undefined;
	return typeof budget === 'number' && budget > 0 ? Date.now() + budget / 2 : Infinity;
}

/** Reads newest first from a page down to the watermark, within the poll's budget. */
async function readSince(watch: Watch, state: WatchState, startPage: number): Promise<{ reading: Reading; records: Map<string, IDataObject> }> {
	const since = Date.parse(state.since);
	const deadline = deadlineOf(watch.ctx);
	const { pagination } = watch.event.list;
	const request = listRequest(watch, since);
	const resumable = !watch.event.sortedBy && !watch.event.within;
	const listed: IDataObject[] = [];
	const totals = new Set<unknown>();
	let serverNow = 0;
	let topAt: number | undefined;
	let complete = false;
	let pages = 0;
	for (let index = startPage; pages < MAX_PAGES && (pages === 0 || Date.now() < deadline); index++) {
		const page = await readPage(watch.ctx, request, pagination, index);
		if (pages++ === 0) {
			serverNow = serverTime(page.headers);
			topAt = startPage > 0 ? sortMoment(watch.event, page.items[0] ?? {}) : undefined;
			// A start below the top that is already past the watermark (the list shrank): read from the top.
			if (startPage > 0 && (topAt === undefined || topAt <= since)) return await readSince(watch, state, 0);
		}
		totals.add(page.body.total);
		const reachedSince = page.items.findIndex((record) => (sortMoment(watch.event, record) ?? Infinity) <= since);
		listed.push(...(reachedSince < 0 ? page.items : page.items.slice(0, reachedSince)));
		if (reachedSince >= 0 || !page.more) {
			complete = true;
			break;
		}
	}
	const records = new Map<string, IDataObject>();
	for (const parent of listed) {
		if (watch.event.within && Date.now() >= deadline) complete = false;
		if (!complete) break;
		for (const record of await eventsWithin(watch, parent, since)) records.set(keyOf(watch.event, record), record);
	}
	const sightings = sightingsOf(watch, [...records.values()]);
	return { reading: { sightings, serverNow, complete, startPage, pages, steady: totals.size <= 1, topAt, resumable }, records };
}

async function fullRecords(watch: Watch, records: IDataObject[]): Promise<IDataObject[]> {
	const detail = watch.event.detail;
	const wanted = watch.ctx.getNodeParameter('options.fullRecord', false) as boolean;
	if (!detail || !wanted) return records;
	const full: IDataObject[] = [];
	for (let i = 0; i < records.length; i += DETAIL_BATCH) {
		full.push(...(await Promise.all(records.slice(i, i + DETAIL_BATCH).map(async (record) => await fullRecord(watch, record)))));
	}
	return full;
}

/** The record as its own read answers; the listed record when it is gone meanwhile (nothing is skipped for it). */
async function fullRecord(watch: Watch, record: IDataObject): Promise<IDataObject> {
	const detail = watch.event.detail!;
	const request = { method: 'GET' as const, path: detail.path, pathParams: { id: String(record.id) }, qs: detail.qs?.(record) };
	const answer = await apiRequest(watch.ctx, 0, request).catch((error: Error) => error);
	if (answer instanceof NodeApiError && String(answer.httpCode) === '404') return record;
	if (answer instanceof Error) throw asNodeError(watch.ctx, answer, 0);
	return detail.pick ? detail.pick(answer) : (answer as IDataObject);
}

/** Manual mode ("Fetch Test Event"): the newest record of the event, the state left as it is. */
async function testEvent(watch: Watch): Promise<INodeExecutionData[][]> {
	const { pagination } = watch.event.list;
	for (let index = 0; index < TEST_PAGES; index++) {
		const page = await readPage(watch.ctx, listRequest(watch), pagination, index);
		for (const parent of page.items) {
			const [newest] = sightingsOf(watch, await eventsWithin(watch, parent, undefined, 1)).sort((a, b) => b.at - a.at);
			if (newest) return [(await fullRecords(watch, [newest.record])).map((json) => ({ json }))];
		}
		if (!page.more) break;
	}
	throw new NodeOperationError(watch.ctx.getNode(), `No ${watch.event.noun} to show yet`, {
		description: `Fetch Test Event shows the newest ${watch.event.noun} that matches the filters, and there is none. Make one (or loosen the filters) and fetch again; once the workflow is active, the trigger fires for every new ${watch.event.noun}.`,
	});
}

/** The first poll of a watch: remembers the API's now and the events already there, emits nothing. */
async function startWatching(watch: Watch): Promise<WatchState> {
	const page = await readPage(watch.ctx, listRequest(watch), watch.event.list.pagination, 0);
	const moments = page.items.map((record) => sortMoment(watch.event, record) ?? -Infinity);
	return startState(watch.id, serverTime(page.headers), Math.max(-Infinity, ...moments));
}

/** One poll of the trigger: null when nothing is new (n8n then starts no execution). */
export async function pollEvent(ctx: IPollFunctions, eventName: string, event: WatchedEvent, properties: INodeProperties[]): Promise<INodeExecutionData[][] | null> {
	const qs = filterQuery(ctx, event, properties);
	const watch: Watch = { ctx, event, qs, id: JSON.stringify([eventName, qs]) };
	if (ctx.getMode() === 'manual') return await testEvent(watch);
	const data = ctx.getWorkflowStaticData('node');
	const { state, problem } = readState(data, watch.id);
	if (!state) {
		const start = await startWatching(watch);
		if (problem === 'unreadable') ctx.logger.warn(`The trigger's stored position could not be read (damaged, or written by another version); it watches again from ${start.since}. Events between the last poll and now are not emitted.`);
		if (problem === 'otherWatch') ctx.logger.info(`The trigger's event or filters changed; it watches from ${start.since}.`);
		writeState(data, start);
		return null;
	}
	const { reading, records } = await readSince(watch, state, state.page ?? 0);
	const { emit, next } = advance(state, reading);
	if (!reading.complete) {
		const pages = `${reading.pages} page${reading.pages === 1 ? '' : 's'}`;
		ctx.logger.info(`The trigger read ${pages} of ${event.noun}s without reaching the last poll's position; it reads on at the next poll.`);
	}
	const output = await fullRecords(watch, emit.map((sighting) => records.get(sighting.key)!));
	writeState(data, next);
	return output.length ? [output.map((json) => ({ json }))] : null;
}
