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
 * API's: with one process, the API's bucket is never emptier than this one, and no 429 ever comes.
 *
 * Other n8n processes (queue-mode workers, several instances) may use the same credential, unseen: n8n gives a
 * node no state shared between processes, and the API names no header with the room left (only Retry-After).
 * What a process can know: a 429 for the credential's limit means the API's bucket is empty at that moment.
 * Between two such 429s the API gave out exactly its rate times the time between (nothing was left over), so the
 * requests this process got through in between are the share of the limit the others left it. Hence, once a
 * 429 has come (a process that never meets one keeps the whole limit):
 * - the first 429 halves the rate (someone else is there; nothing more is known yet);
 * - a 429 at least MEASURE_TOKENS after the one that started the measurement sets the rate to the share got
 *   through since, less MARGIN, and starts the next measurement; a 429 sooner than that only ends a probe;
 * - the rate holds until this process has had PROBE_AFTER_ANSWERS answers since that 429, or until the tokens it
 *   left unused since could have filled the API's burst (another process may have stopped and left its share);
 *   then it probes: the rate doubles every PROBE_DOUBLING_TOKENS, up to MAX_SHARE times the limit (the API saved
 *   what nobody used, up to its burst), until the next 429 measures again;
 * - a measured share of ALONE_SHARE or more means the others have stopped: the whole limit again, no more probes.
 * So the 429s come with the probes, each process's after at least PROBE_AFTER_ANSWERS answers or a burst's worth
 * of unused tokens: a few per probe, most of them to the other processes (the prober paces its requests as the API
 * refills, the others' requests meet the API's bucket at random). Every 429 pauses the bucket until the API's
 * Retry-After. Times are counted in tokens of the credential's limit (60 s at 100 per minute are 100 tokens), so a
 * smaller or larger limit behaves alike.
 */

export interface RateLimit {
	perMinute: number;
	burst: number;
}

/** How much slower than the credential's rate the bucket refills. */
const SAFETY = 1.02;
/** The share of the limit after the first 429. */
const FIRST_SHARE = 0.5;
/** A measurement spans at least this many tokens of time; a 429 sooner is part of the same crowding. */
const MEASURE_TOKENS = 20;
/** The measured share is used less this part of it, so that the API's bucket fills a little again. */
const MARGIN = 0.05;
/** The share never drops below this. */
const MIN_SHARE = 0.05;
/** A measured share of at least this much of the limit means the process is alone again. */
const ALONE_SHARE = 0.95;
/** Answers after a 429 before the rate probes for more (so about one 429 per this many requests). */
const PROBE_AFTER_ANSWERS = 150;
/** While probing, the rate doubles in this many tokens of time. */
const PROBE_DOUBLING_TOKENS = 40;
/** A probe goes up to this many times the credential's rate. */
const MAX_SHARE = 2;

/** How this process shares the limit with others since its first 429. */
interface Sharing {
	/** The share of the limit measured at the last 429 (less the margin), or halved at the first. */
	share: number;
	/** When the current measurement started (a 429: the API's bucket was empty), and the answers since. */
	since: number;
	answers: number;
	/** The unused tokens after which the rate probes: the burst, times 0.5 to 1.5 at random (processes probe apart). */
	probeAfterUnused: number;
	/** When the probe started; undefined while the rate holds. */
	probingSince?: number;
}

interface Bucket {
	limit: RateLimit;
	tokens: number;
	/** Last refill; undefined until the API has answered this credential's first request. */
	refilledAt?: number;
	/** No request before this time: the API said when it has room again. */
	pausedUntil: number;
	/** Undefined until the first 429 for the credential's limit. */
	sharing?: Sharing;
}

const buckets = new Map<string, Bucket>();

export function bucketKey(...parts: string[]): string {
	return createHash('sha256').update(parts.join('\u0000')).digest('hex');
}

function bucketFor(key: string, limit: RateLimit): Bucket {
	let bucket = buckets.get(key);
	if (!bucket) {
		bucket = { limit, tokens: limit.burst, pausedUntil: 0 };
		buckets.set(key, bucket);
	}
	if (bucket.limit.perMinute !== limit.perMinute || bucket.limit.burst !== limit.burst) {
		bucket.limit = limit;
		bucket.tokens = Math.min(bucket.tokens, limit.burst);
	}
	return bucket;
}

/** A span of time in tokens of the credential's limit. */
function tokensIn(bucket: Bucket, ms: number): number {
	return (ms / 60_000) * bucket.limit.perMinute;
}

/** Starts the probe once enough answers came since the last 429, or enough tokens went unused. */
function probeWhenDue(bucket: Bucket, sharing: Sharing, now: number): void {
	if (sharing.probingSince !== undefined) return;
	const unused = tokensIn(bucket, now - sharing.since) - sharing.answers;
	if (sharing.answers >= PROBE_AFTER_ANSWERS || unused >= sharing.probeAfterUnused) sharing.probingSince = now;
}

/** The share of the limit in use now: the whole limit until the first 429, then as measured, or growing while probing. */
function shareAt(bucket: Bucket, now: number): number {
	const sharing = bucket.sharing;
	if (!sharing) return 1;
	probeWhenDue(bucket, sharing, now);
	if (sharing.probingSince === undefined) return sharing.share;
	return Math.min(MAX_SHARE, sharing.share * 2 ** (tokensIn(bucket, now - sharing.probingSince) / PROBE_DOUBLING_TOKENS));
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
			// Until the next token and a random part of one more (what is not used stays in the bucket): the requests of
			// several processes reach the API at random moments rather than like clockwork, so that which of them meets a
			// 429 depends less on how their clocks fall against each other. At most a second: a probe may start meanwhile.
			await sleep(Math.min(1000, Math.ceil((1 - bucket.tokens + Math.random()) * msPerToken(bucket, now))));
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
	if (bucket.sharing) bucket.sharing.answers++;
}

/** The share got through since the measurement started (at most the whole limit); undefined when the span is too short to tell. */
function measuredShare(bucket: Bucket, sharing: Sharing, now: number): number | undefined {
	const span = tokensIn(bucket, now - sharing.since);
	return span < MEASURE_TOKENS ? undefined : Math.min(1, sharing.answers / span);
}

/**
 * What a 429 for the credential's limit teaches: halve at the first, measure at a later one and hold that share (or,
 * with nearly the whole limit measured, the others have stopped: back to the whole limit, as before the first 429).
 */
function share(bucket: Bucket, now: number): void {
	const probeAfterUnused = bucket.limit.burst * (0.5 + Math.random());
	const sharing = bucket.sharing;
	if (!sharing) {
		bucket.sharing = { share: FIRST_SHARE, since: now, answers: 0, probeAfterUnused };
		return;
	}
	const measured = measuredShare(bucket, sharing, now);
	if (measured !== undefined && measured >= ALONE_SHARE) {
		bucket.sharing = undefined;
		return;
	}
	if (measured !== undefined) Object.assign(sharing, { share: Math.max(MIN_SHARE, measured * (1 - MARGIN)), since: now, answers: 0 });
	Object.assign(sharing, { probingSince: undefined, probeAfterUnused });
}

/**
 * Called with a 429 for the credential's limit: the API's bucket is empty. This one keeps one token, for the
 * request the API has room for when its Retry-After is over, and pauses until then; the share of the limit is
 * set once per pause, as several requests in flight may all come back with 429.
 */
export function noteRateLimited(key: string, limit: RateLimit, waitMs: number): void {
	const bucket = bucketFor(key, limit);
	const now = Date.now();
	if (now >= bucket.pausedUntil) share(bucket, now);
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
