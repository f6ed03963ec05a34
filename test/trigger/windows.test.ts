import type { IDataObject } from 'n8n-workflow';

import { asTenant, crmParent, freshTenant } from '../harness/crm';
import type { CredentialRef, LoggedRequest } from '../harness/world';
import { useWorld, wire } from '../harness/world';

/**
 * The trigger's events that read a window of records, and its reading when the API orders lists otherwise than
 * asked, through n8n-core's poll context against the sandbox:
 * - Booking Cancelled and Booking Rescheduled read a window of appointments by start whole and compare it with a
 *   snapshot of the last poll: the window's requests, what fires once (and not again), the window options, the
 *   API's clock used when this machine's differs, and the stored state's growth per appointment.
 * - Appointment Starting Soon and Appointment Ended read a short range by start: they fire once when the sandbox
 *   clock reaches the moment, never for cancelled appointments.
 * - A sort the API ignores (Deal Won), records of one millisecond in a new order on each request (New Contact), and
 *   a conversation that gets messages while the poll reads its second page (New Inbound Message): each event once.
 * - Failures: the `failure` cause n8n 2.x reads, the stored state byte-identical; a stored position of a day that
 *   does not exist is read as damaged.
 * - Windows beyond the snapshot's 2,000 appointments, beyond the 100 pages a poll reads, and a reading cut short by
 *   the poll's budget: the warnings, and each event once for what is read.
 * The sandbox clock stays at real time (set back before each test): the trigger builds its ranges on this machine's
 * clock and reads again with the API's only when the two differ by more than 5 minutes. Each test has its own tenant.
 */

const world = useWorld();

type Tenant = Awaited<ReturnType<typeof freshTenant>>;

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const APPOINTMENTS = '/v4/appointment/paginated';
const CONVERSATIONS = '/v4/messenger/conversations';

const iso = (ms: number) => new Date(ms).toISOString();
const ids = (items: IDataObject[] | null) => (items ?? []).map((item) => String(item.id));
const call = (tenant: Tenant, method: string, path: string, body?: unknown) => asTenant(world(), tenant, method, path, body);

beforeAll(async () => {
	await world().control('POST', '/__sandbox/rate-limit', { perMinute: 1_000_000, burst: 1_000_000 });
});

beforeEach(async () => {
	await world().control('POST', '/__sandbox/clock/set', { now: new Date().toISOString() });
});

afterEach(async () => {
	await world().control('POST', '/__sandbox/list-order', { ignoreSort: false, shuffleTies: false });
	await world().control('POST', '/__sandbox/clock/set', { now: new Date().toISOString() });
});

/** The tenant's PAT with the sandbox's raised limit as its Requests per Minute and Burst. */
function credentialOf(tenant: Tenant): CredentialRef {
	const base = world().pat(tenant.token);
	return { ...base, data: { ...base.data, requestsPerMinute: 1_000_000, burst: 1_000_000 } };
}

async function sandboxNow(): Promise<number> {
	return Date.parse(((await world().control('POST', '/__sandbox/clock/advance', { seconds: 0 })) as { now: string }).now);
}

async function advance(seconds: number): Promise<number> {
	return Date.parse(((await world().control('POST', '/__sandbox/clock/advance', { seconds })) as { now: string }).now);
}

/** The requests since the last call, as the node sent them. */
async function sent(): Promise<LoggedRequest[]> {
	const requests = await world().requests();
	await world().clearRequests();
	return requests;
}

/** A poll from `state` that emits exactly `appointment` with these fields, then one that emits nothing; its state. */
async function firesOnce(event: IDataObject, credential: CredentialRef, state: IDataObject, appointment: IDataObject, fields: IDataObject): Promise<IDataObject> {
	const fired = await world().poll(event, credential, { state });
	expect(ids(fired.items)).toEqual([String(appointment.id)]);
	expect(fired.items![0]).toMatchObject(fields);
	const idle = await world().poll(event, credential, { state: fired.staticData });
	expect(idle.items).toBeNull();
	return idle.staticData;
}

const get = (tenant: Tenant, path: string, query: string) => ({ method: 'GET', path, query, headers: world().patHeaders(tenant.token), body: null });

/** A tenant whose owner is free only when an extra-time exception says so (the weekly schedule is closed). */
async function bookingTenant(): Promise<Tenant & { meetingTypeId: string; availabilityId: string }> {
	const tenant = await freshTenant(world());
	const [meetingType] = (await call(tenant, 'GET', '/v4/meeting-type')) as unknown as IDataObject[];
	const availabilityId = String(meetingType.availabilityId);
	await call(tenant, 'PATCH', `/availability/${availabilityId}`, { schedule: {} });
	return { ...tenant, meetingTypeId: String(meetingType.id), availabilityId };
}

let bookings = 0;

/** Books the tenant's 30-minute meeting type at a moment (opened for it by an exception); the appointment. */
async function bookAt(tenant: Awaited<ReturnType<typeof bookingTenant>>, startMs: number): Promise<IDataObject> {
	const start = iso(startMs);
	await call(tenant, 'POST', '/availability-exception', { availabilityId: tenant.availabilityId, available: true, start, end: iso(startMs + 30 * MINUTE) });
	const booked = await call(tenant, 'POST', '/v4/booking', {
		meetingTypeId: tenant.meetingTypeId,
		start,
		hostIds: [tenant.userId],
		attendee: { email: `guest${++bookings}@example.com`, firstname: 'Ann', lastname: 'Lee', receiveReminders: true, notes: {} },
	});
	return await call(tenant, 'GET', `/v4/appointment/${String(booked.appointmentId)}`);
}

/** A whole minute at least `ms` after the sandbox's now. */
async function minuteAfter(ms: number): Promise<number> {
	return Math.ceil(((await sandboxNow()) + ms) / MINUTE) * MINUTE;
}

const cancel = (tenant: Tenant, appointment: IDataObject) => call(tenant, 'POST', `/v4/appointment/${String(appointment.id)}/cancel`, { reason: 'No longer needed' });
const reschedule = (tenant: Tenant, appointment: IDataObject, startMs: number) =>
	call(tenant, 'POST', `/v4/appointment/${String(appointment.id)}/reschedule`, { start: iso(startMs), ignoreAvailability: true });

/**
 * Checks one window request: the exact query of a window of `pastDays` back and `aheadDays` ahead of a moment that
 * lies between `from` and `to`; the moment.
 */
function expectWindow(request: LoggedRequest, tenant: Tenant, days: { pastDays: number; aheadDays: number }, from: number, to: number): number {
	const params = new URLSearchParams(request.query);
	const now = Date.parse(String(params.get('start'))) + days.pastDays * DAY;
	expect(now).toBeGreaterThanOrEqual(from);
	expect(now).toBeLessThanOrEqual(to);
	const window = `start=${encodeURIComponent(iso(now - days.pastDays * DAY))}&end=${encodeURIComponent(iso(now + days.aheadDays * DAY))}`;
	expect(wire(request)).toEqual(get(tenant, APPOINTMENTS, `sortBy=appointment.start&sortDirection=ASC&${window}&page=0&pageSize=100`));
	return now;
}

const DEFAULT_WINDOW = { pastDays: 1, aheadDays: 90 };

describe('Scheduling Platform Trigger: Booking Cancelled', () => {
	const EVENT = { event: 'bookingCancelled' };

	test('activation reads the window from 1 day back to 90 days ahead and emits nothing; a cancellation comes out once', async () => {
		const tenant = await bookingTenant();
		const credential = credentialOf(tenant);
		const early = await bookAt(tenant, await minuteAfter(2 * 60 * MINUTE));
		const late = await bookAt(tenant, await minuteAfter(3 * DAY));
		await cancel(tenant, early);
		await world().clearRequests();
		const before = Date.now();
		const first = await world().poll(EVENT, credential);
		const after = Date.now();
		expect(first.error).toBeUndefined();
		expect(first.items).toBeNull();
		const activation = await sent();
		expect(activation).toHaveLength(1);
		expectWindow(activation[0], tenant, DEFAULT_WINDOW, before, after);

		await cancel(tenant, late);
		await world().clearRequests();
		const second = await world().poll(EVENT, credential, { state: first.staticData });
		expect(second.error).toBeUndefined();
		expect(ids(second.items)).toEqual([String(late.id)]);
		expect(second.items![0]).toMatchObject({ id: late.id, isCancelled: true, cancel: expect.objectContaining({ reason: 'No longer needed' }) });
		expect(await sent()).toHaveLength(1);

		const idle = await world().poll(EVENT, credential, { state: second.staticData });
		expect(idle.items).toBeNull();
		expect(await sent()).toHaveLength(1);
	});

	test('an appointment booked and cancelled between two polls comes out (new to the window, cancelled after the last poll)', async () => {
		const tenant = await bookingTenant();
		const credential = credentialOf(tenant);
		const first = await world().poll(EVENT, credential);
		expect(first.items).toBeNull();
		const made = await bookAt(tenant, await minuteAfter(5 * DAY));
		await cancel(tenant, made);
		const second = await world().poll(EVENT, credential, { state: first.staticData });
		expect(ids(second.items)).toEqual([String(made.id)]);
		expect(second.items![0].isCancelled).toBe(true);
		const idle = await world().poll(EVENT, credential, { state: second.staticData });
		expect(idle.items).toBeNull();
	});

	test('Watched Window (7 days ahead, none back) changes the request and restarts watching (logged); a cancellation outside it is not seen', async () => {
		const tenant = await bookingTenant();
		const credential = credentialOf(tenant);
		const inside = await bookAt(tenant, await minuteAfter(2 * DAY));
		const outside = await bookAt(tenant, await minuteAfter(10 * DAY));
		const first = await world().poll(EVENT, credential);
		expect(first.items).toBeNull();
		await world().clearRequests();

		const parameters = { ...EVENT, windowOptions: { aheadDays: 7, pastDays: 0 } };
		const before = Date.now();
		const restarted = await world().poll(parameters, credential, { state: first.staticData });
		const after = Date.now();
		expect(restarted.error).toBeUndefined();
		expect(restarted.items).toBeNull();
		expect(restarted.logs).toEqual([{ level: 'info', message: 'The trigger\'s event, filters or window changed; it watches from now.' }]);
		const requests = await sent();
		expect(requests).toHaveLength(1);
		expectWindow(requests[0], tenant, { pastDays: 0, aheadDays: 7 }, before, after);

		await cancel(tenant, outside);
		const unseen = await world().poll(parameters, credential, { state: restarted.staticData });
		expect(unseen.items).toBeNull();
		await cancel(tenant, inside);
		const seen = await world().poll(parameters, credential, { state: unseen.staticData });
		expect(ids(seen.items)).toEqual([String(inside.id)]);
	});

	test('the stored snapshot grows by about 10 to 13 bytes per appointment in the window', async () => {
		const tenant = await bookingTenant();
		const credential = credentialOf(tenant);
		const first = await world().poll(EVENT, credential);
		const empty = JSON.stringify(first.staticData).length;
		const base = await minuteAfter(DAY);
		for (let i = 0; i < 30; i++) await bookAt(tenant, base + i * 60 * MINUTE);
		const full = await world().poll(EVENT, credential, { state: first.staticData });
		expect(full.items).toBeNull();
		const perAppointment = (JSON.stringify(full.staticData).length - empty) / 30;
		expect(perAppointment).toBeGreaterThanOrEqual(10);
		expect(perAppointment).toBeLessThanOrEqual(13);
	});

	test('a sandbox clock 30 days ahead: the activation reads the first page again with the window of the API\'s clock', async () => {
		const tenant = await bookingTenant();
		const credential = credentialOf(tenant);
		const ahead = Date.now() + 30 * DAY;
		await world().control('POST', '/__sandbox/clock/set', { now: iso(ahead) });
		await world().clearRequests();
		const before = Date.now();
		const first = await world().poll(EVENT, credential);
		const after = Date.now();
		expect(first.error).toBeUndefined();
		expect(first.items).toBeNull();
		const requests = await sent();
		expect(requests).toHaveLength(2);
		expectWindow(requests[0], tenant, DEFAULT_WINDOW, before, after);
		// The API's clock comes from the Date header: whole seconds.
		const serverNow = expectWindow(requests[1], tenant, DEFAULT_WINDOW, Math.floor(ahead / 1000) * 1000, after + 30 * DAY);
		expect(serverNow % 1000).toBe(0);
		expect((first.staticData.state as IDataObject).at).toBe(iso(serverNow));
	});
});

describe('Scheduling Platform Trigger: Booking Rescheduled', () => {
	const EVENT = { event: 'bookingRescheduled' };

	test('a move fires once; two moves between two polls fire once with the latest start', async () => {
		const tenant = await bookingTenant();
		const credential = credentialOf(tenant);
		const appointment = await bookAt(tenant, await minuteAfter(2 * DAY));
		const first = await world().poll(EVENT, credential);
		expect(first.items).toBeNull();

		const moved = await minuteAfter(3 * DAY);
		await reschedule(tenant, appointment, moved);
		const state = await firesOnce(EVENT, credential, first.staticData, appointment, { start: iso(moved), rescheduleCount: 1 });

		await reschedule(tenant, appointment, moved + DAY);
		await reschedule(tenant, appointment, moved + 2 * DAY);
		await firesOnce(EVENT, credential, state, appointment, { start: iso(moved + 2 * DAY), rescheduleCount: 3 });
	});

	test('a move of an appointment cancelled before the next poll does not fire', async () => {
		const tenant = await bookingTenant();
		const credential = credentialOf(tenant);
		const appointment = await bookAt(tenant, await minuteAfter(2 * DAY));
		const first = await world().poll(EVENT, credential);
		await reschedule(tenant, appointment, await minuteAfter(4 * DAY));
		await cancel(tenant, appointment);
		const next = await world().poll(EVENT, credential, { state: first.staticData });
		expect(next.error).toBeUndefined();
		expect(next.items).toBeNull();
	});

	test('an appointment moved from outside the window into it fires', async () => {
		const tenant = await bookingTenant();
		const credential = credentialOf(tenant);
		const appointment = await bookAt(tenant, await minuteAfter(100 * DAY));
		const first = await world().poll(EVENT, credential);
		expect(first.items).toBeNull();
		const moved = await minuteAfter(5 * DAY);
		await reschedule(tenant, appointment, moved);
		await firesOnce(EVENT, credential, first.staticData, appointment, { start: iso(moved), rescheduleCount: 1 });
	});
});

describe('Scheduling Platform Trigger: Appointment Starting Soon and Appointment Ended', () => {
	const SOON = { event: 'appointmentStartingSoon', minutesBefore: 30 };

	test('30 minutes before: fires once when the clock reaches it, never for a cancelled one; one booked 10 minutes ahead fires at the next poll', async () => {
		const tenant = await bookingTenant();
		const credential = credentialOf(tenant);
		const start = await minuteAfter(2 * 60 * MINUTE);
		const appointment = await bookAt(tenant, start);
		const cancelled = await bookAt(tenant, start + 60 * MINUTE);
		const first = await world().poll(SOON, credential);
		expect(first.error).toBeUndefined();
		expect(first.items).toBeNull();
		const now = await world().poll(SOON, credential, { state: first.staticData });
		expect(now.items).toBeNull();
		await cancel(tenant, cancelled);

		await advance((start - 29 * MINUTE - (await sandboxNow())) / 1000);
		const due = await world().poll(SOON, credential, { state: now.staticData });
		expect(due.error).toBeUndefined();
		expect(ids(due.items)).toEqual([String(appointment.id)]);
		expect(due.items![0]).toMatchObject({ start: iso(start), isCancelled: false });

		await advance(10 * 60);
		const later = await world().poll(SOON, credential, { state: due.staticData });
		expect(later.items).toBeNull();
		// Past the cancelled one's moment too: it never fires.
		await advance(60 * 60);
		const past = await world().poll(SOON, credential, { state: later.staticData });
		expect(past.items).toBeNull();

		const quick = await bookAt(tenant, await minuteAfter(10 * MINUTE));
		const booked = await world().poll(SOON, credential, { state: past.staticData });
		expect(ids(booked.items)).toEqual([String(quick.id)]);
		const again = await world().poll(SOON, credential, { state: booked.staticData });
		expect(again.items).toBeNull();
	});

	test('Appointment Ended fires once after the end, not for a cancelled appointment', async () => {
		const tenant = await bookingTenant();
		const credential = credentialOf(tenant);
		const start = await minuteAfter(5 * MINUTE);
		const appointment = await bookAt(tenant, start);
		const cancelled = await bookAt(tenant, start + 60 * MINUTE);
		const first = await world().poll({ event: 'appointmentEnded' }, credential);
		expect(first.error).toBeUndefined();
		expect(first.items).toBeNull();
		await cancel(tenant, cancelled);
		const before = await world().poll({ event: 'appointmentEnded' }, credential, { state: first.staticData });
		expect(before.items).toBeNull();

		await advance((start + 31 * MINUTE - (await sandboxNow())) / 1000);
		const ended = await world().poll({ event: 'appointmentEnded' }, credential, { state: before.staticData });
		expect(ended.error).toBeUndefined();
		expect(ids(ended.items)).toEqual([String(appointment.id)]);
		expect(ended.items![0]).toMatchObject({ end: iso(start + 30 * MINUTE) });

		await advance(2 * 60 * 60);
		const later = await world().poll({ event: 'appointmentEnded' }, credential, { state: ended.staticData });
		expect(later.items).toBeNull();
	});
});

describe('Polling trigger: lists answered in another order than asked', () => {
	test('Deal Won with the sort ignored: more than 100 deals won after activation, each emitted once (logged); sorted again, an idle poll is one request', async () => {
		const tenant = await freshTenant(world());
		const credential = credentialOf(tenant);
		const parentId = await crmParent(world(), 'deal', 'Seed deal', tenant.companyId);
		const parent = await call(tenant, 'GET', `/crm/deals/${parentId}`);
		const deal = async (name: string) => await call(tenant, 'POST', '/crm/deals', { name, pipelineId: parent.pipelineId, stageId: parent.stageId });
		for (let i = 0; i < 3; i++) await call(tenant, 'PATCH', `/crm/deals/${String((await deal(`Before ${i}`)).id)}/won`, {});
		const made: string[] = [];
		for (let i = 0; i < 130; i++) made.push(String((await deal(`Deal ${i}`)).id));

		await world().control('POST', '/__sandbox/list-order', { ignoreSort: true });
		const first = await world().poll({ event: 'dealWon' }, credential);
		expect(first.error).toBeUndefined();
		expect(first.items).toBeNull();
		for (const id of made) await call(tenant, 'PATCH', `/crm/deals/${id}/won`, {});
		await world().clearRequests();

		const won = await world().poll({ event: 'dealWon' }, credential, { state: first.staticData });
		expect(won.error).toBeUndefined();
		expect([...ids(won.items)].sort()).toEqual([...made].sort());
		expect(won.logs).toEqual([{ level: 'info', message: 'The API did not return the won deals in the order asked for; the trigger read the whole list.' }]);
		expect((await sent()).map((request) => request.query)).toEqual(
			expect.arrayContaining([1, 2].map((page) => `isWon=true&sortBy=updatedAt&sortOrder=DESC&page=${page}&limit=100`)),
		);
		await advance(61);
		const settled = await world().poll({ event: 'dealWon' }, credential, { state: won.staticData });
		expect(settled.items).toBeNull();

		await world().control('POST', '/__sandbox/list-order', { ignoreSort: false });
		await advance(61);
		const sorted = await world().poll({ event: 'dealWon' }, credential, { state: settled.staticData });
		expect(sorted.items).toBeNull();
		await world().clearRequests();
		const idle = await world().poll({ event: 'dealWon' }, credential, { state: sorted.staticData });
		expect(idle.items).toBeNull();
		expect(idle.logs).toEqual([]);
		expect((await sent()).map(wire)).toEqual([get(tenant, '/crm/deals', 'isWon=true&sortBy=updatedAt&sortOrder=DESC&page=1&limit=100')]);
	});

	/** Polls New Contact from `state`, advancing the clock 61 s after each poll; the IDs emitted, in order. */
	async function pollContacts(credential: CredentialRef, state: IDataObject, polls: number): Promise<string[]> {
		const emitted: string[] = [];
		for (let poll = 0; poll < polls; poll++) {
			const next = await world().poll({ event: 'newContact' }, credential, { state });
			expect(next.error).toBeUndefined();
			emitted.push(...ids(next.items));
			state = next.staticData;
			await advance(61);
		}
		return emitted;
	}

	async function addContacts(tenant: Tenant, createdAts: number[], prefix: string): Promise<string[]> {
		const rows = createdAts.map((at, i) => ({ email: `${prefix}${i}@example.com`, createdAt: iso(at) }));
		return ((await world().control('POST', '/__sandbox/crm-contacts', { companyId: tenant.companyId, contacts: rows })) as { ids: string[] }).ids;
	}

	test('New Contact with ties in a new order on each request: 50 contacts of one millisecond across the first page edge, each emitted exactly once', async () => {
		const tenant = await freshTenant(world());
		const credential = credentialOf(tenant);
		const first = await world().poll({ event: 'newContact' }, credential);
		expect(first.items).toBeNull();
		await world().control('POST', '/__sandbox/list-order', { shuffleTies: true });
		const now = await advance(5);
		// Newest first: 90 newer contacts (positions 0 to 89), the 50 of one moment (90 to 139), 20 older ones.
		const made = [
			...(await addContacts(tenant, Array.from({ length: 20 }, (_, i) => now - 300 + i), 'older')),
			...(await addContacts(tenant, Array.from({ length: 50 }, () => now - 200), 'tie')),
			...(await addContacts(tenant, Array.from({ length: 90 }, (_, i) => now - 100 + i), 'newer')),
		];
		await world().clearRequests();
		const emitted = await pollContacts(credential, first.staticData, 4);
		expect(emitted.length).toBe(new Set(emitted).size);
		expect([...emitted].sort()).toEqual([...made].sort());
		// The group (positions 89 to 140 with a neighbour on each side) read again in one page of 71.
		expect((await sent()).map((request) => request.query)).toContain('sortBy=createdAt&sortOrder=DESC&page=2&limit=71');
		await world().control('POST', '/__sandbox/list-order', { shuffleTies: false });
	});

	// The stated limit (docs/triggers.md): a group of one moment larger than a page cannot be read in one page; with
	// ties in a new order on each request some of it can be missed. Measured: nothing repeats, nothing foreign comes
	// out, and the poll warns about the group.
	test('New Contact with ties in a new order on each request: 150 contacts of one millisecond (more than a page): none twice, a warning, the misses counted', async () => {
		const tenant = await freshTenant(world());
		const credential = credentialOf(tenant);
		const first = await world().poll({ event: 'newContact' }, credential);
		expect(first.items).toBeNull();
		await world().control('POST', '/__sandbox/list-order', { shuffleTies: true });
		const at = await advance(2);
		const made = await addContacts(tenant, Array.from({ length: 150 }, () => at), 'tie');
		const warned = await world().poll({ event: 'newContact' }, credential, { state: first.staticData });
		expect(warned.logs.map((log) => log.message)).toContain('150 contacts share one moment across a page edge, and no page of up to 100 holds them all; if the API returns them in another order on each page, some may be missed.');
		const emitted = [...ids(warned.items), ...(await pollContacts(credential, warned.staticData, 3))];
		await world().control('POST', '/__sandbox/list-order', { shuffleTies: false });
		expect(emitted.length).toBe(new Set(emitted).size);
		expect(emitted.every((id) => made.includes(id))).toBe(true);
		console.log(`Shuffled group of 150 over a page: ${made.length - emitted.length} missed`);
	});

	test('New Inbound Message: a conversation that gets a message while the poll waits for the second page; both messages come out once', async () => {
		const tenant = await freshTenant(world());
		const credential = credentialOf(tenant);
		const phone = (i: number) => `+4917055${String(i).padStart(5, '0')}`;
		const inbound = async (i: number, text: string) =>
			(await world().control('POST', '/__sandbox/messenger/inbound', { phone: phone(i), text, companyId: tenant.companyId })) as { conversation: IDataObject; message: IDataObject };
		for (let i = 0; i < 110; i++) await inbound(i, `Hello ${i}`);
		const first = await world().poll({ event: 'newInboundMessage' }, credential);
		expect(first.error).toBeUndefined();
		expect(first.items).toBeNull();

		// 105 conversations with a new message: the first of them (conversation 0) is on the second page.
		const expected: string[] = [];
		for (let i = 0; i < 105; i++) expected.push(String((await inbound(i, `Again ${i}`)).message.id));
		await world().control('POST', '/__sandbox/faults', { method: 'GET', path: CONVERSATIONS, delayMs: 300, after: 1 });
		await world().clearRequests();
		const polling = world().poll({ event: 'newInboundMessage' }, credential, { state: first.staticData });
		for (let waited = 0; waited < 5000; waited += 10) {
			if ((await world().requests()).filter((request) => request.path === CONVERSATIONS).length >= 2) break;
			await new Promise((resolve) => setTimeout(resolve, 10));
		}
		const during = await inbound(0, 'Written while the poll read page two');
		expected.push(String(during.message.id));
		const second = await polling;
		expect(second.error).toBeUndefined();
		const lists = (await sent()).filter((request) => request.path === CONVERSATIONS).map((request) => request.query);
		expect(lists.slice(0, 2)).toEqual(['sortBy=lastMessageAt&sortOrder=desc&limit=100&offset=0', 'sortBy=lastMessageAt&sortOrder=desc&limit=100&offset=100']);
		expect([...ids(second.items)].sort()).toEqual([...expected].sort());
		expect(second.items!.find((item) => item.id === during.message.id)).toMatchObject({ direction: 'inbound', conversation: expect.objectContaining({ id: during.conversation.id }) });

		await advance(61);
		const next = await world().poll({ event: 'newInboundMessage' }, credential, { state: second.staticData });
		expect(next.error).toBeUndefined();
		expect(next.items).toBeNull();
		await advance(61);
		const idle = await world().poll({ event: 'newInboundMessage' }, credential, { state: next.staticData });
		expect(idle.items).toBeNull();
	});
});

describe('Polling trigger: failures and a damaged position', () => {
	const EVENT = { event: 'bookingCancelled' };

	test('429 past the wait, 401, 403, 503 and a dropped connection: the failure n8n 2.x reads, the stored state byte-identical', async () => {
		const tenant = await bookingTenant();
		const credential = credentialOf(tenant);
		const appointment = await bookAt(tenant, await minuteAfter(DAY));
		const first = await world().poll(EVENT, credential);
		const stored = JSON.stringify(first.staticData);
		await cancel(tenant, appointment);

		// n8n 2.x's poll backoff: 401 and 403 permanent, 429 with the API's Retry-After, 5xx and network transient.
		const cases: Array<[IDataObject, IDataObject, string | undefined]> = [
			[{ status: 429, retryAfter: '120', times: 50, body: { statusCode: 429, message: 'Too Many Requests', error: 'Too Many Requests' } }, { cause: 'rate-limited', retryAfterMs: 120_000 }, '429'],
			[{ status: 401, body: { statusCode: 401, message: 'Unauthorized' } }, { cause: 'credential-invalid' }, '401'],
			[{ status: 403, body: { statusCode: 403, message: 'Forbidden resource', error: 'Forbidden' } }, { cause: 'configuration-invalid' }, '403'],
			[{ status: 503, times: 10, body: { statusCode: 503, message: 'Service Unavailable' } }, { cause: 'temporarily-unavailable' }, '503'],
			// Every try of the read (the transport retries a read after a network error): no HTTP answer, no HTTP code.
			[{ drop: true, times: 10 }, { cause: 'temporarily-unavailable' }, undefined],
		];
		for (const [fault, failure, httpCode] of cases) {
			await world().control('DELETE', '/__sandbox/faults');
			await world().control('POST', '/__sandbox/faults', { method: 'GET', path: APPOINTMENTS, ...fault });
			const failed = await world().poll(EVENT, credential, { state: first.staticData });
			expect(failed.items).toBeNull();
			expect((failed.error as { failure?: unknown } | undefined)?.failure).toEqual(failure);
			expect(failed.error?.httpCode).toBe(httpCode);
			expect(JSON.stringify(failed.staticData)).toBe(stored);
		}
		await world().control('DELETE', '/__sandbox/faults');
		const next = await world().poll(EVENT, credential, { state: first.staticData });
		expect(ids(next.items)).toEqual([String(appointment.id)]);
	});

	test('a stored position of 30 February is damaged (logged), not 2 March', async () => {
		const tenant = await freshTenant(world());
		const credential = credentialOf(tenant);
		const first = await world().poll({ event: 'newContact' }, credential);
		const watch = (first.staticData.state as IDataObject).watch;
		const damaged = { state: { v: 1, watch, since: '2027-02-30T00:00:00.000Z', seen: '' } };
		const outcome = await world().poll({ event: 'newContact' }, credential, { state: damaged });
		expect(outcome.error).toBeUndefined();
		expect(outcome.items).toBeNull();
		expect(outcome.logs).toEqual([{ level: 'warn', message: expect.stringContaining('stored position could not be read') }]);
		const since = String((outcome.staticData.state as IDataObject).since);
		expect(since).not.toBe('2027-03-02T00:00:00.000Z');
		expect(Math.abs(Date.parse(since) - Date.now())).toBeLessThan(5 * MINUTE);
	});
});

/**
 * Windows larger than the snapshot remembers (2,000 appointments) or than a poll reads (100 pages of 100), seeded in
 * bulk through the sandbox's control API (one appointment every 8 minutes from tomorrow on, all inside the default
 * window). What docs/triggers.md and the Watched Window's description promise: the warning, then each event once for every
 * appointment the poll reads, none twice, and none for an appointment beyond what it reads.
 */
describe('Booking Cancelled and Booking Rescheduled: windows beyond the snapshot and the page bound', () => {
	const SPACING = 8 * MINUTE;
	const NARROW = 'Narrow the Watched Window (Days Ahead, Days Back) or filter by Meeting Type or Host.';
	const overSnapshot = (read: string) =>
		`The trigger read ${read} appointments of the Watched Window and remembers 2,000 of them (those cancelled or moved in the last minute first, then those that start first); the others fire by their own time of cancellation or move after the last poll. ${NARROW}`;
	const overPages = (total: string) =>
		`The Watched Window holds ${total} appointments, more than the 10,000 (100 pages of 100) a poll reads: the trigger watches the 10,000 that start first; changes to later ones are not seen. ${NARROW}`;

	/** `count` appointments of the tenant, one every 8 minutes from a whole minute a day ahead, booked 5 s ago; their ids by start. */
	async function seedWindow(tenant: Awaited<ReturnType<typeof bookingTenant>>, count: number): Promise<{ ids: string[]; base: number }> {
		const base = await minuteAfter(DAY);
		const starts = Array.from({ length: count }, (_, i) => iso(base + i * SPACING));
		const seeded = (await world().control('POST', '/__sandbox/appointments', { meetingTypeId: tenant.meetingTypeId, starts })) as { ids: string[] };
		expect(seeded.ids).toHaveLength(count);
		// Booked a little before the first poll: a window changed just before (or while) it is read is read twice.
		await advance(5);
		return { ids: seeded.ids, base };
	}

	/** The page numbers of the window requests since the last call. */
	async function pagesRead(): Promise<number[]> {
		return (await sent()).filter((request) => request.path === APPOINTMENTS).map((request) => Number(new URLSearchParams(request.query).get('page')));
	}

	const pages = (count: number) => Array.from({ length: count }, (_, i) => i);
	const byId = (id: string) => ({ id });

	test('2,100 appointments: 2,000 remembered (warned; 10 characters of state each); cancellations within and beyond them fire once, not again within the minute nor after it', async () => {
		const tenant = await bookingTenant();
		const credential = credentialOf(tenant);
		const { ids: made } = await seedWindow(tenant, 2100);
		await world().clearRequests();
		const first = await world().poll({ event: 'bookingCancelled' }, credential);
		expect(first.error).toBeUndefined();
		expect(first.items).toBeNull();
		expect(first.logs).toEqual([{ level: 'warn', message: overSnapshot('2,100') }]);
		expect(await pagesRead()).toEqual(pages(21));
		// 2,000 entries of 10 characters (8 of id hash, the print, the missing flag): the bound of the description.
		expect(String((first.staticData.state as IDataObject).snap)).toHaveLength(2000 * 10);
		expect(JSON.stringify(first.staticData).length).toBeLessThan(2000 * 12);

		await cancel(tenant, byId(made[10]));
		await cancel(tenant, byId(made[2050]));
		const second = await world().poll({ event: 'bookingCancelled' }, credential, { state: first.staticData });
		expect(second.error).toBeUndefined();
		expect(ids(second.items)).toEqual([made[10], made[2050]]);
		expect(second.items![1]).toMatchObject({ isCancelled: true, cancel: expect.objectContaining({ reason: 'No longer needed' }) });
		expect(second.logs).toEqual([{ level: 'warn', message: overSnapshot('2,100') }]);
		expect(String((second.staticData.state as IDataObject).snap)).toHaveLength(2000 * 10);

		// Polled again at once: the one beyond the 2,000 is still within the minute its own time is read back.
		const again = await world().poll({ event: 'bookingCancelled' }, credential, { state: second.staticData });
		expect(again.error).toBeUndefined();
		expect(again.items).toBeNull();
		await advance(61);
		const later = await world().poll({ event: 'bookingCancelled' }, credential, { state: again.staticData });
		expect(later.items).toBeNull();
		// A cancellation beyond the 2,000 two minutes before the next poll (after the last one): fires, once.
		await cancel(tenant, byId(made[2090]));
		await advance(120);
		const late = await world().poll({ event: 'bookingCancelled' }, credential, { state: later.staticData });
		expect(ids(late.items)).toEqual([made[2090]]);
		const idle = await world().poll({ event: 'bookingCancelled' }, credential, { state: late.staticData });
		expect(idle.items).toBeNull();
	});

	test('2,100 appointments: a move within the 2,000 and one beyond them each fire once', async () => {
		const tenant = await bookingTenant();
		const credential = credentialOf(tenant);
		const { ids: made, base } = await seedWindow(tenant, 2100);
		const first = await world().poll({ event: 'bookingRescheduled' }, credential);
		expect(first.items).toBeNull();
		expect(first.logs).toEqual([{ level: 'warn', message: overSnapshot('2,100') }]);

		const near = base + 5 * SPACING + 4 * MINUTE;
		const far = base + 2060 * SPACING + 4 * MINUTE;
		await reschedule(tenant, byId(made[5]), near);
		await reschedule(tenant, byId(made[2060]), far);
		const moved = await world().poll({ event: 'bookingRescheduled' }, credential, { state: first.staticData });
		expect(moved.error).toBeUndefined();
		expect(ids(moved.items)).toEqual([made[5], made[2060]]);
		expect(moved.items!.map((item) => [item.start, item.rescheduleCount])).toEqual([
			[iso(near), 1],
			[iso(far), 1],
		]);
		const again = await world().poll({ event: 'bookingRescheduled' }, credential, { state: moved.staticData });
		expect(again.items).toBeNull();
		await advance(61);
		const later = await world().poll({ event: 'bookingRescheduled' }, credential, { state: again.staticData });
		expect(later.items).toBeNull();
	});

	test('10,150 appointments (more than 100 pages): each poll reads the 10,000 that start first (warned) and fires for them once; nothing for the 150 beyond', async () => {
		const tenant = await bookingTenant();
		const credential = credentialOf(tenant);
		const { ids: made, base } = await seedWindow(tenant, 10_150);
		const warnings = [
			{ level: 'warn', message: overPages('10,150') },
			{ level: 'warn', message: overSnapshot('10,000') },
		];
		await world().clearRequests();
		const cancelled = await world().poll({ event: 'bookingCancelled' }, credential);
		expect(cancelled.error).toBeUndefined();
		expect(cancelled.items).toBeNull();
		expect(cancelled.logs).toEqual(warnings);
		expect(await pagesRead()).toEqual(pages(100));
		const rescheduled = await world().poll({ event: 'bookingRescheduled' }, credential);
		expect(rescheduled.items).toBeNull();

		// Within the snapshot, within the pages read but beyond the snapshot, beyond the pages read.
		for (const i of [100, 9000, 10_100]) await cancel(tenant, byId(made[i]));
		// Moves: within the pages read, from beyond them into them, and from them to beyond them.
		const into = base + 3 * SPACING + 4 * MINUTE;
		await reschedule(tenant, byId(made[200]), base + 200 * SPACING + 4 * MINUTE);
		await reschedule(tenant, byId(made[10_120]), into);
		await reschedule(tenant, byId(made[300]), base + 10_140 * SPACING + 4 * MINUTE);
		await world().clearRequests();
		const cancelledNow = await world().poll({ event: 'bookingCancelled' }, credential, { state: cancelled.staticData });
		expect(cancelledNow.error).toBeUndefined();
		expect(ids(cancelledNow.items)).toEqual([made[100], made[9000]]);
		expect(cancelledNow.logs).toEqual(warnings);
		expect(await pagesRead()).toEqual(pages(100));
		const movedNow = await world().poll({ event: 'bookingRescheduled' }, credential, { state: rescheduled.staticData });
		expect(movedNow.error).toBeUndefined();
		expect(ids(movedNow.items)).toEqual([made[10_120], made[200]]);
		expect(movedNow.items![0]).toMatchObject({ start: iso(into), rescheduleCount: 1 });

		// Again at once, and after the minute: nothing repeats.
		const cancelledAgain = await world().poll({ event: 'bookingCancelled' }, credential, { state: cancelledNow.staticData });
		expect(cancelledAgain.items).toBeNull();
		const movedAgain = await world().poll({ event: 'bookingRescheduled' }, credential, { state: movedNow.staticData });
		expect(movedAgain.items).toBeNull();
		await advance(61);
		expect((await world().poll({ event: 'bookingCancelled' }, credential, { state: cancelledAgain.staticData })).items).toBeNull();
		expect((await world().poll({ event: 'bookingRescheduled' }, credential, { state: movedAgain.staticData })).items).toBeNull();
	}, 240_000);

	test('a poll whose time runs out after the first page (n8n 2.x\'s budget) compares that page and fires for it; the rest keeps its snapshot through cut readings and fires at the next whole reading, once', async () => {
		const tenant = await bookingTenant();
		const credential = credentialOf(tenant);
		const { ids: made } = await seedWindow(tenant, 250);
		const first = await world().poll({ event: 'bookingCancelled' }, credential);
		expect(first.items).toBeNull();
		expect(first.logs).toEqual([]);
		await cancel(tenant, byId(made[50]));
		await cancel(tenant, byId(made[200]));
		await world().clearRequests();
		const cut = await world().poll({ event: 'bookingCancelled' }, credential, { state: first.staticData, budgetMs: 1 });
		expect(cut.error).toBeUndefined();
		expect(ids(cut.items)).toEqual([made[50]]);
		expect(cut.logs).toEqual([
			{
				level: 'warn',
				message: `The poll's time ran out after 1 page of the Watched Window: the trigger compared the 100 appointments that start first; later ones are compared when a poll reads them. ${NARROW}`,
			},
		]);
		expect(await pagesRead()).toEqual([0]);
		// Two minutes on, cut short once more: its cancellation is now older than the minute in which its own time would
		// tell. The snapshot entry of the last whole reading (not cancelled), kept through both cut readings, makes it fire.
		await advance(120);
		const cutAgain = await world().poll({ event: 'bookingCancelled' }, credential, { state: cut.staticData, budgetMs: 1 });
		expect(cutAgain.items).toBeNull();
		const whole = await world().poll({ event: 'bookingCancelled' }, credential, { state: cutAgain.staticData });
		expect(whole.error).toBeUndefined();
		expect(ids(whole.items)).toEqual([made[200]]);
		expect(whole.logs).toEqual([]);
		const idle = await world().poll({ event: 'bookingCancelled' }, credential, { state: whole.staticData });
		expect(idle.items).toBeNull();
	});
});
