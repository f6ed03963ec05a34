import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Seed } from '../sandbox/seed';
import { Sandbox, startSandbox } from '../sandbox/server';

/**
 * The sandbox's /webhooks group (api-reference §9): subscriptions of a company, and deliveries of real changes
 * (bookings made, cancelled, rescheduled; users added) and of test events to a receiver on loopback.
 */

type Fields = Record<string, unknown>;

interface Result {
	status: number;
	body: Fields & Fields[];
}

interface Received {
	path: string;
	method: string;
	headers: IncomingHttpHeaders;
	body: Fields;
	at: number;
}

const EVENT_TYPES = [
	'booking_created',
	'booking_cancelled',
	'booking_rescheduled',
	'form_submission',
	'new_employee',
	'review_submitted',
	'review_published',
	'credential_error',
	'signature_completed',
];

/** The fields of a booking delivery, api-reference §9, and webhookType. */
const BOOKING_FIELDS = [
	'webhookType',
	'id',
	'secret',
	'start',
	'end',
	'location',
	'isCancelled',
	'rescheduledAt',
	'meetingInfo',
	'attendees',
	'hosts',
	'hostIds',
	'meetingType',
	'meetingTypeId',
	'companyId',
	'createdAt',
	'updatedAt',
];
const ATTENDEE_FIELDS = ['id', 'email', 'firstname', 'lastname', 'fullname', 'phone', 'timezone', 'language'];

/** How long a test waits to be sure nothing more arrives. */
const QUIET_MS = 400;

let sandbox: Sandbox;
let receiver: Server;
let receiverUrl: string;
let received: Received[];
let seed: Seed;

beforeAll(async () => {
	sandbox = await startSandbox();
	receiver = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Fields;
			received.push({ path: req.url ?? '', method: req.method ?? '', headers: req.headers, body, at: Date.now() });
			res.writeHead(200).end();
		});
	});
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
	receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

afterAll(async () => {
	await sandbox.close();
	await new Promise((resolve) => receiver.close(resolve));
});

beforeEach(async () => {
	seed = (await control('POST', '/seed')).body as unknown as Seed;
	received = [];
	await control('POST', '/clock/set', { now: '2030-01-01T08:00:00Z' });
});

async function request(method: string, path: string, token?: string, body?: unknown, actAs?: string): Promise<Result> {
	const headers: Record<string, string> = {};
	if (token) headers.authorization = `Bearer ${token}`;
	if (actAs) headers['x-service-api-user-id'] = actAs;
	if (body !== undefined) headers['content-type'] = 'application/json';
	const response = await fetch(`${sandbox.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
	const text = await response.text();
	return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

const control = (method: string, path: string, body?: unknown) => request(method, `/__sandbox${path}`, undefined, body);
const owner = () => seed.credentials.ownerPat;
/** An API key of Acme minted on the sandbox clock (the seed's key has expired by 2030). */
const apiKey = async () => (await control('POST', '/api-keys', { companyId: seed.companies.acme.id, lifetimeDays: 30 })).body.key as string;
const outsider = async () => (await control('POST', '/pats', { userId: seed.users.outsider.id })).body.token as string;

/** A subscription of the owner's company (Acme) that sends to `<receiver>/<name>`. */
async function subscribe(name: string, eventTypes: string[], token = owner()): Promise<Fields> {
	const created = await request('POST', '/webhooks', token, { endpoint: `${receiverUrl}/${name}`, eventTypes });
	expect(created.status).toBe(201);
	return created.body;
}

/** What `read` gives once `done` accepts it (fails after 5 s). */
async function eventually<T>(read: () => T | Promise<T>, done: (value: T) => boolean): Promise<T> {
	for (const deadline = Date.now() + 5000; ; await sleep(20)) {
		const value = await read();
		if (done(value)) return value;
		if (Date.now() > deadline) throw new Error(`Waited in vain; last seen: ${JSON.stringify(value)}`);
	}
}

/** The deliveries received so far, once there are `count`. */
const receivedAtLeast = (count: number) => eventually(() => received, (deliveries) => deliveries.length >= count);

/** Exactly `count` deliveries, and no more after a quiet spell. */
async function receivedExactly(count: number): Promise<Received[]> {
	await receivedAtLeast(count);
	await sleep(QUIET_MS);
	expect(received).toHaveLength(count);
	return received;
}

/** Books the owner's default meeting type on Wednesday 2 January 2030 at the hour given (Berlin time). */
async function book(hour = 10): Promise<{ appointmentId: string }> {
	const meetingTypes = (await request('GET', '/v4/meeting-type', owner())).body;
	const body = {
		meetingTypeId: meetingTypes[0].id,
		start: `2030-01-02T${hour}:00:00+01:00`,
		hostIds: [seed.users.owner.id],
		attendee: { email: 'grace@example.com', firstname: 'Grace', lastname: 'Hopper', receiveReminders: true, notes: {} },
	};
	const booked = await request('POST', '/v4/booking', owner(), body);
	expect(booked.status).toBe(201);
	return booked.body as unknown as { appointmentId: string };
}

describe('subscriptions', () => {
	test('create, list, patch (eventTypes replaced), delete: numeric ids from 101, exact bodies', async () => {
		const endpoint = 'https://hooks.example.com/in';
		const created = await request('POST', '/webhooks', owner(), { endpoint, eventTypes: ['booking_created', 'booking_cancelled'], description: 'Bookings' });
		expect(created).toEqual({
			status: 201,
			body: { id: 101, endpoint, description: 'Bookings', eventTypes: ['booking_created', 'booking_cancelled'], companyId: seed.companies.acme.id, createdAt: expect.stringMatching(/^2030-01-01T08:00:/) },
		});
		const second = (await request('POST', '/webhooks', owner(), { endpoint, eventTypes: ['new_employee'] })).body;
		expect(second).toMatchObject({ id: 102, description: null, eventTypes: ['new_employee'] });
		expect((await request('GET', '/webhooks', owner())).body).toEqual([created.body, second]);

		const patched = await request('PATCH', '/webhooks/101', owner(), { eventTypes: ['booking_rescheduled'] });
		expect(patched).toEqual({ status: 200, body: { ...created.body, eventTypes: ['booking_rescheduled'] } });
		const cleared = await request('PATCH', '/webhooks/101', owner(), { description: null, endpoint: 'https://hooks.example.com/other' });
		expect(cleared.body).toEqual({ ...created.body, eventTypes: ['booking_rescheduled'], description: null, endpoint: 'https://hooks.example.com/other' });

		expect(await request('DELETE', '/webhooks/101', owner())).toEqual({ status: 204, body: undefined });
		expect((await request('GET', '/webhooks', owner())).body).toEqual([second]);
		const again = await request('DELETE', '/webhooks/101', owner());
		expect(again).toEqual({ status: 404, body: { statusCode: 404, message: 'Webhook not found', error: 'Not Found' } });
	});

	test('a 7th subscription of a company: 406 Webhook limit reached; another company has its own 6', async () => {
		for (let n = 0; n < 6; n++) await subscribe(`hook${n}`, ['booking_created']);
		const seventh = await request('POST', '/webhooks', owner(), { endpoint: 'https://hooks.example.com/7', eventTypes: ['booking_created'] });
		expect(seventh).toEqual({ status: 406, body: { statusCode: 406, message: 'Webhook limit reached', error: 'Not Acceptable' } });
		expect((await request('GET', '/webhooks', owner())).body).toHaveLength(6);
		expect((await subscribe('other', ['booking_created'], await outsider())).id).toBe(107);
	});

	test('unknown event names, an empty list and a bad endpoint: 400 naming the property', async () => {
		const unknown = await request('POST', '/webhooks', owner(), { endpoint: 'https://hooks.example.com', eventTypes: ['booking_created', 'deal_won'] });
		expect(unknown).toEqual({
			status: 400,
			body: { statusCode: 400, message: [`each value in eventTypes must be one of the following values: ${EVENT_TYPES.join(', ')}`], error: 'Bad Request' },
		});
		const empty = await request('POST', '/webhooks', owner(), { endpoint: 'not a url', eventTypes: [] });
		expect(empty.body.message).toEqual(['endpoint must be a URL address', 'eventTypes must contain at least 1 elements']);
		const missing = await request('POST', '/webhooks', owner(), {});
		expect(missing.body.message).toEqual(expect.arrayContaining(['endpoint should not be empty', 'eventTypes should not be empty']));
		await subscribe('a', ['booking_created']);
		const patch = await request('PATCH', '/webhooks/101', owner(), { eventTypes: [] });
		expect(patch.body.message).toEqual(['eventTypes must contain at least 1 elements']);
	});

	test('an unknown query key: 400 property should not exist', async () => {
		const result = await request('GET', '/webhooks?limit=10', owner());
		expect(result).toEqual({ status: 400, body: { statusCode: 400, message: ['property limit should not exist'], error: 'Bad Request' } });
	});

	test("another company neither sees, changes nor deletes a company's subscriptions", async () => {
		await subscribe('a', ['booking_created']);
		const token = await outsider();
		expect((await request('GET', '/webhooks', token)).body).toEqual([]);
		for (const method of ['PATCH', 'DELETE']) {
			const result = await request(method, '/webhooks/101', token, method === 'PATCH' ? { description: 'mine' } : undefined);
			expect(result.body).toEqual({ statusCode: 404, message: 'Webhook not found', error: 'Not Found' });
		}
		expect((await request('GET', '/webhooks', owner())).body).toHaveLength(1);
	});

	test('an API key needs the acting user; with it the key manages the same subscriptions', async () => {
		await subscribe('a', ['booking_created']);
		const key = await apiKey();
		expect((await request('GET', '/webhooks', key)).status).toBe(400);
		expect((await request('GET', '/webhooks', key, undefined, seed.users.member.id)).body).toHaveLength(1);
	});

	test('a plan without webhooks: 403 PLAN_LIMIT_REACHED; a PAT scoped away from them: 403', async () => {
		const company = (await control('POST', '/companies', { name: 'Lite', excludedFeatures: ['webhooks'] })).body;
		const user = (await control('POST', '/users', { companyId: company.id, email: 'l@lite.example', givenName: 'L', familyName: 'T' })).body;
		const walled = await request('GET', '/webhooks', (await control('POST', '/pats', { userId: user.id })).body.token as string);
		expect(walled.body).toEqual({ statusCode: 403, message: 'Your plan does not include the webhooks feature', error: 'Forbidden', code: 'PLAN_LIMIT_REACHED', feature: 'webhooks' });
		const scoped = (await control('POST', '/pats', { userId: seed.users.owner.id, scopes: ['users'] })).body.token as string;
		expect((await request('GET', '/webhooks', scoped)).body.message).toBe('This access token is not scoped for the webhooks feature');
	});

	test('a reset removes subscriptions, delivery faults and the delivery log', async () => {
		await subscribe('a', ['form_submission']);
		await control('POST', '/webhooks/emit', { webhookType: 'form_submission' });
		await receivedAtLeast(1);
		await control('POST', '/webhooks/delivery-faults', { drop: true });
		seed = (await control('POST', '/seed')).body as unknown as Seed;
		expect((await request('GET', '/webhooks', owner())).body).toEqual([]);
		expect((await control('GET', '/webhooks/deliveries')).body).toEqual([]);
		await subscribe('a', ['form_submission']);
		await control('POST', '/webhooks/emit', { webhookType: 'form_submission' });
		expect((await receivedExactly(2))[1].body.webhookType).toBe('form_submission');
	});
});

describe('deliveries of real changes', () => {
	test('a booking made, cancelled and rescheduled: flat bodies, only to subscriptions listing the event', async () => {
		await subscribe('all', ['booking_created', 'booking_cancelled', 'booking_rescheduled']);
		await subscribe('cancelled', ['booking_cancelled']);
		const { appointmentId } = await book(10);
		const [created] = await receivedExactly(1);
		expect(created).toMatchObject({ path: '/all', method: 'POST', headers: { 'content-type': 'application/json' } });
		const stored = (await request('GET', `/v4/appointment/${appointmentId}`, owner())).body;
		expect(Object.keys(created.body)).toEqual(BOOKING_FIELDS);
		expect(created.body).toMatchObject({
			webhookType: 'booking_created',
			id: appointmentId,
			secret: stored.secret,
			start: '2030-01-02T09:00:00.000Z',
			end: '2030-01-02T09:30:00.000Z',
			location: null,
			isCancelled: false,
			rescheduledAt: null,
			meetingInfo: { channel: 'phone', meetingLink: null },
			hosts: [{ id: seed.users.owner.id, email: 'ada@acme.example', givenName: 'Ada', familyName: 'Admin', fullName: 'Ada Admin', timezone: 'Europe/Berlin' }],
			hostIds: [seed.users.owner.id],
			meetingTypeId: stored.meetingTypeId,
			companyId: seed.companies.acme.id,
			createdAt: stored.createdAt,
			updatedAt: stored.updatedAt,
		});
		const [attendee] = created.body.attendees as Fields[];
		expect(Object.keys(attendee)).toEqual(ATTENDEE_FIELDS);
		expect(attendee).toMatchObject({ email: 'grace@example.com', firstname: 'Grace', lastname: 'Hopper', fullname: 'Grace Hopper', phone: null });
		expect(Object.keys(created.body.meetingType as Fields)).toEqual(['id', 'slug', 'meetingInfo', 'metadata']);
		expect(created.body.meetingType).toMatchObject({ id: stored.meetingTypeId, metadata: null, meetingInfo: { name: '30 Minute Meeting', duration: 30 } });

		await request('POST', `/v4/appointment/${appointmentId}/cancel`, owner(), { reason: 'Ill' });
		const cancelled = (await receivedExactly(3)).slice(1);
		expect(cancelled.map((delivery) => delivery.path).sort()).toEqual(['/all', '/cancelled']);
		for (const delivery of cancelled) expect(delivery.body).toMatchObject({ webhookType: 'booking_cancelled', id: appointmentId, isCancelled: true });

		const second = await book(14);
		await receivedExactly(4);
		const rescheduled = await request('POST', `/v4/appointment/${second.appointmentId}/reschedule`, owner(), { start: '2030-01-02T15:00:00+01:00' });
		const [delivery] = (await receivedExactly(5)).slice(4);
		expect(delivery.path).toBe('/all');
		expect(delivery.body).toMatchObject({
			webhookType: 'booking_rescheduled',
			id: second.appointmentId,
			start: '2030-01-02T14:00:00.000Z',
			rescheduledAt: rescheduled.body.rescheduledAt,
			updatedAt: rescheduled.body.updatedAt,
		});
	});

	test('a booking of a meeting type created with metadata delivers that metadata (for correlation with other systems)', async () => {
		await subscribe('all', ['booking_created']);
		const info = { name: 'Tagged', description: '', duration: 30, channel: 'phone' };
		const created = await request('POST', '/v4/meeting-type', owner(), { meetingInfo: info, metadata: { crmCampaignId: 'spring-30' } });
		const booked = await request('POST', '/v4/booking', owner(), {
			meetingTypeId: created.body.id,
			start: '2030-01-02T11:00:00+01:00',
			hostIds: [seed.users.owner.id],
			attendee: { email: 'grace@example.com', fullname: 'Grace Hopper', receiveReminders: true, notes: {} },
		});
		expect(booked.status).toBe(201);
		const [delivery] = await receivedExactly(1);
		expect(delivery.body.meetingType).toMatchObject({ id: created.body.id, metadata: { crmCampaignId: 'spring-30' } });
	});

	test('a confirmed provisional booking is booking_created', async () => {
		await subscribe('all', ['booking_created']);
		const meetingTypeId = (await request('GET', '/v4/meeting-type', owner())).body[0].id as string;
		await control('POST', `/meeting-types/${meetingTypeId}/approval`, { bookingType: 'requireHostConfirmation' });
		const booked = await request('POST', '/v4/booking', owner(), {
			meetingTypeId,
			start: '2030-01-02T10:00:00+01:00',
			hostIds: [seed.users.owner.id],
			attendee: { email: 'grace@example.com', fullname: 'Grace Hopper', receiveReminders: true, notes: {} },
		});
		await sleep(QUIET_MS);
		expect(received).toEqual([]);
		const confirmed = await request('POST', `/v4/provisional-booking/${booked.body.provisionalBookingId as string}/confirm`, owner());
		const [delivery] = await receivedExactly(1);
		expect(delivery.body).toMatchObject({ webhookType: 'booking_created', id: confirmed.body.appointmentId });
	});

	test('a user added through POST /v4/user: new_employee with the user', async () => {
		await subscribe('staff', ['new_employee']);
		const input = { email: 'nina@acme.example', givenName: 'Nina', familyName: 'New', timezone: 'Europe/Vienna' };
		const created = await request('POST', '/v4/user', await apiKey(), input);
		const user = (await request('GET', `/v4/user/${created.body.userId as string}`, owner())).body;
		const [delivery] = await receivedExactly(1);
		expect(delivery.body).toEqual({ webhookType: 'new_employee', ...user });
	});

	test('a receiver that is down changes nothing for the API call; the log has the error', async () => {
		const endpoint = 'http://127.0.0.1:1/down';
		await request('POST', '/webhooks', owner(), { endpoint, eventTypes: ['booking_created'] });
		await book(10);
		const log = await eventually(async () => (await control('GET', '/webhooks/deliveries')).body, (entries) => entries.length > 0);
		expect(log).toEqual([
			{ webhookId: 101, endpoint, webhookType: 'booking_created', body: expect.objectContaining({ webhookType: 'booking_created' }), status: null, error: expect.stringMatching(/ECONNREFUSED/), sentAt: expect.any(String), postedAtMs: expect.any(Number), answeredInMs: null },
		]);
	});
});

describe('control API', () => {
	test('emit: each of the nine events, to the subscriptions listing it; samples, data and an appointment', async () => {
		await subscribe('all', EVENT_TYPES);
		await subscribe('forms', ['form_submission']);
		for (const webhookType of EVENT_TYPES) {
			const expected = webhookType === 'form_submission' ? 2 : 1;
			expect((await control('POST', '/webhooks/emit', { webhookType })).body).toEqual({ deliveries: expected });
		}
		const deliveries = await receivedExactly(10);
		const toAll = deliveries.filter((delivery) => delivery.path === '/all').map((delivery) => delivery.body);
		expect(toAll.map((body) => body.webhookType).sort()).toEqual([...EVENT_TYPES].sort());
		const sample = toAll.find((body) => body.webhookType === 'booking_created')!;
		expect(Object.keys(sample)).toEqual(BOOKING_FIELDS);
		expect(sample).toMatchObject({ id: '00000000-0000-4000-8000-000000000001', companyId: seed.companies.acme.id, isCancelled: false });

		received = [];
		const data = { formId: 'f-1', answers: { Email: 'x@example.com' } };
		expect((await control('POST', '/webhooks/emit', { webhookType: 'form_submission', data })).body).toEqual({ deliveries: 2 });
		expect((await receivedExactly(2))[0].body).toEqual({ webhookType: 'form_submission', ...data });

		received = [];
		const { appointmentId } = await book(10);
		await receivedExactly(1);
		await control('POST', '/webhooks/emit', { webhookType: 'booking_rescheduled', appointmentId });
		expect((await receivedExactly(2))[1].body).toMatchObject({ webhookType: 'booking_rescheduled', id: appointmentId, rescheduledAt: null });
		expect((await control('POST', '/webhooks/emit', { webhookType: 'booking_created', companyId: seed.companies.other.id })).body).toEqual({ deliveries: 0 });
	});

	test('repeat 3: three identical deliveries, one after another', async () => {
		await subscribe('a', ['form_submission']);
		expect((await control('POST', '/webhooks/delivery-faults', { repeat: 3 })).status).toBe(201);
		await control('POST', '/webhooks/emit', { webhookType: 'form_submission' });
		const deliveries = await receivedExactly(3);
		expect(deliveries[1].body).toEqual(deliveries[0].body);
		expect(deliveries[2].body).toEqual(deliveries[0].body);
		expect(deliveries[2].at - deliveries[0].at).toBeGreaterThanOrEqual(80);
		const log = (await control('GET', '/webhooks/deliveries')).body;
		expect(log.map((entry) => [entry.webhookId, entry.status, entry.error])).toEqual([
			[101, 200, null],
			[101, 200, null],
			[101, 200, null],
		]);
		// Each attempt's moment and the receiver's time to answer, in real time.
		for (const entry of log) expect(entry).toMatchObject({ postedAtMs: expect.any(Number), answeredInMs: expect.any(Number) });
		expect((log[2].postedAtMs as number) - (log[0].postedAtMs as number)).toBeGreaterThanOrEqual(80);
		await control('POST', '/webhooks/emit', { webhookType: 'form_submission' });
		await receivedExactly(4);
	});

	test('envelope: the older { event, data } form', async () => {
		await subscribe('a', ['credential_error']);
		await control('POST', '/webhooks/delivery-faults', { envelope: true });
		const data = { provider: 'google' };
		await control('POST', '/webhooks/emit', { webhookType: 'credential_error', data });
		expect((await receivedExactly(1))[0].body).toEqual({ event: 'credential_error', data });
	});

	test('drop: nothing arrives; the next event does; delete clears faults', async () => {
		await subscribe('a', ['review_submitted']);
		await control('POST', '/webhooks/delivery-faults', { drop: true, times: 2 });
		await control('POST', '/webhooks/emit', { webhookType: 'review_submitted' });
		await sleep(QUIET_MS);
		expect(received).toEqual([]);
		const log = (await control('GET', '/webhooks/deliveries')).body;
		expect(log).toMatchObject([{ webhookId: 101, status: null, error: 'Dropped by a delivery fault', postedAtMs: null, answeredInMs: null }]);
		expect((await control('DELETE', '/webhooks/delivery-faults')).body).toEqual({ deleted: true });
		await control('POST', '/webhooks/emit', { webhookType: 'review_submitted' });
		await receivedExactly(1);
		expect((await control('DELETE', '/webhooks/deliveries')).body).toEqual({ deleted: true });
		expect((await control('GET', '/webhooks/deliveries')).body).toEqual([]);
	});

	test('deleting a subscription stops its deliveries at once, repeats and delayed ones too', async () => {
		await subscribe('a', ['signature_completed']);
		await control('POST', '/webhooks/delivery-faults', { repeat: 3, delayMs: 300 });
		await control('POST', '/webhooks/emit', { webhookType: 'signature_completed' });
		await receivedAtLeast(1);
		expect(await request('DELETE', '/webhooks/101', owner())).toEqual({ status: 204, body: undefined });
		await sleep(800);
		expect(received).toHaveLength(1);
		expect((await control('POST', '/webhooks/emit', { webhookType: 'signature_completed' })).body).toEqual({ deliveries: 0 });
	});

	test('emit checks its input', async () => {
		const unknown = await control('POST', '/webhooks/emit', { webhookType: 'deal_won' });
		expect(unknown.status).toBe(400);
		const misplaced = await control('POST', '/webhooks/emit', { webhookType: 'new_employee', appointmentId: 'x' });
		expect(misplaced.body).toEqual({ statusCode: 400, message: 'appointmentId is only for booking events', error: 'Bad Request' });
		const missing = await control('POST', '/webhooks/emit', { webhookType: 'booking_created', appointmentId: 'nope' });
		expect(missing.body).toEqual({ statusCode: 404, message: 'Appointment not found', error: 'Not Found' });
	});
});
