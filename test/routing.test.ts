import type { IDataObject } from 'n8n-workflow';

import { asTenant, freshTenant } from './harness/crm';
import { byId, useWorld, wire } from './harness/world';

/**
 * The Routing node (api-reference §7, Beta) through n8n's engine: every operation with its exact requests (Pending
 * Attendee in routingPending.test.ts), the toggles made safe (Add Host twice leaves the host in; removing an absent host
 * sends no write), priorities and custom meeting links, a Workspace ID of dots refused, a template's name in
 * meetingInfo.name, the abandoned-booking follow-up as chained nodes, a provisional booking whose slot was taken, the
 * editor's lists, and a booking through the meeting type's queue.
 */

const world = useWorld();

type Tenant = Awaited<ReturnType<typeof freshTenant>>;

beforeAll(async () => {
	await world().control('POST', '/__sandbox/clock/set', { now: '2030-01-01T08:00:00Z' });
});

const call = (tenant: Tenant, method: string, path: string, body?: unknown) => asTenant(world(), tenant, method, path, body);

/** A tenant with its owner and a second host, and the owner's meeting type. */
async function team(): Promise<{ tenant: Tenant; hosts: string[]; meetingTypeId: string }> {
	const tenant = await freshTenant(world());
	const bea = (await world().control('POST', '/__sandbox/users', { companyId: tenant.companyId, email: 'bea@fresh.example', givenName: 'Bea', familyName: 'Host' })) as { id: string };
	const [meetingType] = (await call(tenant, 'GET', '/v4/meeting-type')) as unknown as IDataObject[];
	await world().clearRequests();
	return { tenant, hosts: [tenant.userId, bea.id], meetingTypeId: String(meetingType.id) };
}

const attendee = (email: string) => ({ email, firstname: 'Lea', lastname: 'Lead', receiveReminders: false, notes: {} });

describe('Routing: Queue', () => {
	test('Add Host reads the meeting type and its queue, then toggles; Add Host again sends no write; Remove Host of an absent host sends no write', async () => {
		const { tenant, hosts, meetingTypeId } = await team();
		const credential = world().pat(tenant.token);
		const add = (userId: string, operation = 'addHost') => world().runNode({ resource: 'queue', operation, meetingTypeId: byId(meetingTypeId), userId: byId(userId) }, credential);
		const first = await add(hosts[1]);
		expect(first.error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: `/v4/meeting-type/${meetingTypeId}`, query: '', headers: world().patHeaders(tenant.token), body: null },
			{ method: 'PATCH', path: `/v4/queue/meeting-type/${meetingTypeId}`, query: '', headers: world().patHeaders(tenant.token, true), body: { userId: hosts[1] } },
		]);
		expect(first.items[0]).toMatchObject({ meetingTypeId, userIds: [hosts[1]], outcome: 'added' });
		await world().clearRequests();

		const again = await add(hosts[1]);
		expect(again.items[0]).toMatchObject({ userIds: [hosts[1]], outcome: 'unchanged' });
		expect((await world().requests()).map((request) => `${request.method} ${request.path}`)).toEqual([`GET /v4/meeting-type/${meetingTypeId}`, `GET /v4/queue/${String(first.items[0].id)}`]);
		await world().clearRequests();

		const absent = await add(hosts[0], 'removeHost');
		expect(absent.items[0]).toMatchObject({ userIds: [hosts[1]], outcome: 'unchanged' });
		expect((await world().requests()).filter((request) => request.method !== 'GET')).toEqual([]);
		const removed = await add(hosts[1], 'removeHost');
		expect(removed.items[0]).toMatchObject({ userIds: [], outcome: 'removed' });
	});

	test('Update Settings sends the settings and the per-host rows; Get, Get Many (company, workspace), Get Next Hosts (one item per pick)', async () => {
		const { tenant, hosts, meetingTypeId } = await team();
		const credential = world().pat(tenant.token);
		for (const userId of hosts) await call(tenant, 'PATCH', `/v4/queue/meeting-type/${meetingTypeId}`, { userId });
		await world().clearRequests();
		const settings = {
			type: 'advancedRoundRobin',
			distributionPeriod: 'week',
			userCapacities: { capacity: [{ userId: hosts[0], capacity: 1 }, { userId: hosts[1], capacity: 2 }] },
			userPriorities: { priority: [{ userId: hosts[0], priority: 2 }, { userId: hosts[1], priority: 2 }] },
		};
		const updated = await world().runNode({ resource: 'queue', operation: 'updateSettings', meetingTypeId: byId(meetingTypeId), settings }, credential);
		expect(updated.error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{
				method: 'PATCH',
				path: `/v4/queue/meeting-type/${meetingTypeId}`,
				query: '',
				headers: world().patHeaders(tenant.token, true),
				body: {
					type: 'advancedRoundRobin',
					userCapacities: [{ userId: hosts[0], capacity: 1 }, { userId: hosts[1], capacity: 2 }],
					userPriorities: [{ userId: hosts[0], priority: 2 }, { userId: hosts[1], priority: 2 }],
					distributionPeriod: 'week',
				},
			},
		]);
		const queueId = String(updated.items[0].id);
		const got = await world().runNode({ resource: 'queue', operation: 'get', queueId: byId(queueId) }, credential);
		expect(got.items[0]).toMatchObject({ id: queueId, type: 'advancedRoundRobin', users: [expect.objectContaining({ id: hosts[0] }), expect.objectContaining({ id: hosts[1], givenName: 'Bea' })] });
		const many = await world().runNode({ resource: 'queue', operation: 'getAll', returnAll: true }, credential);
		expect(many.items.map((item) => item.id)).toEqual([queueId]);
		await world().control('POST', `/__sandbox/meeting-types/${meetingTypeId}/workspace`, { workspaceId: 'ws-sales' });
		await world().clearRequests();
		const workspace = await world().runNode({ resource: 'queue', operation: 'getAll', scope: 'workspace', workspaceId: 'ws-sales', limit: 5 }, credential);
		expect(workspace.items.map((item) => item.id)).toEqual([queueId]);
		expect((await world().requests()).map((request) => request.path)).toEqual(['/v4/queue/workspace/ws-sales']);
		const next = await world().runNode({ resource: 'queue', operation: 'getNextHosts', queueId: byId(queueId) }, credential);
		// Equal priorities: the type's own order decides (weighted by capacity).
		expect(next.items.slice(0, 3)).toEqual([
			{ position: 1, userId: hosts[1], groupId: null, selectionReason: 'Priority 2, then weighted turn: capacity 2 of 3' },
			{ position: 2, userId: hosts[0], groupId: null, selectionReason: 'Priority 2, then weighted turn: capacity 1 of 3' },
			{ position: 3, userId: hosts[1], groupId: null, selectionReason: 'Priority 2, then weighted turn: capacity 2 of 3' },
		]);
		const stranger = await world().runNode({ resource: 'queue', operation: 'updateSettings', meetingTypeId: byId(meetingTypeId), settings: { userCapacities: { capacity: [{ userId: world().seed.users.owner.id, capacity: 2 }] } } }, credential);
		expect(stranger.error?.message).toMatch(/^(User not found|userCapacities\.0\.userId is not a host of this queue) \(HTTP 40[04]\)$/);
	});

	test('Update Settings: a higher priority is booked first (Get Next Hosts shows it); a custom meeting link may be empty, any other must be a web address', async () => {
		const { tenant, hosts, meetingTypeId } = await team();
		const credential = world().pat(tenant.token);
		for (const userId of hosts) await call(tenant, 'PATCH', `/v4/queue/meeting-type/${meetingTypeId}`, { userId });
		await world().clearRequests();
		const settings = {
			userPriorities: { priority: [{ userId: hosts[1], priority: 3 }] },
			userCustomLinks: { link: [{ userId: hosts[0], link: '' }, { userId: hosts[1], link: 'https://zoom.us/j/1234567890' }] },
		};
		const updated = await world().runNode({ resource: 'queue', operation: 'updateSettings', meetingTypeId: byId(meetingTypeId), settings }, credential);
		expect(updated.error).toBeUndefined();
		expect((await world().requests()).map((request) => request.body)).toEqual([
			{ userPriorities: [{ userId: hosts[1], priority: 3 }], userCustomLinks: [{ userId: hosts[0], link: '' }, { userId: hosts[1], link: 'https://zoom.us/j/1234567890' }] },
		]);
		expect(updated.items[0]).toMatchObject({ userCustomLinks: [{ userId: hosts[0], link: '' }, { userId: hosts[1], link: 'https://zoom.us/j/1234567890' }] });
		// hosts[0] joined first, so simple round robin would start with them: the priority 3 of hosts[1] goes first.
		const next = await world().runNode({ resource: 'queue', operation: 'getNextHosts', queueId: byId(String(updated.items[0].id)) }, credential);
		expect(next.items.slice(0, 2)).toEqual([
			{ position: 1, userId: hosts[1], groupId: null, selectionReason: 'Priority 3, then next in turn (simple round robin)' },
			{ position: 2, userId: hosts[1], groupId: null, selectionReason: 'Priority 3, then next in turn (simple round robin)' },
		]);
		await world().clearRequests();
		const notALink = await world().runNode({ resource: 'queue', operation: 'updateSettings', meetingTypeId: byId(meetingTypeId), settings: { userCustomLinks: { link: [{ userId: hosts[0], link: 'zoom room 4' }] } } }, credential);
		expect(notALink.error?.message).toBe('Host Custom Meeting Links need a Meeting Link in row 1 that is empty or a web address starting with https:// or http://');
		expect(await world().requests()).toEqual([]);
	});

	test('Get Many of a workspace refuses the Workspace ID ".." or "." before sending (it would read /v4/queue/); an ID from an answer that would change a path is refused by the path builder', async () => {
		const { tenant, hosts, meetingTypeId } = await team();
		const credential = world().pat(tenant.token);
		for (const workspaceId of ['..', '.', '={{ ".." }}']) {
			const escaped = await world().runNode({ resource: 'queue', operation: 'getAll', scope: 'workspace', workspaceId, returnAll: true }, credential);
			expect(escaped.error?.message).toBe(`Workspace ID cannot be "${workspaceId === '.' ? '.' : '..'}": enter the ID of an existing item`);
		}
		expect(await world().requests()).toEqual([]);
		// A hook's path ID from an answer: the meeting type answers a queueId of "..".
		const meetingType = await call(tenant, 'GET', `/v4/meeting-type/${meetingTypeId}`);
		await world().clearRequests();
		await world().control('POST', '/__sandbox/faults', { method: 'GET', path: `/v4/meeting-type/${meetingTypeId}`, status: 200, body: { ...meetingType, queueId: '..' } });
		const added = await world().runNode({ resource: 'queue', operation: 'addHost', meetingTypeId: byId(meetingTypeId), userId: byId(hosts[1]) }, credential);
		expect(added.error).toMatchObject({ message: 'The queueId in the path /v4/queue/{queueId} cannot be ".."' });
		expect((await world().requests()).map((request) => `${request.method} ${request.path}`)).toEqual([`GET /v4/meeting-type/${meetingTypeId}`]);
	});

	test('a booking by the scheduling node without hosts takes the meeting type\'s queue, and the queue picks the host', async () => {
		const { tenant, hosts, meetingTypeId } = await team();
		for (const userId of [hosts[1], hosts[0]]) await call(tenant, 'PATCH', `/v4/queue/meeting-type/${meetingTypeId}`, { userId });
		const queue = (await call(tenant, 'GET', `/v4/meeting-type/${meetingTypeId}`)) as IDataObject;
		await world().clearRequests();
		const booked = await world().runNode(
			{ resource: 'booking', operation: 'create', meetingTypeId: byId(meetingTypeId), start: '2030-01-07T10:00:00Z', email: 'queued@example.com', firstName: 'Que', lastName: 'Ued' },
			world().pat(tenant.token),
		);
		expect(booked.error).toBeUndefined();
		const requests = await world().requests();
		expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
			`GET /v4/meeting-type/${meetingTypeId}`,
			'POST /v4/booking',
			`GET /v4/appointment/${String(booked.items[0].appointmentId)}`,
		]);
		expect(requests[1].body).toMatchObject({ meetingTypeId, queueId: queue.queueId });
		expect(booked.items[0].userId).toBe(hosts[1]);
	});
});

describe('Routing: Queue User Group', () => {
	test('Create, Add Member twice (one write), Update (name, capacity, main host), Get, Remove Member of an absent member (no write), Delete', async () => {
		const { tenant, hosts, meetingTypeId } = await team();
		const credential = world().pat(tenant.token);
		const queue = await call(tenant, 'PATCH', `/v4/queue/meeting-type/${meetingTypeId}`, { userId: hosts[0] });
		await world().clearRequests();
		const created = await world().runNode({ resource: 'queueUserGroup', operation: 'create', queueId: byId(String(queue.id)), name: 'Pair' }, credential);
		expect((await world().requests()).map((request) => request.body)).toEqual([{ queueId: queue.id, name: 'Pair' }]);
		const groupId = String(created.items[0].id);
		const member = (operation: string, userId: string) => world().runNode({ resource: 'queueUserGroup', operation, groupId: byId(groupId), userId: byId(userId) }, credential);
		await member('addMember', hosts[1]);
		await world().clearRequests();
		const twice = await member('addMember', hosts[1]);
		expect(twice.items[0]).toMatchObject({ userIds: [hosts[1]], outcome: 'unchanged' });
		expect((await world().requests()).map((request) => request.method)).toEqual(['GET']);
		const updated = await world().runNode({ resource: 'queueUserGroup', operation: 'update', groupId: byId(groupId), updateFields: { name: 'Duo', capacity: 3, mainGroupHostId: hosts[1] } }, credential);
		expect(updated.items[0]).toMatchObject({ name: 'Duo', capacity: 3, mainGroupHostId: hosts[1] });
		const cleared = await world().runNode({ resource: 'queueUserGroup', operation: 'update', groupId: byId(groupId), updateFields: { clearMainHost: true } }, credential);
		expect(cleared.items[0]).toMatchObject({ mainGroupHostId: null });
		expect((await world().runNode({ resource: 'queueUserGroup', operation: 'get', groupId: byId(groupId) }, credential)).items[0]).toMatchObject({ id: groupId, users: [expect.objectContaining({ id: hosts[1] })] });
		await world().clearRequests();
		const absent = await member('removeMember', hosts[0]);
		expect(absent.items[0]).toMatchObject({ outcome: 'unchanged' });
		expect((await world().requests()).map((request) => request.method)).toEqual(['GET']);
		expect((await world().runNode({ resource: 'queueUserGroup', operation: 'delete', groupId: byId(groupId) }, credential)).items).toEqual([{ deleted: true }]);
		expect((await call(tenant, 'GET', `/v4/queue/${String(queue.id)}`)).userGroupIds).toEqual([]);
	});
});

describe('Routing: Meeting Type Template, Provisional Booking', () => {
	test('Template Create (the name is meetingInfo.name; description and channel always sent), Get Many, Update (a rename through meetingInfo.name), Assign to User (the user gets a meeting type of that name)', async () => {
		const { tenant, hosts } = await team();
		const credential = world().pat(tenant.token);
		const additionalFields = { spots: 3, templateType: 'team', queueType: 'equalDistribution', meetingOptions: '{"allowedDurations": [30, 45], "allowAddingGuests": true}', locations: '["Main Street 1, Berlin"]' };
		const created = await world().runNode({ resource: 'meetingTypeTemplate', operation: 'create', name: 'Discovery call', duration: 45, channel: 'zoom', additionalFields }, credential);
		expect(created.error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{
				method: 'POST',
				path: '/v4/meeting-type-template/create',
				query: '',
				headers: world().patHeaders(tenant.token, true),
				body: {
					meetingInfo: { name: 'Discovery call', description: '', duration: 45, channel: 'zoom' },
					meetingOptions: { allowedDurations: [30, 45], allowAddingGuests: true },
					spots: 3,
					locations: ['Main Street 1, Berlin'],
					templateType: 'team',
					queueType: 'equalDistribution',
				},
			},
		]);
		const templateId = String(created.items[0].id);
		expect(created.items[0]).toEqual({
			id: templateId,
			meetingInfo: { name: 'Discovery call', description: '', duration: 45, channel: 'zoom' },
			meetingOptions: { allowedDurations: [30, 45], allowAddingGuests: true },
			spots: 3,
			locations: ['Main Street 1, Berlin'],
			templateType: 'team',
			queueType: 'equalDistribution',
			lockedFields: [],
			assignedUserIds: [],
		});
		expect((await world().runNode({ resource: 'meetingTypeTemplate', operation: 'getAll', returnAll: true }, credential)).items.map((item) => item.id)).toEqual([templateId]);
		await world().clearRequests();
		const updateFields = { name: 'Intro call', duration: 60, lockedFields: ['duration', 'meetingInfo.channel'], meetingOptions: '{"allowAddingGuests": false}' };
		const updated = await world().runNode({ resource: 'meetingTypeTemplate', operation: 'update', templateId: byId(templateId), updateFields }, credential);
		expect((await world().requests()).map(wire)).toEqual([
			{
				method: 'PATCH',
				path: `/v4/meeting-type-template/${templateId}`,
				query: '',
				headers: world().patHeaders(tenant.token, true),
				body: { meetingInfo: { name: 'Intro call', duration: 60 }, meetingOptions: { allowAddingGuests: false }, lockedFields: ['duration', 'meetingInfo.channel'] },
			},
		]);
		expect(updated.items[0]).toMatchObject({
			meetingInfo: { name: 'Intro call', description: '', duration: 60, channel: 'zoom' },
			meetingOptions: { allowedDurations: [30, 45], allowAddingGuests: false },
			lockedFields: ['duration', 'meetingInfo.channel'],
		});
		const assigned = await world().runNode({ resource: 'meetingTypeTemplate', operation: 'assign', templateId: byId(templateId), userId: byId(hosts[1]) }, credential);
		expect(assigned.items[0]).toEqual({ templateId, userId: hosts[1], meetingTypeId: expect.any(String) });
		expect(await call(tenant, 'GET', `/v4/meeting-type/${String(assigned.items[0].meetingTypeId)}`)).toMatchObject({ userId: hosts[1], spots: 3, meetingInfo: { name: 'Intro call', duration: 60, channel: 'zoom' } });
		await world().clearRequests();
		const nothing = await world().runNode({ resource: 'meetingTypeTemplate', operation: 'update', templateId: byId(templateId), updateFields: {} }, credential);
		expect(nothing.error?.message).toBe('Add at least one field to change');
		const list = await world().runNode({ resource: 'meetingTypeTemplate', operation: 'update', templateId: byId(templateId), updateFields: { meetingOptions: '[1, 2]' } }, credential);
		expect(list.error?.message).toBe('Booking Options (JSON) must be a JSON object, not a list');
		const broken = await world().runNode({ resource: 'meetingTypeTemplate', operation: 'create', name: 'X', duration: 30, channel: 'phone', additionalFields: { locations: '["a",' } }, credential);
		expect(broken.error?.message).toMatch(/^Locations \(JSON\) must be valid JSON: /);
		expect(await world().requests()).toEqual([]);
	});

	test('the API takes no top-level template name: it is dropped on create and renames nothing on update', async () => {
		const { tenant } = await team();
		const created = await call(tenant, 'POST', '/v4/meeting-type-template/create', { name: 'Top', meetingInfo: { name: 'Inner', description: '', duration: 30, channel: 'phone' } });
		expect(created).not.toHaveProperty('name');
		const renamed = await call(tenant, 'PATCH', `/v4/meeting-type-template/${String(created.id)}`, { name: 'Renamed' });
		expect(renamed).toMatchObject({ meetingInfo: { name: 'Inner' } });
		expect(renamed).not.toHaveProperty('name');
		const nameless = await world().api('POST', '/v4/meeting-type-template/create', tenant.token, { body: { name: 'Only top', meetingInfo: { duration: 30 } } });
		expect(nameless).toEqual({ status: 400, body: { statusCode: 400, message: ['meetingInfo.name should not be empty'], error: 'Bad Request' } });
	});

	test('Provisional Booking Get Many (page0), Confirm, Decline; confirming a slot taken meanwhile is a clear 409', async () => {
		const { tenant, hosts, meetingTypeId } = await team();
		const credential = world().pat(tenant.token);
		await world().control('POST', `/__sandbox/meeting-types/${meetingTypeId}/approval`, { bookingType: 'requireHostConfirmation' });
		const ask = (start: string, email: string) => call(tenant, 'POST', '/v4/booking', { meetingTypeId, start, hostIds: [hosts[0]], attendee: attendee(email) });
		const first = await ask('2030-01-08T09:00:00Z', 'p1@example.com');
		const second = await ask('2030-01-08T09:30:00Z', 'p2@example.com');
		await world().clearRequests();
		const listed = await world().runNode({ resource: 'provisionalBooking', operation: 'getAll', returnAll: true, filters: { status: 'pending', meetingTypeId: byId(meetingTypeId) } }, credential);
		expect(listed.items.map((item) => item.id)).toEqual([second.provisionalBookingId, first.provisionalBookingId]);
		// The item as the API lists it: the request under dto, no status.
		expect(listed.items[1]).toEqual({
			id: first.provisionalBookingId,
			dto: { attendee: attendee('p1@example.com'), meetingTypeId, start: '2030-01-08T09:00:00.000Z', hostIds: [hosts[0]], queueId: null },
			type: 'requireHostConfirmation',
			hosts: [expect.objectContaining({ id: hosts[0], givenName: 'Fay' })],
			queueBookingInfo: null,
			meetingTypeId,
			createdAt: expect.any(String),
			deletedAt: null,
		});
		expect((await world().requests()).map((request) => request.query)).toEqual([`status=pending&meetingTypeId=${meetingTypeId}&page=0&pageSize=100`]);
		const confirmed = await world().runNode({ resource: 'provisionalBooking', operation: 'confirm', provisionalBookingId: byId(String(first.provisionalBookingId)) }, credential);
		expect(confirmed.items).toEqual([{ id: first.provisionalBookingId, status: 'confirmed', appointmentId: expect.any(String) }]);
		await world().control('POST', `/__sandbox/meeting-types/${meetingTypeId}/approval`, { bookingType: null });
		await call(tenant, 'POST', '/v4/booking', { meetingTypeId, start: '2030-01-08T09:30:00Z', hostIds: [hosts[0]], attendee: attendee('quick@example.com') });
		const taken = await world().runNode({ resource: 'provisionalBooking', operation: 'confirm', provisionalBookingId: byId(String(second.provisionalBookingId)) }, credential);
		expect(taken.error).toMatchObject({ message: 'The requested time slot is not available (HTTP 409)', httpCode: '409' });
		const declined = await world().runNode({ resource: 'provisionalBooking', operation: 'decline', provisionalBookingId: byId(String(second.provisionalBookingId)), reason: 'Slot gone' }, credential);
		expect(declined.items).toEqual([{ id: second.provisionalBookingId, status: 'declined_by_host' }]);
	});
});

describe('Routing: abandoned-booking follow-up as chained nodes', () => {
	test('Get Many pending attendees → CRM Create or Update → Messenger template to their phone', async () => {
		// In the seed's company, which has the approved appointment_reminder template.
		const pending = await world().api('POST', '/v4/attendee/pending', world().seed.credentials.ownerPat, { body: { email: 'gone@example.com', firstname: 'Gwen', lastname: 'Gone', phone: '+4915790001111', notes: {} } });
		expect(pending.status).toBe(201);
		await world().clearRequests();
		const { outputs, error } = await world().runChain(
			[
				{ name: 'Abandoned', parameters: { resource: 'pendingAttendee', operation: 'getAll', returnAll: true } },
				{
					name: 'Contact',
					parameters: {
						resource: 'contact',
						operation: 'upsert',
						contactFields: { mappingMode: 'defineBelow', value: { email: '={{ $json.email }}', firstName: '={{ $json.firstname }}', lastName: '={{ $json.lastname }}', phoneNumber: '={{ $json.phone }}' } },
					},
				},
				{
					name: 'Follow Up',
					parameters: { resource: 'message', operation: 'send', sendTo: 'phone', phone: '={{ $json.phoneNumber }}', type: 'template', template: { __rl: true, mode: 'id', value: 'appointment_reminder:en' }, templateParameters: { parameter: [{ value: '={{ $json.firstName }}' }, { value: 'your booking' }] } },
				},
			],
			world().pat(),
		);
		expect(error).toBeUndefined();
		expect(outputs.Abandoned.map((item) => item.email)).toEqual(['gone@example.com']);
		expect(outputs.Contact[0]).toMatchObject({ email: 'gone@example.com', firstName: 'Gwen', outcome: 'created' });
		expect(outputs['Follow Up'][0]).toMatchObject({ status: 'queued' });
		expect((await world().requests()).filter((request) => request.method !== 'GET').map((request) => `${request.method} ${request.path}`)).toEqual(['POST /crm', 'POST /v4/messenger/messages']);
	});
});

describe('Routing: lists in the editor', () => {
	test('Queue, Queue User Group, Template (by meetingInfo.name), Pending Attendee and Provisional Booking (attendee and start under dto) lists load with their names', async () => {
		const { tenant, hosts, meetingTypeId } = await team();
		const credential = world().pat(tenant.token);
		const queue = await call(tenant, 'PATCH', `/v4/queue/meeting-type/${meetingTypeId}`, { userId: hosts[1] });
		const group = await call(tenant, 'POST', '/v4/queue-user-group', { queueId: queue.id, name: 'Night shift' });
		const template = await call(tenant, 'POST', '/v4/meeting-type-template/create', { meetingInfo: { name: 'Intro', description: '', duration: 15, channel: 'phone' } });
		const pending = await call(tenant, 'POST', '/v4/attendee/pending', { email: 'half@example.com', fullname: 'Hal Half', notes: {} });
		const phoneOnly = await call(tenant, 'POST', '/v4/attendee/pending', { phone: '+4915112345678', firstname: 'Pho', lastname: 'Ne', notes: {} });
		await world().control('POST', `/__sandbox/meeting-types/${meetingTypeId}/approval`, { bookingType: 'requireHostConfirmation' });
		const provisional = await call(tenant, 'POST', '/v4/booking', { meetingTypeId, start: '2030-01-09T10:00:00Z', hostIds: [hosts[0]], attendee: attendee('list@example.com') });
		await world().control('POST', `/__sandbox/meeting-types/${meetingTypeId}/approval`, { bookingType: null });
		const names = async (method: string) => ((await world().listSearch(method, { resource: 'queue', operation: 'get' }, credential)).result?.results ?? []).map((option) => [option.name, option.value]);
		expect(await names('searchQueues')).toEqual([['simpleRoundRobin: Bea Host', queue.id]]);
		expect(await names('searchQueueUserGroups')).toEqual([['Night shift (simpleRoundRobin queue, no members)', group.id]]);
		expect(await names('searchMeetingTypeTemplates')).toEqual([['Intro', template.id]]);
		expect(await names('searchPendingAttendees')).toEqual([['+4915112345678 (Pho Ne)', String(phoneOnly)], ['half@example.com (Hal Half)', String(pending)]]);
		expect(await names('searchProvisionalBookings')).toEqual([['list@example.com at 2030-01-09T10:00:00.000Z', provisional.provisionalBookingId]]);
		// An answer with the request at the top level (no dto) is read too.
		const { provisionalBookings } = await call(tenant, 'GET', '/v4/provisional-booking/paginated?page=0&pageSize=100&status=pending');
		const [item] = provisionalBookings as IDataObject[];
		const { attendee: person, start } = item.dto as IDataObject;
		await world().control('POST', '/__sandbox/faults', { method: 'GET', path: '/v4/provisional-booking/paginated', status: 200, body: { provisionalBookings: [{ id: item.id, attendee: person, start }], total: 1 } });
		expect(await names('searchProvisionalBookings')).toEqual([['list@example.com at 2030-01-09T10:00:00.000Z', provisional.provisionalBookingId]]);
		// Field by field: a dto without the start still gives the attendee from dto and the start from the top level.
		await world().control('POST', '/__sandbox/faults', { method: 'GET', path: '/v4/provisional-booking/paginated', status: 200, body: { provisionalBookings: [{ id: item.id, dto: { attendee: person }, start }], total: 1 } });
		expect(await names('searchProvisionalBookings')).toEqual([['list@example.com at 2030-01-09T10:00:00.000Z', provisional.provisionalBookingId]]);
	});
});
