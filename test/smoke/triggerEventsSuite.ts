import { setTimeout as sleep } from 'timers/promises';

import { startSandbox } from '../../sandbox/server';
import type { CliRun, RealN8n } from '../../scripts/realN8n';
import { N8N_V1, NODE_TYPE, freePort, importAll, n8n, newUserFolder, realN8n, startN8n } from '../../scripts/realN8n';
import { notingWorkflow, until, World } from './triggerWorld';

/**
 * The polling trigger's booking change events in the real n8n 1.123 (polls every 10 s: a custom cron 1.x accepts):
 * four workflows, Booking Cancelled, Booking Rescheduled, Appointment Starting Soon (60 minutes before) and
 * Appointment Ended, each writing the appointment's notes once per item (its own note text), so the sandbox's request
 * log counts what each emitted. Three bookings for tomorrow: A is kept, B cancelled, C rescheduled to a later slot.
 * Then the sandbox clock (the API's Date header, which the trigger reads) jumps to 30 minutes before A's start, and
 * later past B's end. Proven: Cancelled fires once for B, Rescheduled once for C, Starting Soon and Ended once each
 * for A, and never for B (cancelled) nor C (not yet); nothing repeats: each step's writes are checked once its
 * write came, and all of them after two more polls of every workflow (each step takes a poll or more of all).
 * A fifth workflow, New Booking with two Poll Times entries on the same seconds (n8n starts two polls at once, both
 * on the same stored state), writes each of the three bookings once: one of the two polls steps aside (its log line).
 */

const EVERY_10_S = { item: [{ mode: 'custom', cronExpression: '0,10,20,30,40,50 * * * * *' }] };
const IDS = ['spEventCancel001', 'spEventResched01', 'spEventSoon00001', 'spEventEnded0001', 'spEventTwice0001'];
/** Two Poll Times entries that fall on the same seconds: n8n starts two polls of the trigger at once. */
const TWICE_EVERY_10_S = { item: [EVERY_10_S.item[0], { mode: 'custom', cronExpression: '0,10,20,30,40,50 0-59 * * * *' }] };
const SKIPPED = 'Another poll of this trigger';
const MINUTE = 60_000;

export function triggerEventsSmoke(): void {
	jest.setTimeout(10 * 60_000);
	let world: World;
	let host: RealN8n;
	let server: CliRun | undefined;

	const explain = async () => {
		if (server && server.child.exitCode === null) server.child.kill('SIGTERM');
		const output = await server?.done;
		return `${JSON.stringify((await world.log()).map((r) => `${r.method} ${r.path} ${String(r.status)}`))}\n${output?.stdout.slice(-3000) ?? ''}\n${output?.stderr.slice(-3000) ?? ''}`;
	};
	const waitFor = async (what: string, ready: () => Promise<boolean>) => await until(what, ready, 90_000, explain);

	/** At least two more polls of every workflow (each reads the appointments at least once per poll). */
	async function twoMorePolls(): Promise<void> {
		const lists = (await world.appointmentLists()).length;
		await waitFor('two more polls', async () => (await world.appointmentLists()).length >= lists + 2 * IDS.length);
		await sleep(2_000);
	}

	beforeAll(async () => {
		host = realN8n(N8N_V1);
		world = new World(await startSandbox());
		await world.reseed();
	});

	afterAll(async () => {
		if (server && server.child.exitCode === null) server.child.kill('SIGTERM');
		await server?.done;
		await world?.sandbox.close();
	});

	test(`n8n ${N8N_V1}: Booking Cancelled, Booking Rescheduled, Appointment Starting Soon and Appointment Ended each fire once, never for a cancelled booking; New Booking polled twice at once writes each booking once`, async () => {
		const userFolder = newUserFolder('n8n-trigger-events-');
		const watch = (event: string, extra: object = {}) => ({ event, pollTimes: EVERY_10_S, ...extra });
		const workflows = [
			notingWorkflow(IDS[0], 'Cancelled', watch('bookingCancelled'), 'cancelled', NODE_TYPE),
			notingWorkflow(IDS[1], 'Rescheduled', watch('bookingRescheduled'), 'rescheduled', NODE_TYPE),
			notingWorkflow(IDS[2], 'Starting soon', watch('appointmentStartingSoon', { minutesBefore: 60 }), 'soon', NODE_TYPE),
			notingWorkflow(IDS[3], 'Ended', watch('appointmentEnded'), 'ended', NODE_TYPE),
			notingWorkflow(IDS[4], 'New, polled twice at once', { event: 'newBooking', pollTimes: TWICE_EVERY_10_S }, 'new', NODE_TYPE),
		];
		await importAll(host, userFolder, world.credentials(), workflows);
		for (const id of IDS) await n8n(host, userFolder, 'update:workflow', `--id=${id}`, '--active=true');
		await world.control('DELETE', '/requests');
		server = await startN8n(host, userFolder, ['start'], 0, { N8N_PORT: String(await freePort()), N8N_LISTEN_ADDRESS: '127.0.0.1' });
		await waitFor('the activation polls', async () => (await world.appointmentLists()).length >= IDS.length);

		const slots = await world.openSlots(12);
		const [kept, cancelled, moved] = await world.book(slots.slice(0, 3), 'events');
		await world.api('POST', `/v4/appointment/${cancelled}/cancel`, { reason: 'No longer needed' });
		await world.api('POST', `/v4/appointment/${moved}/reschedule`, { start: slots[11] });
		const note = (id: string, text: string) => `/v4/appointment/${id}/notes ${text}`;
		const expected = [note(cancelled, 'cancelled'), note(moved, 'rescheduled'), ...[kept, cancelled, moved].map((id) => note(id, 'new'))];
		await waitFor('the cancelled, rescheduled and new writes', async () => (await world.notes()).length >= 5);
		await sleep(2_000);
		expect(await world.notes()).toEqual(expected.sort());

		// 30 minutes before A (and B, cancelled) start: within the 60 minutes of Starting Soon.
		const keptAt = await world.api('GET', `/v4/appointment/${kept}`);
		const cancelledAt = await world.api('GET', `/v4/appointment/${cancelled}`);
		await world.control('POST', '/clock/set', { now: new Date(Date.parse(String(keptAt.start)) - 30 * MINUTE).toISOString() });
		expected.push(note(kept, 'soon'));
		await waitFor('the starting soon write', async () => (await world.notes()).length >= 6);
		await sleep(2_000);
		expect(await world.notes()).toEqual(expected.sort());

		// A minute after B's end: A and B have ended, C (moved later) has not.
		await world.control('POST', '/clock/set', { now: new Date(Date.parse(String(cancelledAt.end)) + MINUTE).toISOString() });
		expected.push(note(kept, 'ended'));
		await waitFor('the ended write', async () => (await world.notes()).length >= 7);
		// Every workflow polls at least twice more: a repeat of any write would show now.
		await twoMorePolls();
		expect(await world.notes()).toEqual(expected.sort());
		// The New Booking workflow's two polls at once: every time, one of them stepped aside (the node's log line).
		server.child.kill('SIGTERM');
		const { stdout } = await server.done;
		expect(stdout).toContain(SKIPPED);
	});
}
