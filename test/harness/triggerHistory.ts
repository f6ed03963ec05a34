import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { LOOKBACK_MS } from '../../package/nodes/shared/trigger/watermark';
import type { PollOutcome } from '../../scripts/engine';
import type { CredentialRef, World } from './world';

/**
 * What the polling trigger's property tests share (trigger/properties.test.ts, trigger/inboundProperties.test.ts, and
 * the change events': trigger/bookingChangeProperties.test.ts, dealProperties.test.ts, invoiceProperties.test.ts):
 * a tenant of its own after a sandbox reset, one history's stored state and what came out of it, and the things that
 * happen between and during polls: a poll, a failing page, a change while the poll waits for its second list page,
 * restarts from stored state, abandoned polls (the same state polled again), and the polls after the history. For the
 * change events, whose truth depends on what a poll could see, the order of changes and polls (Ticks), the polls whose
 * items reached the workflow (CommittedPoll) and the tally of each event (ChangeTally).
 */

/** What a property test's history does: activate, run each drawn step, poll until nothing is left, check the outcome. */
export interface DrawnHistory<Step> {
	activate(): Promise<void>;
	run(step: Step): Promise<void>;
	drain(): Promise<void>;
	check(order: ListOrder): void;
}

/** Draws `runs` histories (a list order, 3 to `maxSteps` steps), plays and checks each; `played` counts them. */
export async function assertHistories<Step>(
	start: (order: ListOrder) => Promise<DrawnHistory<Step>>,
	orders: fc.Arbitrary<ListOrder>,
	step: fc.Arbitrary<Step>,
	maxSteps: number,
	runs: number,
	played: () => void,
): Promise<void> {
	await fc.assert(
		fc.asyncProperty(orders, fc.array(step, { minLength: 3, maxLength: maxSteps }), async (order, steps) => {
			const history = await start(order);
			await history.activate();
			for (const next of steps) await history.run(next);
			await history.drain();
			history.check(order);
			played();
		}),
		{ numRuns: runs, seed: PROPERTY_SEED },
	);
}

/** Random histories per property: `TRIGGER_PROPERTY_RUNS` when set (for every property test alike), else the test's own default. */
export function propertyRuns(defaultRuns: number): number {
	return Number(process.env.TRIGGER_PROPERTY_RUNS ?? defaultRuns);
}

/** fast-check's seed: `TRIGGER_PROPERTY_SEED` to run the histories of a printed seed again; else a new one per run. */
export const PROPERTY_SEED = process.env.TRIGGER_PROPERTY_SEED === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.TRIGGER_PROPERTY_SEED);

/** How the sandbox orders a list (listOrder.ts): its sort honoured, ties in a new order on each request, the sort ignored. */
export type ListOrder = 'sorted' | 'shuffledTies' | 'sortIgnored';

/** The counts every history adds to (each test prints its totals). */
export interface PollTotals {
	polls: number;
	failedPolls: number;
	abandonedPolls: number;
	maxStateBytes: number;
	byListOrder: Record<ListOrder, number>;
}

export const pollTotals = (): PollTotals => ({ polls: 0, failedPolls: 0, abandonedPolls: 0, maxStateBytes: 0, byListOrder: { sorted: 0, shuffledTies: 0, sortIgnored: 0 } });

/** A tenant of one history: its company, its owner's PAT and a credential whose own limit never holds the poll back. */
export interface HistoryTenant {
	companyId: string;
	token: string;
	credential: CredentialRef;
}

const FAILURE = { statusCode: 500, message: 'Internal server error', error: 'Internal Server Error' };

/** Resets the sandbox, sets its list order and a limit out of the way, and makes a company with one user. */
export async function historyTenant(world: World, order: ListOrder): Promise<HistoryTenant> {
	await world.control('POST', '/__sandbox/reset');
	await world.control('POST', '/__sandbox/list-order', { shuffleTies: order === 'shuffledTies', ignoreSort: order === 'sortIgnored' });
	await world.control('POST', '/__sandbox/rate-limit', { perMinute: 1_000_000, burst: 1_000_000 });
	const company = (await world.control('POST', '/__sandbox/companies', { name: 'History Ltd.' })) as { id: string };
	const user = (await world.control('POST', '/__sandbox/users', { companyId: company.id, email: 'hal@history.example', givenName: 'Hal', familyName: 'Story' })) as { id: string };
	const { token } = (await world.control('POST', '/__sandbox/pats', { userId: user.id })) as { token: string };
	const base = world.pat(token);
	return { companyId: company.id, token, credential: { ...base, data: { ...base.data, requestsPerMinute: 1_000_000, burst: 1_000_000 } } };
}

/** The sandbox clock (ms). */
export async function sandboxNow(world: World): Promise<number> {
	return Date.parse(((await world.control('POST', '/__sandbox/clock/advance', { seconds: 0 })) as { now: string }).now);
}

/** The steps every history draws: the clock moves on, a poll (with a budget too short for all its pages), a restart. */
export type CommonStep = { kind: 'advance'; seconds: number } | { kind: 'poll'; shortBudget: boolean } | { kind: 'restart'; fromLastEmit: boolean };

export const commonSteps = [
	{ weight: 3, arbitrary: fc.record({ kind: fc.constant('advance' as const), seconds: fc.integer({ min: 1, max: 180 }) }) },
	{ weight: 5, arbitrary: fc.record({ kind: fc.constant('poll' as const), shortBudget: fc.boolean() }) },
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant('restart' as const), fromLastEmit: fc.boolean() }) },
];

/** `count` moments from `now` back over `spreadMs`, on a 3 ms grid: several share each moment. */
export const burstTimes = (now: number, count: number, spreadMs: number): number[] =>
	Array.from({ length: count }, (_, i) => now - Math.floor((spreadMs * i) / count / 3) * 3);

/**
 * The order of what happens in a history: every change and every poll's start and end take the next tick, so a change
 * lies before a poll, after it, or within it (made while the poll paged). The change events' truth is told in ticks.
 */
export class Ticks {
	private last = 0;

	next(): number {
		return ++this.last;
	}
}

/** A poll whose items reached the workflow and whose state was stored: its ticks, whether it had its whole budget. */
export interface CommittedPoll {
	start: number;
	end: number;
	/** Read its whole list: polled with n8n's whole budget, or a short one that sufficed (it logged no cut). */
	full: boolean;
	items: IDataObject[];
}

/** One history of one event: the trigger's stored state, what it emitted (times per ID), and the polls that make it. */
export class PolledHistory {
	emitted = new Map<string, number>();
	state: IDataObject = {};
	lastEmitState: IDataObject = {};
	/** The first activation's watermark: what happened at or before it is never emitted. */
	since = 0;
	/** A poll warned of a group of one moment across a page edge that no page can hold. */
	unreadableGroup = false;
	/** What every poll wrote to n8n's log, in order. */
	logs: string[] = [];
	/** The polls whose items reached the workflow, in order (the activation first). */
	committed: CommittedPoll[] = [];

	constructor(
		protected readonly world: World,
		readonly tenant: HistoryTenant,
		private readonly event: IDataObject,
		protected readonly totals: PollTotals,
		/** The ticks of the history (shared by the triggers that watch one tenant); the largest state a poll may store. */
		readonly options: { ticks?: Ticks; stateLimit?: number } = {},
	) {
		this.ticks = options.ticks ?? new Ticks();
	}

	readonly ticks: Ticks;

	/** The first activation: nothing emitted, the watermark (or the snapshot's moment) noted. */
	async activate(): Promise<void> {
		expect(await this.poll()).toBeNull();
		// n8n 1.x stores the static data after activating a workflow, and after every poll that emits.
		this.lastEmitState = this.state;
		const state = this.state.state as IDataObject;
		this.since = Date.parse(String(state.since ?? state.at));
	}

	/** The activation's poll (the first committed one). */
	get activation(): CommittedPoll {
		return this.committed[0];
	}

	/** One poll from the stored state (nothing committed), noting the trigger's warning of a group no page can hold. */
	async pollOnce(options: { budgetMs?: number } = {}): Promise<PollOutcome> {
		const outcome = await this.world.poll(this.event, this.tenant.credential, { state: this.state, ...options });
		this.logs.push(...outcome.logs.map((log) => log.message));
		if (outcome.logs.some((log) => log.message.includes('share one moment across a page edge'))) this.unreadableGroup = true;
		return outcome;
	}

	/** One poll whose items reach the workflow and whose state is stored; it must not fail. */
	async poll(options: { budgetMs?: number } = {}): Promise<IDataObject[] | null> {
		const start = this.ticks.next();
		const outcome = await this.pollOnce(options);
		const end = this.ticks.next();
		this.totals.polls++;
		if (outcome.error) throw new Error(`Poll failed: ${outcome.error.message}`);
		// A poll with a short budget that still read its whole list (one page) is a whole reading too.
		const cut = outcome.logs.some((log) => /time ran out|without reaching the last poll's position/.test(log.message));
		this.note(outcome.items, outcome.staticData, { start, end, full: options.budgetMs === undefined || !cut });
		return outcome.items;
	}

	/** A poll's items counted and its state stored (under 2 KB, or the history's own limit). */
	note(items: IDataObject[] | null, staticData: IDataObject, ticks?: { start: number; end: number; full: boolean }): void {
		if (ticks) this.committed.push({ ...ticks, items: items ?? [] });
		const bytes = JSON.stringify(staticData).length;
		this.totals.maxStateBytes = Math.max(this.totals.maxStateBytes, bytes);
		expect(bytes).toBeLessThan(this.options.stateLimit ?? 2048);
		for (const item of items ?? []) this.emitted.set(String(item.id), (this.emitted.get(String(item.id)) ?? 0) + 1);
		this.state = staticData;
		if (items?.length) this.lastEmitState = staticData;
	}

	/** A step every history draws. */
	async runCommon(step: CommonStep): Promise<void> {
		switch (step.kind) {
			case 'advance':
				await this.world.control('POST', '/__sandbox/clock/advance', { seconds: step.seconds });
				return;
			case 'poll':
				await this.poll(step.shortBudget ? { budgetMs: 1 } : {});
				return;
			case 'restart':
				return this.restart(step.fromLastEmit);
		}
	}

	/** n8n restarted: the stored state read back, or the state of the last poll that emitted (n8n 1.x stores no other). */
	restart(fromLastEmit: boolean): void {
		this.state = JSON.parse(JSON.stringify(fromLastEmit ? this.lastEmitState : this.state)) as IDataObject;
	}

	/**
	 * A poll whose items never reach a workflow and whose state is never committed: the next poll starts from the same
	 * state (n8n 2.x's durable scheduler runs a poll at least once and commits only the poll that holds its lease).
	 */
	async abandoned(): Promise<void> {
		await this.pollOnce();
		this.totals.abandonedPolls++;
	}

	/**
	 * A poll with a 500 on one request (the list's first or second page, a record's read): nothing emitted, the stored
	 * state unchanged. A poll that does not make that request succeeds, and counts as such.
	 */
	async failingPoll(fault: { path: string; after: number }): Promise<void> {
		await this.world.control('POST', '/__sandbox/faults', { method: 'GET', status: 500, body: FAILURE, ...fault });
		const start = this.ticks.next();
		const outcome = await this.pollOnce();
		const end = this.ticks.next();
		await this.world.control('DELETE', '/__sandbox/faults');
		this.totals.polls++;
		if (!outcome.error) return this.note(outcome.items, outcome.staticData, { start, end, full: true });
		this.totals.failedPolls++;
		expect(outcome.items).toBeNull();
		expect(outcome.staticData).toEqual(this.state);
	}

	/**
	 * A poll whose second request of the list (`path`) is held (a delay fault) while `change` runs; `paging` tells it
	 * whether the poll had not finished by then. An abandoned poll's items and state are dropped.
	 */
	async whilePaging(path: string, change: (paging: boolean) => Promise<void>, options: { abandon?: boolean } = {}): Promise<void> {
		await this.world.control('POST', '/__sandbox/faults', { method: 'GET', path, delayMs: 200, after: 1 });
		const lists = async () => (await this.world.requests()).filter((request) => request.path === path).length;
		const before = await lists();
		let settled = false;
		const polling = (options.abandon ? this.abandoned() : this.poll()).finally(() => (settled = true));
		while (!settled && (await lists()) < before + 2) await new Promise((resolve) => setTimeout(resolve, 5));
		try {
			await change(!settled);
		} finally {
			// A change that failed leaves no poll running into the next history.
			await polling;
			await this.world.control('DELETE', '/__sandbox/faults');
		}
	}

	/**
	 * Polls after the lookback window until a poll that read the whole list from the top finds nothing new (a poll
	 * that started at a backlog hint did not see the pages above it).
	 */
	async drain(): Promise<void> {
		const hint = () => (this.state.state as IDataObject | undefined)?.page;
		for (let round = 0; round < 30; round++) {
			await this.world.control('POST', '/__sandbox/clock/advance', { seconds: LOOKBACK_MS / 1000 + 1 });
			const fromTop = hint() === undefined;
			const items = await this.poll();
			if (fromTop && !items && hint() === undefined) return;
		}
		throw new Error('The trigger did not settle within 30 polls after the history');
	}

	/** Every emission counted. */
	emissions(): number {
		return [...this.emitted.values()].reduce((sum, times) => sum + times, 0);
	}
}

/** What the change events' property tests count of each event: occurrences that had to come out, and how they did. */
export interface ChangeTally {
	/** Occurrences a committed poll with its whole budget saw from start to end: each must come out once. */
	required: number;
	/** Items emitted. */
	emitted: number;
	/** Required occurrences that never came out. */
	lost: number;
	/** Occurrences that came out more than once. */
	duplicated: number;
	/** Items of no occurrence after the activation (before it, or none at all). */
	foreign: number;
}

export const changeTally = (): ChangeTally => ({ required: 0, emitted: 0, lost: 0, duplicated: 0, foreign: 0 });

/** Whether a committed poll with its whole budget, after the activation, lies wholly after tick `from` and before `to`. */
export function fullPollWithin(history: PolledHistory, from: number, to = Infinity): boolean {
	return history.committed.slice(1).some((poll) => poll.full && poll.start > from && poll.end < to);
}

/** The items a history emitted after its activation, with the index of the committed poll that emitted each. */
export function emittedItems(history: PolledHistory): Array<{ poll: number; item: IDataObject }> {
	return history.committed.flatMap((poll, index) => poll.items.map((item) => ({ poll: index, item })));
}
