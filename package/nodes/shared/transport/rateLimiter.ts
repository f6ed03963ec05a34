import { createHash } from 'crypto';
import { sleep } from 'n8n-workflow';

import { afterAnswer, afterRateLimited, ALONE, drainIfDue, nearRunEnd, REFILL_SLOWER, shareOf } from './sharingPolicy';
import type { Policy } from './sharingPolicy';

/**
 * Client-side token bucket per credential, with the credential's own limit (Requests per Minute and Burst, by
 * default the API's 100 and 200). Module state, so every node and trigger of this package in one n8n process shares
 * the bucket of a credential. Buckets are keyed by a hash of the credential, never by the secret itself.
 *
 * The bucket starts full and a process alone spends the burst at once, as fast as its items go. The API's bucket for
 * a credential starts when its first request arrives, a little after this one: so refilling starts only when the
 * API has answered the first request, and runs REFILL_SLOWER than the API's. With one process, the API's bucket is
 * never emptier than this one, and no 429 comes. Every 429 of the credential's limit pauses the bucket until the
 * API's Retry-After; what it says of other processes on the credential, and the share of the limit this one keeps,
 * is the sharing policy's (sharingPolicy.ts): this module refills at that share and sends a drain's requests one
 * after another.
 */

export interface RateLimit {
	perMinute: number;
	burst: number;
}

/** A drain sends its next request when the last one is answered, but at least this many tokens apart (twice the rate): an answer may be lost. */
const DRAIN_GAP_TOKENS = 0.5;
/** After a drain's 429 the drainer pauses at least this many tokens, so the API's bucket fills again for the others first. */
const DRAINER_PAUSE_TOKENS = 5;
/** Waiting for a token, a request wakes at least this often: a drain may start meanwhile. */
const WAIT_SLICE_MS = 1000;

interface Bucket {
	limit: RateLimit;
	policy: Policy;
	tokens: number;
	/** Last refill; undefined until the API has answered this credential's first request. */
	refilledAt?: number;
	/** No request before this time: the API said when it has room again. */
	pausedUntil: number;
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
		bucket = { limit, policy: ALONE, tokens: limit.burst, pausedUntil: 0, drainNextAt: 0 };
		buckets.set(key, bucket);
	}
	if (bucket.limit.perMinute !== limit.perMinute || bucket.limit.burst !== limit.burst) {
		// The policy's times are tokens of the old limit: it starts over.
		Object.assign(bucket, { limit, policy: ALONE, tokens: Math.min(bucket.tokens, limit.burst) });
	}
	return bucket;
}

/** A time in tokens of the credential's limit (the sharing policy's clock), and a span of tokens in ms. */
function tokensAt(bucket: Bucket, ms: number): number {
	return (ms / 60_000) * bucket.limit.perMinute;
}

function msOf(bucket: Bucket, tokens: number): number {
	return (tokens * 60_000) / bucket.limit.perMinute;
}

function msPerToken(bucket: Bucket): number {
	return msOf(bucket, 1 / shareOf(bucket.policy)) * REFILL_SLOWER;
}

/** The policy as of `now`: a drain that is due has started. */
function policyAt(bucket: Bucket, now: number): Policy {
	bucket.policy = drainIfDue(bucket.policy, tokensAt(bucket, now));
	return bucket.policy;
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
 * Waits until the credential's bucket has a token and is not paused, then takes the token. `itemsLeft`: the items of
 * the node run after this one (the policy's drain near a run's end).
 */
export async function takeToken(key: string, limit: RateLimit, itemsLeft?: number): Promise<void> {
	const bucket = bucketFor(key, limit);
	if (itemsLeft !== undefined) bucket.policy = nearRunEnd(bucket.policy, itemsLeft, tokensAt(bucket, Date.now()));
	for (;;) {
		const now = Date.now();
		refill(bucket, now);
		if (now < bucket.pausedUntil) {
			await sleep(bucket.pausedUntil - now);
		} else if (policyAt(bucket, now).state === 'draining') {
			// One request after the other, as fast as the API answers, until a 429.
			if (now >= bucket.drainNextAt) {
				bucket.drainNextAt = now + msOf(bucket, DRAIN_GAP_TOKENS);
				return;
			}
			await Promise.race([sleep(bucket.drainNextAt - now), nextAnswer(bucket)]);
		} else if (bucket.tokens < 1) {
			// Until the next token and a random part of one more (what is not used stays in the bucket): the requests of
			// several processes reach the API at random moments rather than like clockwork, so that which of them meets a
			// 429 depends less on how their clocks fall against each other.
			await sleep(Math.min(WAIT_SLICE_MS, Math.ceil((1 - bucket.tokens + Math.random()) * msPerToken(bucket))));
		} else {
			bucket.tokens -= 1;
			return;
		}
	}
}

/** Called with every answer from the API but a 429: the first one starts the refill clock; a drain sends the next request. */
export function noteAnswer(key: string, limit: RateLimit): void {
	const bucket = bucketFor(key, limit);
	const now = Date.now();
	bucket.refilledAt ??= now;
	bucket.policy = afterAnswer(policyAt(bucket, now));
	if (bucket.policy.state === 'draining') {
		bucket.drainNextAt = now;
		bucket.answered?.resolve();
		bucket.answered = undefined;
	}
}

/**
 * Called with a 429 for the credential's limit: the API's bucket is empty. This one keeps one token, for the request
 * the API has room for when its Retry-After is over, and pauses until then (a drainer at least DRAINER_PAUSE_TOKENS);
 * the policy learns from it once per pause, as several requests in flight may all come back with 429.
 */
export function noteRateLimited(key: string, limit: RateLimit, waitMs: number): void {
	const bucket = bucketFor(key, limit);
	const now = Date.now();
	const drained = policyAt(bucket, now).state === 'draining';
	const pause = drained ? Math.max(waitMs, msOf(bucket, DRAINER_PAUSE_TOKENS)) : waitMs;
	if (now >= bucket.pausedUntil) bucket.policy = afterRateLimited(bucket.policy, tokensAt(bucket, now), Math.random());
	bucket.pausedUntil = Math.max(bucket.pausedUntil, now + pause);
	bucket.tokens = 1;
	bucket.refilledAt = bucket.pausedUntil;
}

/** Calls of endpoints with their own limit (bulk import and bulk delete: 3 per minute), by credential and endpoint: when each went out. */
const endpointCalls = new Map<string, number[]>();

/** Waits until the endpoint has room for one more call in its minute (counted REFILL_SLOWER longer than the API does), then counts the call. */
export async function takeEndpointCall(key: string, perMinute: number): Promise<void> {
	const window = 60_000 * REFILL_SLOWER;
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
