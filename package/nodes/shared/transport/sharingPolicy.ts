/**
 * How one n8n process shares a credential's limit with other processes it cannot see (queue-mode workers, other
 * instances, other tools): a state machine of three states, each transition a pure function. rateLimiter.ts keeps the
 * token bucket and calls these; nothing here reads a clock or the random generator.
 *
 * What a process can know: n8n gives a node no state shared between processes, and the API names no header with the
 * room left. But a 429 for the credential's limit means the API's bucket is empty at that moment, so between two such
 * 429s the API gave out exactly its rate times the time between: the answers this process got in between, over that
 * time, are its share (plus what the others left unused).
 *
 * - **alone**: the whole limit, the burst spent at once. Every process starts here and stays while no 429 comes.
 * - **sharing**: paced at `share` of the limit. The first 429 halves the share; the 429 that ends the first
 *   measurement sets it to the share measured; later 429s change it only by the rules of `nextShare`.
 * - **draining**: to find room the others left (they may have stopped), the process sends its requests one after
 *   another, as fast as the API answers, until a 429: the API's bucket is empty, what it had saved is taken, and the
 *   one 429 meets this process, not the others. Drains are seldom (`drainWait`): each costs a 429.
 *
 * Times are counted in tokens of the credential's limit (at 100 per minute a token is 0.6 s), so every limit behaves alike.
 */

/** The API's bucket starts with our first request's arrival, a little after ours: ours refills this much slower, so it is never the fuller one. */
export const REFILL_SLOWER = 1.02;
/** The share right after the first 429: the other side is unknown, and two processes are the most common case. */
const SHARE_AFTER_FIRST_429 = 0.5;
/** The first measurement spans at least this many tokens: processes starting together share out the burst in this time, which says nothing of their rates. */
const FIRST_MEASURE_SPAN = 75;
/** A later measurement (or a drain's) spans at least this many tokens; a 429 sooner is too close to the last one to tell a share. */
const MEASURE_SPAN = 20;
/** A share set from a measurement is this part smaller, so the API's bucket fills a little again and the 429s stay rare. */
const SHARE_MARGIN = 0.05;
/** A share got through this part below the rate: a newcomer took some of it, so the share is measured again. */
const NEWCOMER_DROP = 0.15;
/** The share never drops below this part of the limit, so a process always gets through. */
const SHARE_FLOOR = 0.05;
/** A drain that measures at least this part of the limit means the others have stopped: alone again. */
const ALONE_AGAIN_SHARE = 0.95;
/** The first drain after a 429 that no crowding followed (a stray 429): it soon finds the process alone. */
const DRAIN_AFTER_STRAY_429 = 150;
/** The first drain after the first measurement: the shares just set are trusted for a while. */
const DRAIN_AFTER_FIRST_MEASURE = 600;
/** Later drains come after this many of the process's answers... */
const DRAIN_EVERY_ANSWERS = 300;
/** ...or when the others, had they stopped, would have left this many tokens unused in the API's bucket, whichever is first. */
const DRAIN_WHEN_UNUSED = 400;
/** The drain at the end of a node run comes when its items left are what the share sends in this many tokens: it finds what the others left before the run ends. */
const RUN_END_DRAIN_SPAN = 200;
/** After a drain near the end of a run, the next one comes when this part of its items are left: what the others leave as they end is found before this run ends. */
const RUN_END_AGAIN = 0.25;
/** A drain due while the run's end is nearer than this part of its wait waits for the end's drain instead: one drain, not two. */
const RUN_END_NEAR = 0.4;
/** No drain within this many tokens of a 429: the API's bucket was empty then, too little could be saved to tell. */
const DRAIN_NOT_BEFORE = 60;
/** A drain found room when it got this part of the limit more than the rate... */
const ROOM_OF_LIMIT = 0.2;
/** ...or this part of the rate more... */
const ROOM_OF_RATE = 0.6;
/** ...and at least this many tokens more in all; less (the margins of the others' shares) is taken but changes no share, so shares stay equal. */
const ROOM_MIN_TOKENS = 10;
/** After a drain that found room, the next drain comes this soon: more of the others may have stopped. */
const DRAIN_AGAIN_AFTER_ROOM = 30;
/** Each drain's wait is this part longer or shorter at random, so that processes drain apart. */
const DRAIN_JITTER = 0.25;

/** No 429 of the credential's limit yet, or a drain found the whole limit free. */
export interface Alone {
	state: 'alone';
}

/** Since a 429 of the credential's limit: a share of it, measured between 429s; `draining` while a drain is under way. */
export interface Sharing {
	state: 'sharing' | 'draining';
	/** The part of the limit this process paces itself to. */
	share: number;
	/** Whether a measurement has set the share (until then it is SHARE_AFTER_FIRST_429). */
	measured: boolean;
	/** When the current measurement started (a 429: the API's bucket was empty), and this process's answers since. */
	since: number;
	answers: number;
	/** When the next drain comes, and the wait before it (without its jitter). */
	drainAt: number;
	drainWait: number;
	/** The next drain near the end of a node run comes when its items left are this many or fewer (Infinity: at RUN_END_DRAIN_SPAN). */
	endDrainBelow: number;
}

export type Policy = Alone | Sharing;

export const ALONE: Alone = { state: 'alone' };

/** The part of the limit the bucket refills at. */
export function shareOf(policy: Policy): number {
	return policy.state === 'alone' ? 1 : policy.share;
}

/** The drain `wait` tokens from `now`, give or take DRAIN_JITTER (`jitter` from 0 to 1). */
function drainIn(now: number, wait: number, jitter: number): Pick<Sharing, 'drainAt' | 'drainWait'> {
	return { drainWait: wait, drainAt: now + wait * (1 - DRAIN_JITTER + 2 * DRAIN_JITTER * jitter) };
}

/** Rule: a sharing process starts draining when its drain is due, but not within DRAIN_NOT_BEFORE of the last 429. */
export function drainIfDue(policy: Policy, now: number): Policy {
	if (policy.state !== 'sharing' || now < policy.drainAt || now - policy.since < DRAIN_NOT_BEFORE) return policy;
	return { ...policy, state: 'draining' };
}

/** Rule: every answer but a 429 counts towards the share measured at the next 429. */
export function afterAnswer(policy: Policy): Policy {
	return policy.state === 'alone' ? policy : { ...policy, answers: policy.answers + 1 };
}

/**
 * Rule: a node run with few items left (what the share sends in RUN_END_DRAIN_SPAN) drains now, and again when
 * RUN_END_AGAIN of those are left, so that it finds what the others left before it ends, not after; a drain due (not
 * yet started) while the end is near waits for it.
 */
export function nearRunEnd(policy: Policy, itemsLeft: number, now: number): Policy {
	if (policy.state === 'alone') return policy;
	if (itemsLeft <= policy.share * RUN_END_DRAIN_SPAN) {
		if (itemsLeft > policy.endDrainBelow) return policy;
		return { ...policy, endDrainBelow: itemsLeft * RUN_END_AGAIN, drainAt: Math.min(policy.drainAt, now) };
	}
	const dueNotStarted = policy.state === 'sharing' && now >= policy.drainAt;
	const endNear = itemsLeft <= policy.share * RUN_END_NEAR * policy.drainWait;
	if (!(dueNotStarted && endNear)) return policy.endDrainBelow === Infinity ? policy : { ...policy, endDrainBelow: Infinity };
	return { ...policy, endDrainBelow: Infinity, drainAt: now + itemsLeft / policy.share };
}

/**
 * The share got through since the measurement started (at most the whole limit), or undefined when the span is too
 * short to tell: FIRST_MEASURE_SPAN for the first, MEASURE_SPAN later and for a drain's 429 (it took what the API had saved).
 */
export function measuredShare(policy: Sharing, now: number): number | undefined {
	const span = now - policy.since;
	const needed = policy.measured || policy.state === 'draining' ? MEASURE_SPAN : FIRST_MEASURE_SPAN;
	return span < needed ? undefined : Math.min(1, policy.answers / span);
}

/** Rule: a drain found room when it got ROOM_OF_LIMIT (or ROOM_OF_RATE) more than the rate, and ROOM_MIN_TOKENS in all. */
function foundRoom(policy: Sharing, measured: number, now: number): boolean {
	const found = measured - policy.share / REFILL_SLOWER;
	return (found >= ROOM_OF_LIMIT || found >= ROOM_OF_RATE * (policy.share / REFILL_SLOWER)) && found * (now - policy.since) >= ROOM_MIN_TOKENS;
}

/**
 * Rules of the share after a measured 429: the share measured, less SHARE_MARGIN, after the first measurement, after a
 * share got through NEWCOMER_DROP below the rate (someone came) and after a drain that found room; any other 429 (now
 * and then, as the shares meet) changes nothing. Never below SHARE_FLOOR.
 */
export function nextShare(policy: Sharing, measured: number, now: number): number {
	const newcomer = measured < (policy.share / REFILL_SLOWER) * (1 - NEWCOMER_DROP);
	const room = policy.state === 'draining' && foundRoom(policy, measured, now);
	const next = !policy.measured || newcomer || room ? measured * (1 - SHARE_MARGIN) : policy.share;
	return Math.min(1, Math.max(SHARE_FLOOR, next));
}

/**
 * Rules of the next drain after a measured 429: after a drain, DRAIN_AGAIN_AFTER_ROOM when it found room, else after
 * DRAIN_EVERY_ANSWERS answers or DRAIN_WHEN_UNUSED tokens the others would have left, whichever is first; after the
 * first measurement DRAIN_AFTER_FIRST_MEASURE; otherwise the drain planned stays.
 */
function nextDrain(policy: Sharing, measured: number, share: number, now: number, jitter: number): Pick<Sharing, 'drainAt' | 'drainWait'> {
	if (policy.state === 'draining') {
		const wait = foundRoom(policy, measured, now) ? DRAIN_AGAIN_AFTER_ROOM : Math.min(DRAIN_WHEN_UNUSED / Math.max(1 - measured, 0.1), DRAIN_EVERY_ANSWERS / share);
		return drainIn(now, wait, jitter);
	}
	return policy.measured ? { drainAt: policy.drainAt, drainWait: policy.drainWait } : drainIn(now, DRAIN_AFTER_FIRST_MEASURE, jitter);
}

/**
 * A 429 for the credential's limit (once per pause): the first one starts sharing at SHARE_AFTER_FIRST_429 with a drain
 * after DRAIN_AFTER_STRAY_429; later ones measure the share got through since the last measured one: too short to tell
 * changes nothing (a drain is planned again), ALONE_AGAIN_SHARE or more is alone again, else `nextShare` and `nextDrain`.
 */
export function afterRateLimited(policy: Policy, now: number, jitter: number): Policy {
	if (policy.state === 'alone') {
		const drain = drainIn(now, DRAIN_AFTER_STRAY_429, jitter);
		return { state: 'sharing', share: SHARE_AFTER_FIRST_429, measured: false, since: now, answers: 0, endDrainBelow: Infinity, ...drain };
	}
	const measured = measuredShare(policy, now);
	if (measured === undefined) return policy.state === 'draining' ? { ...policy, state: 'sharing', ...drainIn(now, policy.drainWait, jitter) } : policy;
	if (measured >= ALONE_AGAIN_SHARE) return ALONE;
	const share = nextShare(policy, measured, now);
	return { ...policy, ...nextDrain(policy, measured, share, now, jitter), state: 'sharing', share, measured: true, since: now, answers: 0 };
}
