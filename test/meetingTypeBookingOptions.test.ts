import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import { byId, useWorld, wire } from './harness/world';

/**
 * Meeting type booking options (api-reference §2, corrected 2026-11-25): `meetingOptions` on Create and Update, the
 * locations, calendar invite texts, metadata, inline availability and one-time link of Create, and the interval,
 * minimum notice, booking window, availability and internal notes of Update. "Now" is Monday 2027-03-01 00:00 UTC;
 * the owner Ada works Mon–Fri 09:00–17:00 Europe/Berlin (+01:00).
 */

const world = useWorld();

const ownerPat = () => world().seed.credentials.ownerPat;
const owner = () => world().seed.users.owner;

const create = (extra: IDataObject = {}) => ({ resource: 'meetingType', operation: 'create', name: 'Intro Call', duration: 30, ...extra });
const update = (id: string, extra: IDataObject) => ({ resource: 'meetingType', operation: 'update', meetingTypeId: byId(id), ...extra });

/** Runs the node and expects it to stop before sending, with this message. */
async function refused(parameters: IDataObject, message: string): Promise<void> {
	const { error } = await world().runNode(parameters, world().pat());
	expect(error?.message).toBe(message);
	expect(await world().requests()).toEqual([]);
}

/** The open 30-minute starts (HH:mm in Berlin) of a meeting type on a day, read through the API; the log is cleared after. */
async function startsOf(meetingTypeId: string, date: string): Promise<string[]> {
	const answer = await world().api('GET', `/v4/booking-availability?meetingTypeId=${meetingTypeId}&start=${date}&end=${date}&hostIds=${owner().id}`, ownerPat());
	await world().clearRequests();
	const dates = answer.body.dates as Array<{ spots: Array<{ startTime: string }> }>;
	return dates.flatMap(({ spots }) => spots.map(({ startTime }) => startTime.slice(11, 16)));
}

beforeAll(async () => {
	await world().control('POST', '/__sandbox/clock/set', { now: '2027-03-01T00:00:00Z' });
	await world().control('POST', '/__sandbox/rate-limit', { perMinute: 10000, burst: 10000 });
});

describe('Meeting Type: booking options on Create', () => {
	test('every booking option, the locations, the invite texts, the metadata and a one-time link go out under the API\'s keys and come back', async () => {
		const weekend = await world().createAvailability('Weekend', { saturday: { enabled: true, hours: [{ start: '10:00', end: '14:00' }] } });
		const { items, error } = await world().runNode(
			create({
				bookingOptions: {
					allowedDurations: ['15', '30, 60'],
					allowSelectChannel: true,
					allowedChannels: ['zoom', 'phone'],
					allowHostSelection: true,
					forceHostSelection: false,
					allowAddingGuests: true,
					doubleOptIn: 'useCompanySettings',
					requireHostConfirmation: 'useCompanySettings',
					enableClusterMeeting: true,
					enableBufferCarryOver: true,
					maxBufferCarryOverDelay: 15,
					allowPhoneOnlyBooking: false,
					channelAvailabilities: { channels: [{ channel: 'zoom', availabilityId: weekend }] },
				},
				additionalFields: {
					locations: { locations: [{ address: 'Main Street 1, 10115 Berlin' }, { address: 'Harbour 2, Hamburg' }] },
					icsTitle: 'Intro with Ada',
					icsDescription: 'We get to know each other.',
					icsLocation: 'Online',
					metadata: { entries: [{ key: 'crmCampaignId', value: 'spring-27' }, { key: 'source', value: 'n8n' }] },
					createOneTimeLink: true,
				},
			}),
			world().pat(),
		);
		expect(error).toBeUndefined();
		const settings = {
			meetingOptions: {
				allowedDurations: [15, 30, 60],
				allowSelectChannel: true,
				allowHostSelection: true,
				forceHostSelection: false,
				allowedChannels: ['zoom', 'phone'],
				allowAddingGuests: true,
				doubleOptIn: 'useCompanySettings',
				requireHostConfirmation: 'useCompanySettings',
				enableClusterMeeting: true,
				enableBufferCarryOver: true,
				maxBufferCarryOverDelay: 15,
				allowPhoneOnlyBooking: false,
				channelAvailabilities: { zoom: weekend },
			},
			locations: ['Main Street 1, 10115 Berlin', 'Harbour 2, Hamburg'],
			ics: { title: 'Intro with Ada', description: 'We get to know each other.', location: 'Online' },
			metadata: { crmCampaignId: 'spring-27', source: 'n8n' },
		};
		expect((await world().requests()).map(wire)).toEqual([
			{
				method: 'POST',
				path: '/v4/meeting-type',
				query: '',
				headers: world().patHeaders(ownerPat(), true),
				body: { meetingInfo: { name: 'Intro Call', description: '', duration: 30, channel: 'phone' }, ...settings, options: { createOneTimeLink: true } },
			},
		]);
		const id = items[0].id as string;
		expect(items).toEqual([expect.objectContaining({ ...settings, userId: owner().id })]);
		expect(items[0]).not.toHaveProperty('options');
		expect((await world().api('GET', `/v4/meeting-type/${id}`, ownerPat())).body).toEqual(items[0]);
		const links = await world().api('GET', `/v4/one-time-booking-link?meetingTypeId=${id}`, ownerPat());
		expect(links.body).toEqual([expect.objectContaining({ meetingTypeId: id, used: false, expiresAt: null })]);
	});

	test('Set Weekly Hours gives the meeting type an availability of its own, bookable in those hours', async () => {
		const { items, error } = await world().runNode(
			create({
				name: 'Saturday Clinic',
				setWeeklyHours: true,
				scheduleInput: 'form',
				weeklyHours: { ranges: [{ days: ['saturday'], start: '10:00', end: '12:00' }] },
				availabilityName: 'Clinic Hours',
				availabilityTimezone: 'Europe/Berlin',
			}),
			world().pat(),
		);
		expect(error).toBeUndefined();
		const closed = { enabled: false, hours: [] };
		const schedule = { monday: closed, tuesday: closed, wednesday: closed, thursday: closed, friday: closed, saturday: { enabled: true, hours: [{ start: '10:00', end: '12:00' }] }, sunday: closed };
		expect((await world().requests()).map((request) => request.body)).toEqual([
			{ meetingInfo: { name: 'Saturday Clinic', description: '', duration: 30, channel: 'phone' }, availability: { name: 'Clinic Hours', timezone: 'Europe/Berlin', schedule } },
		]);
		const availability = await world().api('GET', `/availability/${items[0].availabilityId as string}`, ownerPat());
		expect(availability.body).toMatchObject({ name: 'Clinic Hours', timezone: 'Europe/Berlin', schedule, isDefault: false });
		expect(await startsOf(items[0].id as string, '2027-03-06')).toEqual(['10:00', '10:30', '11:00', '11:30']);
		expect(await startsOf(items[0].id as string, '2027-03-08')).toEqual([]);
	});

	test('refused before sending: new hours and an existing availability together, new hours without name or IANA zone', async () => {
		const weekly = { setWeeklyHours: true, weeklyHours: { ranges: [{ days: ['monday'], start: '09:00', end: '12:00' }] }, availabilityName: 'Hours', availabilityTimezone: 'Europe/Berlin' };
		await refused(
			create({ ...weekly, additionalFields: { availabilityId: byId('3b9d6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f') } }),
			'Set Weekly Hours gives the meeting type new hours and Availability (Additional Fields) picks existing ones: use one of them',
		);
		await refused(create({ ...weekly, availabilityName: '={{ "" }}' }), 'Availability Name is required');
		await refused(create({ ...weekly, availabilityTimezone: 'Berlin' }), 'Availability Timezone must be an IANA time zone such as Europe/Berlin or America/New_York; "Berlin" is not');
		await refused(create({ ...weekly, weeklyHours: { ranges: [{ days: ['monday'], start: '12:00', end: '09:00' }] } }), 'Weekly Hours, Monday: 12:00–09:00 must end after it starts');
	});

	test('refused before sending: durations, channel availabilities, locations and metadata that cannot be used', async () => {
		const options = (bookingOptions: IDataObject) => create({ bookingOptions });
		const fields = (additionalFields: IDataObject) => create({ additionalFields });
		const durations = 'Allowed Durations (Minutes) must be whole minutes from 5 to 480, such as 15, 30, 60;';
		await refused(options({ allowedDurations: '={{ "15, half an hour" }}' }), `${durations} "half an hour" is not`);
		await refused(options({ allowedDurations: '={{ [30, 600] }}' }), `${durations} "600" is not`);
		await refused(options({ allowedDurations: ['30', '22.5'] }), `${durations} "22.5" is not`);
		const zoom = (availabilityId: string) => ({ channel: 'zoom', availabilityId });
		const id = '3b9d6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f';
		await refused(options({ channelAvailabilities: { channels: [zoom(id), zoom(id)] } }), 'Channel Availabilities has the channel "zoom" twice: give each channel once');
		await refused(options({ channelAvailabilities: { channels: [zoom('')] } }), 'Channel Availabilities row 1: Availability ID is required');
		// The reference shows no form of an availability's ID: any text is sent, and the API answers for it.
		const otherForm = await world().runNode(options({ channelAvailabilities: { channels: [zoom('weekend')] } }), world().pat());
		expect(otherForm.error?.message).toBe('Availability not found (HTTP 404)');
		expect((await world().requests()).map((request) => (request.body as IDataObject).meetingOptions)).toEqual([{ channelAvailabilities: { zoom: 'weekend' } }]);
		await world().clearRequests();
		await refused(fields({ locations: { locations: [{ address: 'Main Street 1' }, { address: ' ' }] } }), 'Locations row 2 needs an address');
		const entries = (count: number) => Array.from({ length: count }, (_, index) => ({ key: `k${index}`, value: 'v' }));
		await refused(fields({ metadata: { entries: entries(21) } }), 'Metadata may hold at most 20 keys; it holds 21');
		await refused(fields({ metadata: { entries: [{ key: 'note', value: 'x'.repeat(501) }] } }), 'Metadata "note": the value must be at most 500 characters long; it has 501');
		await refused(fields({ metadata: { entries: [{ key: 'source', value: 'a' }, { key: 'source', value: 'b' }] } }), 'Metadata has the key "source" twice: give each key once');
		await refused(fields({ metadata: { entries: [{ key: '', value: 'a' }] } }), 'Metadata row 1 needs a key');
		const twenty = await world().runNode(fields({ metadata: { entries: entries(20) } }), world().pat());
		expect(twenty.error).toBeUndefined();
		expect(Object.keys((await world().requests())[0].body as IDataObject)).toContain('metadata');
	});
});

describe('Meeting Type: booking options on Update', () => {
	test('interval, minimum notice, booking window, availability, invite texts, locations and internal notes go out under the API\'s keys; the open slots follow', async () => {
		const id = await world().createMeetingType('Tuned');
		const hours = await world().createAvailability('Tuesday Mornings', { tuesday: { enabled: true, hours: [{ start: '09:00', end: '12:00' }] } });
		const { items, error } = await world().runNode(
			update(id, {
				bookingOptions: {
					timeslotInterval: 15,
					bookingMinimum: 1500,
					daysIntoFutureMode: 'limit',
					daysIntoFutureBookingLimit: 30,
					allowAddingGuests: true,
				},
				updateFields: {
					availabilityId: byId(hours),
					internalNotes: 'Only for existing customers',
					icsTitle: 'Tuned call',
					locations: { locations: [{ address: 'Main Street 1, 10115 Berlin' }] },
				},
			}),
			world().pat(),
		);
		expect(error).toBeUndefined();
		const body = {
			availabilityId: hours,
			internalNotes: 'Only for existing customers',
			meetingOptions: { allowAddingGuests: true },
			locations: ['Main Street 1, 10115 Berlin'],
			ics: { title: 'Tuned call' },
			timeslotInterval: 15,
			bookingMinimum: 1500,
			daysIntoFuture: { mode: 'limit', bookingLimit: 30 },
		};
		expect((await world().requests()).map(wire)).toEqual([{ method: 'PATCH', path: `/v4/meeting-type/${id}`, query: '', headers: world().patHeaders(ownerPat(), true), body }]);
		expect(items).toEqual([expect.objectContaining(body)]);
		// Tuesday 2 March: a 30-minute meeting every 15 minutes in 09:00–12:00, at least 25 hours ahead of Monday 00:00 UTC (02:00 Berlin on Tuesday).
		expect(await startsOf(id, '2027-03-02')).toEqual(['09:00', '09:15', '09:30', '09:45', '10:00', '10:15', '10:30', '10:45', '11:00', '11:15', '11:30']);
		await world().control('POST', '/__sandbox/clock/set', { now: '2027-03-02T09:00:00Z' });
		// 10:00 in Berlin now: 25 hours of notice leave nothing on this Tuesday; the next one is open.
		expect(await startsOf(id, '2027-03-02')).toEqual([]);
		expect((await startsOf(id, '2027-03-09')).slice(0, 2)).toEqual(['09:00', '09:15']);
		await world().control('POST', '/__sandbox/clock/set', { now: '2027-03-01T00:00:00Z' });
	});

	test('meetingOptions, ics and daysIntoFuture of a later update are merged with the stored ones', async () => {
		const id = await world().createMeetingType('Merged');
		await world().runNode(update(id, { bookingOptions: { allowAddingGuests: true, daysIntoFutureMode: 'limit' }, updateFields: { icsTitle: 'Title' } }), world().pat());
		const { items } = await world().runNode(
			update(id, { bookingOptions: { allowHostSelection: true, daysIntoFutureBookingLimit: 14 }, updateFields: { icsLocation: 'Room 1' } }),
			world().pat(),
		);
		expect((await world().requests()).map((request) => request.body)).toEqual([
			{ meetingOptions: { allowAddingGuests: true }, ics: { title: 'Title' }, daysIntoFuture: { mode: 'limit' } },
			{ meetingOptions: { allowHostSelection: true }, ics: { location: 'Room 1' }, daysIntoFuture: { bookingLimit: 14 } },
		]);
		expect(items).toEqual([
			expect.objectContaining({
				meetingOptions: { allowAddingGuests: true, allowHostSelection: true },
				ics: { title: 'Title', location: 'Room 1' },
				daysIntoFuture: { mode: 'limit', bookingLimit: 14 },
			}),
		]);
	});

	test('refused before sending: an interval outside 5 to 60, a negative notice, a channel not in the list', async () => {
		const id = '3b9d6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f';
		await refused(update(id, { bookingOptions: { timeslotInterval: 61 } }), 'Time Slot Interval (Minutes) must be a whole number from 5 to 60, not 61');
		await refused(update(id, { bookingOptions: { timeslotInterval: '={{ 7.5 }}' } }), 'Time Slot Interval (Minutes) must be a whole number from 5 to 60, not 7.5');
		await refused(update(id, { bookingOptions: { bookingMinimum: -5 } }), 'Minimum Notice (Minutes) must be a whole number of at least 0, not -5');
		const { error } = await world().runNode(update(id, { bookingOptions: { allowedChannels: '={{ ["zoom", "fax"] }}' } }), world().pat());
		expect(error?.message).toMatch(/^Allowed Channels must be one of "alfaview", .*; "fax" is not$/);
		expect(await world().requests()).toEqual([]);
	});
});

describe('Meeting Type: the sandbox takes the documented keys and ranges only', () => {
	const post = async (body: IDataObject) => await world().api('POST', '/v4/meeting-type', ownerPat(), { body: { meetingInfo: { name: 'Direct', description: '', duration: 30, channel: 'phone' }, ...body } });
	const bad = (message: string[]) => ({ status: 400, body: { statusCode: 400, message, error: 'Bad Request' } });

	test('ranges: metadata keys and values, the interval; unknown option keys are dropped; a channel must be one of the list', async () => {
		const keys = Object.fromEntries(Array.from({ length: 21 }, (_, index) => [`k${index}`, 'v']));
		expect(await post({ metadata: keys })).toEqual(bad(['metadata must contain no more than 20 keys']));
		expect(await post({ metadata: { note: 'x'.repeat(501) } })).toEqual(bad(['metadata.note must be shorter than or equal to 500 characters']));
		const created = await post({ meetingOptions: { allowAddingGuests: true, shoeSize: 44 }, timeslotInterval: 15, options: { createOneTimeLink: false } });
		expect(created.status).toBe(201);
		expect(created.body.meetingOptions).toEqual({ allowAddingGuests: true });
		// Create does not take the interval (Update does).
		expect(created.body).not.toHaveProperty('timeslotInterval');
		const channels = await post({ meetingOptions: { allowedChannels: ['zoom', 'fax'] } });
		expect(channels.status).toBe(400);
		expect(channels.body.message).toEqual([expect.stringMatching(/^each value in meetingOptions\.allowedChannels must be one of the following values: local, /)]);
		const id = created.body.id as string;
		const patch = async (body: IDataObject) => await world().api('PATCH', `/v4/meeting-type/${id}`, ownerPat(), { body });
		expect(await patch({ timeslotInterval: 61 })).toEqual(bad(['timeslotInterval must not be greater than 60']));
		expect(await patch({ timeslotInterval: 4 })).toEqual(bad(['timeslotInterval must not be less than 5']));
	});

	test('availabilities: both an ID and new hours is 400; another user\'s availability is 404, per channel too; an inline one per channel is checked', async () => {
		const both = await post({ availabilityId: '3b9d6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f', availability: { name: 'X', timezone: 'Europe/Berlin', schedule: {} } });
		expect(both).toEqual({ status: 400, body: { statusCode: 400, message: 'Expected availabilityId or availability, not both', error: 'Bad Request' } });
		const members = await world().api('GET', '/availability', world().seed.credentials.memberPat);
		const theirs = (members.body as unknown as IDataObject[])[0].id as string;
		const notFound = { status: 404, body: { statusCode: 404, message: 'Availability not found', error: 'Not Found' } };
		expect(await post({ meetingOptions: { channelAvailabilities: { zoom: theirs } } })).toEqual(notFound);
		const id = await world().createMeetingType('Patched');
		expect(await world().api('PATCH', `/v4/meeting-type/${id}`, ownerPat(), { body: { availabilityId: theirs } })).toEqual(notFound);
		const inline = await post({ meetingOptions: { channelAvailabilities: { zoom: { timezone: 'Mars/Olympus', schedule: {} } } } });
		expect(inline).toEqual(
			bad([
				'meetingOptions.channelAvailabilities.zoom.name should not be empty',
				'meetingOptions.channelAvailabilities.zoom.name must be a string',
				'meetingOptions.channelAvailabilities.zoom.timezone must be a valid IANA time zone',
			]),
		);
		const schedule = { monday: { enabled: true, hours: [{ start: '08:00', end: '12:00' }] } };
		const kept = await post({ meetingOptions: { channelAvailabilities: { zoom: { name: 'Zoom Hours', timezone: 'Europe/Berlin', schedule } } } });
		expect(kept.status).toBe(201);
		expect(kept.body.meetingOptions).toEqual({ channelAvailabilities: { zoom: { name: 'Zoom Hours', timezone: 'Europe/Berlin', schedule } } });
	});
});

test('The example "Onboard a New Host" creates its meeting type with booking options, again on a second run', async () => {
	const workflow = JSON.parse(readFileSync(join(__dirname, '..', 'examples', 'onboard-new-host.json'), 'utf8')) as { nodes: IDataObject[] };
	const steps = ['Create User', 'Office Hours', 'Intro Call', 'Booking Page Link'].map((name) => {
		const node = workflow.nodes.find((candidate) => candidate.name === name)!;
		return { name, parameters: node.parameters as IDataObject };
	});
	// The seed's key expired when the clock moved to 2027: a key minted now, acting as the owner like the demo's.
	const { key } = await world().mintApiKey();
	for (const run of [1, 2]) {
		const input = [{ email: `grace.${run}@acme.example`, firstName: 'Grace', lastName: 'Hopper', timezone: 'America/New_York' }];
		const { outputs, error } = await world().runChain(steps, world().apiKey(owner().id, key), { input, inputName: 'Not a User Yet' });
		expect(error).toBeUndefined();
		expect(outputs['Intro Call']).toEqual([
			expect.objectContaining({ meetingInfo: expect.objectContaining({ name: 'Intro Call', duration: 30 }), meetingOptions: { allowedDurations: [30, 60], allowAddingGuests: true } }),
		]);
		expect(outputs['Booking Page Link']).toEqual([expect.objectContaining({ url: expect.stringContaining('email=first.client%40client.example') })]);
	}
});
