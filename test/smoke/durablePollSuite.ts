import { execFileSync } from 'child_process';
import type { IDataObject } from 'n8n-workflow';
import { createWriteStream } from 'fs';
import { join } from 'path';
import { setTimeout as sleep } from 'timers/promises';

import { startSandbox } from '../../sandbox/server';
import type { CliRun, RealN8n } from '../../scripts/realN8n';
import { N8N_V2, NODE_TYPE, TRIGGER_NODE_TYPE, freePort, importAll, n8n, newUserFolder, realN8n, startN8n } from '../../scripts/realN8n';
import { CREDENTIAL, notingWorkflow, until, World } from './triggerWorld';

/**
 * The polling trigger under n8n 2.41's durable poll scheduler (N8N_SCHEDULER_ENABLED, _POLL_TRIGGERS_ENABLED,
 * N8N_POLLER_DURABLE_CURSORS_ENABLED): the trigger's state is a staged copy that n8n commits with the execution (in
 * one transaction, fenced by the poll task's lease) or drops. A New Booking workflow (Full Record on) writes each
 * booking's notes once per item, so the sandbox's request log counts what the trigger emitted; n8n's JSON log and its
 * database (scheduled_task, poller_state, execution_entity) show what the scheduler did. Proven, in order:
 * 1. n8n commits no state for the activation poll (poller_state keeps `{}`): the first scheduled poll starts the
 *    watch, so a booking made between activation and that poll is never emitted (n8n's behaviour, not the node's). The
 *    booking is made while the sandbox holds that poll's list request 6 s, so it falls between the two reads whatever
 *    second of the minute n8n activates at.
 * 2. A poll abandoned midway (N8N_SCHEDULER_POLL_TIMEOUT=10, one full-record read held 15 s): n8n logs the timeout
 *    and backs off; the abandoned poll still gets every answer (its staged state is written, then dropped); the next
 *    poll reads the same window again and emits the three bookings once.
 * 3. The main process killed (SIGKILL) while a poll waits for the list: its scheduled_task row stays `running`; the
 *    restarted main's reaper reclaims it when its lease expires and dispatches the same task again on the same state
 *    (attempts 1); that dispatch emits the three new bookings once.
 * 4. A lease that expires while the poll still runs (N8N_SCHEDULER_LEASE_DURATION=10 below a poll timeout of 60, the
 *    setting n8n warns about at start): the reaper hands the same task out again while the first poll waits 30 s for
 *    the list. That second poll finds the first running in this process and reads nothing (the node's guard against
 *    two polls at once); the first emits, and n8n refuses its commit (lease lost: no execution). The next poll reads
 *    the same window again and emits the three once.
 * 5. Errors as the node declares them reach n8n's poll backoff: a 429 with Retry-After 120 is transient
 *    (rate-limited, 120 s), a 401 permanent (credential-invalid, 30 min), in the log and in poller_state.
 * Polls run at fixed seconds (custom crons, once a minute: 2.x refuses more often), so this takes about 7 minutes.
 */

const BOOKINGS = 'spDurableBook001';
const CONVERSATIONS = 'spDurableConv001';
const DEALS = 'spDurableDeal001';

const SCHEDULER = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
	N8N_SCHEDULER_REAPER_INTERVAL: '2',
	N8N_LOG_FORMAT: 'json',
	N8N_LOG_LEVEL: 'debug',
};
/** First main: polls time out after 10 s, well within their 15 s lease. */
const SHORT_TIMEOUT = { ...SCHEDULER, N8N_SCHEDULER_POLL_TIMEOUT: '10', N8N_SCHEDULER_LEASE_DURATION: '15' };
/** Second main: a lease of 10 s, shorter than a poll may run (60 s). */
const SHORT_LEASE = { ...SCHEDULER, N8N_SCHEDULER_POLL_TIMEOUT: '60', N8N_SCHEDULER_LEASE_DURATION: '10' };

/** How long the sandbox holds the first scheduled poll's list request: time to book, well within the poll timeout of 10 s. */
const FIRST_POLL_HOLD_MS = 6_000;

const LEASE_LOST = 'Scheduler task finished after losing its lease; another instance may have run the same occurrence concurrently';
/** The node's log line when it finds another poll of the same trigger running. */
const STEPPED_ASIDE = 'Another poll of this trigger';

const every = (second: number) => ({ item: [{ mode: 'custom', cronExpression: `${second} * * * * *` }] });

interface LogLine {
	level: string;
	message: string;
	metadata: IDataObject;
}

/** A running `n8n start` whose JSON log lines are read as they come. */
class Main {
	readonly lines: LogLine[] = [];
	private rest = '';

	/** `file` keeps the whole output (debug level) for a look after a failure. */
	constructor(
		readonly run: CliRun,
		readonly file: string,
	) {
		const copy = createWriteStream(file);
		run.child.stdout?.on('data', (chunk: Buffer) => {
			copy.write(chunk);
			this.read(chunk.toString('utf8'));
		});
		run.child.stdout?.once('close', () => copy.end());
	}

	private read(text: string): void {
		const parts = (this.rest + text).split('\n');
		this.rest = parts.pop() ?? '';
		for (const part of parts) {
			if (!part.startsWith('{')) continue;
			try {
				this.lines.push(JSON.parse(part) as LogLine);
			} catch {
				// A line of another format (a banner): not a log record.
			}
		}
	}

	logged(message: string, workflowId?: string): LogLine[] {
		return this.lines.filter((line) => line.message === message && (workflowId === undefined || line.metadata.workflowId === workflowId));
	}

	tail(): string {
		return `n8n's whole log: ${this.file}\n` + this.lines.slice(-60).map((line) => `${line.level} ${line.message} ${JSON.stringify(line.metadata)}`).join('\n');
	}
}

function childrenOf(pid: number): number[] {
	try {
		return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number);
	} catch {
		return [];
	}
}

export function durablePollSmoke(): void {
	jest.setTimeout(15 * 60_000);
	let world: World;
	let host: RealN8n;
	let userFolder: string;
	let main: Main | undefined;
	const mains: Main[] = [];
	/** The next free slot of tomorrow's open ones: each step books new ones. */
	let slots: string[] = [];

	const explain = async () => `${JSON.stringify((await world.log()).map((r) => `${r.method} ${r.path} ${String(r.status)}`))}\n${main?.tail() ?? ''}`;
	const waitFor = async (what: string, ready: () => Promise<boolean> | boolean, timeoutMs = 150_000) => await until(what, ready, timeoutMs, explain);

	/** Rows of n8n's SQLite database, read with the Node.js n8n runs on (node:sqlite, read-only). */
	function query(sql: string): IDataObject[] {
		const script = `const { DatabaseSync } = require('node:sqlite'); const db = new DatabaseSync(process.argv[1], { readOnly: true }); console.log(JSON.stringify(db.prepare(process.argv[2]).all()));`;
		const output = execFileSync(host.node, ['--no-warnings', '-e', script, join(userFolder, '.n8n', 'database.sqlite'), sql], { encoding: 'utf8' });
		return JSON.parse(output) as IDataObject[];
	}

	const bookingTasks = () =>
		query(`SELECT t.id, t.status, t.attempts, t.leaseEpoch, t.scheduledFor FROM scheduled_task t JOIN scheduled_job j ON j.id = t.jobId WHERE j.ownerId = '${BOOKINGS}' ORDER BY t.id`);
	const executions = (workflowId: string) => query(`SELECT id, status FROM execution_entity WHERE workflowId = '${workflowId}' ORDER BY id`);
	const cursorOf = (workflowId: string) => JSON.parse(String(query(`SELECT cursor FROM poller_state WHERE workflowId = '${workflowId}'`)[0]?.cursor ?? 'null')) as IDataObject;
	const pollerState = (workflowId: string) => query(`SELECT consecutiveErrors, backoffUntil FROM poller_state WHERE workflowId = '${workflowId}'`)[0];

	async function start(env: Record<string, string>): Promise<Main> {
		const run = await startN8n(host, userFolder, ['start'], 0, { N8N_PORT: String(await freePort()), N8N_LISTEN_ADDRESS: '127.0.0.1', ...env });
		main = new Main(run, join(userFolder, `n8n-${mains.length + 1}.log`));
		mains.push(main);
		return main;
	}

	/** Stops the main; a SIGKILL also ends its task runner (a child process n8n 2.x starts), which would outlive it. */
	async function stop(signal: NodeJS.Signals): Promise<void> {
		const child = main?.run.child;
		if (!child || child.exitCode !== null || child.pid === undefined) return;
		const runners = signal === 'SIGKILL' ? childrenOf(child.pid) : [];
		child.kill(signal);
		await main?.run.done;
		for (const pid of runners) {
			try {
				process.kill(pid, 'SIGKILL');
			} catch {
				// Gone with its parent already.
			}
		}
	}

	async function bookNext(count: number, tag: string): Promise<string[]> {
		if (slots.length < count) slots = await world.openSlots(20);
		return await world.book(slots.splice(0, count), tag);
	}

	const notesOf = (ids: string[]) => ids.map((id) => `/v4/appointment/${id}/notes seen`);

	beforeAll(async () => {
		host = realN8n(N8N_V2);
		userFolder = newUserFolder('n8n-durable-');
		world = new World(await startSandbox());
		await world.reseed();
	});

	afterAll(async () => {
		await stop('SIGTERM');
		await world?.sandbox.close();
	});

	let early: string;
	test('under durable cursors the activation poll\'s state is not committed: the first scheduled poll starts the watch, and a booking made in between is never emitted', async () => {
		const bookings = notingWorkflow(BOOKINGS, 'Durable bookings', { event: 'newBooking', pollTimes: every(0), options: { fullRecord: true } }, 'seen', NODE_TYPE);
		const triggerOnly = (id: string, event: string, second: number) => ({
			id,
			name: id,
			active: false,
			settings: {},
			connections: {},
			nodes: [{ id: `${id}-t`, name: 'Trigger', type: TRIGGER_NODE_TYPE, typeVersion: 1, position: [0, 0], parameters: { event, pollTimes: every(second) }, credentials: CREDENTIAL }],
		});
		await importAll(host, userFolder, world.credentials(), [bookings, triggerOnly(CONVERSATIONS, 'newConversation', 20), triggerOnly(DEALS, 'newDeal', 40)]);
		for (const id of [BOOKINGS, CONVERSATIONS, DEALS]) await n8n(host, userFolder, 'publish:workflow', `--id=${id}`);
		await world.control('DELETE', '/requests');
		slots = await world.openSlots(20);
		// The activation poll's list passes; the first scheduled poll's is held, and the booking is made meanwhile.
		await world.control('POST', '/faults', { method: 'GET', path: '/v4/appointment/paginated', after: 1, delayMs: FIRST_POLL_HOLD_MS });

		await start(SHORT_TIMEOUT);
		await waitFor('the activation polls', async () => {
			const paths = (await world.log()).map((request) => request.path);
			return ['/v4/appointment/paginated', '/v4/messenger/conversations', '/crm/deals'].every((path) => paths.includes(path));
		});
		// n8n ran the activation poll in its staging scope and returned nothing: it commits no cursor for that poll.
		expect(cursorOf(BOOKINGS)).toEqual({});
		// Step 5's errors, at the first scheduled poll of the other two workflows.
		await world.control('POST', '/faults', { method: 'GET', path: '/v4/messenger/conversations', status: 429, retryAfter: '120' });
		await world.control('POST', '/faults', { method: 'GET', path: '/crm/deals', status: 401, times: 3 });
		await waitFor('the first scheduled poll to ask for the list', async () => (await world.appointmentLists()).length > 1, 90_000);
		[early] = await bookNext(1, 'early');
		const bookedAt = Date.now();
		// Booked after the activation poll's answer and before the first scheduled poll's (still held).
		const [activation, firstScheduled] = await world.appointmentLists();
		expect(activation.status).toBe(200);
		expect(firstScheduled.status).toBeNull();
		await waitFor('the first scheduled poll to start the watch', () => cursorOf(BOOKINGS).state !== undefined, 30_000);
		expect((await world.appointmentLists())[1].status).toBe(200);
		const { since } = (cursorOf(BOOKINGS).state as IDataObject);
		expect(Date.parse(String(since))).toBeGreaterThanOrEqual(Math.floor(bookedAt / 1000) * 1000);
		expect(executions(BOOKINGS)).toEqual([]);
	});

	let abandonedTask: number;
	let first: string[] = [];
	test('a poll abandoned midway (timeout) is dropped with its staged state; the next poll emits each booking once', async () => {
		first = await bookNext(3, 'abandoned');
		// The next poll reads the list, then the three full records at once: the first of them is held 15 s.
		await world.control('POST', '/faults', { method: 'GET', path: '/v4/appointment/*', after: 1, delayMs: 15_000 });
		const listsBefore = (await world.appointmentLists()).length;
		await waitFor('the poll to time out', () => main!.logged('Poll exceeded its timeout and was abandoned', BOOKINGS).length > 0);
		const [timedOut] = main!.logged('Poll exceeded its timeout and was abandoned', BOOKINGS);
		abandonedTask = Number(timedOut.metadata.taskId);
		expect(timedOut.metadata.pollTimeoutMs).toBe(10_000);
		expect(main!.logged('Poll failed; backing off', BOOKINGS).map((line) => line.metadata)).toEqual([
			expect.objectContaining({ type: 'transient', cause: 'temporarily-unavailable', consecutiveErrors: 1, delayMs: 5000 }),
		]);
		// The abandoned poll goes on: every full record it asked for is answered (the held one 15 s late) and it
		// returns, after writing its state into the staged copy; n8n no longer listens.
		const details = async () => (await world.log()).filter((request) => request.method === 'GET' && first.some((id) => request.path === `/v4/appointment/${id}`));
		await waitFor('the held read to be answered', async () => (await details()).filter((request) => request.status === 200).length === 3);
		expect(await world.notes()).toEqual([]);
		expect(executions(BOOKINGS)).toEqual([]);

		// The next poll reads the same window again: the list, the three records again, and one write each.
		await waitFor('the writes of the next poll', async () => (await world.notes()).length >= 3);
		expect((await world.appointmentLists()).length).toBe(listsBefore + 2);
		expect((await details()).length).toBe(6);
		expect(await world.notes()).toEqual(notesOf(first).sort());
		expect(await world.notes()).not.toContain(notesOf([early])[0]);
		await waitFor('the execution to be stored', () => executions(BOOKINGS).length === 1 && executions(BOOKINGS)[0].status === 'success');
		const emitted = main!.logged('Poll returned new data; handed off to a new execution', BOOKINGS);
		expect(emitted).toHaveLength(1);
		expect(Number(emitted[0].metadata.taskId)).not.toBe(abandonedTask);
		expect(pollerState(BOOKINGS)).toEqual(expect.objectContaining({ consecutiveErrors: 0, backoffUntil: null }));
	});

	let killedTask: IDataObject;
	let second: string[] = [];
	test('main killed while a poll waits: the restarted main reclaims the task after its lease and runs it again on the same state; each booking once', async () => {
		second = await bookNext(3, 'killed');
		await world.control('POST', '/faults', { method: 'GET', path: '/v4/appointment/paginated', delayMs: 45_000 });
		const lists = (await world.appointmentLists()).length;
		await waitFor('the next poll to ask for the list', async () => (await world.appointmentLists()).length > lists, 90_000);
		// Within the poll's 10 s timeout, so the task is neither finished nor handed back.
		await stop('SIGKILL');
		const running = bookingTasks().filter((task) => task.status === 'running');
		expect(running).toHaveLength(1);
		killedTask = running[0];
		expect(killedTask.attempts).toBe(0);
		expect(await world.notes()).toEqual(notesOf(first).sort());

		const restarted = await start(SHORT_LEASE);
		await waitFor('the reclaimed task to emit', async () => (await world.notes()).length >= 6, 120_000);
		expect(await world.notes()).toEqual(notesOf([...first, ...second]).sort());
		const emitted = restarted.logged('Poll returned new data; handed off to a new execution', BOOKINGS);
		expect(emitted.map((line) => Number(line.metadata.taskId))).toEqual([killedTask.id]);
		await waitFor('the task to be completed', () => bookingTasks().find((task) => task.id === killedTask.id)?.status === 'succeeded');
		// Claimed (epoch 1), reclaimed by the reaper (2), claimed again (3): one retry.
		expect(bookingTasks().find((task) => task.id === killedTask.id)).toEqual(expect.objectContaining({ status: 'succeeded', attempts: 1, leaseEpoch: 3 }));
		expect(restarted.logged('Scheduler poll timeout reaches the lease duration; a poll can still be running when its lease expires and another instance takes the run over')).toHaveLength(1);
	});

	test('a lease that expires mid-poll: the task is dispatched again while the first poll runs; the node steps aside, n8n fences the first out, the next poll emits each booking once', async () => {
		const third = await bookNext(3, 'lease');
		await world.control('POST', '/faults', { method: 'GET', path: '/v4/appointment/paginated', delayMs: 30_000 });
		const lists = (await world.appointmentLists()).length;
		await waitFor('the next poll to ask for the list', async () => (await world.appointmentLists()).length > lists, 90_000);
		await waitFor('the first poll to finish', () => main!.logged(LEASE_LOST).length > 0, 60_000);
		// The first poll got its list after 30 s and emitted, as task X; its commit was refused (lease lost).
		const emitted = () => main!.logged('Poll returned new data; handed off to a new execution', BOOKINGS);
		const stale = emitted()[1];
		const taskId = stale.metadata.taskId;
		await waitFor('the first poll\'s commit to be refused', () => main!.logged('Poll cursor commit skipped: the poll no longer holds its lease', BOOKINGS).length === 1, 30_000);
		// Meanwhile the reaper had handed task X out again: that poll found the first still running and read nothing.
		const again = main!.logged('Poll returned no new data; nothing to hand off', BOOKINGS).filter((line) => line.metadata.taskId === taskId);
		expect(again).toHaveLength(1);
		expect(String(again[0].metadata.timestamp) < String(stale.metadata.timestamp)).toBe(true);
		expect(main!.lines.filter((line) => line.message.startsWith(STEPPED_ASIDE))).toHaveLength(1);
		expect(bookingTasks().find((row) => String(row.id) === taskId)).toEqual(expect.objectContaining({ status: 'succeeded', attempts: 1, leaseEpoch: 3 }));
		expect(await world.notes()).toEqual(notesOf([...first, ...second]).sort());

		// The next poll reads the same window again (nothing was committed) and emits the three once.
		await waitFor('the next poll\'s writes', async () => (await world.notes()).length >= 9, 90_000);
		expect(emitted()).toHaveLength(3);
		expect(emitted()[2].metadata.taskId).not.toBe(taskId);
		await sleep(2_000);
		expect(await world.notes()).toEqual(notesOf([...first, ...second, ...third]).sort());
		await waitFor('the executions to be stored', async () => executions(BOOKINGS).length === 3 && executions(BOOKINGS).every((row) => row.status === 'success'));
	});

	test('a 429 with Retry-After and a 401 reach n8n\'s backoff as the node declares them', () => {
		const logged = mains.flatMap((one) => one.logged('Poll failed; backing off'));
		const of = (workflowId: string) => logged.filter((line) => line.metadata.workflowId === workflowId).map((line) => line.metadata);
		expect(of(CONVERSATIONS)[0]).toEqual(expect.objectContaining({ type: 'transient', cause: 'rate-limited', consecutiveErrors: 1, delayMs: 120_000 }));
		expect(of(DEALS)[0]).toEqual(expect.objectContaining({ type: 'permanent', cause: 'credential-invalid', consecutiveErrors: 1, delayMs: 30 * 60_000 }));
		expect(pollerState(DEALS)).toEqual(expect.objectContaining({ consecutiveErrors: 1 }));
	});
}
