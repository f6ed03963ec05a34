import { createHash } from 'crypto';
import { sleep } from 'n8n-workflow';

/**
 * Client-side token bucket per credential, with the credential's own limit (Requests per Minute and Burst,
 * by default the API's 100 and 200). Module state, so every node and trigger of this package in one n8n
 * process shares the bucket of a credential. Buckets are keyed by a hash of the credential, never by the
 * secret itself.
 *
 * The API's bucket for a credential starts when its first request arrives, a little after this one would
 * start. So refilling starts only when the API has answered the first request, and runs 2% slower than the
 * API's: with one process, the API's bucket is never emptier than this one, and no 429 ever comes. Beyond its first
 * BURST_FREE tokens the burst is spent at most at BURST_PACE times the rate, so that processes starting within a
 * second or two of each other split it about evenly (alone, a process finishes as soon: the API refills the same).
 *
 * Other n8n processes (queue-mode workers, several instances) may use the same credential, unseen: n8n gives a
 * node no state shared between processes, and the API names no header with the room left (only Retry-After).
 * What a process can know: a 429 for the credential's limit means the API's bucket is empty at that moment.
 * Between two such 429s the API gave out exactly its rate times the time between (nothing was left over), so the
 * requests this process got through in between, over that time, are its share plus whatever the others left
 * unused. Hence, once a 429 has come (a process that never meets one keeps the whole limit):
 * - the first 429 halves the rate; the 429 that ends FIRST_MEASURE_TOKENS of that crowding measures the share
 *   got through, and sets the rate to it, less MARGIN (to an even split, 1/2, 1/3, ..., when the share is within
 *   SNAP of one, so that processes that started together keep equal shares and end together);
 * - later, the share holds: a 429 now and then changes nothing, unless the share got through was CROWDED below the
 *   rate (someone came: the share measured) or 429s come again within HIT_AGAIN_TOKENS (a little less, by MARGIN);
 * - to find room the others left, the process drains: it sends its requests one after another, as fast as the API
 *   answers, until a 429 (the API's bucket is empty: what it had saved is taken, one 429 is the price, and it meets
 *   this process, not the others), then pauses DRAIN_PAUSE_TOKENS. A drain that found FOUND_AGAIN of the limit more
 *   than the rate (or FOUND_REL of the rate), and at least FOUND_TOKENS, took the room as its share and drains again
 *   after DRAIN_AGAIN_TOKENS (less, such as the margins of the others' shares, is taken but changes no share: shares
 *   stay equal); a share of ALONE_SHARE or more means the others have stopped: the whole limit again, no more drains;
 * - every drain costs a 429, so a process drains seldom: DRAIN_FIRST_TOKENS after its first 429 if no crowding
 *   followed (a stray 429: it finds itself alone), else DRAIN_MEASURED_TOKENS after the first measurement; then after
 *   DRAIN_AFTER_ANSWERS answers or when the others, had they stopped, would have left DRAIN_BANK_TOKENS unused in the
 *   API's bucket, whichever comes first; and once when its node run has few items left (what its rate sends in
 *   END_DRAIN_TOKENS): a process about to end finds what the others left before it ends, rather than after. A drain
 *   due shortly before that one (within END_NEAR of its wait) waits for it, and no drain starts within
 *   DRAIN_SPAN_TOKENS of a 429 (the API's bucket was empty then: too little could have been left to tell).
 * Every 429 pauses the bucket until the API's Retry-After. Times are counted in tokens of the credential's limit
 * (60 s at 100 per minute are 100 tokens), so a smaller or larger limit behaves alike.
 */

export interface RateLimit {
	perMinute: number;
	burst: number;
}

/** How much slower than the credential's rate the bucket refills. */
const SAFETY = 1.02;
/** Beyond its first BURST_FREE tokens, the burst is spent at most this many times as fast as the rate. */
const BURST_FREE = 10;
const BURST_PACE = 10;
/** The share of the limit after the first 429, until the first measurement. */
const FIRST_SHARE = 0.5;
/** The first measurement spans at least this many tokens of time, later ones MEASURE_TOKENS; a 429 sooner changes nothing. */
const FIRST_MEASURE_TOKENS = 75;
const MEASURE_TOKENS = 20;
/** A share set from a measurement is this part less, so that the API's bucket fills a little again. */
const MARGIN = 0.05;
/** A measured share within this part of an even split (1/2, 1/3, ...) is taken as that split. */
const SNAP = 0.15;
/** A 429 with a share got through this part below the rate: someone came. */
const CROWDED = 0.15;
/** A 429 within this many tokens of time after the last one: the share is a little too large. */
const HIT_AGAIN_TOKENS = 100;
/** The share never drops below this. */
const MIN_SHARE = 0.05;
/** A measured share of at least this much of the limit means the process is alone again. */
const ALONE_SHARE = 0.95;
/** When drains come (each wait times 0.75 to 1.25 at random, so that processes drain apart): see above. */
const DRAIN_FIRST_TOKENS = 150;
const DRAIN_MEASURED_TOKENS = 600;
const DRAIN_AFTER_ANSWERS = 300;
const DRAIN_BANK_TOKENS = 400;
const END_DRAIN_TOKENS = 200;
const END_NEAR = 0.4;
/** A drain starts at least this many tokens of time after the last 429 (the API's bucket was empty then). */
const DRAIN_SPAN_TOKENS = 60;
/** A drain that found this much more than the rate (of the limit, or of the rate), and at least FOUND_TOKENS, found news. */
const FOUND_AGAIN = 0.2;
const FOUND_REL = 0.6;
const FOUND_TOKENS = 10;
const DRAIN_AGAIN_TOKENS = 30;
/** After a drain's 429, the drainer pauses at least this many tokens of time, so the API's bucket fills again for the others. */
const DRAIN_PAUSE_TOKENS = 5;

/** How this process shares the limit with others since its first 429. */
interface Sharing {
	/** The share of the limit in use: FIRST_SHARE until the first measurement, then as measured. */
	share: number;
	measured: boolean;
	/** When the current measurement started (a 429: the API's bucket was empty), and the answers since. */
	since: number;
	answers: number;
	/** When the next drain starts (a drain lasts until the next 429), and the wait before it in tokens. */
	drainAt: number;
	drainWait: number;
	/** Whether the drain near the end of a node run is still to come (again once a run has more items left). */
	endDrainDue: boolean;
}

interface Bucket {
	limit: RateLimit;
	tokens: number;
	/** Last refill; undefined until the API has answered this credential's first request. */
	refilledAt?: number;
	/** No request before this time: the API said when it has room again. */
	pausedUntil: number;
	/** No token before this time: beyond BURST_FREE, the burst is spent at most at BURST_PACE times the rate. */
	nextAt: number;
	/** Undefined until the first 429 for the credential's limit. */
	sharing?: Sharing;
	/** While draining: the next request goes at the answer to the one before, or at this time. */
	drainNextAt: number;
	/** Wakes the requests waiting for the answer to a drain's request. */
	answered?: { promise: Promise<void>; resolve: () => void };
}

const buckets = new Map<string, Bucket>();

export function bucketKey(...parts: string[]): string {
	return createHash('sha256').update(parts.join('\u0000')).digest('hex');
}

function bucketFor(key: string, limit: RateLimit): Bucket {
	let bucket = buckets.get(key);
	if (!bucket) {
		bucket = { limit, tokens: limit.burst, pausedUntil: 0, nextAt: 0, drainNextAt: 0 };
		buckets.set(key, bucket);
	}
	if (bucket.limit.perMinute !== limit.perMinute || bucket.limit.burst !== limit.burst) {
		bucket.limit = limit;
		bucket.tokens = Math.min(bucket.tokens, limit.burst);
	}
	return bucket;
}

/** A span of time in tokens of the credential's limit, and back. */
function tokensIn(bucket: Bucket, ms: number): number {
	return (ms / 60_000) * bucket.limit.perMinute;
}

function msOf(bucket: Bucket, tokens: number): number {
	return (tokens * 60_000) / bucket.limit.perMinute;
}

function msPerToken(bucket: Bucket): number {
	return msOf(bucket, 1 / (bucket.sharing?.share ?? 1)) * SAFETY;
}

function draining(bucket: Bucket, now: number): boolean {
	const sharing = bucket.sharing;
	return sharing !== undefined && now >= sharing.drainAt && tokensIn(bucket, now - sharing.since) >= DRAIN_SPAN_TOKENS;
}

function refill(bucket: Bucket, now: number): void {
	if (bucket.refilledAt === undefined || now <= bucket.refilledAt) return;
	bucket.tokens = Math.min(bucket.limit.burst, bucket.tokens + (now - bucket.refilledAt) / msPerToken(bucket));
	bucket.refilledAt = now;
}

async function nextAnswer(bucket: Bucket): Promise<void> {
	if (!bucket.answered) {
		let resolve = () => {};
		const promise = new Promise<void>((done) => (resolve = done));
		bucket.answered = { promise, resolve };
	}
	return await bucket.answered.promise;
}

/**
 * Starts the drain near the end of a node run: when the items left are what the rate sends in END_DRAIN_TOKENS. A drain
 * due when the end is closer than END_NEAR of the wait before it waits for that one.
 */
function drainNearEnd(bucket: Bucket, sharing: Sharing, itemsLeft: number, now: number): void {
	if (itemsLeft > sharing.share * END_DRAIN_TOKENS) {
		sharing.endDrainDue = true;
		const due = now >= sharing.drainAt && bucket.drainNextAt < sharing.drainAt; // due, and no drain request sent yet
		if (due && itemsLeft <= sharing.share * END_NEAR * sharing.drainWait) sharing.drainAt = now + msOf(bucket, itemsLeft / sharing.share);
	} else if (sharing.endDrainDue) {
		sharing.endDrainDue = false;
		sharing.drainAt = Math.min(sharing.drainAt, now);
	}
}

/**
 * Waits until the credential's bucket has a token and is not paused, then takes the token. `itemsLeft`: the items of
 * the node run after this one (the drain near its end).
 */
export async function takeToken(key: string, limit: RateLimit, itemsLeft?: number): Promise<void> {
	const bucket = bucketFor(key, limit);
	if (bucket.sharing && itemsLeft !== undefined) drainNearEnd(bucket, bucket.sharing, itemsLeft, Date.now());
	for (;;) {
		const now = Date.now();
		refill(bucket, now);
		if (now < bucket.pausedUntil) {
			await sleep(bucket.pausedUntil - now);
		} else if (draining(bucket, now)) {
			// One request after the other, as fast as the API answers (and at least at twice its rate), until a 429.
			if (now >= bucket.drainNextAt) {
				bucket.drainNextAt = now + msOf(bucket, 0.5);
				return;
			}
			await Promise.race([sleep(bucket.drainNextAt - now), nextAnswer(bucket)]);
		} else if (now < bucket.nextAt) {
			await sleep(bucket.nextAt - now);
		} else if (bucket.tokens < 1) {
			// Until the next token and a random part of one more (what is not used stays in the bucket): the requests of
			// several processes reach the API at random moments rather than like clockwork, so that which of them meets a
			// 429 depends less on how their clocks fall against each other. At most a second: a drain may start meanwhile.
			await sleep(Math.min(1000, Math.ceil((1 - bucket.tokens + Math.random()) * msPerToken(bucket))));
		} else {
			bucket.tokens -= 1;
			if (bucket.tokens < limit.burst - BURST_FREE) bucket.nextAt = now + msOf(bucket, 1 / BURST_PACE);
			return;
		}
	}
}

/** Called with every answer from the API but a 429: the first one starts the refill clock; a drain sends the next request. */
export function noteAnswer(key: string, limit: RateLimit): void {
	const bucket = bucketFor(key, limit);
	const now = Date.now();
	bucket.refilledAt ??= now;
	if (!bucket.sharing) return;
	bucket.sharing.answers++;
	if (draining(bucket, now)) {
		bucket.drainNextAt = now;
		bucket.answered?.resolve();
		bucket.answered = undefined;
	}
}

/**
 * The share got through since the measurement started (at most the whole limit); undefined when the span is too short
 * to tell (a drain's 429 needs MEASURE_TOKENS: it took what the API had saved, so it measures also before the first).
 */
function measuredShare(bucket: Bucket, sharing: Sharing, now: number, drained: boolean): number | undefined {
	const span = tokensIn(bucket, now - sharing.since);
	return span < (sharing.measured || drained ? MEASURE_TOKENS : FIRST_MEASURE_TOKENS) ? undefined : Math.min(1, sharing.answers / span);
}

/** The measured share less the margin; an even split (1/2, 1/3, ...) when it is within SNAP of one. */
function shareOf(measured: number): number {
	const n = Math.max(2, Math.round(1 / measured));
	const splits = [n - 1, n, n + 1].filter((k) => k >= 2).map((k) => 1 / k);
	const even = splits.reduce((best, split) => (Math.abs(split - measured) < Math.abs(best - measured) ? split : best));
	return (Math.abs(measured - even) <= SNAP * even ? even : measured) * (1 - MARGIN);
}

function scheduleDrain(bucket: Bucket, sharing: Sharing, now: number, waitTokens: number): void {
	sharing.drainWait = waitTokens;
	sharing.drainAt = now + msOf(bucket, waitTokens * (0.75 + Math.random() / 2));
}

/** The share after a 429 that measured `measured`, and the next drain when the 429 ended one. */
function reshare(bucket: Bucket, sharing: Sharing, now: number, measured: number, drained: boolean): void {
	const rate = sharing.share / SAFETY;
	const found = measured - rate;
	const span = tokensIn(bucket, now - sharing.since);
	const news = (found >= FOUND_AGAIN || found >= FOUND_REL * rate) && found * span >= FOUND_TOKENS;
	let next = sharing.share;
	if (!sharing.measured || found < -CROWDED * rate || (drained && news)) next = shareOf(measured);
	else if (!drained && span < HIT_AGAIN_TOKENS) next = sharing.share * (1 - MARGIN);
	if (drained) {
		const waitTokens = news ? DRAIN_AGAIN_TOKENS : Math.min(DRAIN_BANK_TOKENS / Math.max(1 - measured, 0.1), DRAIN_AFTER_ANSWERS / next);
		scheduleDrain(bucket, sharing, now, waitTokens);
	} else if (!sharing.measured) {
		scheduleDrain(bucket, sharing, now, DRAIN_MEASURED_TOKENS);
	}
	Object.assign(sharing, { share: Math.min(1, Math.max(MIN_SHARE, next)), measured: true, since: now, answers: 0 });
}

/** What a 429 for the credential's limit teaches (see above). */
function share(bucket: Bucket, now: number, drained: boolean): void {
	const sharing = bucket.sharing;
	if (!sharing) {
		bucket.sharing = { share: FIRST_SHARE, measured: false, since: now, answers: 0, drainAt: 0, drainWait: 0, endDrainDue: true };
		scheduleDrain(bucket, bucket.sharing, now, DRAIN_FIRST_TOKENS);
		return;
	}
	const measured = measuredShare(bucket, sharing, now, drained);
	if (measured === undefined) {
		if (drained) scheduleDrain(bucket, sharing, now, sharing.drainWait);
	} else if (measured >= ALONE_SHARE) {
		bucket.sharing = undefined;
	} else {
		reshare(bucket, sharing, now, measured, drained);
	}
}

/**
 * Called with a 429 for the credential's limit: the API's bucket is empty. This one keeps one token, for the
 * request the API has room for when its Retry-After is over, and pauses until then (a drainer at least
 * DRAIN_PAUSE_TOKENS); the share is set once per pause, as several requests in flight may all come back with 429.
 */
export function noteRateLimited(key: string, limit: RateLimit, waitMs: number): void {
	const bucket = bucketFor(key, limit);
	const now = Date.now();
	const drained = draining(bucket, now);
	const pause = drained ? Math.max(waitMs, msOf(bucket, DRAIN_PAUSE_TOKENS)) : waitMs;
	if (now >= bucket.pausedUntil) share(bucket, now, drained);
	bucket.pausedUntil = Math.max(bucket.pausedUntil, now + pause);
	bucket.tokens = 1;
	bucket.refilledAt = bucket.pausedUntil;
}

/** Calls of endpoints with their own limit (bulk import and bulk delete: 3 per minute), by credential and endpoint: when each went out. */
const endpointCalls = new Map<string, number[]>();

/** Waits until the endpoint has room for one more call in its minute (counted 2% longer than the API does), then counts the call. */
export async function takeEndpointCall(key: string, perMinute: number): Promise<void> {
	const window = 60_000 * SAFETY;
	for (;;) {
		const now = Date.now();
		const recent = (endpointCalls.get(key) ?? []).filter((at) => now - at < window);
		endpointCalls.set(key, recent);
		if (recent.length < perMinute) {
			recent.push(now);
			return;
		}
		await sleep(recent[0] + window - now);
	}
}
