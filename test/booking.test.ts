import type { IDataObject, INode, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { NODE_TYPE, getEngine } from '../scripts/engine';
import { byId, useWorld, wire } from './harness/world';

/** "Now" is 2027-03-01 (a Monday); the seed owner Ada works Mon–Fri 09:00–17:00 Europe/Berlin (+01:00 in early March). */

const world = useWorld();

const ownerPat = () => world().seed.credentials.ownerPat;
const owner = () => world().seed.users.owner;

/** Booking → Create for an attendee named Jane Doe unless `extra` says otherwise. */
const create = (meetingTypeId: string, start: string, email: string, extra: IDataObject = {}) => ({
	resource: 'booking',
	operation: 'create',
	meetingTypeId: byId(meetingTypeId),
	start,
	email,
	firstName: 'Jane',
	lastName: 'Doe',
	...extra,
});

async function appointment(id: string): Promise<IDataObject> {
	return (await world().api('GET', `/v4/appointment/${id}`, ownerPat())).body;
}

beforeAll(async () => {
	await world().control('POST', '/__sandbox/clock/set', { now: '2027-03-01T00:00:00Z' });
});

describe('Booking: Get Open Slots', () => {
	test('reads the meeting type to fill its host, then asks for slots; dates without an offset are read in the workflow\'s zone', async () => {
		const id = await world().createMeetingType('Slots Wire');
		const { items, error } = await world().runNode(
			{ resource: 'booking', operation: 'getSlots', meetingTypeId: byId(id), start: '2027-03-08T12:00:00', end: '2027-03-08T14:00:00' },
			world().pat(),
			{ timezone: 'Europe/Berlin' },
		);
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: `/v4/meeting-type/${id}`, query: '', headers: world().patHeaders(), body: null },
			{
				method: 'GET',
				path: '/v4/booking-availability',
				query: `meetingTypeId=${id}&start=2027-03-08T12%3A00%3A00%2B01%3A00&end=2027-03-08T14%3A00%3A00%2B01%3A00&hostIds=${owner().id}`,
				headers: world().patHeaders(),
				body: null,
			},
		]);
		// Timezone empty: the answer is in the host's zone (Europe/Berlin). Starts in [12:00, 14:00): 12:00, 12:30, 13:00, 13:30.
		const slot = (time: string) => ({ startTime: `2027-03-08T${time}:00+01:00`, date: '2027-03-08', timezone: 'Europe/Berlin', meetingTypeId: id });
		expect(items).toEqual([slot('12:00'), slot('12:30'), slot('13:00'), slot('13:30')]);
	});

	test('given hosts picked from the list, no meeting type is read; Raw Answer gives the API\'s object as one item', async () => {
		const id = await world().createMeetingType('Slots Raw');
		const expected = await world().api(
			'GET',
			`/v4/booking-availability?meetingTypeId=${id}&start=2027-03-09&end=2027-03-10&timezone=UTC&meetingDuration=240&hostIds=${owner().id}`,
			ownerPat(),
		);
		expect(expected.body).toEqual({
			timezone: 'UTC',
			dates: [
				{ date: '2027-03-09', spots: [{ startTime: '2027-03-09T08:00:00+00:00' }, { startTime: '2027-03-09T12:00:00+00:00' }] },
				{ date: '2027-03-10', spots: [{ startTime: '2027-03-10T08:00:00+00:00' }, { startTime: '2027-03-10T12:00:00+00:00' }] },
			],
			earliestAvailableDate: '2027-03-09',
		});
		await world().clearRequests();
		const { items } = await world().runNode(
			{
				resource: 'booking',
				operation: 'getSlots',
				meetingTypeId: byId(id),
				start: '2027-03-09',
				end: '2027-03-10',
				timezone: 'UTC',
				additionalFields: { duration: 240, hostIds: [owner().id] },
				output: 'raw',
			},
			world().pat(),
		);
		expect(items).toEqual([expected.body]);
		expect((await world().requests()).map((r) => `${r.method} ${r.path}?${r.query}`)).toEqual([
			`GET /v4/booking-availability?meetingTypeId=${id}&start=2027-03-09&end=2027-03-10&hostIds=${owner().id}&timezone=UTC&meetingDuration=240`,
		]);
	});

	test('with an API key and no acting user, slots are read without the x-service-api-user-id header when hosts are given', async () => {
		const id = await world().createMeetingType('Slots No Actor');
		const minted = await world().mintApiKey({ lifetimeDays: 30 });
		const { items, error } = await world().runNode(
			{ resource: 'booking', operation: 'getSlots', meetingTypeId: byId(id), start: '2027-03-09', end: '2027-03-09', timezone: 'Europe/Berlin', additionalFields: { duration: 480, hostIds: owner().id } },
			world().apiKey('', minted.key),
		);
		expect(error).toBeUndefined();
		expect(items).toEqual([{ startTime: '2027-03-09T09:00:00+01:00', date: '2027-03-09', timezone: 'Europe/Berlin', meetingTypeId: id }]);
		expect((await world().requests()).map((r) => wire(r).headers)).toEqual([{ authorization: `Bearer ${minted.key}` }]);
	});

	test('the sandbox answers the API\'s words for missing hosts, a stranger\'s meeting type and a backwards range', async () => {
		const id = await world().createMeetingType('Slots Errors');
		const ask = async (query: string, token = ownerPat()) => (await world().api('GET', `/v4/booking-availability?${query}`, token)).body;
		expect(await ask(`meetingTypeId=${id}&start=2027-03-09&end=2027-03-10`)).toEqual({ statusCode: 400, message: 'Expected hostIds or queueId', error: 'Bad Request' });
		expect(await ask(`meetingTypeId=${id}&start=2027-03-09&end=2027-03-10&hostIds=${world().seed.users.outsider.id}`)).toMatchObject({ statusCode: 404, message: 'Host not found' });
		expect(await ask(`meetingTypeId=${id}&start=2027-03-10&end=2027-03-09&hostIds=${owner().id}`)).toMatchObject({ statusCode: 400, message: ['end must be later than start'] });
		const { token: outsiderPat } = await world().mintPat(world().seed.users.outsider.id);
		expect(await ask(`meetingTypeId=${id}&start=2027-03-09&end=2027-03-10&hostIds=${owner().id}`, outsiderPat)).toMatchObject({ statusCode: 404, message: 'Meeting type not found' });
		// Any user of the company may read the slots of the company's meeting types.
		const member = await ask(`meetingTypeId=${id}&start=2027-03-09&end=2027-03-09&hostIds=${owner().id}&meetingDuration=480`, world().seed.credentials.memberPat);
		expect(member).toEqual({ timezone: 'Europe/Berlin', dates: [{ date: '2027-03-09', spots: [{ startTime: '2027-03-09T09:00:00+01:00' }] }], earliestAvailableDate: '2027-03-09' });
	});

	test('Rescheduling Appointment: the appointment being moved does not take its own slot', async () => {
		const id = await world().createMeetingType('Slots Rescheduling');
		const booked = await world().bookAppointment(id, '2027-03-17T10:00:00+01:00');
		const starts = async (additionalFields: IDataObject) => {
			const { items, error } = await world().runNode(
				{
					resource: 'booking',
					operation: 'getSlots',
					meetingTypeId: byId(id),
					start: '2027-03-17T09:30:00+01:00',
					end: '2027-03-17T11:00:00+01:00',
					additionalFields: { hostIds: [owner().id], ...additionalFields },
				},
				world().pat(),
			);
			expect(error).toBeUndefined();
			return items.map((item) => item.startTime);
		};
		expect(await starts({})).toEqual(['2027-03-17T09:30:00+01:00', '2027-03-17T10:30:00+01:00']);
		expect(await starts({ existingAppointmentId: byId(booked.id as string) })).toEqual([
			'2027-03-17T09:30:00+01:00',
			'2027-03-17T10:00:00+01:00',
			'2027-03-17T10:30:00+01:00',
		]);
		const query = `meetingTypeId=${id}&start=2027-03-17T09%3A30%3A00%2B01%3A00&end=2027-03-17T11%3A00%3A00%2B01%3A00&hostIds=${owner().id}`;
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: '/v4/booking-availability', query, headers: world().patHeaders(), body: null },
			{ method: 'GET', path: '/v4/booking-availability', query: `${query}&existingAppointmentId=${booked.id as string}`, headers: world().patHeaders(), body: null },
		]);
	});

	test('bad input is refused before sending: end before start, a non-IANA time zone, a host ID that is not a UUID or an object', async () => {
		const id = await world().createMeetingType('Slots Refused');
		const base = { resource: 'booking', operation: 'getSlots', meetingTypeId: byId(id) };
		const backwards = await world().runNode({ ...base, start: '2027-03-10', end: '2027-03-09' }, world().pat());
		expect(backwards.error?.message).toBe('End (2027-03-09) must be later than Start (2027-03-10)');
		const zone = await world().runNode({ ...base, start: '2027-03-09', end: '2027-03-10', timezone: 'Berlin' }, world().pat());
		expect(zone.error?.message).toBe('Timezone must be an IANA time zone such as Europe/Berlin or America/New_York; "Berlin" is not');
		const host = await world().runNode({ ...base, start: '2027-03-09', end: '2027-03-10', additionalFields: { hostIds: 'ada' } }, world().pat());
		expect(host.error?.message).toBe('Host Names or IDs must be an ID in UUID form, such as 6f1c2a7e-1b2c-4d5e-8f90-123456789abc; "ada" is not');
		// Hosts from an expression that gives the user objects instead of their IDs: the field is named, no "[object Object]".
		const objects = await world().runNode(
			{ ...base, start: '2027-03-09', end: '2027-03-10', additionalFields: { hostIds: '={{ $json.hosts }}' } },
			world().pat(),
			{ input: [{ hosts: [{ id: owner().id, name: 'Ada Admin' }] }] },
		);
		expect(objects.error?.message).toBe('Host Names or IDs must be an ID or a value from the list, not an object: give the ID of each object in the expression');
		const one = await world().runNode({ ...base, start: '2027-03-09', end: '2027-03-10', additionalFields: { hostIds: '={{ { id: "x" } }}' } }, world().pat());
		expect(one.error?.message).toBe('Host Names or IDs must be an ID or a value from the list, not an object: give the ID of each object in the expression');
		expect(await world().requests()).toEqual([]);
	});
});

describe('Booking: Get Host Availability', () => {
	/** Tue 2027-03-16, Ada's Berlin day (+01:00): hours 09:00–17:00, blocked 10:00–11:00, an appointment 14:00–14:30. */
	const at = (time: string) => `2027-03-16T${time}:00+01:00`;
	/** A 30-minute meeting type with 15 minutes of buffer before and 10 after. */
	let buffered = '';
	/** What blocks a busy stretch of Ada's: an event of hers (the one type the reference documents). */
	const ada = () => ({ hostId: owner().id, hostName: 'Ada Admin', type: 'event', picture: null });

	beforeAll(async () => {
		const availabilities = (await world().api('GET', '/availability', ownerPat())).body;
		const availabilityId = availabilities.find((availability) => availability.isDefault)?.id;
		const blocked = { availabilityId, available: false, start: at('10:00'), end: at('11:00'), title: 'Dentist' };
		expect((await world().api('POST', '/availability-exception', ownerPat(), { body: blocked })).status).toBe(201);
		buffered = await world().createMeetingType('Timeframe Buffers');
		await world().api('PATCH', `/v4/meeting-type/${buffered}`, ownerPat(), { body: { meetingInfo: { bufferBefore: 15, bufferAfter: 10 } } });
		await world().bookAppointment(buffered, at('14:00'));
	});

	test('one item: the free and busy stretches of whole days in the user\'s time zone, each busy one with the event that blocks it', async () => {
		const { items, error } = await world().runNode(
			{ resource: 'booking', operation: 'getHostAvailability', userId: byId(owner().id), start: '2027-03-16', end: '2027-03-16' },
			world().pat(),
		);
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: `/v4/booking-availability/user/${owner().id}/timeframe`, query: 'start=2027-03-16&end=2027-03-16', headers: world().patHeaders(), body: null },
		]);
		expect(items).toEqual([
			{
				hostId: owner().id,
				available: [
					{ start: at('09:00'), end: at('10:00') },
					{ start: at('11:00'), end: at('14:00') },
					{ start: at('14:30'), end: at('17:00') },
				],
				// Blocked time and the appointment; the hours outside the weekly hours are in neither list.
				unavailable: [
					{ start: at('10:00'), end: at('11:00'), unavailabilityEvent: ada() },
					{ start: at('14:00'), end: at('14:30'), unavailabilityEvent: ada() },
				],
			},
		]);
	});

	test('with a meeting type its buffers widen the appointment, as in the open slots; One Item per Stretch gives them in time order', async () => {
		const { items, error } = await world().runNode(
			{
				resource: 'booking',
				operation: 'getHostAvailability',
				userId: byId(owner().id),
				start: '2027-03-16T08:00:00',
				end: '2027-03-16T18:00:00',
				additionalFields: { meetingTypeId: byId(buffered) },
				output: 'stretches',
			},
			world().pat(),
			{ timezone: 'Europe/Berlin' },
		);
		expect(error).toBeUndefined();
		expect((await world().requests()).map((request) => request.query)).toEqual([
			`start=2027-03-16T08%3A00%3A00%2B01%3A00&end=2027-03-16T18%3A00%3A00%2B01%3A00&meetingTypeId=${buffered}`,
		]);
		// A meeting may not overlap [14:00 − 10 min after, 14:30 + 15 min before] = 13:50–14:45.
		const free = (start: string, end: string) => ({ start: at(start), end: at(end), available: true, unavailabilityEvent: null });
		const busy = (start: string, end: string) => ({ start: at(start), end: at(end), available: false, unavailabilityEvent: ada() });
		expect(items).toEqual([free('09:00', '10:00'), busy('10:00', '11:00'), free('11:00', '13:50'), busy('13:50', '14:45'), free('14:45', '17:00')]);
		// The open slots of that meeting type are the 30-minute grid starts whose meeting fits in a free stretch.
		const slots = await world().api('GET', `/v4/booking-availability?meetingTypeId=${buffered}&start=2027-03-16&end=2027-03-16&hostIds=${owner().id}`, ownerPat());
		const times = ['09:00', '09:30', '11:00', '11:30', '12:00', '12:30', '13:00', '15:00', '15:30', '16:00', '16:30'];
		expect(slots.body.dates).toEqual([{ date: '2027-03-16', spots: times.map((time) => ({ startTime: at(time) })) }]);
	});

	test('any user of the company may read a colleague\'s stretches; a user of another company gets 404', async () => {
		const member = await world().runNode(
			{ resource: 'booking', operation: 'getHostAvailability', userId: byId(owner().id), start: at('09:00'), end: at('10:00') },
			world().pat(world().seed.credentials.memberPat),
		);
		expect(member.items).toEqual([{ hostId: owner().id, available: [{ start: at('09:00'), end: at('10:00') }], unavailable: [] }]);
		const { token: outsiderPat } = await world().mintPat(world().seed.users.outsider.id);
		const outsider = await world().runNode(
			{ resource: 'booking', operation: 'getHostAvailability', userId: byId(owner().id), start: at('09:00'), end: at('10:00') },
			world().pat(outsiderPat),
		);
		expect(outsider.error?.httpCode).toBe('404');
		expect(outsider.error?.description).toContain('User not found');
	});

	test('bad input is refused before sending: a user ID from an expression that is not a UUID, End before Start, no Start', async () => {
		const base = { resource: 'booking', operation: 'getHostAvailability', userId: byId(owner().id), start: '2027-03-16', end: '2027-03-16' };
		const cases: Array<[IDataObject, string]> = [
			[{ ...base, userId: byId('={{ "ada" }}') }, 'User ID must be in UUID form, such as 6f1c2a7e-1b2c-4d5e-8f90-123456789abc; "ada" is not'],
			[{ ...base, end: '2027-03-15' }, 'End (2027-03-15) must be later than Start (2027-03-16)'],
			[{ ...base, start: '={{ $json.missing ?? "" }}' }, 'Start is required'],
		];
		for (const [parameters, message] of cases) {
			const { error } = await world().runNode(parameters, world().pat());
			expect(error?.message).toBe(message);
		}
		expect(await world().requests()).toEqual([]);
	});
});

describe('Booking: the Hosts list', () => {
	test('lists every user of the company, reading all pages of 100', async () => {
		const acme = world().seed.companies.acme.id;
		for (let i = 0; i < 100; i++) {
			await world().control('POST', '/__sandbox/users', { companyId: acme, email: `host${i}@example.com`, givenName: 'Host', familyName: String(i) });
		}
		const { result, error } = await world().loadOptions('getUsers', { resource: 'booking', operation: 'getSlots' }, world().pat());
		expect(error).toBeUndefined();
		expect(result).toHaveLength(102);
		expect(result).toEqual(expect.arrayContaining([
			{ name: `Ada Admin (${owner().email})`, value: owner().id },
			{ name: 'Host 99 (host99@example.com)', value: expect.any(String) },
		]));
		expect((await world().requests()).map((r) => `${r.method} ${r.path}?${r.query}`)).toEqual([
			'GET /v4/user?limit=100&offset=0',
			'GET /v4/user?limit=100&offset=100',
		]);
	});

	test('hosts from an expression may be a comma-separated text', async () => {
		const id = await world().createMeetingType('Slots Expression Hosts');
		const { error } = await world().runNode(
			{ resource: 'booking', operation: 'getSlots', meetingTypeId: byId(id), start: '2027-03-09', end: '2027-03-09', additionalFields: { hostIds: `={{ "${owner().id}, " + "${owner().id}" }}` } },
			world().pat(),
		);
		expect(error).toBeUndefined();
		expect((await world().requests()).map((r) => r.query)).toEqual([
			`meetingTypeId=${id}&start=2027-03-09&end=2027-03-09&hostIds=${owner().id}&hostIds=${owner().id}`,
		]);
	});
});

describe('Booking: Create', () => {
	test('sends receiveReminders and an empty notes object, fills the host, and outputs the booked appointment read back once', async () => {
		const id = await world().createMeetingType('Create Wire');
		const { items, error } = await world().runNode(create(id, '2027-03-08T10:00:00+01:00', 'jane@example.com'), world().pat());
		expect(error).toBeUndefined();
		const log = (await world().requests()).map(wire);
		const appointmentId = log[2]?.path.split('/').pop();
		expect(log).toEqual([
			{ method: 'GET', path: `/v4/meeting-type/${id}`, query: '', headers: world().patHeaders(), body: null },
			{
				method: 'POST',
				path: '/v4/booking',
				query: '',
				headers: world().patHeaders(ownerPat(), true),
				body: {
					meetingTypeId: id,
					start: '2027-03-08T10:00:00+01:00',
					attendee: { email: 'jane@example.com', firstname: 'Jane', lastname: 'Doe', receiveReminders: true, notes: {} },
					hostIds: [owner().id],
				},
			},
			{ method: 'GET', path: `/v4/appointment/${String(appointmentId)}`, query: '', headers: world().patHeaders(), body: null },
		]);
		const booked = await appointment(String(appointmentId));
		expect(items).toEqual([{ status: 'booked', appointmentId, ...booked }]);
		expect(Object.keys(items[0]).slice(0, 3)).toEqual(['status', 'appointmentId', 'secret']);
		expect(booked).toMatchObject({
			id: appointmentId,
			secret: expect.stringMatching(/^[0-9a-f]{32}$/),
			userId: owner().id,
			start: '2027-03-08T09:00:00.000Z',
			end: '2027-03-08T09:30:00.000Z',
			meetingTypeId: id,
			hostIds: [owner().id],
			location: null,
			notes: null,
			attendees: [
				expect.objectContaining({ email: 'jane@example.com', fullname: 'Jane Doe', receiveReminders: true, notes: {}, guests: [], isCancelled: false, contactId: expect.any(String) }),
			],
			icsTitle: null,
			icsDescription: null,
		});
	});

	test('when the read back fails the booking stands: the item says so and carries what the request knows (run again would book twice)', async () => {
		const id = await world().createMeetingType('Create Read Fails');
		await world().control('POST', '/__sandbox/faults', { method: 'GET', path: '/v4/appointment/*', status: 500, body: { statusCode: 500, message: 'Internal server error' } });
		const { items, error } = await world().runNode(create(id, '2027-03-08T11:00:00+01:00', 'jane@example.com'), world().pat());
		expect(error).toBeUndefined();
		const log = await world().requests();
		expect(log.map((request) => `${request.method} ${request.path.replace(/^(\/v4\/appointment\/)[0-9a-f-]{36}$/, '$1{id}')} ${request.status}`)).toEqual([
			`GET /v4/meeting-type/${id} 200`,
			'POST /v4/booking 201',
			'GET /v4/appointment/{id} 500',
		]);
		const answer = await world().api('GET', log[2].path, ownerPat());
		expect(items).toEqual([
			{
				status: 'booked',
				appointmentId: answer.body.id,
				secret: answer.body.secret,
				meetingTypeId: id,
				start: '2027-03-08T11:00:00+01:00',
				attendees: [{ email: 'jane@example.com', firstname: 'Jane', lastname: 'Doe' }],
				readBack: 'The booking was made; reading the appointment back failed: The API failed with a server error (HTTP 500)',
			},
		]);
	});

	test('form answers become the notes object; every additional field reaches the body; a start without offset is read in the attendee\'s zone', async () => {
		const id = await world().createMeetingType('Create Full');
		const { items, error } = await world().runNode(
			create(id, '2027-03-08T08:00:00', 'Kim@Example.com', {
				firstName: 'Kim',
				lastName: 'Lee',
				receiveReminders: false,
				formAnswers: { answers: [{ label: 'Company', value: 'Initech' }, { label: 'Topic', value: 'Pricing' }] },
				additionalFields: {
					fullName: 'Kim A. Lee',
					phone: '+4915112345678',
					timezone: 'America/New_York',
					language: 'de',
					dataPolicyAccepted: true,
					duration: 60,
					channel: 'zoom',
					location: 'Room 4',
					skipNotifications: true,
					hostIds: owner().id,
				},
			}),
			world().pat(),
		);
		expect(error).toBeUndefined();
		// 08:00 New York (-05:00) = 13:00Z = 14:00 Berlin: on the 60-minute grid of Ada's 09:00–17:00.
		expect((await world().requests()).map(wire)).toEqual([
			{
				method: 'POST',
				path: '/v4/booking',
				query: '',
				headers: world().patHeaders(ownerPat(), true),
				body: {
					meetingTypeId: id,
					start: '2027-03-08T08:00:00-05:00',
					attendee: {
						email: 'Kim@Example.com',
						firstname: 'Kim',
						lastname: 'Lee',
						fullname: 'Kim A. Lee',
						phone: '+4915112345678',
						timezone: 'America/New_York',
						language: 'de',
						receiveReminders: false,
						notes: { Company: 'Initech', Topic: 'Pricing' },
						dataPolicyAccepted: true,
					},
					hostIds: [owner().id],
					duration: 60,
					channel: 'zoom',
					location: 'Room 4',
					skipNotifications: true,
				},
			},
			{ method: 'GET', path: `/v4/appointment/${String(items[0].appointmentId)}`, query: '', headers: world().patHeaders(), body: null },
		]);
		const booked = await appointment(items[0].appointmentId as string);
		expect(booked).toMatchObject({
			start: '2027-03-08T13:00:00.000Z',
			end: '2027-03-08T14:00:00.000Z',
			location: 'Room 4',
			meetingInfo: expect.objectContaining({ name: 'Create Full', duration: 60, channel: 'zoom' }),
			attendees: [expect.objectContaining({ firstname: 'Kim', lastname: 'Lee', fullname: 'Kim A. Lee', notes: { Company: 'Initech', Topic: 'Pricing' } })],
		});
	});

	test('guests, calendar event title and description and a phone-only booking reach the body; Full Name alone names the attendee', async () => {
		const id = await world().createMeetingType('Create Extras');
		const { items, error } = await world().runNode(
			create(id, '2027-03-12T10:00:00+01:00', 'jq@example.com', {
				firstName: '',
				lastName: '',
				additionalFields: {
					fullName: 'Jane Q. Doe',
					guests: ['ann@example.com', '={{ "bob@example.com, cy@example.com" }}'],
					icsTitle: 'Kickoff with Jane',
					icsDescription: 'Agenda:\n- goals\n- next steps',
					phone: '+4915112345678',
					phoneOnlyBooking: true,
				},
			}),
			world().pat(),
		);
		expect(error).toBeUndefined();
		const guests = ['ann@example.com', 'bob@example.com', 'cy@example.com'];
		expect((await world().requests()).map(wire)[1]).toEqual({
			method: 'POST',
			path: '/v4/booking',
			query: '',
			headers: world().patHeaders(ownerPat(), true),
			body: {
				meetingTypeId: id,
				start: '2027-03-12T10:00:00+01:00',
				attendee: { email: 'jq@example.com', fullname: 'Jane Q. Doe', phone: '+4915112345678', receiveReminders: true, notes: {}, bringalongEmails: guests },
				hostIds: [owner().id],
				icsTitle: 'Kickoff with Jane',
				icsDescription: 'Agenda:\n- goals\n- next steps',
				phoneOnlyBooking: true,
			},
		});
		expect(await appointment(items[0].appointmentId as string)).toMatchObject({
			icsTitle: 'Kickoff with Jane',
			icsDescription: 'Agenda:\n- goals\n- next steps',
			attendees: [expect.objectContaining({ fullname: 'Jane Q. Doe', firstname: null, lastname: null, phone: '+4915112345678', guests })],
		});
	});

	test('the sandbox checks guests, calendar texts and a phone-only booking with the API\'s words', async () => {
		const id = await world().createMeetingType('Create Extras Sandbox');
		const book = async (fields: IDataObject, attendee: IDataObject = {}) => {
			const body = { meetingTypeId: id, start: '2027-03-12T12:00:00+01:00', hostIds: [owner().id], attendee: { email: 'x@example.com', fullname: 'X', receiveReminders: true, notes: {}, ...attendee }, ...fields };
			return (await world().api('POST', '/v4/booking', ownerPat(), { body })).body;
		};
		const sixGuests = ['a@example.com', 'nope', 'c@example.com', 'd@example.com', 'e@example.com', 'f@example.com'];
		expect(await book({ icsTitle: 'x'.repeat(201), icsDescription: 'y'.repeat(2001) }, { bringalongEmails: sixGuests })).toEqual({
			statusCode: 400,
			message: [
				'attendee.bringalongEmails must contain no more than 5 elements',
				'each value in attendee.bringalongEmails must be an email',
				'icsTitle must be shorter than or equal to 200 characters',
				'icsDescription must be shorter than or equal to 2000 characters',
			],
			error: 'Bad Request',
		});
		expect(await book({ phoneOnlyBooking: true })).toEqual({ statusCode: 400, message: ['attendee.phone should not be empty'], error: 'Bad Request' });
	});

	test('two bookings with the same email (any case) share one CRM contact; another email gets another', async () => {
		const id = await world().createMeetingType('Contacts');
		const first = await world().runNode(create(id, '2027-03-09T09:00:00+01:00', 'repeat@example.com'), world().pat());
		const second = await world().runNode(create(id, '2027-03-09T10:00:00+01:00', 'REPEAT@example.com', { firstName: 'Rita' }), world().pat());
		const other = await world().runNode(create(id, '2027-03-09T11:00:00+01:00', 'someone.else@example.com'), world().pat());
		const contactOf = async (run: typeof first) => ((await appointment(run.items[0].appointmentId as string)).attendees as IDataObject[])[0].contactId;
		const contactIds = [await contactOf(first), await contactOf(second), await contactOf(other)];
		expect(contactIds[0]).toEqual(expect.any(String));
		expect(contactIds[1]).toBe(contactIds[0]);
		expect(contactIds[2]).not.toBe(contactIds[0]);
	});

	test('a meeting type that needs approval gives a pending answer and no appointment; the slot stays open', async () => {
		const id = await world().createMeetingType('Needs Approval');
		const start = '2027-03-10T09:00:00+01:00';
		await world().control('POST', `/__sandbox/meeting-types/${id}/approval`, { bookingType: 'requireHostConfirmation' });
		const host = await world().runNode(create(id, start, 'wait@example.com'), world().pat());
		expect(host.items).toEqual([
			{
				status: 'pendingApproval',
				bookingType: 'requireHostConfirmation',
				provisionalBookingId: expect.any(String),
				message: 'No appointment exists yet: the host must confirm the booking first.',
				meetingTypeId: id,
				start,
				attendees: [{ email: 'wait@example.com', firstname: 'Jane', lastname: 'Doe' }],
			},
		]);
		await world().control('POST', `/__sandbox/meeting-types/${id}/approval`, { bookingType: 'doubleOptIn' });
		const optIn = await world().runNode(create(id, start, 'wait@example.com'), world().pat());
		expect(optIn.items).toEqual([
			{
				status: 'pendingApproval',
				bookingType: 'doubleOptIn',
				provisionalBookingId: expect.any(String),
				message: 'No appointment exists yet: the attendee must confirm the booking with the link in the email they receive (double opt-in).',
				meetingTypeId: id,
				start,
				attendees: [{ email: 'wait@example.com', firstname: 'Jane', lastname: 'Doe' }],
			},
		]);
		expect(optIn.items[0].provisionalBookingId).not.toBe(host.items[0].provisionalBookingId);
		const slots = await world().api('GET', `/v4/booking-availability?meetingTypeId=${id}&start=2027-03-10T09:00:00%2B01:00&end=2027-03-10T09:30:00%2B01:00&hostIds=${owner().id}`, ownerPat());
		expect(slots.body.dates).toEqual([{ date: '2027-03-10', spots: [{ startTime: start }] }]);
	});

	test('several items booking the same meeting type read it once, then book each', async () => {
		const id = await world().createMeetingType('Bulk');
		const leads = [
			{ email: 'lead1@example.com', start: '2027-03-10T09:00:00+01:00' },
			{ email: 'lead2@example.com', start: '2027-03-10T09:30:00+01:00' },
		];
		const { items, error } = await world().runNode(create(id, '={{ $json.start }}', '={{ $json.email }}'), world().pat(), { input: leads });
		expect(error).toBeUndefined();
		expect(items.map((item) => item.status)).toEqual(['booked', 'booked']);
		const sent = (await world().requests()).map(wire);
		expect(sent.map((request) => `${request.method} ${request.path.replace(/^(\/v4\/appointment\/)[0-9a-f-]{36}$/, '$1{id}')}`).sort()).toEqual([
			'GET /v4/appointment/{id}',
			'GET /v4/appointment/{id}',
			`GET /v4/meeting-type/${id}`,
			'POST /v4/booking',
			'POST /v4/booking',
		].sort());
		expect(sent.filter((request) => request.method === 'POST').map((request) => request.body)).toEqual(
			leads.map(({ email, start }) => ({
				meetingTypeId: id,
				start,
				attendee: { email, firstname: 'Jane', lastname: 'Doe', receiveReminders: true, notes: {} },
				hostIds: [owner().id],
			})),
		);
	});

	test('a taken slot and a disabled meeting type: 409 with the API\'s words', async () => {
		const id = await world().createMeetingType('Taken');
		const start = '2027-03-11T15:00:00+01:00';
		const first = await world().runNode(create(id, start, 'first@example.com'), world().pat());
		expect(first.items[0].status).toBe('booked');
		const again = await world().runNode(create(id, start, 'second@example.com'), world().pat());
		expect(again.error).toMatchObject({
			message: 'The requested time slot is not available (HTTP 409)',
			description:
				'The request conflicts with the current state of the resource. The API says: The requested time slot is not available. Take a start time from Booking → Get Open Slots ' +
				'for this meeting type (and hosts) in the same time zone; when rescheduling, pass the appointment as Rescheduling Appointment there, or turn on Ignore Availability.',
			httpCode: '409',
		});
		const offGrid = await world().runNode(create(id, '2027-03-11T15:10:00+01:00', 'third@example.com'), world().pat());
		expect(offGrid.error?.description).toContain('The requested time slot is not available');
		await world().api('PATCH', `/v4/meeting-type/${id}`, ownerPat(), { body: { enabled: false } });
		const disabled = await world().runNode(create(id, '2027-03-11T16:00:00+01:00', 'fourth@example.com'), world().pat());
		expect(disabled.error?.description).toContain('The meeting type is disabled');
	});

	test('bad input is refused before sending: missing or bad email, bad phone, non-IANA attendee time zone, start without a time, no name, guests, calendar texts', async () => {
		const id = await world().createMeetingType('Create Refused');
		const start = '2027-03-12T09:00:00+01:00';
		const cases: Array<[IDataObject, string]> = [
			[create(id, start, '={{ $json.missing ?? "" }}'), 'Attendee Email is required'],
			[create(id, start, 'not-an-email'), 'Attendee Email must be an email address such as jane@example.com; "not-an-email" is not'],
			[create(id, start, 'ok@example.com', { additionalFields: { phone: '0151 123' } }), 'Phone must be a phone number in E.164 form: + and country code, digits only, such as +4915112345678'],
			[create(id, start, 'ok@example.com', { additionalFields: { timezone: 'CET+1' } }), 'Attendee Timezone must be an IANA time zone such as Europe/Berlin or America/New_York; "CET+1" is not'],
			[create(id, '2027-03-12', 'ok@example.com'), 'Start must be a date and time such as 2026-03-09T10:00:00+01:00, not "2027-03-12"'],
			[create(id, start, 'ok@example.com', { lastName: '' }), 'The attendee needs a name: enter Full Name, or both First Name and Last Name'],
			[create(id, start, 'ok@example.com', { firstName: '={{ " " }}', lastName: '' }), 'The attendee needs a name: enter Full Name, or both First Name and Last Name'],
			[create(id, start, 'ok@example.com', { additionalFields: { phoneOnlyBooking: true } }), 'Phone is required when Phone-Only Booking is on'],
			[
				create(id, start, 'ok@example.com', { additionalFields: { guests: '={{ "a@example.com,b@example.com,c@example.com,d@example.com,e@example.com,f@example.com" }}' } }),
				'Guests must be at most 5 email addresses; 6 are given',
			],
			[create(id, start, 'ok@example.com', { additionalFields: { guests: ['ann@example.com', 'bob at example'] } }), 'Guests must be an email address such as jane@example.com; "bob at example" is not'],
			[create(id, start, 'ok@example.com', { additionalFields: { icsTitle: 'x'.repeat(201) } }), 'Calendar Event Title must be at most 200 characters long; it has 201'],
			[create(id, start, 'ok@example.com', { additionalFields: { icsDescription: 'y'.repeat(2001) } }), 'Calendar Event Description must be at most 2000 characters long; it has 2001'],
		];
		for (const [parameters, message] of cases) {
			const { error } = await world().runNode(parameters, world().pat());
			expect(error?.message).toBe(message);
		}
		expect(await world().requests()).toEqual([]);
	});
});

describe('Booking: Create → Start, picked from the list or typed', () => {
	test('node version 1.2 offers the list; workflows saved with 1 or 1.1 keep the date picker they were made with', async () => {
		const { description } = (await getEngine()).nodeTypes.getByNameAndVersion(NODE_TYPE);
		const values = { resource: 'booking', operation: 'create' };
		// n8n's own rule for what the editor shows a node of each version.
		const startField = (typeVersion: number) =>
			(description.properties as INodeProperties[])
				.filter((property) => property.name === 'start' && NodeHelpers.displayParameter(values, property, { typeVersion } as INode, description))
				.map((property) => property.type);
		expect(description.defaultVersion ?? Math.max(...(description.version as number[]))).toBe(1.2);
		expect([1, 1.1, 1.2].map(startField)).toEqual([['dateTime'], ['dateTime'], ['resourceLocator']]);
	});

	const slotOf = (value: string) => ({ __rl: true, mode: 'list', value, cachedResultName: 'Mon 2027-03-15, 10:00 (Europe/Berlin)' });
	const typed = (value: string) => ({ __rl: true, mode: 'dateTime', value });
	const startSent = async () => ((await world().requests()).map(wire).find((request) => request.method === 'POST')?.body as IDataObject | undefined)?.start;

	test('a slot picked from the list is sent as it is (the API\'s start with its offset)', async () => {
		const id = await world().createMeetingType('Start From List');
		const { items, error } = await world().runNode(create(id, '', 'list@example.com', { start: slotOf('2027-03-15T10:00:00+01:00') }), world().pat());
		expect(error).toBeUndefined();
		expect(await startSent()).toBe('2027-03-15T10:00:00+01:00');
		expect(items[0]).toMatchObject({ status: 'booked', start: '2027-03-15T09:00:00.000Z' });
	});

	test('Date and Time: typed without an offset it is read in the attendee\'s zone; a Luxon moment from an expression is sent with its offset', async () => {
		const id = await world().createMeetingType('Start Typed');
		await world().runNode(create(id, '', 'typed@example.com', { start: typed('2027-03-15T08:30:00'), additionalFields: { timezone: 'Europe/London' } }), world().pat());
		expect(await startSent()).toBe('2027-03-15T08:30:00+00:00');
		await world().clearRequests();
		const luxon = typed('={{ DateTime.fromISO("2027-03-15T11:00:00", { zone: "Europe/Berlin" }) }}');
		const { error } = await world().runNode(create(id, '', 'luxon@example.com', { start: luxon }), world().pat());
		expect(error).toBeUndefined();
		expect(await startSent()).toBe('2027-03-15T11:00:00.000+01:00');
	});

	test('Date and Time: a value that is not a moment is refused before sending, in the words the editor shows under the field', async () => {
		const id = await world().createMeetingType('Start Refused');
		const cases: Array<[IDataObject, string]> = [
			[typed('={{ "next monday" }}'), 'Start must be a date and time such as 2026-03-09T10:00:00+01:00 (an offset is optional); "next monday" is not'],
			[typed('={{ "2027-02-30T10:00:00" }}'), 'Start must be a real date; 2027-02-30 does not exist'],
			[slotOf('={{ "" }}'), 'Start is required'],
		];
		for (const [start, message] of cases) {
			const { error } = await world().runNode(create(id, '', 'refused@example.com', { start }), world().pat());
			expect(error?.message).toBe(message);
		}
		expect(await world().requests()).toEqual([]);
	});

	test('a workflow saved before Start offered the list (a plain date text, or an expression) loads and books as it did', async () => {
		const id = await world().createMeetingType('Start Saved Before');
		// As n8n stored the date picker's value: text without an offset (read in the workflow's zone), or an expression.
		const saved = [
			{ start: '2027-03-23T14:00:00', email: 'saved@example.com' },
			{ start: '={{ $json.at }}', email: 'expression@example.com' },
		];
		for (const { start, email } of saved) {
			const { items, error } = await world().runNode(create(id, start, email), world().pat(), { timezone: 'Europe/Berlin', input: [{ at: '2027-03-23T15:00:00+01:00' }], version: 1 });
			expect({ start, error }).toEqual({ start, error: undefined });
			expect(items[0].status).toBe('booked');
		}
		const posted = (await world().requests()).filter((request) => request.method === 'POST').map((request) => (request.body as IDataObject).start);
		expect(posted).toEqual(['2027-03-23T14:00:00+01:00', '2027-03-23T15:00:00+01:00']);
	});
});

describe('Booking: Create → Start, the list of open slots', () => {
	/** The list reads from today on (this machine's date), so the API's clock is set to now for these tests. */
	beforeAll(async () => {
		await world().control('POST', '/__sandbox/clock/set', { now: new Date().toISOString() });
	});

	afterAll(async () => {
		await world().control('POST', '/__sandbox/clock/set', { now: '2027-03-01T00:00:00Z' });
	});

	const DAY_MS = 86_400_000;
	const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);
	const weekday = (date: string) => new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', { weekday: 'short', timeZone: 'UTC' });
	/** What the list shows for each slot of the API's answer: the local time the API gives, and its zone. */
	const shown = (answer: IDataObject) =>
		(answer.dates as Array<{ date: string; spots: Array<{ startTime: string }> }>).flatMap(({ date, spots }) =>
			spots.map(({ startTime }) => ({ name: `${weekday(date)} ${date}, ${startTime.slice(11, 16)} (${String(answer.timezone)})`, value: startTime })),
		);
	const parameters = (meetingTypeId: IDataObject, additionalFields: IDataObject = {}) => ({ resource: 'booking', operation: 'create', meetingTypeId, additionalFields });

	test('reads the meeting type for its host, then the open slots of today and the next 13 days in one request, shown in the host\'s zone', async () => {
		const id = await world().createMeetingType('List Default Hosts');
		const { result, error } = await world().listSearch('searchOpenSlots', parameters(byId(id)), world().pat());
		expect(error).toBeUndefined();
		const query = `meetingTypeId=${id}&start=${day(0)}&end=${day(13)}&hostIds=${owner().id}`;
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: `/v4/meeting-type/${id}`, query: '', headers: world().patHeaders(), body: null },
			{ method: 'GET', path: '/v4/booking-availability', query, headers: world().patHeaders(), body: null },
		]);
		const answer = (await world().api('GET', `/v4/booking-availability?${query}`, ownerPat())).body;
		expect(answer.timezone).toBe('Europe/Berlin');
		expect(result).toEqual({ results: shown(answer) });
		expect(result!.results.length).toBeGreaterThan(100);
		expect(result!.results[0].name).toMatch(/^(Mon|Tue|Wed|Thu|Fri) \d{4}-\d{2}-\d{2}, \d{2}:\d{2} \(Europe\/Berlin\)$/);
	});

	test('Hosts and Duration set in the node are asked for as Create sends them (no meeting type read); the filter searches what is shown', async () => {
		const id = await world().createMeetingType('List Given Hosts');
		const { result } = await world().listSearch('searchOpenSlots', parameters(byId(id), { hostIds: [owner().id], duration: 480 }), world().pat(), '09:00');
		const query = `meetingTypeId=${id}&start=${day(0)}&end=${day(13)}&hostIds=${owner().id}&meetingDuration=480`;
		expect((await world().requests()).map((request) => `${request.method} ${request.path}?${request.query}`)).toEqual([`GET /v4/booking-availability?${query}`]);
		const answer = (await world().api('GET', `/v4/booking-availability?${query}`, ownerPat())).body;
		// Eight hours a day: one slot a working day, at 09:00.
		expect(result).toEqual({ results: shown(answer) });
		expect(result!.results.every(({ name }) => name.endsWith(', 09:00 (Europe/Berlin)'))).toBe(true);
		const monday = await world().listSearch('searchOpenSlots', parameters(byId(id), { hostIds: [owner().id], duration: 480 }), world().pat(), 'Mon');
		expect(monday.result!.results.map(({ name }) => name.slice(0, 4))).toEqual(shown(answer).filter(({ name }) => name.startsWith('Mon')).map(() => 'Mon '));
	});

	test('no open slot in the window is an empty list, not an error', async () => {
		const id = await world().createMeetingType('List None Open');
		await world().api('PATCH', `/v4/meeting-type/${id}`, ownerPat(), { body: { bookingMinimum: 30 * 24 * 60 } });
		expect(await world().listSearch('searchOpenSlots', parameters(byId(id)), world().pat())).toEqual({ result: { results: [] } });
	});

	test('without a meeting type it says to choose one, sending nothing; the API\'s errors reach the list with their fix', async () => {
		for (const meetingTypeId of [{ __rl: true, mode: 'list', value: '' }, byId('={{ $json.meetingTypeId }}')]) {
			const { error } = await world().listSearch('searchOpenSlots', parameters(meetingTypeId), world().pat());
			expect(error?.message).toBe('Choose a Meeting Type first. The list shows the open slots of the meeting type chosen above.');
		}
		expect(await world().requests()).toEqual([]);
		const id = await world().createMeetingType('List Unknown Queue');
		const queueId = '6f1c2a7e-1b2c-4d5e-8f90-123456789abc';
		const { error } = await world().listSearch('searchOpenSlots', parameters(byId(id), { queueId }), world().pat());
		expect((await world().requests()).map((request) => request.query)).toEqual([`meetingTypeId=${id}&start=${day(0)}&end=${day(13)}&queueId=${queueId}`]);
		expect(error?.message).toMatch(/^Queue not found \(HTTP 404\)\. /);
	});
});
