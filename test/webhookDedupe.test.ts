import type { IDataObject } from 'n8n-workflow';

import { DEDUPE, KEYS_FIELD, Lane, NO_NONCE, packKeys, readKeys, retain, round, storedHas } from '../package/dist/nodes/shared/trigger/dedupe';
import type { Decision, Holders, Keys, Send } from '../package/dist/nodes/shared/trigger/dedupe';
import { deliveryKey } from '../package/dist/nodes/SchedulingPlatform/webhook/events';
import { hashKey } from '../package/dist/nodes/shared/trigger/watermark';
import { freshTenant } from './harness/crm';
import { WebhookReceiver } from './harness/webhooks';
import type { WebhookTrigger } from './harness/webhooks';
import { useWorld } from './harness/world';

/**
 * The Webhook Trigger's claims across n8n processes (dedupe.ts, issue 33 part 4): the remembered keys in static data
 * (their form, size and how long they are kept), the claim protocol over a store where the last write wins (the
 * guarantee and the assumption it rests on), and the node through n8n-core's WebhookContext with the harness's
 * receiver standing for n8n's webhook server (test/harness/webhooks.ts): its requests to itself, two "processes"
 * (triggers with memories of their own) sharing one static data as n8n's database does, and repeats hours later.
 * The real thing, two webhook processors of n8n 2.41 in queue mode, is test/smoke/queue-webhook-n8n-2.test.ts.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const form = (n: number | string) => ({ webhookType: 'form_submission', id: `form-${n}`, updatedAt: '2027-03-01T06:00:00.000Z' });
const hashOf = (body: { webhookType: string; id: string; updatedAt: string }) => hashKey(deliveryKey({ webhookType: body.webhookType, data: { id: body.id, updatedAt: body.updatedAt } }));
const hashes = (count: number, prefix = 'k') => Array.from({ length: count }, (_, n) => hashKey(`${prefix}${n}`));
const keysAt = (list: string[], since: number, nonce = 'abcdef'): Keys => new Map(list.map((hash) => [hash, { nonce, since }]));
const sleep = async (ms: number) => await new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('the remembered keys in static data', () => {
	const now = Date.UTC(2027, 2, 1, 6, 2, 30);
	const period = Math.floor(now / DEDUPE.bucketMs) * DEDUPE.bucketMs;

	test('16 characters a key (hash and nonce), grouped by the 5-minute period of the claim; read back as written', () => {
		const keys = keysAt(hashes(320), period);
		const packed = packKeys(keys, now);

		expect(Object.keys(packed)).toEqual([(period / DEDUPE.bucketMs).toString(36)]);
		expect(String(Object.values(packed)[0])).toHaveLength(320 * 16);
		expect(readKeys(packed)).toEqual(keys);
		// 320 keys: about 5 KB in the node's static data.
		expect(JSON.stringify({ [KEYS_FIELD]: packed }).length).toBe(320 * 16 + 29);
	});

	test('kept: every key of the last hour whatever their number (up to 20,000), older ones while at most 2,000 in all, none older than a day', () => {
		const young = keysAt(hashes(3000, 'young'), period - 30 * MINUTE);
		const old = keysAt(hashes(2500, 'old'), period - 2 * HOUR);
		const ancient = keysAt(hashes(10, 'ancient'), period - 25 * HOUR);

		// More than 2,000 of the last hour: all of them, and none older.
		expect([...retain(new Map([...ancient, ...old, ...young]), now).keys()]).toEqual([...young.keys()]);
		// 500 of the last hour: older ones fill up to 2,000, the newest first; a day old: gone.
		const few = keysAt(hashes(500, 'few'), period - 30 * MINUTE);
		const kept = retain(new Map([...ancient, ...old, ...few]), now);
		expect(kept.size).toBe(2000);
		expect([...kept.keys()].slice(0, 500)).toEqual([...few.keys()]);
		expect([...kept.keys()].some((hash) => ancient.has(hash))).toBe(false);
		// The last hour beyond 20,000: the newest 20,000.
		const burst = new Map([...keysAt(hashes(600, 'early'), period - 50 * MINUTE), ...keysAt(hashes(20_000, 'late'), period)]);
		const capped = retain(burst, now);
		expect(capped.size).toBe(20_000);
		expect([...capped.values()].every((record) => record.since === period)).toBe(true);
	});

	test('a hash counts only at a key\'s place (not across a nonce and the next hash); the earlier `seen` list counts too', () => {
		const [a, b] = hashes(2);
		const stored = { [KEYS_FIELD]: packKeys(keysAt([a, b], period, 'XYZ123'), now) };
		const straddling = `${'XYZ123'}${b}`.slice(3, 13);

		expect(storedHas(stored, a, now)).toBe(true);
		expect(storedHas(stored, b, now)).toBe(true);
		expect(storedHas(stored, straddling, now)).toBe(false);
		expect(storedHas({ seen: [a] }, a, now)).toBe(true);
		expect(storedHas({}, a, now)).toBe(false);
		// A day later the key no longer counts (the next claim drops it from the static data).
		expect(storedHas(stored, a, now + 25 * HOUR)).toBe(false);
	});
});

/**
 * n8n's static data as the webhook processors use it: each request loads a copy when it starts and, when it changed
 * it, writes all of it back when it ends, `window` ms later (its load-to-save time); the last write wins.
 */
class LastWriteWins {
	value: Record<string, string> = {};
	writes = 0;

	async request<T>(window: number, change: (copy: Record<string, string>) => { answer: T; changed: boolean }): Promise<T> {
		const copy = { ...this.value };
		const { answer, changed } = change(copy);
		await sleep(window);
		if (changed) {
			this.value = copy;
			this.writes++;
		}
		return answer;
	}

	/** A process's claim and check requests (dedupe.ts Send), as control() answers them, each `window()` ms from load to save. */
	sender(window: () => number): Send {
		return async (operation, claims) =>
			await this.request(window(), (copy) => {
				const holders: Holders = {};
				let changed = false;
				for (const [hash, nonce] of claims) {
					holders[hash] = copy[hash] ?? null;
					if (operation === 'claim' && holders[hash] === null) [copy[hash], holders[hash], changed] = [nonce, nonce, true];
				}
				return { answer: holders, changed };
			});
	}

	/** An unrelated request that writes another key at the same time. */
	async unrelated(window: number): Promise<void> {
		await this.request(window, (copy) => ((copy[`other-${this.writes}-${Math.random()}`] = 'x'), { answer: undefined, changed: true }));
	}
}

const timing = (settleMs: number) => ({ settleMs, settleFactor: 0, maxSettleMs: settleMs, rounds: DEDUPE.rounds, retryJitterMs: settleMs / 2, budgetMs: Infinity, wait: sleep, now: Date.now });
const started = (decision: Decision) => decision.outcome !== 'lost';

describe('the claim protocol over a store where the last write wins', () => {
	test('three processes, each deciding its keys in rounds, the same 100 events at each of them amid unrelated writes: exactly one start per event, none unsettled', async () => {
		const store = new LastWriteWins();
		// Load-to-save times up to 8 ms against a wait of 40 ms.
		const window = () => Math.random() * 8;
		const processes = ['one', 'two', 'three'].map(() => ({ lane: new Lane(timing(40)), send: store.sender(window) }));
		const noise = Array.from({ length: 100 }, async () => {
			await sleep(Math.random() * 600);
			await store.unrelated(window());
		});
		// Each event arrives at every process at a moment of its own within 10 ms; events over 500 ms.
		const decisions = await Promise.all(
			Array.from({ length: 100 }, async (_, n) => {
				await sleep(Math.random() * 500);
				return await Promise.all(
					processes.map(async ({ lane, send }) => {
						await sleep(Math.random() * 10);
						return await lane.decide(`event-${n}`, send);
					}),
				);
			}),
		);
		await Promise.all(noise);

		expect(decisions.map((copies) => copies.filter(started).length)).toEqual(Array(100).fill(1));
		expect(decisions.flat().filter((decision) => decision.outcome === 'unsettled' || decision.outcome === 'alone')).toEqual([]);
		// Far fewer writes than claims: one request a round carries every key waiting in a process.
		expect(store.writes).toBeLessThan(250);
		console.log(`rounds per copy: at most ${Math.max(...decisions.flat().map((decision) => decision.rounds))}; writes: ${store.writes}`);
	});

	test('a burst of 300 events at one process is decided in a few rounds, not a request each', async () => {
		const store = new LastWriteWins();
		const lane = new Lane(timing(40));
		const send = store.sender(() => 5);

		const decisions = await Promise.all(Array.from({ length: 300 }, async (_, n) => await lane.decide(`burst-${n}`, send)));

		expect(decisions.every((decision) => decision.outcome === 'won')).toBe(true);
		expect(store.writes).toBeLessThanOrEqual(2);
		expect(Object.keys(store.value)).toHaveLength(300);
	});

	test('a claim whose write lags its read by more than the wait can start a second time: the assumption the guarantee rests on', async () => {
		const store = new LastWriteWins();
		// The first process's claim is saved at once; the second's, loaded at the same moment, only after the first checked.
		const [first, second] = await Promise.all([
			round(store.sender(() => 0), new Map([['event', 'first']]), timing(30)),
			round(store.sender(() => 100), new Map([['event', 'second']]), timing(30)),
		]);

		expect([first.get('event'), second.get('event')]).toEqual(['won', 'won']);
	});

	test('a claim overwritten by an unrelated write (saved from a copy loaded before it) is claimed again in the next round, and then wins', async () => {
		const store = new LastWriteWins();
		const overwrite = store.unrelated(10);
		await sleep(2);
		const decision = await new Lane(timing(30)).decide('event', store.sender(() => 0));
		await overwrite;

		expect(decision).toEqual({ outcome: 'won', rounds: 2 });
		expect(store.value.event).toMatch(/^[\w-]{6}$/);
	});

	test('a process that cannot reach itself: every key of the round is decided alone, with the reason', async () => {
		const lane = new Lane(timing(30));
		const send: Send = async () => await Promise.reject(new Error('connect ECONNREFUSED'));

		const decisions = await Promise.all([lane.decide('a', send), lane.decide('b', send)]);

		expect(decisions).toEqual([
			{ outcome: 'alone', rounds: 1, error: new Error('connect ECONNREFUSED') },
			{ outcome: 'alone', rounds: 1, error: new Error('connect ECONNREFUSED') },
		]);
	});
});

describe('through n8n\'s engine: the node claims each delivery by requests to its own process', () => {
	const world = useWorld();
	let receiver: WebhookReceiver;

	beforeAll(async () => (receiver = await WebhookReceiver.start()));
	afterAll(async () => await receiver.close());

	async function triggerOf(options: { workflowId?: string; mode?: 'webhook' | 'manual' } = {}): Promise<WebhookTrigger> {
		const tenant = await freshTenant(world());
		return await world().webhookTrigger({ events: ['form_submission'] }, world().pat(tenant.token), receiver, { workflowName: 'Forms', ...options });
	}

	/** Posts a delivery to a trigger's URL over HTTP (as n8n's webhook server gets it); its status once everything is done. */
	async function post(trigger: WebhookTrigger, body: unknown): Promise<number> {
		const answer = await fetch(trigger.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
		await answer.arrayBuffer();
		await receiver.idle();
		return answer.status;
	}

	/** Two processes of one n8n: their own memories (workflow IDs apart), one static data where the last write wins. */
	async function twoProcesses(): Promise<[WebhookTrigger, WebhookTrigger]> {
		const shared = { value: {} as IDataObject };
		const pair = [await triggerOf({ workflowId: 'wf-process-1' }), await triggerOf({ workflowId: 'wf-process-2' })] as [WebhookTrigger, WebhookTrigger];
		for (const trigger of pair) Object.defineProperty(trigger, 'staticData', { get: () => shared.value, set: (value: IDataObject) => (shared.value = value) });
		return pair;
	}

	test('a delivery: one claim and one check to its own URL, the second at least a second later; one execution; its key with the claim\'s nonce', async () => {
		const trigger = await triggerOf();

		const sent = Date.now();
		expect(await post(trigger, form(1))).toBe(200);

		expect(trigger.executions).toEqual([[form(1)]]);
		expect(trigger.ownRequests.map((request) => request.result)).toEqual([{ noWebhookResponse: true }, { noWebhookResponse: true }]);
		const hash = hashOf(form(1));
		expect(trigger.ownRequests.map((request) => request.answer?.body)).toEqual([{ holders: { [hash]: expect.stringMatching(/^[\w-]{6}$/) } }, { holders: { [hash]: expect.anything() } }]);
		const [claim, check] = trigger.ownRequests;
		expect(check.answer?.body).toEqual(claim.answer?.body);
		expect(check.receivedAt - claim.returnedAt).toBeGreaterThanOrEqual(DEDUPE.settleMs - 5);
		expect(Date.now() - sent).toBeGreaterThanOrEqual(DEDUPE.settleMs);
		const keys = readKeys(trigger.staticData[KEYS_FIELD]);
		expect([...keys.keys()]).toEqual([hash]);
		expect(keys.get(hash)?.nonce).toBe(((claim.answer?.body as IDataObject).holders as IDataObject)[hash]);
		expect(trigger.deliveries.map((delivery) => delivery.logs)).toEqual([[]]);
	});

	test('two processes, the same delivery at both at the same moment, 10 times over: one execution per event', async () => {
		const [one, two] = await twoProcesses();

		for (let n = 0; n < 10; n++) expect(await Promise.all([post(one, form(`pair-${n}`)), post(two, form(`pair-${n}`))])).toEqual([200, 200]);

		const events = [...one.executions, ...two.executions].map(([item]) => String(item.id)).sort();
		expect(events).toEqual(Array.from({ length: 10 }, (_, n) => `form-pair-${n}`).sort());
		// Each copy claimed; the copy whose claim was written last won, the other lost at its check (or its claim).
		expect(one.executions.length + two.executions.length).toBe(10);
		expect(readKeys(one.staticData[KEYS_FIELD]).size).toBe(10);
	});

	test('without a way back to its process (no socket: each decides alone, as before) the same two copies start two executions', async () => {
		const [one, two] = await twoProcesses();

		await Promise.all([one.deliver(form('alone')), two.deliver(form('alone'))]);

		expect([one.executions.length, two.executions.length]).toEqual([1, 1]);
		expect([...one.ownRequests, ...two.ownRequests]).toEqual([]);
	});

	test('a repeat an hour later, after 250 other deliveries and with both processes\' memories gone, is dropped; after a day it is forgotten', async () => {
		const [one, two] = await twoProcesses();
		expect(await post(one, form('early'))).toBe(200);
		for (let n = 0; n < 250; n++) await two.deliver(form(`other-${n}`));
		expect(one.executions.length + two.executions.length).toBe(251);
		const bytes = JSON.stringify(one.staticData).length;
		expect(bytes).toBeLessThan(251 * 16 + 100);

		const now = Date.now();
		const later = jest.spyOn(Date, 'now').mockReturnValue(now + 61 * MINUTE);
		try {
			expect(await post(two, form('early'))).toBe(200);
			expect(await post(one, form('early'))).toBe(200);
			expect(one.executions.length + two.executions.length).toBe(251);
			// Dropped by the static data each loaded: no claim was needed.
			expect(two.ownRequests).toEqual([]);
			later.mockReturnValue(now + 25 * HOUR);
			expect(await post(two, form('early'))).toBe(200);
			expect(two.executions.map(([item]) => item.id).slice(-1)).toEqual(['form-early']);
		} finally {
			later.mockRestore();
		}
	});

	test('requests with the claim header from outside (an unknown token) start nothing and change nothing', async () => {
		const trigger = await triggerOf();
		await post(trigger, form(2));
		const before = JSON.stringify(trigger.staticData);

		for (const operation of ['claim', 'check', 'other']) {
			const answer = await fetch(trigger.url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-scheduling-platform-dedupe': operation }, body: JSON.stringify({ token: 'guessed', ...form(3) }) });
			expect([answer.status, await answer.json()]).toEqual([200, { message: 'Webhook call received' }]);
		}
		await receiver.idle();

		expect(trigger.executions).toHaveLength(1);
		expect(JSON.stringify(trigger.staticData)).toBe(before);
	});

	test('a test event (Listen for Test Event) decides alone: no requests to itself, its key recorded without a nonce', async () => {
		const trigger = await triggerOf({ mode: 'manual' });

		expect(await post(trigger, form(4))).toBe(200);

		expect(trigger.executions).toEqual([[form(4)]]);
		expect(trigger.ownRequests).toEqual([]);
		expect(readKeys(trigger.staticData[KEYS_FIELD]).get(hashOf(form(4)))?.nonce).toBe(NO_NONCE);
	});

	test('keys of the earlier version (`seen`) still drop their repeats, and move into the new form with the next claim', async () => {
		const trigger = await triggerOf();
		trigger.staticData = { subscriptionId: 7, seen: [hashOf(form(5))] };

		await post(trigger, form(5));
		expect(trigger.executions).toEqual([]);
		await post(trigger, form(6));

		expect(trigger.executions).toEqual([[form(6)]]);
		expect(Object.keys(trigger.staticData).sort()).toEqual([KEYS_FIELD, 'subscriptionId']);
		expect([...readKeys(trigger.staticData[KEYS_FIELD]).keys()].sort()).toEqual([hashOf(form(5)), hashOf(form(6))].sort());
	});
});
