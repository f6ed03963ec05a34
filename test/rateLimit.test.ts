import { useWorld } from './harness/world';

/**
 * The client-side token bucket (burst 200, 100 per minute per credential) keeps a bulk run under the
 * API's own limit, which the sandbox enforces with the real numbers here: at most one 429 is met (the two buckets
 * start a few milliseconds apart), and waited out.
 */

const world = useWorld();

test('210 items in one run: 200 go at once, the rest wait for tokens; no storm of 429s (one at most, waited out)', async () => {
	const started = Date.now();
	const { items, error } = await world().runNode({ resource: 'user', operation: 'getMe' }, world().pat(), { input: Array.from({ length: 210 }, () => ({})) });
	const elapsed = Date.now() - started;
	expect(error).toBeUndefined();
	expect(items).toHaveLength(210);
	const statuses = (await world().requests()).map((r) => r.status);
	// The client's bucket and the API's start a few milliseconds apart: on a loaded machine one early request may
	// meet a 429, which the node waits out and sends again. Never more than that one, and never a failed item.
	const refused = statuses.filter((s) => s !== 200);
	expect(refused.length).toBeLessThanOrEqual(1);
	expect(refused.every((s) => s === 429)).toBe(true);
	expect(statuses).toHaveLength(210 + refused.length);
	// 10 requests beyond the burst, one token every 612 ms
	expect(elapsed).toBeGreaterThanOrEqual(5_500);
	expect(elapsed).toBeLessThan(20_000);

	// The sandbox does enforce the limit: a burst sent around the node right after is refused.
	const direct = await Promise.all(Array.from({ length: 5 }, () => world().api('GET', '/v4/user/me', world().seed.credentials.ownerPat)));
	expect(direct.map((r) => r.status)).toContain(429);
});
