import { createHash } from 'crypto';

import type { IDataObject } from 'n8n-workflow';

/**
 * The trigger's memory between polls, and the rule that decides what a poll emits. Pure: no requests here.
 *
 * "New" means: the event happened after the watermark (`since`), and its key is not among the keys already
 * emitted after the watermark (`seen`). Records can share a timestamp and can become visible up to LOOKBACK_MS
 * after it, so the watermark trails the API's clock by LOOKBACK_MS and never passes a record that was read and
 * not emitted yet; `seen` holds the keys emitted in that window, as short hashes, at most SEEN_MAX of them, so
 * the state stays under 2 KB whatever happens. When `seen` is full, the rest waits for the next poll. An event whose
 * records may change or leave the list before they are emitted (Deal Won: reopened) cannot wait: it has room for
 * SEEN_BURST_MAX keys (its state grows past 2 KB only while more than 150 of its events lie in the lookback window).
 */

/** How late a record may become visible after its timestamp (api-reference §8: "a little after"; designed). */
export const LOOKBACK_MS = 60_000;
/** Keys remembered at most: 150 hashes of 10 characters keep the whole state under 2 KB. */
export const SEEN_MAX = 150;
/**
 * Keys remembered at most by an event whose records may change their key or leave the list before they are emitted
 * (a deal won, reopened and won again): it emits every event it reads at once, and remembers up to 2,000 of them
 * (20 KB) while they are within the lookback window. Beyond, the rest waits as with SEEN_MAX.
 */
export const SEEN_BURST_MAX = 2000;
const HASH_LENGTH = 10;
const STATE_VERSION = 1;

export interface WatchState {
	v: typeof STATE_VERSION;
	/** Event and filters the state belongs to: another watch starts again from now. */
	watch: string;
	/** The watermark (ISO): everything that happened at or before it is done with. */
	since: string;
	/** Hashes of the keys emitted after the watermark, HASH_LENGTH characters each. */
	seen: string;
	/** Where the next poll starts reading a backlog too long for one poll (a page index). */
	page?: number;
}

/** A record as the rule sees it. */
export interface Sighting {
	key: string;
	/** When the event happened (ms). */
	at: number;
}

/** What one poll read: the events after the watermark, in list order, and how far the reading got. */
export interface Reading {
	sightings: Sighting[];
	/** The API's clock when the reading started (ms). */
	serverNow: number;
	/** Read down to the watermark (or the end of the list). False: the poll ran out of time or pages first. */
	complete: boolean;
	/** The page the reading started at: the pages above it (newer records) were not read this time. */
	startPage: number;
	/** Pages read. */
	pages: number;
	/** The list's total did not change between pages: no record can have slipped between two of them. */
	steady: boolean;
	/** The moment of the newest record read, when reading started below the top: the unread pages above are newer. */
	topAt?: number;
	/** The event's records are sorted by the moment of the event itself, so a later poll may start deeper. */
	resumable: boolean;
	/** A record may have been on no page read (a group of one moment larger than a page, in another order on each page). */
	gaps?: boolean;
}

/** A text's SHA-256 in base64url, cut to `length` characters. */
export function shortHash(text: string, length: number): string {
	return createHash('sha256').update(text).digest('base64url').slice(0, length);
}

/** A key's hash of 10 characters (60 bits: a collision about once in 10^18 comparisons). */
export function hashKey(key: string): string {
	return shortHash(key, HASH_LENGTH);
}

/** The hashes of a stored `seen`. */
export function seenSet(seen: string): Set<string> {
	const hashes = new Set<string>();
	for (let i = 0; i < seen.length; i += HASH_LENGTH) hashes.add(seen.slice(i, i + HASH_LENGTH));
	return hashes;
}

/** The stored state when it is one this version wrote for this watch; otherwise why it is not. */
export function readState(data: IDataObject, watch: string): { state?: WatchState; problem?: 'none' | 'unreadable' | 'otherWatch' } {
	const state = data.state as Partial<WatchState> | undefined;
	if (state === undefined) return { problem: 'none' };
	const valid =
		typeof state === 'object' &&
		state !== null &&
		state.v === STATE_VERSION &&
		typeof state.watch === 'string' &&
		isInstant(state.since) &&
		typeof state.seen === 'string' &&
		/^[\w-]*$/.test(state.seen) &&
		state.seen.length % HASH_LENGTH === 0 &&
		state.seen.length <= SEEN_BURST_MAX * HASH_LENGTH &&
		(state.page === undefined || (Number.isInteger(state.page) && state.page >= 0));
	if (!valid) return { problem: 'unreadable' };
	if (state.watch !== watch) return { problem: 'otherWatch' };
	return { state: state as WatchState };
}

/** An ISO instant as the trigger writes it: a real calendar date (30 February is damaged, not 2 March). */
export function isInstant(value: unknown): value is string {
	if (typeof value !== 'string') return false;
	const ms = Date.parse(value);
	return !Number.isNaN(ms) && new Date(ms).toISOString() === value;
}

/** Replaces the stored state (n8n keeps the node's static data object, so it is changed in place). */
export function writeState(data: IDataObject, state: WatchState): void {
	for (const key of Object.keys(data)) delete data[key];
	data.state = { ...state } as unknown as IDataObject;
}

/**
 * The state of a first activation: from the API's now, or from the newest record listed when that is later (the
 * Date header counts whole seconds), so nothing that was there at activation is emitted.
 */
export function startState(watch: string, serverNow: number, newest = -Infinity): WatchState {
	return { v: STATE_VERSION, watch, since: new Date(Math.max(serverNow, newest)).toISOString(), seen: '' };
}

/** Oldest first; the same moment in key order, so every poll orders alike. */
function oldestFirst(a: Sighting, b: Sighting): number {
	return a.at - b.at || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

/**
 * The keys still to remember under a watermark: those read after it, and those not read at all when the reading
 * may have missed them (pages above left unread, or a list that changed while it was read); a key not read in a
 * reading of the whole window belongs to a deleted record.
 */
function stillSeen(hashes: Iterable<string>, read: Map<string, number>, watermark: number, reading: Reading): Set<string> {
	const keep = new Set<string>();
	for (const hash of hashes) {
		const at = read.get(hash);
		if (at !== undefined ? at > watermark : reading.startPage > 0 || !reading.steady || reading.gaps) keep.add(hash);
	}
	return keep;
}

/**
 * The rule: what this poll emits (oldest first) and the state after it. An incomplete reading emits nothing
 * and only notes where to read next time.
 * - The watermark moves to the API's now minus LOOKBACK_MS, but never past a record that waits to be emitted, nor
 *   past the unread pages above a reading that started below the top; it stays when the list changed during the
 *   reading. It moves twice: before emitting (what is settled frees room in `seen`) and after.
 * - Emits the candidates (after the watermark, not seen): all that are older than the lookback window, and the
 *   recent ones while `seen` has room (`room`: SEEN_MAX, or SEEN_BURST_MAX for events whose records may change
 *   before they are emitted); the rest waits for the next poll.
 */
export function advance(state: WatchState, reading: Reading, room = SEEN_MAX): { emit: Sighting[]; next: WatchState; waiting: number } {
	if (!reading.complete) {
		if (!reading.resumable) return { emit: [], next: state, waiting: 0 };
		return { emit: [], next: { ...state, page: reading.startPage + reading.pages }, waiting: 0 };
	}
	const since = Date.parse(state.since);
	const byKey = new Map<string, Sighting>();
	for (const sighting of reading.sightings) if (sighting.at > since) byKey.set(sighting.key, sighting);
	const read = new Map([...byKey.values()].map((sighting) => [hashKey(sighting.key), sighting.at]));
	const seen = seenSet(state.seen);
	const candidates = [...byKey.values()].filter((sighting) => !seen.has(hashKey(sighting.key))).sort(oldestFirst);
	const readAbove = reading.startPage > 0;
	const timeLimit = Math.min(reading.serverNow - LOOKBACK_MS, readAbove && reading.topAt !== undefined ? reading.topAt - 1 : Infinity);
	const settled = (waiting: Sighting | undefined) => (reading.steady ? Math.max(since, Math.min(timeLimit, waiting ? waiting.at - 1 : Infinity)) : since);

	// Records older than the lookback window (ripe) come out whole: the watermark passes them right after, so they
	// need no room in `seen`. The room bounds only the recent ones, which may still get late neighbours.
	let ripe = 0;
	while (reading.steady && ripe < candidates.length && candidates[ripe].at <= timeLimit) ripe++;
	const kept = stillSeen(seen, read, settled(candidates[ripe]), reading);
	const emitted = Math.min(candidates.length, ripe + Math.max(0, room - kept.size));
	const emit = candidates.slice(0, emitted);
	const nextSince = settled(candidates[emitted]);
	const keep = stillSeen([...kept, ...emit.map((sighting) => hashKey(sighting.key))], read, nextSince, reading);
	const next: WatchState = { v: STATE_VERSION, watch: state.watch, since: new Date(nextSince).toISOString(), seen: [...keep].join('') };
	// A complete reading stores no hint: the next poll reads from the top again (a deep start only follows a cut one).
	return { emit, next, waiting: candidates.length - emitted };
}
