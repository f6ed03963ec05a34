import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import type { ChangeTally, CommonStep, HistoryTenant, ListOrder } from '../harness/triggerHistory';
import { assertHistories, changeTally, emittedItems, fullPollWithin, historyTenant, PolledHistory, pollTotals, PROPERTY_SEED, propertyRuns, sandboxNow, Ticks } from '../harness/triggerHistory';
import { useWorld } from '../harness/world';

/**
 * Booking Cancelled and Booking Rescheduled on random histories: each cancellation and each move a poll can see comes
 * out once, none lost, none repeated. Both triggers watch one tenant's Watched Window (1 day back, 90 days ahead),
 * which they read whole each poll (appointments by start, pages of 100) and compare with their snapshot. Each history
 * runs the compiled Scheduling Platform Trigger through n8n-core's poll context against the sandbox, in a tenant of its
 * own after a sandbox reset (harness/triggerHistory.ts):
 * - 220 appointments at the start (three pages), then bookings (some cancelled or moved at once: booked
 *   and changed between two polls), cancellations, moves within the window, out of it (more than 90 days ahead) and
 *   back,
 * - bursts of 151 to 240 cancellations and moves within a minute, some of the moved ones moved once more before the
 *   next poll,
 * - changes while a poll pages: while the poll waits for its second page, appointments of its first page move out of
 *   the window or later in it, so the first ones of the second page slip to the first (read already); those were moved
 *   or cancelled just before the poll, and are moved again (or cancelled) just after it; some of these polls are
 *   abandoned,
 * - polls with n8n 2.x's budget so short that only the first page is read, failing polls (a 500 on the first or second
 *   page), abandoned polls, restarts (from the stored state, or the state of the last poll that emitted: n8n 1.x),
 * - appointments sharing a start in a new order on every page request (sandbox list-order), the clock moving on.
 * Truth, in the order of things (harness Ticks): a cancellation of an appointment in the window made after the
 * activation began comes out at most once, and once when a committed poll with its whole budget began after it; for
 * each appointment, every reschedule count a committed whole-budget poll saw unchanged from its start to its end (not
 * cancelled, in the window) comes out once, as that count or a later one lower than the next such count (two moves
 * between two polls fire once, with the later time), and no count comes out twice. Lost and duplicated are printed.
 */

const world = useWorld();

/** Default 50 histories (about 30 s on two cores); TRIGGER_PROPERTY_RUNS sets more, for every property test alike. */
const RUNS = propertyRuns(50);
const APPOINTMENTS = '/v4/appointment/paginated';
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** The appointments' starts: from a day ahead over 60 days; "out" is 150 days ahead, beyond the 90 of the window. */
const SPREAD = 60 * DAY;
const OUT = 150 * DAY;

type Step =
	| { kind: 'book'; count: number; then: 'none' | 'cancel' | 'move' }
	| { kind: 'cancel'; count: number; pick: number }
	| { kind: 'move'; count: number; pick: number; out: boolean; twice: boolean }
	| { kind: 'burst'; count: number; cancels: number; again: number; pick: number }
	| { kind: 'whilePaging'; trigger: 'cancelled' | 'rescheduled'; before: number; slip: number; out: boolean; after: 'move' | 'cancel' | 'none'; abandon: boolean }
	| { kind: 'failingPoll'; page: 0 | 1 }
	| { kind: 'abandoned' }
	| CommonStep;

const step: fc.Arbitrary<Step> = fc.oneof(
	{ weight: 3, arbitrary: fc.record({ kind: fc.constant('book' as const), count: fc.integer({ min: 1, max: 20 }), then: fc.constantFrom('none' as const, 'cancel' as const, 'move' as const) }) },
	{ weight: 3, arbitrary: fc.record({ kind: fc.constant('cancel' as const), count: fc.integer({ min: 1, max: 8 }), pick: fc.nat() }) },
	{
		weight: 3,
		arbitrary: fc.record({ kind: fc.constant('move' as const), count: fc.integer({ min: 1, max: 8 }), pick: fc.nat(), out: fc.nat({ max: 5 }).map((draw) => draw === 0), twice: fc.boolean() }),
	},
	{
		weight: 1,
		arbitrary: fc.record({ kind: fc.constant('burst' as const), count: fc.integer({ min: 151, max: 240 }), cancels: fc.integer({ min: 0, max: 100 }), again: fc.integer({ min: 0, max: 30 }), pick: fc.nat() }),
	},
	{
		weight: 3,
		arbitrary: fc.record({
			kind: fc.constant('whilePaging' as const),
			trigger: fc.constantFrom('cancelled' as const, 'rescheduled' as const),
			before: fc.integer({ min: 1, max: 4 }),
			slip: fc.integer({ min: 1, max: 5 }),
			out: fc.boolean(),
			after: fc.constantFrom('move' as const, 'cancel' as const, 'none' as const),
			abandon: fc.nat({ max: 4 }).map((draw) => draw === 0),
		}),
	},
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant('failingPoll' as const), page: fc.constantFrom(0 as const, 1 as const) }) },
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant('abandoned' as const) }) },
	{ weight: 2, arbitrary: fc.record({ kind: fc.constant('advance' as const), seconds: fc.integer({ min: 1, max: 180 }) }) },
	{ weight: 5, arbitrary: fc.record({ kind: fc.constant('poll' as const), shortBudget: fc.boolean() }) },
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant('restart' as const), fromLastEmit: fc.boolean() }) },
);

/** Appointments share a start only when drawn so (bookings on the 8-minute grid): ties in a new order on each request too. */
const listOrder: fc.Arbitrary<ListOrder> = fc.constantFrom('sorted', 'shuffledTies');

const { byListOrder, ...pollCounts } = pollTotals();
const totals = {
	histories: 0,
	...pollCounts,
	appointments: 0,
	cancellations: 0,
	moves: 0,
	movesOut: 0,
	bursts: 0,
	whilePaging: 0,
	slippedWhilePaging: 0,
	cancelled: changeTally(),
	rescheduled: changeTally(),
	byListOrder,
};

/** One state of an appointment, from the tick it began. */
interface Version {
	tick: number;
	start: number;
	count: number;
	cancelled: boolean;
}

interface Appointment {
	id: string;
	versions: Version[];
}

const now = (appointment: Appointment) => appointment.versions[appointment.versions.length - 1];

/** One history: a tenant, its appointments, and the two triggers watching it. */
class BookingHistory {
	appointments: Appointment[] = [];
	readonly ticks = new Ticks();
	readonly cancelled: PolledHistory;
	readonly rescheduled: PolledHistory;
	private base = 0;

	private constructor(
		readonly tenant: HistoryTenant,
		private readonly meetingTypeId: string,
	) {
		// Each appointment remembered in at most 14 bytes: 260 to 900 of them.
		const options = { ticks: this.ticks, stateLimit: 16_000 };
		this.cancelled = new PolledHistory(world(), tenant, { event: 'bookingCancelled' }, totals, options);
		this.rescheduled = new PolledHistory(world(), tenant, { event: 'bookingRescheduled' }, totals, options);
	}

	static async start(order: ListOrder): Promise<BookingHistory> {
		const tenant = await historyTenant(world(), order);
		totals.byListOrder[order]++;
		const [meetingType] = (await world().api('GET', '/v4/meeting-type', tenant.token)).body as unknown as IDataObject[];
		const history = new BookingHistory(tenant, String(meetingType.id));
		history.base = Math.ceil(((await sandboxNow(world())) + DAY) / MINUTE) * MINUTE;
		return history;
	}

	get triggers(): PolledHistory[] {
		return [this.cancelled, this.rescheduled];
	}

	/** A start within the window: on an 8-minute grid (so some share one), or between. */
	private startAt(draw: number): number {
		return this.base + (draw % 2 === 0 ? Math.floor((draw * 7919) % (SPREAD / (8 * MINUTE))) * 8 * MINUTE : (draw * 104_729) % SPREAD);
	}

	async book(starts: number[]): Promise<Appointment[]> {
		const { ids } = (await world().control('POST', '/__sandbox/appointments', { meetingTypeId: this.meetingTypeId, starts: starts.map((at) => new Date(at).toISOString()) })) as { ids: string[] };
		const tick = this.ticks.next();
		const made = ids.map((id, i) => ({ id, versions: [{ tick, start: starts[i], count: 0, cancelled: false }] }));
		this.appointments.push(...made);
		totals.appointments += made.length;
		return made;
	}

	async cancel(appointment: Appointment): Promise<void> {
		if (now(appointment).cancelled) return;
		const answer = await world().api('POST', `/v4/appointment/${appointment.id}/cancel`, this.tenant.token, { body: { reason: 'Drawn' } });
		expect(answer.status).toBe(200);
		appointment.versions.push({ ...now(appointment), tick: this.ticks.next(), cancelled: true });
		totals.cancellations++;
	}

	async move(appointment: Appointment, start: number): Promise<void> {
		if (now(appointment).cancelled) return;
		const answer = await world().api('POST', `/v4/appointment/${appointment.id}/reschedule`, this.tenant.token, { body: { start: new Date(start).toISOString(), ignoreAvailability: true } });
		expect(answer.status).toBe(200);
		appointment.versions.push({ tick: this.ticks.next(), start, count: now(appointment).count + 1, cancelled: false });
		totals.moves++;
		if (start >= this.base + OUT) totals.movesOut++;
	}

	/** Live appointments, `count` of them from a drawn one on. */
	private live(count: number, pick: number): Appointment[] {
		const live = this.appointments.filter((appointment) => !now(appointment).cancelled);
		return Array.from({ length: Math.min(count, live.length) }, (_, i) => live[(pick + i * 31) % live.length]).filter((item, i, all) => all.indexOf(item) === i);
	}

	/** The window as the API lists it now: in the window, by start (the order among equal starts is the sandbox's). */
	private byStart(): Appointment[] {
		return this.appointments.filter((appointment) => now(appointment).start < this.base + OUT).sort((a, b) => now(a).start - now(b).start);
	}

	async activate(): Promise<void> {
		const starts = Array.from({ length: 220 }, (_, i) => this.base + i * 8 * MINUTE + (i % 3) * MINUTE);
		await this.book(starts);
		for (const trigger of this.triggers) await trigger.activate();
	}

	async poll(shortBudget: boolean): Promise<void> {
		for (const trigger of this.triggers) await trigger.poll(shortBudget ? { budgetMs: 1 } : {});
	}

	async run(step: Step): Promise<void> {
		switch (step.kind) {
			case 'book': {
				const made = await this.book(Array.from({ length: step.count }, (_, i) => this.startAt(this.appointments.length + i)));
				for (const [i, appointment] of made.entries()) {
					if (step.then === 'cancel') await this.cancel(appointment);
					if (step.then === 'move') await this.move(appointment, this.startAt(this.appointments.length * 3 + i));
				}
				return;
			}
			case 'cancel':
				for (const appointment of this.live(step.count, step.pick)) await this.cancel(appointment);
				return;
			case 'move':
				for (const [i, appointment] of this.live(step.count, step.pick).entries()) {
					const outside = now(appointment).start >= this.base + OUT;
					await this.move(appointment, step.out && !outside ? this.base + OUT + i * DAY : this.startAt(step.pick + i));
					if (step.twice) await this.move(appointment, this.startAt(step.pick + i + 1));
				}
				return;
			case 'burst':
				return await this.burst(step);
			case 'whilePaging':
				return await this.whilePaging(step);
			case 'failingPoll':
				return await this.cancelled.failingPoll({ path: APPOINTMENTS, after: step.page });
			case 'abandoned':
				for (const trigger of this.triggers) await trigger.abandoned();
				return;
			case 'advance':
				await world().control('POST', '/__sandbox/clock/advance', { seconds: step.seconds });
				return;
			case 'poll':
				return await this.poll(step.shortBudget);
			case 'restart':
				for (const trigger of this.triggers) trigger.restart(step.fromLastEmit);
				return;
		}
	}

	/** More than 150 cancellations and moves within a minute; `again` of the moved ones move once more. */
	async burst({ count, cancels, again, pick }: Extract<Step, { kind: 'burst' }>): Promise<void> {
		const live = this.appointments.filter((appointment) => !now(appointment).cancelled);
		if (live.length < count) await this.book(Array.from({ length: count - live.length + 20 }, (_, i) => this.startAt(this.appointments.length + i)));
		const chosen = this.live(count, pick);
		const moved: Appointment[] = [];
		for (const [i, appointment] of chosen.entries()) {
			if (i % 100 < cancels) await this.cancel(appointment);
			else {
				await this.move(appointment, this.startAt(pick + i * 13));
				moved.push(appointment);
			}
		}
		for (const [i, appointment] of moved.slice(0, again).entries()) await this.move(appointment, this.startAt(pick + i * 17 + 5));
		totals.bursts++;
	}

	/**
	 * The first appointments of the second page changed just before the poll; while it waits for its second page,
	 * appointments of the first page move out of the window (or later in it), so those slip to the first page, read
	 * already; just after the poll, they change again.
	 */
	async whilePaging({ trigger, before, slip, out, after, abandon }: Extract<Step, { kind: 'whilePaging' }>): Promise<void> {
		const listed = this.byStart();
		if (listed.length <= 100 + before) return;
		const edge = listed.slice(100, 100 + before).filter((appointment) => !now(appointment).cancelled);
		for (const [i, appointment] of edge.entries()) {
			if (i % 2 === 0) await this.move(appointment, now(appointment).start + MINUTE);
			else await this.cancel(appointment);
		}
		const first = listed.slice(0, 100).filter((appointment) => !now(appointment).cancelled).slice(0, slip);
		const history = trigger === 'cancelled' ? this.cancelled : this.rescheduled;
		await history.whilePaging(
			APPOINTMENTS,
			async (paging) => {
				if (paging) {
					totals.whilePaging++;
					totals.slippedWhilePaging += edge.length;
				}
				for (const [i, appointment] of first.entries()) await this.move(appointment, out ? this.base + OUT + i * DAY : this.base + SPREAD - i * MINUTE);
			},
			{ abandon },
		);
		for (const [i, appointment] of edge.entries()) {
			if (after === 'move') await this.move(appointment, now(appointment).start + (i + 2) * MINUTE);
			if (after === 'cancel') await this.cancel(appointment);
		}
	}

	async drain(): Promise<void> {
		for (const trigger of this.triggers) await trigger.drain();
	}

	/** Whether a start lies in the Watched Window (the clock moves on by hours at most in a history). */
	private inWindow(start: number): boolean {
		return start < this.base + OUT;
	}

	check(): void {
		const wrong: IDataObject[] = [];
		this.checkCancelled(wrong);
		this.checkRescheduled(wrong);
		expect(wrong).toEqual([]);
	}

	/** Each cancellation in the window after the activation began: once when a whole-budget poll began after it. */
	private checkCancelled(wrong: IDataObject[]): void {
		const history = this.cancelled;
		const tally = totals.cancelled;
		const times = new Map<string, number>();
		for (const { item } of emittedItems(history)) times.set(String(item.id), (times.get(String(item.id)) ?? 0) + 1);
		tally.emitted += [...times.values()].reduce((sum, n) => sum + n, 0);
		for (const appointment of this.appointments) {
			const cancel = appointment.versions.find((version) => version.cancelled);
			const emitted = times.get(appointment.id) ?? 0;
			const allowed = cancel !== undefined && cancel.tick > history.activation.start && this.inWindow(cancel.start);
			const required = allowed && cancel.tick > history.activation.end && fullPollWithin(history, cancel.tick);
			if (required) tally.required++;
			const problem = emitted > 1 ? 'duplicated' : required && emitted === 0 ? 'lost' : !allowed && emitted > 0 ? 'foreign' : undefined;
			if (!problem) continue;
			tally[problem]++;
			wrong.push({ event: 'bookingCancelled', problem, id: appointment.id, emitted, versions: appointment.versions });
		}
	}

	/**
	 * Each reschedule count a whole-budget poll saw unchanged throughout (live, in the window): one item of that count or
	 * a later one below the next such count. No count twice; none from before the activation.
	 */
	private checkRescheduled(wrong: IDataObject[]): void {
		const history = this.rescheduled;
		const tally = totals.rescheduled;
		const counts = new Map<string, number[]>();
		for (const { item } of emittedItems(history)) counts.set(String(item.id), [...(counts.get(String(item.id)) ?? []), Number(item.rescheduleCount)]);
		const polls = history.committed.slice(1).filter((poll) => poll.full);
		for (const appointment of this.appointments) {
			const emitted = counts.get(appointment.id) ?? [];
			tally.emitted += emitted.length;
			const seen = new Set<number>();
			for (const poll of polls) {
				if (appointment.versions.some((version) => version.tick > poll.start && version.tick < poll.end)) continue;
				const version = [...appointment.versions].reverse().find((candidate) => candidate.tick < poll.start);
				if (!version || version.cancelled || version.count === 0 || !this.inWindow(version.start) || version.tick < history.activation.end) continue;
				seen.add(version.count);
			}
			const required = [...seen].sort((a, b) => a - b);
			tally.required += required.length;
			const allowed = new Set(appointment.versions.filter((version) => version.tick > history.activation.start && version.count > 0).map((version) => version.count));
			const problems: string[] = [];
			required.forEach((count, i) => {
				const below = required[i + 1] ?? Infinity;
				if (!emitted.some((e) => e >= count && e < below)) problems.push('lost');
			});
			emitted.forEach((count, i) => {
				if (emitted.indexOf(count) !== i) problems.push('duplicated');
				if (!allowed.has(count)) problems.push('foreign');
			});
			for (const problem of problems) tally[problem as keyof ChangeTally]++;
			if (problems.length) wrong.push({ event: 'bookingRescheduled', problems, id: appointment.id, emitted, required, versions: appointment.versions });
		}
	}
}

test(`Booking Cancelled and Rescheduled, random histories (${RUNS}): each cancellation and each move a poll saw comes out once, none lost, none repeated`, async () => {
	await assertHistories(
		async (order) => {
			const history = await BookingHistory.start(order);
			return { activate: () => history.activate(), run: (next: Step) => history.run(next), drain: () => history.drain(), check: () => history.check() };
		},
		listOrder,
		step,
		14,
		RUNS,
		() => totals.histories++,
	);
	console.log(`Booking change property (runs ${RUNS}, seed ${PROPERTY_SEED}): ${JSON.stringify(totals)}`);
	expect(totals.histories).toBeGreaterThanOrEqual(RUNS);
	if (RUNS >= 30) expect(totals.slippedWhilePaging).toBeGreaterThan(0);
	expect(totals.cancelled.lost + totals.rescheduled.lost).toBe(0);
	expect(totals.cancelled.duplicated + totals.rescheduled.duplicated).toBe(0);
	expect(totals.cancelled.foreign + totals.rescheduled.foreign).toBe(0);
}, 10 * 60_000);
