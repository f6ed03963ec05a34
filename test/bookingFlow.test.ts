import type { IDataObject } from 'n8n-workflow';

import { byId, useWorld } from './harness/world';

/**
 * The booking journey a no-code builder wires up, through n8n's engine end to end:
 * find the first open slot → book it → the same slot again fails (1 spot) → cancel → the slot is open again.
 * "Now" is Monday 2027-03-01 00:00 UTC; the seed owner Ada works Mon–Fri 09:00–17:00 Europe/Berlin.
 */

const world = useWorld();

let meetingTypeId: string;

const findSlots = () => ({
	resource: 'booking',
	operation: 'getSlots',
	meetingTypeId: byId(meetingTypeId),
	start: '2027-03-03',
	end: '2027-03-03',
	timezone: 'America/New_York',
	output: 'raw',
});

const book = (start: string) => ({
	resource: 'booking',
	operation: 'create',
	meetingTypeId: byId(meetingTypeId),
	start,
	email: 'grace@client.example',
	firstName: 'Grace',
	lastName: 'Hopper',
});

function firstSlot(answer: IDataObject): string | undefined {
	const dates = answer.dates as Array<{ spots: Array<{ startTime: string }> }>;
	return dates[0]?.spots[0]?.startTime;
}

beforeAll(async () => {
	await world().control('POST', '/__sandbox/clock/set', { now: '2027-03-01T00:00:00Z' });
	meetingTypeId = await world().createMeetingType('Intro Call', { duration: 45 });
});

describe('Booking flow through the engine', () => {
	let appointmentId: string;

	test('Get Open Slots → Create books the first open slot', async () => {
		const { outputs, error } = await world().runChain(
			[
				{ name: 'Find Slots', parameters: findSlots() },
				{ name: 'Book First Slot', parameters: book('={{ $json.dates[0].spots[0].startTime }}') },
			],
			world().pat(),
		);
		expect(error).toBeUndefined();
		// Wednesday 09:00 in Berlin (+01:00) is 03:00 in New York (-05:00): the first slot of that day.
		expect(firstSlot(outputs['Find Slots'][0])).toBe('2027-03-03T03:00:00-05:00');
		expect(outputs['Book First Slot']).toEqual([expect.objectContaining({ status: 'booked', appointmentId: expect.any(String), secret: expect.any(String) })]);
		appointmentId = outputs['Book First Slot'][0].appointmentId as string;

		const posted = (await world().requests()).filter((request) => request.method === 'POST');
		expect(posted.map((request) => [request.path, (request.body as IDataObject).start, request.status])).toEqual([
			['/v4/booking', '2027-03-03T03:00:00-05:00', 201],
		]);
		// The node's item is the appointment as the API has it: a later node maps its start and attendee.
		const appointment = await world().api('GET', `/v4/appointment/${appointmentId}`, world().seed.credentials.ownerPat);
		expect(outputs['Book First Slot'][0]).toEqual({ status: 'booked', appointmentId, ...appointment.body });
		expect(appointment.body).toMatchObject({
			start: '2027-03-03T08:00:00.000Z',
			end: '2027-03-03T08:45:00.000Z',
			isCancelled: false,
			attendees: [expect.objectContaining({ email: 'grace@client.example', firstname: 'Grace', lastname: 'Hopper' })],
		});

		const after = await world().runNode(findSlots(), world().pat());
		expect(firstSlot(after.items[0])).toBe('2027-03-03T03:45:00-05:00');
	});

	test('booking the same slot again fails with a clear 409 and creates nothing', async () => {
		const { error, items } = await world().runNode(book('2027-03-03T03:00:00-05:00'), world().pat());
		expect(items).toEqual([]);
		expect(error?.message).toBe('The requested time slot is not available (HTTP 409)');
		expect(error?.description).toContain('The requested time slot is not available');
		const listed = await world().api('GET', '/v4/appointment/paginated?page=0&pageSize=100', world().seed.credentials.ownerPat);
		expect(listed.body.total).toBe(1);
	});

	test('cancelling the appointment frees the slot again', async () => {
		const cancel = await world().runNode(
			{ resource: 'appointment', operation: 'cancel', appointmentId: byId(appointmentId), cancelFor: 'all', additionalFields: { reason: 'Client asked to move it' } },
			world().pat(),
		);
		expect(cancel.error).toBeUndefined();
		expect(cancel.items).toEqual([
			expect.objectContaining({ id: appointmentId, isCancelled: true, cancel: expect.objectContaining({ reason: 'Client asked to move it' }) }),
		]);
		const again = await world().runNode(findSlots(), world().pat());
		expect(firstSlot(again.items[0])).toBe('2027-03-03T03:00:00-05:00');
		const rebooked = await world().runNode(book('2027-03-03T03:00:00-05:00'), world().pat());
		expect(rebooked.items).toEqual([expect.objectContaining({ status: 'booked', appointmentId: expect.any(String), secret: expect.any(String), start: '2027-03-03T08:00:00.000Z' })]);
		expect(rebooked.items[0].appointmentId).not.toBe(appointmentId);
	});
});
