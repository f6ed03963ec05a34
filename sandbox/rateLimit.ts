import { apiError } from './errors';

export interface RateLimitConfig {
	perMinute: number;
	burst: number;
}

export const DEFAULT_RATE_LIMIT: RateLimitConfig = { perMinute: 100, burst: 200 };

interface Bucket {
	tokens: number;
	at: number;
}

/** A token bucket per credential: `burst` tokens, refilled at `perMinute`, read on the sandbox clock. */
export class RateLimiter {
	private buckets = new Map<string, Bucket>();

	constructor(private config: RateLimitConfig) {}

	/** New numbers; every bucket starts full again. */
	configure(config: RateLimitConfig): void {
		this.config = config;
		this.reset();
	}

	reset(): void {
		this.buckets.clear();
	}

	/** Takes a token for the credential, or answers 429 with the whole seconds until one is available. */
	take(credentialId: string, now: number): void {
		const { perMinute, burst } = this.config;
		const bucket = this.buckets.get(credentialId) ?? { tokens: burst, at: now };
		bucket.tokens = Math.min(burst, bucket.tokens + (Math.max(0, now - bucket.at) * perMinute) / 60000);
		bucket.at = now;
		this.buckets.set(credentialId, bucket);
		if (bucket.tokens >= 1) {
			bucket.tokens -= 1;
			return;
		}
		const retryAfter = Math.ceil(((1 - bucket.tokens) * 60) / perMinute);
		throw apiError(429, 'Too Many Requests', {}, { 'Retry-After': String(retryAfter) });
	}
}
