import type { IDataObject } from 'n8n-workflow';

import { byId, useWorld, wire } from './harness/world';

const world = useWorld();

const owner = () => world().seed.users.owner;
const member = () => world().seed.users.member;
const ownerPat = () => world().seed.credentials.ownerPat;

/** The owner's "30 Minute Meeting"; two colleagues in Berlin, free Mon–Fri 09:00–17:00 like the owner. */
let thirty: string;
let cleo: string;
let carl: string;

const NOT_FREE = 'The new host is not available at this time';
const CONFLICT = 'The request conflicts with the current state of the resource. The API says:';

async function colleague(givenName: string): Promise<string> {
	const user = (await world().control('POST', '/__sandbox/users', {
		companyId: world().seed.companies.acme.id,
		email: `${givenName.toLowerCase()}@acme.example`,
		givenName,
		familyName: 'Colleague',
		timezone: 'Europe/Berlin',
	})) as { id: string };
	return user.id;
}

/** Books the 30-minute meeting with this host through the API; the request log is cleared after. */
async function bookWith(hostId: string, start: string): Promise<string> {
	const booked = await world().api('POST', '/v4/booking', ownerPat(), {
		body: { meetingTypeId: thirty, start, hostIds: [hostId], attendee: { email: 'guest@example.com', fullname: 'Guest', receiveReminders: false, notes: {} } },
	});
	if (booked.status !== 201) throw new Error(`Booking failed: ${JSON.stringify(booked.body)}`);
	await world().clearRequests();
	return booked.body.appointmentId as string;
}

/** The open 30-minute slot times (Berlin, HH:mm) of one host on a day; the request log is cleared after. */
async function slotsOf(hostId: string, date: string): Promise<string[]> {
	const query = `meetingTypeId=${thirty}&hostIds=${hostId}&start=${date}&end=${date}&timezone=Europe/Berlin`;
	const answer = await world().api('GET', `/v4/booking-availability?${query}`, ownerPat());
	await world().clearRequests();
	const dates = answer.body.dates as Array<{ spots: Array<{ startTime: string }> }>;
	return dates.flatMap(({ spots }) => spots.map(({ startTime }) => startTime.slice(11, 16)));
}

async function appointment(id: string): Promise<IDataObject> {
	const answer = await world().api('GET', `/v4/appointment/${id}`, ownerPat());
	await world().clearRequests();
	return answer.body;
}

beforeAll(async () => {
	// Sunday 1 March 2026, 13:00 in Berlin: the week ahead is bookable Mon–Fri 09:00–17:00.
	await world().control('POST', '/__sandbox/clock/set', { now: '2026-03-01T12:00:00Z' });
	await world().control('POST', '/__sandbox/rate-limit', { perMinute: 10000, burst: 10000 });
	thirty = (await world().meetingType('30 Minute Meeting')).id;
	cleo = await colleague('Cleo');
	carl = await colleague('Carl');
});

describe('Handoff: Hand Off Appointment', () => {
	test('hands the appointment to a colleague: its host changes and the open slots of both hosts follow', async () => {
		const id = await bookWith(owner().id, '2026-03-02T09:00:00+01:00');
		expect((await slotsOf(owner().id, '2026-03-02')).slice(0, 2)).toEqual(['09:30', '10:00']);
		expect((await slotsOf(cleo, '2026-03-02')).slice(0, 2)).toEqual(['09:00', '09:30']);
		const before = await appointment(id);
		const { items, error } = await world().runNode(
			// A queue ID left over from before is hidden (Hand Off To = User): it is not read, not sent.
			{ resource: 'handoff', operation: 'handOffAppointment', appointmentId: byId(id), handOffTo: 'user', userId: byId(cleo), queueId: 'left-over' },
			world().pat(),
		);
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'POST', path: '/v4/handoff/appointment', query: '', headers: world().patHeaders(ownerPat(), true), body: { appointmentId: id, userId: cleo } },
		]);
		expect(items).toEqual([{ ...before, userId: cleo, hostIds: [cleo], updatedAt: expect.any(String) }]);
		expect((await slotsOf(owner().id, '2026-03-02')).slice(0, 2)).toEqual(['09:00', '09:30']);
		expect((await slotsOf(cleo, '2026-03-02')).slice(0, 2)).toEqual(['09:30', '10:00']);
	});

	test('a new host who is not free answers 409; the host whose slot it already is may take it', async () => {
		const id = await bookWith(owner().id, '2026-03-02T11:00:00+01:00');
		// 05:00 in New York: outside the member's working hours.
		const busy = await world().runNode({ resource: 'handoff', operation: 'handOffAppointment', appointmentId: byId(id), userId: byId(member().id) }, world().pat());
		expect(busy.error?.httpCode).toBe('409');
		expect(busy.error?.description).toBe(`${CONFLICT} ${NOT_FREE}. Pick a host who is free at the appointment's time (Handoff → Get Handoff Options shows who is), or turn on Ignore Availability.`);
		expect((await appointment(id)).hostIds).toEqual([owner().id]);
		// Moved out of the owner's working hours: only the owner, whose appointment it is, may still be its host.
		await world().api('POST', `/v4/appointment/${id}/reschedule`, ownerPat(), { body: { start: '2026-03-02T20:00:00+01:00', ignoreAvailability: true } });
		const toCleo = await world().api('POST', '/v4/handoff/appointment', ownerPat(), { body: { appointmentId: id, userId: cleo } });
		expect(toCleo).toEqual({ status: 409, body: { statusCode: 409, message: NOT_FREE, error: 'Conflict' } });
		const toOwner = await world().api('POST', '/v4/handoff/appointment', ownerPat(), { body: { appointmentId: id, userId: owner().id } });
		expect(toOwner.status).toBe(200);
		expect(toOwner.body).toMatchObject({ id, userId: owner().id, hostIds: [owner().id] });
	});

	test('a cancelled appointment cannot be handed off; an unknown queue is 404; exactly one target in the API\'s words', async () => {
		const id = await bookWith(owner().id, '2026-03-02T12:00:00+01:00');
		await world().api('POST', `/v4/appointment/${id}/cancel`, ownerPat(), { body: { cancelAll: true } });
		await world().clearRequests();
		const cancelled = await world().runNode({ resource: 'handoff', operation: 'handOffAppointment', appointmentId: byId(id), userId: byId(cleo) }, world().pat());
		expect(cancelled.error?.description).toBe(`${CONFLICT} A cancelled appointment cannot be handed off. The appointment is cancelled and can no longer be changed: book a new one with Booking → Create (Appointment → Get shows its state).`);
		const queueId = '0b7e6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f';
		const queue = await world().runNode(
			{ resource: 'handoff', operation: 'handOffAppointment', appointmentId: byId(id), handOffTo: 'queue', queueId, userId: byId(cleo) },
			world().pat(),
		);
		expect(queue.error?.httpCode).toBe('404');
		expect(queue.error?.description).toContain('Queue not found');
		const group = await world().runNode(
			{ resource: 'handoff', operation: 'handOffAppointment', appointmentId: byId(id), handOffTo: 'queueGroup', queueGroupId: 'sales-team' },
			world().pat(),
		);
		expect(group.error?.description).toContain('Queue group not found');
		expect((await world().requests()).map((request) => request.body)).toEqual([
			{ appointmentId: id, userId: cleo },
			{ appointmentId: id, queueId },
			{ appointmentId: id, queueGroupId: 'sales-team' },
		]);
		const bad = { statusCode: 400, message: 'Expected exactly one of userId, queueId or queueGroupId', error: 'Bad Request' };
		expect(await world().api('POST', '/v4/handoff/appointment', ownerPat(), { body: { appointmentId: id } })).toEqual({ status: 400, body: bad });
		expect(await world().api('POST', '/v4/handoff/appointment', ownerPat(), { body: { appointmentId: id, userId: cleo, queueId } })).toEqual({ status: 400, body: bad });
	});

	test('refuses no new host, no queue ID or no appointment before sending; a queue ID of any form is sent as it is', async () => {
		const base = { resource: 'handoff', operation: 'handOffAppointment', appointmentId: byId('3b9d6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f') };
		const noUser = await world().runNode({ ...base, handOffTo: 'user', userId: byId('={{ "" }}') }, world().pat());
		expect(noUser.error?.message).toBe('User is required');
		const noQueue = await world().runNode({ ...base, handOffTo: 'queue', queueId: '={{ "" }}' }, world().pat());
		expect(noQueue.error?.message).toBe('Queue ID is required');
		const noAppointment = await world().runNode({ ...base, appointmentId: byId('={{ $json.id }}'), userId: byId(cleo) }, world().pat());
		expect(noAppointment.error?.message).toBe('Appointment is required');
		expect(await world().requests()).toEqual([]);
		// The reference shows no form of a queue's ID: the API answers for it.
		const otherForm = await world().runNode({ ...base, appointmentId: byId('appt-7'), handOffTo: 'queue', queueId: 'sales' }, world().pat());
		expect(otherForm.error?.description).toContain('Queue not found');
		expect((await world().requests()).map((request) => [request.path, request.body, request.status])).toEqual([
			['/v4/handoff/appointment', { appointmentId: 'appt-7', queueId: 'sales' }, 404],
		]);
	});
});

describe('Handoff: Get Handoff Options', () => {
	test('one item per user who could take the appointment, blocked when not free at its time', async () => {
		const id = await bookWith(owner().id, '2026-03-02T14:00:00+01:00');
		const { items, error } = await world().runNode({ resource: 'handoff', operation: 'getOptions', appointmentId: byId(id) }, world().pat());
		expect(error).toBeUndefined();
		expect(items).toEqual([
			{ id: member().id, firstname: 'Max', lastname: 'Member', picture: null, blocked: true },
			{ id: cleo, firstname: 'Cleo', lastname: 'Colleague', picture: null, blocked: false },
			{ id: carl, firstname: 'Carl', lastname: 'Colleague', picture: null, blocked: false },
		]);
		// Sunday: nobody is inside their working hours, so nobody is online.
		const online = await world().runNode({ resource: 'handoff', operation: 'getOptions', appointmentId: byId(''), filters: { isOnline: true } }, world().pat());
		expect(online.items).toEqual([]);
		const channel = await world().runNode({ resource: 'handoff', operation: 'getOptions', filters: { channelId: 'whatsapp-1' } }, world().pat());
		expect(channel.error?.description).toContain('Channel not found');
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: '/v4/handoff/available-handoffs', query: `appointmentId=${id}`, headers: world().patHeaders(), body: null },
			{ method: 'GET', path: '/v4/handoff/available-handoffs', query: 'isOnline=true', headers: world().patHeaders(), body: null },
			{ method: 'GET', path: '/v4/handoff/available-handoffs', query: 'channelId=whatsapp-1', headers: world().patHeaders(), body: null },
		]);
	});
});

describe('Handoff: Hand Off Many', () => {
	const many = { resource: 'handoff', operation: 'handOffMany', currentHostIds: [] as string[], start: '2026-03-03T00:00:00+01:00', end: '2026-03-04T00:00:00+01:00' };

	test('round robin moves the period\'s appointments in turn; a busy new host is a conflict item; slots of all hosts follow', async () => {
		const nine = await bookWith(owner().id, '2026-03-03T09:00:00+01:00');
		const ten = await bookWith(owner().id, '2026-03-03T10:00:00+01:00');
		const eleven = await bookWith(owner().id, '2026-03-03T11:00:00+01:00');
		const nextDay = await bookWith(owner().id, '2026-03-04T09:00:00+01:00');
		await bookWith(carl, '2026-03-03T10:00:00+01:00');
		const { items, error } = await world().runNode(
			{ ...many, currentHostIds: [owner().id], handOffTo: 'roundRobin', targetUserIds: [cleo, carl], targetUserId: byId(member().id) },
			world().pat(),
		);
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{
				method: 'POST',
				path: '/v4/handoff/bulk',
				query: '',
				headers: world().patHeaders(ownerPat(), true),
				body: { userId: [owner().id], start: '2026-03-03T00:00:00+01:00', end: '2026-03-04T00:00:00+01:00', targetUserIds: [cleo, carl] },
			},
		]);
		// 09:00 to Cleo, 10:00 to Carl (busy: conflict), 11:00 to Cleo again. The API names conflicts by ID only.
		expect(items).toEqual([
			{ appointmentId: nine, handedOff: true },
			{ appointmentId: eleven, handedOff: true },
			{ appointmentId: ten, handedOff: false },
		]);
		expect((await appointment(nine)).hostIds).toEqual([cleo]);
		expect((await appointment(ten)).hostIds).toEqual([owner().id]);
		expect((await appointment(eleven)).hostIds).toEqual([cleo]);
		expect((await appointment(nextDay)).hostIds).toEqual([owner().id]);
		const owners = await slotsOf(owner().id, '2026-03-03');
		expect(['09:00', '10:00', '11:00'].map((time) => owners.includes(time))).toEqual([true, false, true]);
		const cleos = await slotsOf(cleo, '2026-03-03');
		expect(['09:00', '10:00', '11:00'].map((time) => cleos.includes(time))).toEqual([false, true, false]);
	});

	test('with the availability check round robin skips the busy user; Summary gives the API\'s lists; a named appointment outside the period is a conflict', async () => {
		const ten = await bookWith(owner().id, '2026-03-05T10:00:00+01:00');
		await bookWith(owner().id, '2026-03-05T11:00:00+01:00');
		await bookWith(carl, '2026-03-05T10:00:00+01:00');
		const elsewhere = '9f1c2a7e-1b2c-4d5e-8f90-123456789abc';
		const { items, error } = await world().runNode(
			{
				...many,
				start: '2026-03-05T00:00:00+01:00',
				end: '2026-03-06T00:00:00+01:00',
				currentHostIds: [owner().id],
				handOffTo: 'roundRobin',
				targetUserIds: [carl, cleo],
				output: 'summary',
				additionalFields: { appointmentIds: [ten, elsewhere], enableAvailabilityCheck: true },
			},
			world().pat(),
		);
		expect(error).toBeUndefined();
		expect(items).toEqual([{ success: [ten], conflicts: [elsewhere] }]);
		expect((await world().requests()).map((request) => request.body)).toEqual([
			{
				userId: [owner().id],
				start: '2026-03-05T00:00:00+01:00',
				end: '2026-03-06T00:00:00+01:00',
				targetUserIds: [carl, cleo],
				appointmentIds: [ten, elsewhere],
				enableAvailabilityCheck: true,
			},
		]);
		expect((await appointment(ten)).hostIds).toEqual([cleo]);
	});

	test('one user with Ignore Availability takes every appointment of the period, even outside their hours', async () => {
		const first = await bookWith(owner().id, '2026-03-06T09:00:00+01:00');
		const second = await bookWith(owner().id, '2026-03-06T15:00:00+01:00');
		const { items } = await world().runNode(
			{ ...many, start: '2026-03-06T00:00', end: '2026-03-07T00:00', currentHostIds: [owner().id], handOffTo: 'user', targetUserId: byId(member().id), additionalFields: { ignoreAvailability: true } },
			world().apiKey(owner().id),
			{ timezone: 'Europe/Berlin' },
		);
		expect(items).toEqual([
			{ appointmentId: first, handedOff: true },
			{ appointmentId: second, handedOff: true },
		]);
		expect((await world().requests()).map(wire)).toEqual([
			{
				method: 'POST',
				path: '/v4/handoff/bulk',
				query: '',
				headers: world().keyHeaders(owner().id, true),
				body: { userId: [owner().id], start: '2026-03-06T00:00:00+01:00', end: '2026-03-07T00:00:00+01:00', targetUserId: member().id, ignoreAvailability: true },
			},
		]);
		expect((await appointment(second)).userId).toBe(member().id);
	});

	test('the API answers conflicts as IDs only; an answer without conflicts gives one item per handed-off appointment, and Summary an empty list', async () => {
		const sent = await bookWith(owner().id, '2026-03-05T14:00:00+01:00');
		const taken = await bookWith(owner().id, '2026-03-05T15:00:00+01:00');
		await bookWith(carl, '2026-03-05T15:00:00+01:00');
		const body = { userId: [owner().id], start: '2026-03-05T13:00:00+01:00', end: '2026-03-05T16:00:00+01:00', targetUserId: carl };
		const direct = await world().api('POST', '/v4/handoff/bulk', ownerPat(), { body });
		expect(direct).toEqual({ status: 200, body: { success: [sent], conflicts: [taken] } });

		const answer = { success: ['3b9d6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f', '4c0e7d2f-1a5b-4d3c-8f8e-6b7c8d9e0f1a'] };
		const parameters = { ...many, currentHostIds: [owner().id], handOffTo: 'user', targetUserId: byId(cleo) };
		await world().control('POST', '/__sandbox/faults', { method: 'POST', path: '/v4/handoff/bulk', status: 200, body: answer, times: 2 });
		const perAppointment = await world().runNode(parameters, world().pat());
		expect(perAppointment.error).toBeUndefined();
		expect(perAppointment.items).toEqual(answer.success.map((appointmentId) => ({ appointmentId, handedOff: true })));
		const summary = await world().runNode({ ...parameters, output: 'summary' }, world().pat());
		expect(summary.items).toEqual([{ ...answer, conflicts: [] }]);
	});

	test('refuses no current host, no new host, or End before Start before sending', async () => {
		const base = { ...many, currentHostIds: [owner().id], handOffTo: 'user', targetUserId: byId(cleo) };
		const noHosts = await world().runNode({ ...base, currentHostIds: '={{ [] }}' }, world().pat());
		expect(noHosts.error?.message).toBe('Current Host Names or IDs is required');
		const noUser = await world().runNode({ ...base, targetUserId: byId('={{ "" }}') }, world().pat());
		expect(noUser.error?.message).toBe('User is required');
		const noUsers = await world().runNode({ ...base, handOffTo: 'roundRobin', targetUserIds: '={{ $json.users }}' }, world().pat());
		expect(noUsers.error?.message).toBe('User Names or IDs is required');
		const backwards = await world().runNode({ ...base, start: '2026-03-04T00:00:00+01:00', end: '2026-03-03T00:00:00+01:00' }, world().pat());
		expect(backwards.error?.message).toBe('End (2026-03-03T00:00:00+01:00) must be later than Start (2026-03-04T00:00:00+01:00)');
		const badHosts = await world().runNode({ ...base, currentHostIds: ['ada'] }, world().pat());
		expect(badHosts.error?.message).toBe('Current Host Names or IDs must be an ID in UUID form, such as 6f1c2a7e-1b2c-4d5e-8f90-123456789abc; "ada" is not');
		expect(await world().requests()).toEqual([]);
	});

	test('Appointment IDs of any form are sent as they are (the reference shows no form); empty ones are left out', async () => {
		const base = { ...many, currentHostIds: [owner().id], handOffTo: 'user', targetUserId: byId(cleo) };
		await world().control('POST', '/__sandbox/faults', { method: 'POST', path: '/v4/handoff/bulk', status: 200, body: { success: [], conflicts: [] } });
		const { error } = await world().runNode({ ...base, additionalFields: { appointmentIds: ['abc', '={{ "12345, appt 7" }}', ' '] } }, world().pat());
		expect(error).toBeUndefined();
		expect((await world().requests()).map((request) => (request.body as { appointmentIds: string[] }).appointmentIds)).toEqual([['abc', '12345', 'appt 7']]);
	});

	test('the API wants exactly one of the target fields, and a member may move only their own appointments', async () => {
		const body = { userId: [owner().id], start: '2026-03-03T00:00:00+01:00', end: '2026-03-04T00:00:00+01:00' };
		const neither = await world().api('POST', '/v4/handoff/bulk', ownerPat(), { body });
		expect(neither).toEqual({ status: 400, body: { statusCode: 400, message: 'Expected exactly one of targetUserId or targetUserIds', error: 'Bad Request' } });
		const both = await world().api('POST', '/v4/handoff/bulk', ownerPat(), { body: { ...body, targetUserId: cleo, targetUserIds: [carl] } });
		expect(both.status).toBe(400);
		const backwards = await world().api('POST', '/v4/handoff/bulk', ownerPat(), { body: { ...body, end: body.start, targetUserId: cleo } });
		expect(backwards.body).toEqual({ statusCode: 400, message: ['end must be later than start'], error: 'Bad Request' });
		const asMember = await world().api('POST', '/v4/handoff/bulk', world().seed.credentials.memberPat, { body: { ...body, targetUserId: cleo } });
		expect(asMember).toEqual({ status: 403, body: { statusCode: 403, message: 'Forbidden resource', error: 'Forbidden' } });
	});
});

// Moves the sandbox clock to a working day: keep it last.
test('Get Handoff Options with Online Only lists the users inside their working hours and not in an appointment now', async () => {
	await world().control('POST', '/__sandbox/clock/set', { now: '2026-03-09T10:05:00+01:00' });
	await bookWith(carl, '2026-03-09T10:30:00+01:00');
	await world().control('POST', '/__sandbox/clock/set', { now: '2026-03-09T10:35:00+01:00' });
	const { items } = await world().runNode({ resource: 'handoff', operation: 'getOptions', filters: { isOnline: true } }, world().pat());
	// 04:35 in New York: the member is not at work; Carl is in his appointment.
	expect(items.map((user) => user.id)).toEqual([owner().id, cleo]);
	expect(items.every((user) => user.blocked === false)).toBe(true);
});
