import { ApiError } from '../sandbox/errors';
import { RateLimiter } from '../sandbox/rateLimit';
import { distFile, separateTransport, transportContext } from './harness/processes';
import type { FullResponse, Parallel } from './harness/processes';
import { useWorld } from './harness/world';

/**
 * The client-side token bucket (burst 200, 100 per minute per credential) keeps a bulk run under the
 * API's own limit, which the sandbox enforces with the real numbers here: at most one 429 is met (the two buckets
 * start a few milliseconds apart), and waited out. A process alone spends the whole burst at once, as fast as its
 * items go (Parallel Reads: 50 in flight); only the items beyond the burst wait for tokens.
 */

const world = useWorld();

test('210 items in one run: the burst of 200 at once, then the 10 others wait for tokens; no storm of 429s (one at most, waited out)', async () => {
	const started = Date.now();
	const { items, error } = await world().runNode({ resource: 'user', operation: 'getMe' }, world().pat(), { input: Array.from({ length: 210 }, () => ({})) });
	const elapsed = Date.now() - started;
	expect(error).toBeUndefined();
	expect(items).toHaveLength(210);
	const log = await world().requests();
	const statuses = log.map((r) => r.status);
	// The client's bucket and the API's start a few milliseconds apart: on a loaded machine one early request may
	// meet a 429, which the node waits out and sends again. Never more than that one, and never a failed item.
	const refused = statuses.filter((s) => s !== 200);
	expect(refused.length).toBeLessThanOrEqual(1);
	expect(refused.every((s) => s === 429)).toBe(true);
	expect(statuses).toHaveLength(210 + refused.length);
	// The burst at once: 200 answers within a few seconds of the first request (paced at ten times the rate, as this
	// package once did, they took 12 s); the 10 others at the rate, a token every 0.61 s (the API refills one every 0.6 s).
	const first = log[0].receivedAt;
	const burstSpan = log.filter((r) => r.status === 200)[199].receivedAt - first;
	expect(burstSpan).toBeLessThan(4_000);
	expect(elapsed).toBeGreaterThanOrEqual(5_500);
	expect(elapsed).toBeLessThan(20_000);

	// The sandbox does enforce the limit: what is left of its bucket (a token or two) is gone within a burst sent around the node right after.
	const direct = await Promise.all(Array.from({ length: 30 }, () => world().api('GET', '/v4/user/me', world().seed.credentials.ownerPat)));
	expect(direct.map((r) => r.status)).toContain(429);
});

/**
 * Several processes on one credential (queue-mode workers, several n8n instances), in virtual time on jest's fake
 * clock: each process is a copy of the compiled transport with its own buckets (harness/processes.ts), writing with
 * five items in flight through a request helper that answers, 10 to 20 ms each way, from the sandbox's own token
 * bucket (sandbox/rateLimit.ts) at the API's limit (100 per minute, burst 200): 201, or 429 with its Retry-After.
 * Math.random is seeded, so each run is the same. The processes learn of each other only from the 429s.
 */
describe('several processes on one credential, in virtual time', () => {
	const LIMIT = { perMinute: 100, burst: 200 };
	const MINUTE = 60_000;
	const { inParallel } = jest.requireActual<Parallel>(distFile('parallel.js'));

	interface Answer {
		process: number;
		at: number;
		status: number;
	}

	const wait = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

	/** Mulberry32: a small seeded generator, so the runs repeat. */
	function seeded(seed: number): () => number {
		let state = seed;
		return () => {
			state = (state + 0x6d2b79f5) | 0;
			let t = Math.imul(state ^ (state >>> 15), 1 | state);
			t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
			return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
		};
	}

	/** The API for one credential: the sandbox's bucket, the answers it gave (which process, when, what). */
	function api(latency: number) {
		const bucket = new RateLimiter(LIMIT);
		const answers: Answer[] = [];
		const send = (process: number) => async (): Promise<FullResponse> => {
			await wait(latency + Math.random() * 10);
			let reply: FullResponse = { statusCode: 201, headers: {}, body: { id: `${process}-${answers.length}` } };
			try {
				bucket.take('credential', Date.now());
			} catch (error) {
				const refused = error as ApiError;
				reply = { statusCode: refused.status, headers: { 'retry-after': refused.headers['Retry-After'] }, body: refused.body };
			}
			answers.push({ process, at: Date.now(), status: reply.statusCode });
			await wait(latency + Math.random() * 10);
			return reply;
		};
		return { answers, send };
	}

	interface Writer {
		/** When it starts, and how many writes it makes. */
		startAt: number;
		writes: number;
	}

	/**
	 * Each writer, a process of its own, makes its writes (`inFlight` at once: Parallel Writes' default 5), each way
	 * `latency` to 10 ms more; what each item came to, and when each ended.
	 */
	async function run(writers: Writer[], seed = 1, { inFlight = 5, latency = 10 } = {}) {
		jest.useFakeTimers({ now: 1_800_000_000_000 });
		const random = jest.spyOn(Math, 'random').mockImplementation(seeded(seed));
		try {
			const { answers, send } = api(latency);
			const credential = { baseUrl: 'https://api.example.com', token: 'rgo-virtual-time-token', requestsPerMinute: LIMIT.perMinute, burst: LIMIT.burst };
			const started = Date.now();
			const write = async ({ startAt, writes }: Writer, process: number) => {
				const transport = separateTransport();
				await wait(startAt);
				// A node run of `writes` items: the transport tells the limiter how many follow (its drain near the end).
				const context = { ...transportContext(credential, send(process)), getInputData: () => new Array(writes).fill({ json: {} }) };
				const results = await inParallel(writes, inFlight, async (index) => {
					const request = { method: 'POST' as const, path: '/crm', body: { email: `p${process}-${index}@example.com` } };
					return await transport.apiRequest(context, index, request).then(() => 'ok', (error: Error) => error.message);
				}, () => false);
				return { results, endedAt: Date.now() - started };
			};
			let finished = false;
			const done = Promise.all(writers.map(write)).finally(() => (finished = true));
			while (!finished) await jest.advanceTimersByTimeAsync(1000);
			const ends = await done;
			return { answers: answers.map((answer) => ({ ...answer, at: answer.at - started })), failed: ends.flatMap((end) => end.results).filter((result) => result !== 'ok'), ends };
		} finally {
			random.mockRestore();
			jest.useRealTimers();
		}
	}

	const minimumMs = (writes: number) => ((writes - LIMIT.burst) / LIMIT.perMinute) * MINUTE;
	const share429 = (answers: Answer[]) => answers.filter((answer) => answer.status === 429).length / answers.length;
	/** Answers 201 of a process within a window of virtual time. */
	const applied = (answers: Answer[], process: number, from: number, to: number) =>
		answers.filter((answer) => answer.process === process && answer.status === 201 && answer.at >= from && answer.at < to).length;

	test('one process alone never meets a 429 and takes the token-bucket minimum (its bucket refills 2 % slower than the API\'s)', async () => {
		const { answers, failed, ends } = await run([{ startAt: 0, writes: 500 }]);
		expect(failed).toEqual([]);
		expect(answers.filter((answer) => answer.status !== 201)).toEqual([]);
		expect(ends[0].endedAt / minimumMs(500)).toBeGreaterThanOrEqual(1);
		expect(ends[0].endedAt / minimumMs(500)).toBeLessThanOrEqual(1.03);
	});

	test.each([1, 2, 3])('three processes start 500 writes each together (seed %i): none fails, ≤ 1.15 × the minimum, 429s after the first minute ≤ 1.5 %', async (seed) => {
		const { answers, failed, ends } = await run([0, 300, 600].map((startAt) => ({ startAt, writes: 500 })), seed);
		expect(failed).toEqual([]);
		// Each write applied once: 1,500 answers 201, all others 429.
		expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1500);
		expect(answers.filter((answer) => answer.status !== 201 && answer.status !== 429)).toEqual([]);
		const wall = Math.max(...ends.map((end) => end.endedAt));
		expect(wall / minimumMs(1500)).toBeLessThanOrEqual(1.15);
		// A limiter whose share grew back to the whole limit within a minute had 16 % here; the one before this release's
		// fewer drains 0.6 to 2.1 % over many seeds. The benchmark's target, 1 %, is checked on runs like it below.
		expect(share429(answers.filter((answer) => answer.at >= MINUTE))).toBeLessThanOrEqual(0.015);
	});

	test('three processes start 500 writes each within a tenth of a second (as the benchmark\'s workers do), eight seeds: each run ≤ 1.15 × the minimum, 429s after the first minute ≤ 1 % on average and ≤ 1.5 % in each', async () => {
		const shares: number[] = [];
		for (let seed = 1; seed <= 8; seed++) {
			const { answers, failed, ends } = await run([0, 1, 2].map((i) => ({ startAt: (i * 37 * seed) % 100, writes: 500 })), seed);
			expect(failed).toEqual([]);
			expect(Math.max(...ends.map((end) => end.endedAt)) / minimumMs(1500)).toBeLessThanOrEqual(1.15);
			shares.push(share429(answers.filter((answer) => answer.at >= MINUTE)));
		}
		// Eight seeds of this policy: 0.7 to 1.2 %, 0.9 % on average; the policy before it (burst at ten times the rate, even
		// splits, 429s in a row taking 5 % off) 0.5 to 0.9 %, with a single process that spent its burst ten times slower.
		expect(Math.max(...shares)).toBeLessThanOrEqual(0.015);
		expect(shares.reduce((sum, share) => sum + share, 0) / shares.length).toBeLessThanOrEqual(0.01);
	});

	test('a process alone spends the burst at once: 200 reads, 50 in flight, 50 ms each way, in about a quarter of a second (paced at ten times the rate beyond the first 10, as this package once did, they took 12 s)', async () => {
		const { answers, failed, ends } = await run([{ startAt: 0, writes: 200 }], 1, { inFlight: 50, latency: 50 });
		expect(failed).toEqual([]);
		expect(answers.filter((answer) => answer.status !== 201)).toEqual([]);
		expect(ends[0].endedAt).toBeLessThan(500);
	});

	test.each([2, 3])('%i processes start 300 writes each within a second (the benchmark\'s P4), six seeds: none fails, each run ≤ 1.15 × the minimum', async (count) => {
		for (let seed = 1; seed <= 6; seed++) {
			const { failed, ends } = await run(Array.from({ length: count }, (_, i) => ({ startAt: (i * 397 * seed) % 1000, writes: 300 })), seed);
			expect(failed).toEqual([]);
			expect(Math.max(...ends.map((end) => end.endedAt)) / minimumMs(300 * count)).toBeLessThanOrEqual(1.15);
		}
	});

	test('a third process joins two that share: the two make room at their next 429 (a share got through 15 % below their rate), 429s stay rare from the second minute after the join', async () => {
		const join = 3 * MINUTE;
		const { answers, failed } = await run([{ startAt: 0, writes: 900 }, { startAt: 50, writes: 900 }, { startAt: join, writes: 400 }]);
		expect(failed).toEqual([]);
		// Without that rule the two kept their halves, and a fifth of all answers were 429s.
		expect(share429(answers.filter((answer) => answer.at >= join + MINUTE))).toBeLessThanOrEqual(0.015);
		expect(applied(answers, 2, join + MINUTE, join + 3 * MINUTE)).toBeGreaterThanOrEqual(40);
	});

	test('a second process joins: both go on without a failed write, and the first one soon takes about half the limit', async () => {
		const { answers, failed } = await run([{ startAt: 0, writes: 900 }, { startAt: 3 * MINUTE, writes: 400 }]);
		expect(failed).toEqual([]);
		// Alone, the first one had the whole limit; in the second and third minute after the join, between a third and two thirds of it.
		expect(applied(answers, 0, 2 * MINUTE, 3 * MINUTE)).toBeGreaterThanOrEqual(95);
		const shared = applied(answers, 0, 5 * MINUTE, 7 * MINUTE) / (2 * LIMIT.perMinute);
		expect(shared).toBeGreaterThanOrEqual(1 / 3);
		expect(shared).toBeLessThanOrEqual(2 / 3);
	});

	test('when the other process stops, the one left drains, takes the whole limit again with what the API saved meanwhile, and stops draining', async () => {
		const { answers, failed, ends } = await run([{ startAt: 0, writes: 1300 }, { startAt: 0, writes: 300 }]);
		expect(failed).toEqual([]);
		const stopped = ends[1].endedAt;
		// It holds its share until its next drain (after 300 answers, or when the other could have left 400 tokens unused,
		// a quarter more at most), which finds the room: in the seventh minute after the stop it writes at the whole limit.
		const later = applied(answers, 0, stopped + 6 * MINUTE, stopped + 7 * MINUTE);
		expect(later).toBeGreaterThanOrEqual(95);
		// Once a drain measured nearly the whole limit, it is alone again: the whole limit, no more drains, no more 429s.
		expect(answers.filter((answer) => answer.status === 429 && answer.at >= ends[0].endedAt - 3 * MINUTE)).toEqual([]);
		// And nothing the API allowed went to waste beyond 15 %: the whole run against the minimum of 1,600 writes.
		expect(ends[0].endedAt / minimumMs(1600)).toBeLessThanOrEqual(1.15);
	});
});
