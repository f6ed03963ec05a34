import { createHash } from 'crypto';
import { sleep } from 'n8n-workflow';

/**
 * Client-side token bucket per credential: burst 200, refilled at 100 per minute, the API's own limit.
 * Module state, so every node and trigger of this package in one n8n process shares the bucket of a
 * credential. Buckets are keyed by a hash of the credential, never by the secret itself.
 */
const PER_MINUTE = 100;
const BURST = 200;
/** 2% slower than the API refills, so clock skew and latency do not make the API's bucket run dry first. */
const MS_PER_TOKEN = (60_000 / PER_MINUTE) * 1.02;

interface Bucket {
	tokens: number;
	updatedAt: number;
}

const buckets = new Map<string, Bucket>();

export function bucketKey(...parts: string[]): string {
	return createHash('sha256').update(parts.join('\u0000')).digest('hex');
}

function refill(bucket: Bucket, now: number): void {
	bucket.tokens = Math.min(BURST, bucket.tokens + (now - bucket.updatedAt) / MS_PER_TOKEN);
	bucket.updatedAt = now;
}

/** Waits until the credential's bucket has a token, then takes it. */
export async function takeToken(key: string): Promise<void> {
	let bucket = buckets.get(key);
	if (!bucket) {
		bucket = { tokens: BURST, updatedAt: Date.now() };
		buckets.set(key, bucket);
	}
	refill(bucket, Date.now());
	while (bucket.tokens < 1) {
		await sleep(Math.ceil((1 - bucket.tokens) * MS_PER_TOKEN));
		refill(bucket, Date.now());
	}
	bucket.tokens -= 1;
}
