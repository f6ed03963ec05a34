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
 * API's: with one process, the API's bucket is never emptier than this one.
 *
 * Other n8n processes (queue mode, several instances) may use the same credential, unseen. Their requests
 * show as 429 answers: the bucket then pauses until the API's Retry-After and lowers the share of the limit
 * it uses; the share grows back with time, to the whole limit a minute after the last 429 at the latest.
 */

export interface RateLimit {
	perMinute: number;
	burst: number;
}

/** How much slower than the credential's rate the bucket refills. */
const SAFETY = 1.02;
/** After a 429, the share of the limit is multiplied by this (once per pause, at most once a second). */
const SHARE_AFTER_429 = 0.7;
/** The share never drops below this. */
const MIN_SHARE = 0.1;
/** Time in which the share grows back from none to the whole limit. */
const SHARE_RECOVERY_MS = 60_000;

interface Bucket {
	limit: RateLimit;
	tokens: number;
	/** Last refill; undefined until the API has answered this credential's first request. */
	refilledAt?: number;
	/** Share of the limit in use when last lowered by a 429 (another process uses the credential), and when. */
	share: number;
	sharedAt: number;
	/** No request before this time: the API said when it has room again. */
	pausedUntil: number;
}

const buckets = new Map<string, Bucket>();

export function bucketKey(...parts: string[]): string {
	return createHash('sha256').update(parts.join('\u0000')).digest('hex');
}

function bucketFor(key: string, limit: RateLimit): Bucket {
	let bucket = buckets.get(key);
	if (!bucket) {
		bucket = { limit, tokens: limit.burst, share: 1, sharedAt: 0, pausedUntil: 0 };
		buckets.set(key, bucket);
	}
	if (bucket.limit.perMinute !== limit.perMinute || bucket.limit.burst !== limit.burst) {
		bucket.limit = limit;
		bucket.tokens = Math.min(bucket.tokens, limit.burst);
	}
	return bucket;
}

/** The share of the limit in use now: as last lowered, grown back since. */
function shareAt(bucket: Bucket, now: number): number {
	return Math.min(1, bucket.share + (now - bucket.sharedAt) / SHARE_RECOVERY_MS);
}

function msPerToken(bucket: Bucket, now: number): number {
	return (60_000 / (bucket.limit.perMinute * shareAt(bucket, now))) * SAFETY;
}

function refill(bucket: Bucket, now: number): void {
	if (bucket.refilledAt === undefined || now <= bucket.refilledAt) return;
	bucket.tokens = Math.min(bucket.limit.burst, bucket.tokens + (now - bucket.refilledAt) / msPerToken(bucket, now));
	bucket.refilledAt = now;
}

/** Waits until the credential's bucket has a token and is not paused, then takes the token. */
export async function takeToken(key: string, limit: RateLimit): Promise<void> {
	const bucket = bucketFor(key, limit);
	for (;;) {
		const now = Date.now();
		refill(bucket, now);
		if (now < bucket.pausedUntil) {
			await sleep(bucket.pausedUntil - now);
		} else if (bucket.tokens < 1) {
			await sleep(Math.ceil((1 - bucket.tokens) * msPerToken(bucket, now)));
		} else {
			bucket.tokens -= 1;
			return;
		}
	}
}

/** Called with every answer from the API but a 429: the first one starts the refill clock. */
export function noteAnswer(key: string, limit: RateLimit): void {
	const bucket = bucketFor(key, limit);
	bucket.refilledAt ??= Date.now();
}

/**
 * Called with a 429: the API's bucket is empty. This one keeps one token, for the request the API has room
 * for when its Retry-After is over, and pauses until then; the share of the limit drops once per pause, as
 * several requests in flight may all come back with 429.
 */
export function noteRateLimited(key: string, limit: RateLimit, waitMs: number): void {
	const bucket = bucketFor(key, limit);
	const now = Date.now();
	if (now >= bucket.pausedUntil && now - bucket.sharedAt >= 1000) {
		bucket.share = Math.max(MIN_SHARE, shareAt(bucket, now) * SHARE_AFTER_429);
		bucket.sharedAt = now;
	}
	bucket.pausedUntil = Math.max(bucket.pausedUntil, now + waitMs);
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
