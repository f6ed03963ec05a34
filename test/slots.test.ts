import type { IDataObject } from 'n8n-workflow';

import { byId, useWorld, wire } from './harness/world';

/**
 * Open slots worked out by hand. "Now" is put at 2027-03-01 (a Monday), before every date used.
 * 2027 calendar: Mon 8, Wed 10, Thu 11, Fri 12, Sun 14, Fri 26, Mon 29 March.
 * Daylight saving: New York moves from -05:00 to -04:00 on Sun 2027-03-14, Berlin from +01:00 to +02:00
 * on Sun 2027-03-28. Every new user has Mon–Fri 09:00–17:00 in their own time zone and a 30-minute meeting type.
 */

const world = useWorld();

/** An API key minted after the clock jump (the seed's expires 90 days after the real today). */
let key = '';
const apiKey = () => key;

interface Host {
	userId: string;
	availabilityId: string;
	meetingTypeId: string;
}

let hostCount = 0;

/** A new user of the seed company, created through the API. */
async function newHost(timezone: string): Promise<Host> {
	hostCount += 1;
	const created = await world().api('POST', '/v4/user', apiKey(), {
		body: { email: `host${hostCount}@slots.example`, givenName: 'Host', familyName: `Number ${hostCount}`, timezone },
	});
	expect(created.status).toBe(201);
	return created.body as unknown as Host;
}

async function asHost<T = IDataObject>(host: Host, method: string, path: string, body?: unknown): Promise<T> {
	const answer = await world().api(method, path, apiKey(), { actAs: host.userId, body });
	expect(answer.status).toBeLessThan(300);
	return answer.body as T;
}

async function book(host: Host, meetingTypeId: string, start: string, email: string): Promise<IDataObject> {
	return await asHost(host, 'POST', '/v4/booking', {
		meetingTypeId,
		start,
		hostIds: [host.userId],
		attendee: { email, receiveReminders: false, notes: {} },
	});
}

/** Start times from the node's Get Open Slots (one item per slot). */
async function slotStarts(host: Host, meetingTypeId: string, query: IDataObject): Promise<string[]> {
	const { items, error } = await world().runNode(
		{ resource: 'booking', operation: 'getSlots', meetingTypeId: byId(meetingTypeId), ...query },
		world().apiKey(host.userId, apiKey()),
	);
	expect(error).toBeUndefined();
	return items.map((item) => item.startTime as string);
}

beforeAll(async () => {
	await world().control('POST', '/__sandbox/clock/set', { now: '2027-03-01T00:00:00Z' });
	key = (await world().mintApiKey({ lifetimeDays: 90 })).key;
});

describe('Open slots, worked by hand', () => {
	test('(1) a Berlin Mon–Fri 09:00–17:00 schedule read in New York', async () => {
		// Mon 2027-03-08: Berlin +01:00, New York -05:00, so Berlin 09:00–17:00 is New York 03:00–11:00.
		// 120-minute grid from 03:00: 03:00, 05:00, 07:00, 09:00 (09:00 + 2 h = 11:00 still fits; 11:00 does not).
		// Sun 03-07 has no hours: the date is not listed. Berlin Tue 09:00 is Tue 03:00 in New York: outside 03-08.
		const host = await newHost('Europe/Berlin');
		await world().clearRequests();
		const { items, error } = await world().runNode(
			{
				resource: 'booking',
				operation: 'getSlots',
				meetingTypeId: byId(host.meetingTypeId),
				start: '2027-03-07',
				end: '2027-03-08',
				timezone: 'America/New_York',
				additionalFields: { duration: 120 },
			},
			world().apiKey(host.userId, apiKey()),
		);
		expect(error).toBeUndefined();
		const slot = (startTime: string) => ({ startTime, date: '2027-03-08', timezone: 'America/New_York', meetingTypeId: host.meetingTypeId });
		expect(items).toEqual([
			slot('2027-03-08T03:00:00-05:00'),
			slot('2027-03-08T05:00:00-05:00'),
			slot('2027-03-08T07:00:00-05:00'),
			slot('2027-03-08T09:00:00-05:00'),
		]);
		const headers = { authorization: `Bearer ${apiKey()}`, 'x-service-api-user-id': host.userId };
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: `/v4/meeting-type/${host.meetingTypeId}`, query: '', headers, body: null },
			{
				method: 'GET',
				path: '/v4/booking-availability',
				query: `meetingTypeId=${host.meetingTypeId}&start=2027-03-07&end=2027-03-08&timezone=America%2FNew_York&meetingDuration=120&hostIds=${host.userId}`,
				headers,
				body: null,
			},
		]);
	});

	test('(2) across daylight-saving changes the local 09:00 keeps its wall time and the offset changes', async () => {
		// Berlin host, 480-minute meetings: one slot per working day, at 09:00 Berlin.
		// Fri 03-26 is still +01:00, Mon 03-29 is +02:00 (the change is Sun 03-28). Sat and Sun have no hours.
		const berlin = await newHost('Europe/Berlin');
		const inBerlin = await slotStarts(berlin, berlin.meetingTypeId, {
			start: '2027-03-26',
			end: '2027-03-29',
			timezone: 'Europe/Berlin',
			additionalFields: { duration: 480 },
		});
		expect(inBerlin).toEqual(['2027-03-26T09:00:00+01:00', '2027-03-29T09:00:00+02:00']);

		// New York host read in Berlin. Fri 03-12: New York 09:00 -05:00 = 14:00Z = 15:00 Berlin (+01:00).
		// Mon 03-15: New York 09:00 -04:00 = 13:00Z = 14:00 Berlin (Berlin has not changed yet).
		const newYork = await newHost('America/New_York');
		const readInBerlin = await slotStarts(newYork, newYork.meetingTypeId, {
			start: '2027-03-12',
			end: '2027-03-15',
			timezone: 'Europe/Berlin',
			additionalFields: { duration: 480 },
		});
		expect(readInBerlin).toEqual(['2027-03-12T15:00:00+01:00', '2027-03-15T14:00:00+01:00']);

		// The same read in New York: 09:00 both days, the offset moves from -05:00 to -04:00.
		const readInNewYork = await slotStarts(newYork, newYork.meetingTypeId, {
			start: '2027-03-12',
			end: '2027-03-15',
			timezone: 'America/New_York',
			additionalFields: { duration: 480 },
		});
		expect(readInNewYork).toEqual(['2027-03-12T09:00:00-05:00', '2027-03-15T09:00:00-04:00']);
	});

	test('(3) a blocked exception over part of a day cuts the hours and the grid restarts after it', async () => {
		// Wed 2027-03-10, Berlin +01:00. Blocked 10:00–12:30. Open: 09:00–10:00 and 12:30–17:00.
		// 60-minute grid: 09:00 | 12:30, 13:30, 14:30, 15:30 (16:30 + 1 h = 17:30 does not fit).
		const host = await newHost('Europe/Berlin');
		await asHost(host, 'POST', '/availability-exception', {
			availabilityId: host.availabilityId,
			available: false,
			start: '2027-03-10T10:00:00+01:00',
			end: '2027-03-10T12:30:00+01:00',
			title: 'Dentist',
		});
		const starts = await slotStarts(host, host.meetingTypeId, {
			start: '2027-03-10',
			end: '2027-03-10',
			timezone: 'Europe/Berlin',
			additionalFields: { duration: 60 },
		});
		expect(starts).toEqual([
			'2027-03-10T09:00:00+01:00',
			'2027-03-10T12:30:00+01:00',
			'2027-03-10T13:30:00+01:00',
			'2027-03-10T14:30:00+01:00',
			'2027-03-10T15:30:00+01:00',
		]);
	});

	test('(4) an extra-time exception opens a Sunday', async () => {
		// Sun 2027-03-14 has no weekly hours. Extra time 10:00–12:00 Berlin (+01:00), 30-minute meeting type:
		// 10:00, 10:30, 11:00, 11:30.
		const host = await newHost('Europe/Berlin');
		await asHost(host, 'POST', '/availability-exception', {
			availabilityId: host.availabilityId,
			available: true,
			start: '2027-03-14T10:00:00+01:00',
			end: '2027-03-14T12:00:00+01:00',
		});
		const starts = await slotStarts(host, host.meetingTypeId, { start: '2027-03-13', end: '2027-03-14', timezone: 'Europe/Berlin' });
		expect(starts).toEqual(['2027-03-14T10:00:00+01:00', '2027-03-14T10:30:00+01:00', '2027-03-14T11:00:00+01:00', '2027-03-14T11:30:00+01:00']);
	});

	test('(5) the meeting type\'s buffers keep their distance from an existing appointment', async () => {
		// Thu 2027-03-11, Berlin +01:00. An appointment 12:00–12:30 (the 30-minute type, no buffers).
		// Buffered type: 60 minutes, 30 before, 15 after. Slot s is blocked when [s − 30 min, s + 75 min] overlaps 12:00–12:30:
		// 09:00 [08:30–10:15] free; 10:00 [09:30–11:15] free; 11:00 [10:30–12:15] blocked; 12:00 blocked;
		// 13:00 [12:30–14:15] free (touching is no overlap); 14:00, 15:00, 16:00 free.
		const host = await newHost('Europe/Berlin');
		const buffered = await asHost(host, 'POST', '/v4/meeting-type', {
			meetingInfo: { name: 'Buffered', description: '', duration: 60, channel: 'phone', bufferBefore: 30, bufferAfter: 15 },
		});
		await book(host, host.meetingTypeId, '2027-03-11T12:00:00+01:00', 'early@buffers.example');
		const starts = await slotStarts(host, buffered.id as string, { start: '2027-03-11', end: '2027-03-11', timezone: 'Europe/Berlin' });
		expect(starts).toEqual([
			'2027-03-11T09:00:00+01:00',
			'2027-03-11T10:00:00+01:00',
			'2027-03-11T13:00:00+01:00',
			'2027-03-11T14:00:00+01:00',
			'2027-03-11T15:00:00+01:00',
			'2027-03-11T16:00:00+01:00',
		]);
	});

	test('(5b) with Buffers Stay Within Working Hours, a slot whose buffers fall outside the hours is not offered nor bookable', async () => {
		// Mon 2027-03-15, Berlin +01:00, 09:00–17:00. 60 minutes, 30 before, 15 after, on the 60-minute grid from 09:00:
		// without the switch 09:00 … 16:00; with it 09:00 goes ([08:30–10:15] starts before 09:00) and 16:00 goes
		// ([15:30–17:15] ends after 17:00). Switched on through the node's Update.
		const host = await newHost('Europe/Berlin');
		const buffered = await asHost(host, 'POST', '/v4/meeting-type', {
			meetingInfo: { name: 'Inside Hours', description: '', duration: 60, channel: 'phone', bufferBefore: 30, bufferAfter: 15 },
		});
		const id = buffered.id as string;
		const day = { start: '2027-03-15', end: '2027-03-15', timezone: 'Europe/Berlin' };
		const hours = ['09', '10', '11', '12', '13', '14', '15', '16'].map((hour) => `2027-03-15T${hour}:00:00+01:00`);
		expect(await slotStarts(host, id, day)).toEqual(hours);
		const { error } = await world().runNode(
			{ resource: 'meetingType', operation: 'update', meetingTypeId: byId(id), updateFields: { bufferMustStayWithinWorkingHours: true } },
			world().apiKey(host.userId, apiKey()),
		);
		expect(error).toBeUndefined();
		expect(await slotStarts(host, id, day)).toEqual(hours.slice(1, -1));
		const early = await world().api('POST', '/v4/booking', apiKey(), {
			actAs: host.userId,
			body: { meetingTypeId: id, start: hours[0], hostIds: [host.userId], attendee: { email: 'early@hours.example', receiveReminders: false, notes: {} } },
		});
		expect([early.status, early.body.message]).toEqual([409, 'The requested time slot is not available']);
	});

	test('(6) a group meeting type with 3 spots keeps the slot until the third booking', async () => {
		// Fri 2027-03-12, Berlin +01:00, 120-minute group type with 3 spots: 09:00, 11:00, 13:00, 15:00.
		// Three bookings at 11:00 join one appointment; after the third, 11:00 is gone.
		const host = await newHost('Europe/Berlin');
		const group = await asHost(host, 'POST', '/v4/meeting-type', {
			meetingInfo: { name: 'Workshop', description: '', duration: 120, channel: 'zoom' },
			spots: 3,
		});
		const groupId = group.id as string;
		const query = { start: '2027-03-12', end: '2027-03-12', timezone: 'Europe/Berlin' };
		const all = ['2027-03-12T09:00:00+01:00', '2027-03-12T11:00:00+01:00', '2027-03-12T13:00:00+01:00', '2027-03-12T15:00:00+01:00'];

		const first = await book(host, groupId, '2027-03-12T11:00:00+01:00', 'one@group.example');
		expect(await slotStarts(host, groupId, query)).toEqual(all);
		const second = await book(host, groupId, '2027-03-12T11:00:00+01:00', 'two@group.example');
		expect(await slotStarts(host, groupId, query)).toEqual(all);
		const third = await book(host, groupId, '2027-03-12T11:00:00+01:00', 'three@group.example');
		expect(await slotStarts(host, groupId, query)).toEqual(['2027-03-12T09:00:00+01:00', '2027-03-12T13:00:00+01:00', '2027-03-12T15:00:00+01:00']);

		expect(new Set([first.appointmentId, second.appointmentId, third.appointmentId]).size).toBe(1);
		const appointment = await asHost(host, 'GET', `/v4/appointment/${first.appointmentId as string}`);
		expect((appointment.attendees as IDataObject[]).map((attendee) => attendee.email)).toEqual(['one@group.example', 'two@group.example', 'three@group.example']);
		const fourth = await world().api('POST', '/v4/booking', apiKey(), {
			actAs: host.userId,
			body: { meetingTypeId: groupId, start: '2027-03-12T11:00:00+01:00', hostIds: [host.userId], attendee: { email: 'four@group.example', receiveReminders: false, notes: {} } },
		});
		expect(fourth).toEqual({ status: 409, body: { statusCode: 409, message: 'The requested time slot is not available', error: 'Conflict' } });
	});

	test('(7) a slot must start after now', async () => {
		// Now: Tue 2027-03-02 10:10 Berlin (+01:00). The 30-minute grid 09:00 … 16:30 keeps 10:30 … 16:30 (13 starts).
		const host = await newHost('Europe/Berlin');
		await world().control('POST', '/__sandbox/clock/set', { now: '2027-03-02T10:10:00+01:00' });
		try {
			const starts = await slotStarts(host, host.meetingTypeId, { start: '2027-03-02', end: '2027-03-02', timezone: 'Europe/Berlin' });
			const times = ['10:30', '11:00', '11:30', '12:00', '12:30', '13:00', '13:30', '14:00', '14:30', '15:00', '15:30', '16:00', '16:30'];
			expect(starts).toEqual(times.map((time) => `2027-03-02T${time}:00+01:00`));
		} finally {
			await world().control('POST', '/__sandbox/clock/set', { now: '2027-03-01T00:00:00Z' });
		}
	});

	test('"everyone" keeps only the starts where every host is free; "anyone" takes either', async () => {
		// Berlin host A and New York host B, Mon 2027-03-08, 60-minute grid, read in UTC.
		// A: Berlin 09:00–17:00 (+01:00) = 08:00–16:00Z. B: New York 09:00–17:00 (-05:00) = 14:00–22:00Z.
		// Both free: 14:00Z and 15:00Z. Anyone: 08:00Z … 21:00Z, 14 starts.
		const hostA = await newHost('Europe/Berlin');
		const hostB = await newHost('America/New_York');
		const query = { start: '2027-03-08', end: '2027-03-08', timezone: 'UTC' };
		const hostIds = [hostA.userId, hostB.userId];
		const everyone = await slotStarts(hostA, hostA.meetingTypeId, {
			...query,
			additionalFields: { duration: 60, hostIds, calculationMethod: 'everyone' },
		});
		expect(everyone).toEqual(['2027-03-08T14:00:00+00:00', '2027-03-08T15:00:00+00:00']);
		const anyone = await slotStarts(hostA, hostA.meetingTypeId, { ...query, additionalFields: { duration: 60, hostIds } });
		const hours = ['08', '09', '10', '11', '12', '13', '14', '15', '16', '17', '18', '19', '20', '21'];
		expect(anyone).toEqual(hours.map((hour) => `2027-03-08T${hour}:00:00+00:00`));
	});
});
