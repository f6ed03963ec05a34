import { randomBytes } from 'crypto';
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

/**
 * Repeats of a delivery start one execution, also when n8n runs several webhook processors (queue mode) and copies of
 * one delivery reach two of them at the same moment (issue 33; api-reference §9: deliveries may repeat).
 *
 * What n8n gives a webhook node to share between processes is the workflow's static data, and only that: each request
 * loads it from the database before webhook() and, when webhook() changed it, writes all of it back afterwards with a
 * plain UPDATE (last writer wins, no version check; n8n/dist/webhooks/live-webhooks.js, workflows/
 * workflow-static-data.service.js). Nothing atomic: the deduplication helpers (checkProcessedAndRecord, itself a
 * read-then-update) are only on IExecuteFunctions, and the execution deduplication key that n8n 2.41 does enforce with
 * a unique index (execution_entity.deduplicationKey) is open to ITriggerFunctions.emit and the scheduler, not to a
 * webhook's answer (IWebhookResponseData has no such field). And what webhook() writes is lost when the request starts
 * an execution that n8n answers after (n8n 2.41's WorkflowRunner.run wraps the same static data object again, which
 * clears its "changed" mark): a delivery cannot record its own key.
 *
 * So the claim is made the way Fischer's mutual exclusion makes it with a plain register and a known bound on how long
 * a write can lag its read: a short request claims, the claimant waits longer than any such request takes, and reads
 * again; the claim that is still there won. The node sends the two requests to itself (`claim`, `check`), at the
 * address and port of its own process (the socket the delivery came in on), so the claim is written in a request of
 * its own whose load-to-save time is short, however long the delivery itself takes (the verification read, the rate
 * limit), and which starts no execution:
 * 1. The delivery passes the cheap checks (deliveries.ts), and `claim` drops it at once when this process took the same
 *    key in the last DEDUPE.recentMs or the static data it loaded has it.
 * 2. `record`, when the delivery would start the workflow, hands the key to the trigger's Lane in this process, which
 *    decides in rounds, one at a time, every key waiting in one request: a `claim` request writes key → nonce (random)
 *    for each key that has no record yet (a key with another nonce is a repeat: dropped).
 * 3. It waits (at least settleMs, settleFactor times the claim's round trip, at most maxSettleMs), then a `check`
 *    request (which writes nothing) reads the keys again: its own nonce there, the delivery starts the workflow;
 *    another nonce, another copy's claim was written last and that copy starts it; no key (a claim of another process
 *    saved at the same moment over it) goes again in the next round, after a random pause, up to `rounds` in all.
 *    One request for all keys waiting matters: with a request per key, the claims of a burst overwrite each other
 *    faster than they are written (measured in queue mode: 218 of 427 never settled).
 * The record stays as the key's memory for later repeats: every key of the last windowMs, and older ones up to
 * retainMs while there are at most softMax (hardMax in all), 16 characters each in static data.
 *
 * What it assumes: that a `claim` request is saved less than the wait after it loaded the static data (measured in
 * queue mode under a burst: up to about 2 s, against a wait of ten times the claim's round trip, 1 to 4 s), and that no other request writes the workflow's static data from a copy
 * loaded more than the wait before (a node of the same workflow changing static data during an execution does).
 * Without a way to reach itself (no socket: a test event; or the request failing) it decides alone: one execution per
 * process, and repeats seen through the static data only (the delivery's own copy, saved when it ends, may then drop
 * keys other requests recorded meanwhile; a warning says so).
 */

export interface DedupeSettings {
	/** The least wait between a claim and its check. */
	settleMs: number;
	/** The wait is at least this many times the claim's round trip (a slow process waits longer). */
	settleFactor: number;
	/** The longest wait between a claim and its check. */
	maxSettleMs: number;
	/** Rounds a key takes part in, at most: a check that finds it overwritten claims it again in the next round. */
	rounds: number;
	/** Before claiming again, a random wait of up to this, so that claims overwritten together do not meet again. */
	retryJitterMs: number;
	/** How long one request to itself may take. */
	requestTimeoutMs: number;
	/** How long deciding a key may take in all: past it, no new round for it (it starts the workflow). */
	budgetMs: number;
	/** Every key younger than this is kept (up to hardMax). */
	windowMs: number;
	/** No key older than this is kept. */
	retainMs: number;
	/** Keys older than windowMs are kept while there are at most this many. */
	softMax: number;
	/** Keys kept in all, at most. */
	hardMax: number;
	/** Keys are grouped by the period they were claimed in (their age is known to this much). */
	bucketMs: number;
	/** How long a process remembers a key it took itself. */
	recentMs: number;
}

export const DEDUPE: DedupeSettings = {
	settleMs: 1000,
	settleFactor: 10,
	maxSettleMs: 4000,
	rounds: 8,
	retryJitterMs: 500,
	requestTimeoutMs: 4000,
	budgetMs: 20_000,
	windowMs: 60 * 60_000,
	retainMs: 24 * 60 * 60_000,
	softMax: 2000,
	hardMax: 20_000,
	bucketMs: 5 * 60_000,
	recentMs: 10 * 60_000,
};

/** A key's hash (events.ts deliveryKey through watermark.ts hashKey) and a claim's nonce, as stored. */
export const HASH_LENGTH = 10;
export const NONCE_LENGTH = 6;
const ENTRY_LENGTH = HASH_LENGTH + NONCE_LENGTH;
/** The nonce of a key recorded without a claim (decided alone, or the earlier `seen` list): no nonce can be this. */
export const NO_NONCE = '.'.repeat(NONCE_LENGTH);
/** Where the keys are in the node's static data, and where the earlier versions kept theirs (a list of hashes). */
export const KEYS_FIELD = 'deliveryKeys';
const LEGACY_FIELD = 'seen';
/** The header of the node's requests to itself: `claim` or `check`. */
export const CONTROL_HEADER = 'x-scheduling-platform-dedupe';

/** A key's record: the claim's nonce, and the start of the period (ms) it was claimed in. */
export interface KeyRecord {
	nonce: string;
	since: number;
}

export type Keys = Map<string, KeyRecord>;

/**
 * The keys as stored: `{ <period in base 36>: "<hash><nonce><hash><nonce>..." }`, 16 characters a key. Anything
 * else in the field is ignored; of a key stored twice the newer record counts.
 */
export function readKeys(stored: unknown, bucketMs = DEDUPE.bucketMs): Keys {
	const keys: Keys = new Map();
	if (!stored || typeof stored !== 'object' || Array.isArray(stored)) return keys;
	for (const [period, packed] of Object.entries(stored as IDataObject)) {
		const since = parseInt(period, 36) * bucketMs;
		if (!Number.isFinite(since) || typeof packed !== 'string') continue;
		for (let at = 0; at + ENTRY_LENGTH <= packed.length; at += ENTRY_LENGTH) {
			const hash = packed.slice(at, at + HASH_LENGTH);
			const known = keys.get(hash);
			if (!known || known.since < since) keys.set(hash, { nonce: packed.slice(at + HASH_LENGTH, at + ENTRY_LENGTH), since });
		}
	}
	return keys;
}

/** The keys an earlier version kept (`seen`: a list of hashes), as records of now without a nonce. */
function legacyKeys(stored: unknown, now: number, bucketMs: number): Keys {
	const keys: Keys = new Map();
	if (!Array.isArray(stored)) return keys;
	for (const hash of stored) if (typeof hash === 'string' && hash.length === HASH_LENGTH) keys.set(hash, { nonce: NO_NONCE, since: periodOf(now, bucketMs) });
	return keys;
}

const periodOf = (now: number, bucketMs: number) => Math.floor(now / bucketMs) * bucketMs;

/**
 * The keys to keep at `now`: newest first, every one younger than windowMs (up to hardMax), older ones while fewer
 * than softMax are kept, none older than retainMs.
 */
export function retain(keys: Keys, now: number, settings: DedupeSettings = DEDUPE): Keys {
	const kept: Keys = new Map();
	const newestFirst = [...keys].sort(([, a], [, b]) => b.since - a.since);
	for (const [hash, record] of newestFirst) {
		const age = now - record.since;
		if (age > settings.retainMs || kept.size >= settings.hardMax) continue;
		if (age > settings.windowMs && kept.size >= settings.softMax) continue;
		kept.set(hash, record);
	}
	return kept;
}

/** The keys as stored, after `retain`; periods and keys in the order read (JSON object keys keep it). */
export function packKeys(keys: Keys, now: number, settings: DedupeSettings = DEDUPE): IDataObject {
	const periods = new Map<number, string[]>();
	for (const [hash, { nonce, since }] of retain(keys, now, settings)) {
		const entries = periods.get(since) ?? [];
		entries.push(hash + nonce);
		periods.set(since, entries);
	}
	const packed: IDataObject = {};
	for (const [since, entries] of [...periods].sort(([a], [b]) => a - b)) packed[(since / settings.bucketMs).toString(36)] = entries.join('');
	return packed;
}

/** Whether stored keys (or the earlier `seen` list) hold a hash younger than retainMs, without reading them all. */
export function storedHas(node: IDataObject, hash: string, now = Date.now(), settings: DedupeSettings = DEDUPE): boolean {
	const stored = node[KEYS_FIELD];
	if (stored && typeof stored === 'object' && !Array.isArray(stored)) {
		for (const [period, packed] of Object.entries(stored as IDataObject)) {
			if (typeof packed !== 'string' || !(now - parseInt(period, 36) * settings.bucketMs <= settings.retainMs)) continue;
			for (let at = packed.indexOf(hash); at !== -1; at = packed.indexOf(hash, at + 1)) if (at % ENTRY_LENGTH === 0) return true;
		}
	}
	const legacy = node[LEGACY_FIELD];
	return Array.isArray(legacy) && (legacy as unknown[]).includes(hash);
}

/** The keys of the node's static data (and of the earlier `seen` list) that `retain` keeps. */
function keysOf(node: IDataObject, now: number, settings: DedupeSettings): Keys {
	const keys = legacyKeys(node[LEGACY_FIELD], now, settings.bucketMs);
	for (const [hash, record] of readKeys(node[KEYS_FIELD], settings.bucketMs)) keys.set(hash, record);
	return retain(keys, now, settings);
}

/** Stores the keys (the earlier `seen` list goes into the new form). */
function storeKeys(node: IDataObject, keys: Keys, now: number, settings: DedupeSettings): void {
	node[KEYS_FIELD] = packKeys(keys, now, settings);
	if (LEGACY_FIELD in node) delete node[LEGACY_FIELD];
}

/** What a claim or a check answers: for each key asked about, the nonce of its record, or null when there is none. */
export type Holders = Record<string, string | null>;

/**
 * One request of a round to the node's own process: `claim` writes each key's nonce (hash → nonce) unless the key
 * has a record, `check` writes nothing; both answer the holders of the keys.
 */
export type Send = (operation: 'claim' | 'check', claims: Map<string, string>) => Promise<Holders>;

export interface RoundTiming {
	settleMs: number;
	settleFactor: number;
	maxSettleMs: number;
	wait(ms: number): Promise<void>;
	now(): number;
}

/** What a round says of a claim: won (it starts the workflow), lost (another record holds the key), again (overwritten). */
export type Verdict = 'won' | 'lost' | 'again';

/**
 * One round of Fischer's protocol for a batch of claims (hash → nonce): claim them all in one request, wait (at least
 * settleMs, settleFactor times the claim's round trip, at most maxSettleMs), then check in one request the ones the
 * claim holds. A claim that finds another nonce has lost; a check that finds its own nonce has won, another lost,
 * none (a request saved from a copy loaded before the claim was written) goes again.
 */
export async function round(send: Send, claims: Map<string, string>, timing: RoundTiming): Promise<Map<string, Verdict>> {
	const verdicts = new Map<string, Verdict>();
	const sent = timing.now();
	const claimed = await send('claim', claims);
	const holding = new Map([...claims].filter(([hash, nonce]) => claimed[hash] === nonce));
	for (const hash of claims.keys()) if (!holding.has(hash)) verdicts.set(hash, 'lost');
	if (!holding.size) return verdicts;
	const roundTripMs = timing.now() - sent;
	await timing.wait(Math.min(timing.maxSettleMs, Math.max(timing.settleMs, timing.settleFactor * roundTripMs)));
	const checked = await send('check', holding);
	for (const [hash, nonce] of holding) verdicts.set(hash, checked[hash] === nonce ? 'won' : checked[hash] === null ? 'again' : 'lost');
	return verdicts;
}

export interface LaneTiming extends RoundTiming {
	rounds: number;
	retryJitterMs: number;
	budgetMs: number;
}

/**
 * How a delivery's claim ended: won or lost; unsettled (every check found it overwritten, or the budget ran out:
 * it starts the workflow); alone (the process could not reach itself: the caller decides alone). With the rounds it
 * took and, for alone, why.
 */
export interface Decision {
	outcome: 'won' | 'lost' | 'unsettled' | 'alone';
	rounds: number;
	error?: Error;
}

interface Waiting {
	hash: string;
	nonce: string;
	rounds: number;
	deadline: number;
	send: Send;
	decide(decision: Decision): void;
}

/**
 * The claims of one trigger in one process, decided round after round, one round at a time: a delivery that comes
 * during a round waits for the next, and one claim request carries every key waiting. So the claims of one process
 * never overwrite each other (however many deliveries a burst brings), and only rounds of different processes can
 * meet; a key overwritten that way goes again in the next round, after a random pause.
 */
export class Lane {
	private waiting: Waiting[] = [];
	private running = false;

	constructor(private readonly timing: LaneTiming) {}

	async decide(hash: string, send: Send): Promise<Decision> {
		return await new Promise<Decision>((decide) => {
			this.waiting.push({ hash, nonce: token(NONCE_LENGTH), rounds: 0, deadline: this.timing.now() + this.timing.budgetMs, send, decide });
			if (!this.running) void this.run();
		});
	}

	private async run(): Promise<void> {
		this.running = true;
		try {
			while (this.waiting.length) await this.next();
		} finally {
			this.running = false;
		}
	}

	private async next(): Promise<void> {
		const batch = this.waiting.splice(0);
		if (batch.some((claim) => claim.rounds > 0)) await this.timing.wait(Math.random() * this.timing.retryJitterMs);
		let verdicts: Map<string, Verdict>;
		try {
			verdicts = await round(batch[0].send, new Map(batch.map((claim) => [claim.hash, claim.nonce])), this.timing);
		} catch (error) {
			for (const claim of batch) claim.decide({ outcome: 'alone', rounds: claim.rounds + 1, error: error as Error });
			return;
		}
		for (const claim of batch) {
			const verdict = verdicts.get(claim.hash) ?? 'again';
			claim.rounds++;
			if (verdict !== 'again') claim.decide({ outcome: verdict, rounds: claim.rounds });
			else if (claim.rounds >= this.timing.rounds || this.timing.now() >= claim.deadline) claim.decide({ outcome: 'unsettled', rounds: claim.rounds });
			else this.waiting.push(claim);
		}
	}
}

/** Per workflow, node and mode (live and test deliveries are separate): delivery hash → when this process forgets it. */
const recent = new Map<string, Map<string, number>>();
/** The requests to itself this process is waiting for: token → whose, and which claims (hash → nonce). Only they are answered. */
const asking = new Map<string, { owner: string; claims: Map<string, string> }>();
/** Each delivery's way back to its own process (its request's local address, port and path), kept by `claim`. */
const selfUrls = new WeakMap<IWebhookFunctions, string>();
/** This process's lanes, by trigger and way back to the process. */
const lanes = new Map<string, Lane>();

const ownerOf = (ctx: IWebhookFunctions) => `${ctx.getWorkflow().id ?? ''}|${ctx.getNode().name}|${ctx.getMode()}`;

function recentOf(ctx: IWebhookFunctions): Map<string, number> {
	const owner = ownerOf(ctx);
	let keys = recent.get(owner);
	if (!keys) recent.set(owner, (keys = new Map()));
	const now = Date.now();
	for (const [key, until] of keys) if (until <= now) keys.delete(key);
	return keys;
}

const token = (length: number) => randomBytes(Math.ceil((length * 3) / 4)).toString('base64url').slice(0, length);

/** The parts of n8n's request and response (Express over Node's http) that lead back to this process. */
interface SocketLike {
	localAddress?: string;
	localPort?: number;
	encrypted?: boolean;
}
interface RequestLike {
	socket?: SocketLike;
	originalUrl?: string;
	url?: string;
}

/**
 * This process's own URL of the webhook: the local address and port of the socket the request came in on, and its
 * path. Undefined without a socket (a request n8n did not get over HTTP).
 */
function selfUrlOf(ctx: IWebhookFunctions): string | undefined {
	const attempt = <T>(get: () => T): T | undefined => {
		try {
			return get();
		} catch {
			return undefined;
		}
	};
	const request = attempt(() => ctx.getRequestObject()) as RequestLike | undefined;
	const response = attempt(() => ctx.getResponseObject()) as { socket?: SocketLike | null; req?: RequestLike } | undefined;
	const socket = request?.socket ?? response?.socket ?? undefined;
	const path = request?.originalUrl ?? response?.req?.originalUrl ?? response?.req?.url;
	const { localAddress: address, localPort: port } = socket ?? {};
	if (!address || !port || !path?.startsWith('/')) return undefined;
	const host = address.startsWith('::ffff:') ? address.slice(7) : address.includes(':') ? `[${address.replace('%', '%25')}]` : address;
	return `${socket?.encrypted ? 'https' : 'http'}://${host}:${port}${path}`;
}

/**
 * Takes a delivery's key for this request, synchronously (a copy arriving in this process meanwhile sees it): false
 * for a repeat this process took in the last DEDUPE.recentMs or that the loaded static data holds. Also notes the way
 * back to this process for `record`, before the delivery may be answered.
 */
export function claim(ctx: IWebhookFunctions, hash: string): boolean {
	const keys = recentOf(ctx);
	if (keys.has(hash) || storedHas(ctx.getWorkflowStaticData('node'), hash)) return false;
	keys.set(hash, Date.now() + DEDUPE.recentMs);
	const url = selfUrlOf(ctx);
	if (url) selfUrls.set(ctx, url);
	return true;
}

/** Gives a key back (a delivery dropped or failed before `record`): it may come again and be checked again. */
export function release(ctx: IWebhookFunctions, hash: string): void {
	recentOf(ctx).delete(hash);
}

/** Records the key in this request's own static data and starts the workflow: the decision of one process alone. */
function decideAlone(ctx: IWebhookFunctions, hash: string): true {
	const node = ctx.getWorkflowStaticData('node');
	const now = Date.now();
	const keys = keysOf(node, now, DEDUPE);
	keys.set(hash, { nonce: NO_NONCE, since: periodOf(now, DEDUPE.bucketMs) });
	storeKeys(node, keys, now, DEDUPE);
	return true;
}

/** The holders an answer of the process names for the keys asked about; an error for anything else. */
function holdersOf(answer: unknown, claims: Map<string, string>): Holders {
	const holders = answer && typeof answer === 'object' ? (answer as IDataObject).holders : undefined;
	if (holders && typeof holders === 'object') {
		const named = holders as Holders;
		if ([...claims.keys()].every((hash) => named[hash] === null || typeof named[hash] === 'string')) return named;
	}
	throw new Error(`it answered ${JSON.stringify(answer).slice(0, 200)}`);
}

/** How a delivery's context sends a round's requests to its own process, at `url`. */
function sender(ctx: IWebhookFunctions, url: string): Send {
	const owner = ownerOf(ctx);
	return async (operation, claims) => {
		const key = token(24);
		asking.set(key, { owner, claims });
		try {
			const answer = (await ctx.helpers.httpRequest({
				method: 'POST',
				url,
				headers: { [CONTROL_HEADER]: operation },
				body: { token: key },
				json: true,
				timeout: DEDUPE.requestTimeoutMs,
				skipSslCertificateValidation: true,
			})) as unknown;
			return holdersOf(answer, claims);
		} finally {
			asking.delete(key);
		}
	};
}

function laneOf(id: string): Lane {
	let lane = lanes.get(id);
	if (!lane) lanes.set(id, (lane = new Lane({ ...DEDUPE, wait: sleep, now: Date.now })));
	return lane;
}

/**
 * Whether this delivery starts the workflow, once its key is claimed across processes (the top of this file); the
 * key stays recorded either way. A test event, or a request without a way back to its process, decides alone.
 */
export async function record(ctx: IWebhookFunctions, hash: string): Promise<boolean> {
	const url = ctx.getMode() === 'manual' ? undefined : selfUrls.get(ctx);
	if (!url) return decideAlone(ctx, hash);
	const { outcome, rounds, error } = await laneOf(`${ownerOf(ctx)}|${url}`).decide(hash, sender(ctx, url));
	ctx.logger.debug(`Delivery key ${hash}: ${outcome} after ${rounds} round(s)`);
	if (outcome === 'unsettled') ctx.logger.warn(`A delivery's claim was overwritten by other requests saved at the same moment in each of ${rounds} rounds; it starts the workflow (a copy in another process may too).`);
	if (outcome !== 'alone') return outcome !== 'lost';
	ctx.logger.warn(
		`The webhook trigger could not reach its own process at ${url} to claim a delivery (${error?.message ?? 'no answer'}); it decides alone: a copy of the delivery in another n8n process at the same moment may start the workflow a second time. Let n8n reach its own address (N8N_SSRF_ALLOWED_IP_RANGES when SSRF protection is on).`,
	);
	return decideAlone(ctx, hash);
}

/** Answers a request through n8n's response object; false when there is none. */
function answer(ctx: IWebhookFunctions, body: IDataObject): boolean {
	let response: ReturnType<IWebhookFunctions['getResponseObject']> | undefined;
	try {
		response = ctx.getResponseObject();
	} catch {
		return false;
	}
	if (response.headersSent || response.writableEnded) return false;
	const text = JSON.stringify(body);
	response.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
	response.end(text);
	return true;
}

/**
 * The node's requests to itself (`claim`, `check`; undefined for anything else). Only a request this process is
 * waiting for is answered; any other request with the header starts nothing and is answered as n8n answers such a
 * call. A claim writes each of its keys that has no record, then both say whose record each key has. n8n saves the
 * static data right after (a request that starts no execution).
 */
export function control(ctx: IWebhookFunctions): IWebhookResponseData | undefined {
	const operation = ctx.getHeaderData()[CONTROL_HEADER];
	if (operation === undefined) return undefined;
	const asked = asking.get(String(ctx.getBodyData()?.token));
	if ((operation !== 'claim' && operation !== 'check') || !asked || asked.owner !== ownerOf(ctx)) return {};
	const node = ctx.getWorkflowStaticData('node');
	const now = Date.now();
	const keys = keysOf(node, now, DEDUPE);
	const holders: Holders = {};
	let changed = false;
	for (const [hash, nonce] of asked.claims) {
		holders[hash] = keys.get(hash)?.nonce ?? null;
		if (operation === 'claim' && holders[hash] === null) {
			keys.set(hash, { nonce, since: periodOf(now, DEDUPE.bucketMs) });
			holders[hash] = nonce;
			changed = true;
		}
	}
	if (changed) storeKeys(node, keys, now, DEDUPE);
	return answer(ctx, { holders }) ? { noWebhookResponse: true } : { webhookResponse: { holders } };
}
