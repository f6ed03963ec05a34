import type { IDataObject } from 'n8n-workflow';

import { byId, useWorld, wire } from './harness/world';

const world = useWorld();

const owner = () => world().seed.users.owner;

/** Every channel of the reference, in its order (the API's list in its 400). */
const CHANNELS = [
	'local', 'local-attendee', 'google', 'zoom', 'phone', 'phone-incoming', 'messenger', 'connect', 'webex', 'teamsForBusiness2',
	'teams2ForExchange', 'custom', 'resource', 'whereby', 'kmeet', 'jitsi', 'nextcloudTalk', 'openTalk', 'alfaview',
];

const create = (extra: IDataObject = {}) => ({ resource: 'meetingType', operation: 'create', name: 'Team Room', duration: 30, ...extra });

/** Runs the node and expects it to stop before sending, with this message. */
async function refused(parameters: IDataObject, message: string): Promise<void> {
	const { error } = await world().runNode(parameters, world().pat());
	expect(error?.message).toBe(message);
	expect(await world().requests()).toEqual([]);
}

describe('Meeting Type', () => {
	test('Create sends meetingInfo with an empty description kept, and returns the meeting type', async () => {
		const { items, error } = await world().runNode(
			{
				resource: 'meetingType',
				operation: 'create',
				name: 'Discovery Call',
				duration: 45,
				description: '',
				channel: 'zoom',
				additionalFields: { bufferBefore: 10, spots: 3 },
			},
			world().ownerKey(),
		);
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{
				method: 'POST',
				path: '/v4/meeting-type',
				query: '',
				headers: world().keyHeaders(owner().id, true),
				body: { meetingInfo: { name: 'Discovery Call', description: '', duration: 45, channel: 'zoom', bufferBefore: 10 }, spots: 3 },
			},
		]);
		expect(items).toEqual([
			expect.objectContaining({
				id: expect.any(String),
				userId: world().seed.users.owner.id,
				spots: 3,
				meetingInfo: expect.objectContaining({ name: 'Discovery Call', description: '', duration: 45, channel: 'zoom', bufferBefore: 10 }),
			}),
		]);
	});

	test('Create with an availability picked from the list sends its ID; an unknown one gets the API\'s 404', async () => {
		const weekend = await world().createAvailability('Weekend', { saturday: { enabled: true, hours: [{ start: '10:00', end: '14:00' }] } });
		const { result } = await world().listSearch('searchAvailabilities', { resource: 'meetingType', operation: 'create' }, world().ownerKey(), 'weekend');
		expect(result?.results).toEqual([{ name: 'Weekend (Europe/Berlin)', value: weekend }]);
		await world().clearRequests();
		const parameters = { resource: 'meetingType', operation: 'create', name: 'Saturday Clinic', duration: 30 };
		const { items, error } = await world().runNode(
			{ ...parameters, additionalFields: { availabilityId: { mode: 'list', value: weekend, cachedResultName: 'Weekend (Europe/Berlin)' } } },
			world().ownerKey(),
		);
		expect(error).toBeUndefined();
		expect((await world().requests()).map((r) => r.body)).toEqual([
			{ meetingInfo: { name: 'Saturday Clinic', description: '', duration: 30, channel: 'phone' }, availabilityId: weekend },
		]);
		expect(items).toEqual([expect.objectContaining({ availabilityId: weekend })]);
		const unknown = await world().runNode(
			{ ...parameters, additionalFields: { availabilityId: byId('3b9d6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f') } },
			world().ownerKey(),
		);
		expect(unknown.error?.message).toBe('Availability not found (HTTP 404)');
		expect(unknown.error?.description).toContain('Availability not found');
	});

	test('Create with an API key and no acting user fails before sending, saying how to fix it', async () => {
		const { error } = await world().runNode({ resource: 'meetingType', operation: 'create', name: 'X', duration: 30 }, world().apiKey());
		expect(error?.message).toBe('This operation needs a user to act for');
		expect(error?.description).toContain('Set "Act As User" in the node, or a Default Acting User ID in the credential');
		expect(await world().requests()).toEqual([]);
	});

	test('Create refuses a duration outside 5 to 480 or not whole before sending, also from an expression', async () => {
		for (const [duration, shown] of [[600, '600'], ['={{ 4 }}', '4'], ['={{ "45.5" }}', '"45.5"'], ['={{ "an hour" }}', '"an hour"']]) {
			const { error } = await world().runNode({ resource: 'meetingType', operation: 'create', name: 'Too long', duration }, world().pat());
			expect(error?.message).toBe(`Duration (Minutes) must be a whole number from 5 to 480, not ${shown}`);
		}
		expect(await world().requests()).toEqual([]);
	});

	test('a Description from an expression that gives null or nothing is sent empty, as the API requires one', async () => {
		for (const description of ['={{ null }}', '={{ $json.missing }}']) {
			const { error } = await world().runNode(create({ description }), world().pat());
			expect(error).toBeUndefined();
		}
		expect((await world().requests()).map((r) => (r.body as IDataObject).meetingInfo)).toEqual([
			{ name: 'Team Room', description: '', duration: 30, channel: 'phone' },
			{ name: 'Team Room', description: '', duration: 30, channel: 'phone' },
		]);
	});

	test('a number from an expression as text is sent as a number', async () => {
		const { error } = await world().runNode({ resource: 'meetingType', operation: 'create', name: 'Typed', duration: '={{ "45" }}' }, world().pat());
		expect(error).toBeUndefined();
		expect((await world().requests())[0].body).toEqual({ meetingInfo: { name: 'Typed', description: '', duration: 45, channel: 'phone' } });
	});

	test('the API\'s own validation words reach the user when it refuses a value', async () => {
		await world().control('POST', '/__sandbox/faults', {
			method: 'POST',
			path: '/v4/meeting-type',
			status: 400,
			body: { statusCode: 400, message: ['meetingInfo.duration must not be greater than 480'], error: 'Bad Request' },
		});
		const { error } = await world().runNode({ resource: 'meetingType', operation: 'create', name: 'Refused', duration: 30 }, world().pat());
		expect(error?.message).toBe('meetingInfo.duration must not be greater than 480 (HTTP 400)');
		expect(error?.description).toBe(
			'The API rejected the request as invalid. The API says: meetingInfo.duration must not be greater than 480. Correct the fields the API names and run the node again.',
		);
	});

	test('Create with the Custom channel sends its link and the redirect under meetingInfo, and gets them back', async () => {
		const { items, error } = await world().runNode(
			create({
				channel: 'custom',
				customChannelLink: 'https://meet.example.com/team-room',
				additionalFields: {
					bufferMustStayWithinWorkingHours: true,
					showAvailableSlots: false,
					enableRedirect: true,
					redirect: 'https://example.com/thank-you',
					passEventDetailsToRedirect: true,
				},
			}),
			world().pat(),
		);
		expect(error).toBeUndefined();
		const meetingInfo = {
			name: 'Team Room',
			description: '',
			duration: 30,
			channel: 'custom',
			customChannelLink: 'https://meet.example.com/team-room',
			bufferMustStayWithinWorkingHours: true,
			showAvailableSlots: false,
			enableRedirect: true,
			redirect: 'https://example.com/thank-you',
			passEventDetailsToRedirect: true,
		};
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'POST', path: '/v4/meeting-type', query: '', headers: world().patHeaders(world().seed.credentials.ownerPat, true), body: { meetingInfo } },
		]);
		expect(items).toEqual([expect.objectContaining({ meetingInfo: expect.objectContaining(meetingInfo) })]);
	});

	test('Create sends the default channel phone, and a link typed for Custom is not sent once another channel is chosen', async () => {
		const { error } = await world().runNode(create({ channel: 'jitsi', customChannelLink: 'https://meet.example.com/old' }), world().pat());
		expect(error).toBeUndefined();
		await world().runNode(create({ name: 'Default Channel' }), world().pat());
		expect((await world().requests()).map((r) => (r.body as IDataObject).meetingInfo)).toEqual([
			{ name: 'Team Room', description: '', duration: 30, channel: 'jitsi' },
			{ name: 'Default Channel', description: '', duration: 30, channel: 'phone' },
		]);
	});

	test('Create refuses before sending: a channel or link that cannot be used, and redirect switches that contradict the URL', async () => {
		const listed = ['alfaview', 'connect', 'custom', 'google', 'local-attendee', 'local', 'jitsi', 'kmeet', 'messenger', 'teamsForBusiness2', 'teams2ForExchange']
			.concat(['nextcloudTalk', 'openTalk', 'phone-incoming', 'phone', 'resource', 'webex', 'whereby', 'zoom'])
			.map((value) => `"${value}"`);
		for (const channel of ['fax', '']) {
			await refused(create({ channel: `={{ "${channel}" }}` }), `Channel must be one of ${listed.join(', ')}; "${channel}" is not`);
		}
		await refused(create({ channel: 'custom' }), 'Custom Channel Link is required when Channel is Custom');
		await refused(create({ channel: '={{ "custom" }}', customChannelLink: '={{ $json.link ?? "" }}' }), 'Custom Channel Link is required when Channel is Custom');
		await refused(create({ channel: 'custom', customChannelLink: 'meet.example.com/room' }), 'Custom Channel Link must be a web address starting with https:// or http://');
		await refused(create({ additionalFields: { enableRedirect: true } }), 'Redirect URL is required when Redirect After Booking is on');
		await refused(
			create({ additionalFields: { redirect: 'https://example.com/thanks' } }),
			'Redirect URL is set but Redirect After Booking is off: turn it on or remove the URL',
		);
		await refused(
			create({ additionalFields: { enableRedirect: false, passEventDetailsToRedirect: true } }),
			'Pass Event Details to Redirect needs Redirect After Booking on: turn it on or turn Pass Event Details to Redirect off',
		);
		await refused(create({ additionalFields: { enableRedirect: true, redirect: 'thanks.html' } }), 'Redirect URL must be a web address starting with https:// or http://');
	});

	test('the API refuses a meeting type without a channel, listing every channel', async () => {
		const body = { meetingInfo: { name: 'No Channel', description: '', duration: 30 } };
		const answer = await world().api('POST', '/v4/meeting-type', world().seed.credentials.ownerPat, { body });
		expect(answer).toEqual({
			status: 400,
			body: { statusCode: 400, message: [`meetingInfo.channel must be one of the following values: ${CHANNELS.join(', ')}`], error: 'Bad Request' },
		});
	});

	test('Update changes channel, link and redirect; contradictions are refused; Custom without any link gets the API\'s 400', async () => {
		const id = await world().createMeetingType('Moving Room');
		const update = (updateFields: IDataObject) => ({ resource: 'meetingType', operation: 'update', meetingTypeId: byId(id), updateFields });
		await refused(update({ channel: 'zoom', customChannelLink: 'https://meet.example.com/room' }), 'Custom Channel Link is only used with the Custom channel: set Channel to Custom or remove the link');
		await refused(update({ enableRedirect: false, redirect: 'https://example.com/thanks' }), 'Redirect URL is set but Redirect After Booking is off: turn it on or remove the URL');
		await refused(update({ enableRedirect: true }), 'Redirect URL is required when Redirect After Booking is on');
		const noLink = await world().runNode(update({ channel: 'custom' }), world().pat());
		expect(noLink.error?.message).toBe('meetingInfo.customChannelLink should not be empty (HTTP 400)');
		expect(noLink.error?.description).toBe(
			'The API rejected the request as invalid. The API says: meetingInfo.customChannelLink should not be empty. Correct the fields the API names and run the node again.',
		);
		await world().clearRequests();
		const { items, error } = await world().runNode(
			update({ channel: 'custom', customChannelLink: 'https://meet.example.com/room', redirect: 'https://example.com/next', bufferMustStayWithinWorkingHours: true }),
			world().pat(),
		);
		expect(error).toBeUndefined();
		const meetingInfo = { channel: 'custom', customChannelLink: 'https://meet.example.com/room', bufferMustStayWithinWorkingHours: true, redirect: 'https://example.com/next' };
		expect((await world().requests()).map((r) => r.body)).toEqual([{ meetingInfo }]);
		expect(items).toEqual([expect.objectContaining({ meetingInfo: expect.objectContaining({ ...meetingInfo, enableRedirect: false }) })]);
	});

	test('Get reads one meeting type; a member cannot see the owner\'s (404)', async () => {
		const id = await world().createMeetingType('Owner only');
		const { items } = await world().runNode({ resource: 'meetingType', operation: 'get', meetingTypeId: byId(id) }, world().pat());
		expect(items).toEqual([expect.objectContaining({ id, meetingInfo: expect.objectContaining({ name: 'Owner only' }) })]);
		const member = await world().runNode({ resource: 'meetingType', operation: 'get', meetingTypeId: byId(id) }, world().pat(world().seed.credentials.memberPat));
		expect(member.error?.httpCode).toBe('404');
		expect((await world().requests()).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
			`GET /v4/meeting-type/${id} 200`,
			`GET /v4/meeting-type/${id} 404`,
		]);
	});

	test('Get Many returns the bare list; Limit cuts it without extra requests', async () => {
		const expected = await world().api('GET', '/v4/meeting-type', world().seed.credentials.ownerPat);
		expect(expected.body.length).toBeGreaterThan(1);
		await world().clearRequests();
		const all = await world().runNode({ resource: 'meetingType', operation: 'getAll', returnAll: true }, world().pat());
		expect(all.items).toEqual(expected.body);
		const one = await world().runNode({ resource: 'meetingType', operation: 'getAll', returnAll: false, limit: 1 }, world().pat());
		expect(one.items).toEqual([expected.body[0]]);
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: '/v4/meeting-type', query: '', headers: { authorization: `Bearer ${world().seed.credentials.ownerPat}` }, body: null },
			{ method: 'GET', path: '/v4/meeting-type', query: '', headers: { authorization: `Bearer ${world().seed.credentials.ownerPat}` }, body: null },
		]);
	});

	test('Update sends a partial meetingInfo and top-level fields', async () => {
		const id = await world().createMeetingType('Before');
		const { items } = await world().runNode(
			{ resource: 'meetingType', operation: 'update', meetingTypeId: byId(id), updateFields: { name: 'After', duration: 60, enabled: false } },
			world().ownerKey(),
		);
		expect(items).toEqual([expect.objectContaining({ id, enabled: false, meetingInfo: expect.objectContaining({ name: 'After', duration: 60 }) })]);
		expect((await world().requests()).map(wire)).toEqual([
			{
				method: 'PATCH',
				path: `/v4/meeting-type/${id}`,
				query: '',
				headers: world().keyHeaders(owner().id, true),
				body: { meetingInfo: { name: 'After', duration: 60 }, enabled: false },
			},
		]);
	});

	test('Delete returns { deleted: true } and the meeting type is gone', async () => {
		const id = await world().createMeetingType('Short-lived');
		const { items } = await world().runNode({ resource: 'meetingType', operation: 'delete', meetingTypeId: byId(id) }, world().ownerKey());
		expect(items).toEqual([{ deleted: true }]);
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'DELETE', path: `/v4/meeting-type/${id}`, query: '', headers: world().keyHeaders(), body: null },
		]);
		expect((await world().api('GET', `/v4/meeting-type/${id}`, world().seed.credentials.ownerPat)).status).toBe(404);
	});

	test('Get with an ID expression that resolves to nothing fails before sending', async () => {
		const { error } = await world().runNode({ resource: 'meetingType', operation: 'get', meetingTypeId: byId('={{ $json.missing ?? "" }}') }, world().pat());
		expect(error?.message).toBe('Meeting Type is required');
		expect(await world().requests()).toEqual([]);
	});

	test('the meeting type list for the resource locator filters by name', async () => {
		const id = await world().createMeetingType('Quarterly Review');
		const { result } = await world().listSearch('searchMeetingTypes', { resource: 'meetingType', operation: 'get' }, world().pat(), 'quarterly');
		expect(result?.results).toEqual([{ name: 'Quarterly Review', value: id }]);
		expect((await world().requests()).map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v4/meeting-type']);
	});
});
