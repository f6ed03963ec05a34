import { createHash } from 'crypto';
import { sleep } from 'n8n-workflow';

/**
 * Client-side token bucket per credential: burst 200, refilled at 100 per minute, the API's own limit.
 * Module state, so every node and trigger of this package in one n8n process shares the bucket of a
 * credential. Buckets are keyed by a hash of the credential, never by the secret itself.
 *
 * The API's bucket for a credential starts when its first request arrives, a little after this one
 * would start. So refilling starts only when the API has answered the first request, and runs 2% slower
 * than the API's: the API's bucket is never emptier than this one.
 */
const PER_MINUTE = 100;
const BURST = 200;
const MS_PER_TOKEN = (60_000 / PER_MINUTE) * 1.02;

interface Bucket {
	tokens: number;
	/** Last refill; undefined until the API has answered this credential's first request. */
	refilledAt?: number;
}

const buckets = new Map<string, Bucket>();

export function bucketKey(...parts: string[]): string {
	return createHash('sha256').update(parts.join('\u0000')).digest('hex');
}

function bucketFor(key: string): Bucket {
	let bucket = buckets.get(key);
	if (!bucket) {
		bucket = { tokens: BURST };
		buckets.set(key, bucket);
	}
	return bucket;
}

function refill(bucket: Bucket, now: number): void {
	if (bucket.refilledAt === undefined) return;
	bucket.tokens = Math.min(BURST, bucket.tokens + (now - bucket.refilledAt) / MS_PER_TOKEN);
	bucket.refilledAt = now;
}

/** Waits until the credential's bucket has a token, then takes it. */
export async function takeToken(key: string): Promise<void> {
	const bucket = bucketFor(key);
	refill(bucket, Date.now());
	while (bucket.tokens < 1) {
		await sleep(Math.ceil((1 - bucket.tokens) * MS_PER_TOKEN));
		refill(bucket, Date.now());
	}
	bucket.tokens -= 1;
}

/** Called with every answer from the API: the first one starts the refill clock. */
export function noteAnswer(key: string): void {
	const bucket = bucketFor(key);
	bucket.refilledAt ??= Date.now();
}
