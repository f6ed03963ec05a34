import type { IDataObject } from 'n8n-workflow';

import { asTenant, freshTenant } from './harness/crm';
import { useWorld } from './harness/world';

/**
 * The sandbox's routing rules over HTTP (api-reference §7, designed picking): bookings through a queue of three hosts
 * with capacities 1, 2 and 3, for each queue type; Get Next Hosts predicting the next booking; groups whose users must
 * all be free; priorities deciding before the type's order (known); provisional bookings listed (the request under
 * dto, the queue's pick), confirmed or declined.
 */

const world = useWorld();

type Tenant = Awaited<ReturnType<typeof freshTenant>>;

beforeAll(async () => {
	// Every booking of this file at a distinct half hour of the working days from Monday 2030-01-07 (UTC).
	await world().control('POST', '/__sandbox/clock/set', { now: '2030-01-01T08:00:00Z' });
	await world().control('POST', '/__sandbox/rate-limit', { perMinute: 100_000, burst: 100_000 });
});

const call = (tenant: Tenant, method: string, path: string, body?: unknown) => asTenant(world(), tenant, method, path, body);

/** The n-th half-hour slot of the working days (Monday to Friday, 09:00-17:00 UTC) from 2030-01-07. */
function slot(index: number): string {
	const day = Math.floor(index / 16);
	const week = Math.floor(day / 5);
	const date = new Date(Date.UTC(2030, 0, 7 + week * 7 + (day % 5), 9, 30 * (index % 16)));
	return date.toISOString();
}

/** A tenant with three hosts (the owner and two more, all Monday to Friday 09:00-17:00 UTC) and the owner's meeting type. */
async function team(): Promise<{ tenant: Tenant; hosts: string[]; meetingTypeId: string }> {
	const tenant = await freshTenant(world());
	const hosts = [tenant.userId];
	for (const name of ['Bea', 'Cid']) {
		const user = (await world().control('POST', '/__sandbox/users', { companyId: tenant.companyId, email: `${name.toLowerCase()}@fresh.example`, givenName: name, familyName: 'Host' })) as { id: string };
		hosts.push(user.id);
	}
	const [meetingType] = (await call(tenant, 'GET', '/v4/meeting-type')) as unknown as IDataObject[];
	return { tenant, hosts, meetingTypeId: String(meetingType.id) };
}

async function queueOf(tenant: Tenant, meetingTypeId: string, hosts: string[], settings: IDataObject): Promise<IDataObject> {
	for (const userId of hosts) await call(tenant, 'PATCH', `/v4/queue/meeting-type/${meetingTypeId}`, { userId });
	return await call(tenant, 'PATCH', `/v4/queue/meeting-type/${meetingTypeId}`, settings);
}

async function bookThrough(tenant: Tenant, meetingTypeId: string, queueId: string, index: number): Promise<IDataObject> {
	const booked = await call(tenant, 'POST', '/v4/booking', {
		meetingTypeId,
		start: slot(index),
		queueId,
		attendee: { email: `lead${index}@example.com`, firstname: 'Lead', lastname: String(index), receiveReminders: false, notes: {} },
	});
	return await call(tenant, 'GET', `/v4/appointment/${String(booked.appointmentId)}`);
}

const capacities = (hosts: string[]) => hosts.map((userId, index) => ({ userId, capacity: index + 1 }));

describe('Routing rules: distribution', () => {
	test.each([
		['simpleRoundRobin', [100, 100, 100]],
		['equalDistribution', [100, 100, 100]],
		['advancedRoundRobin', [50, 100, 150]],
	])('300 bookings through a %s queue of three hosts with capacities 1, 2, 3 go %j; Get Next Hosts predicts each next host', async (type, expected) => {
		const { tenant, hosts, meetingTypeId } = await team();
		const queue = await queueOf(tenant, meetingTypeId, hosts, { type, userCapacities: capacities(hosts), distributionPeriod: 'month' });
		expect(queue).toMatchObject({ type, meetingTypeId, userIds: hosts });
		const counts = new Map(hosts.map((host) => [host, 0]));
		for (let index = 0; index < 300; index++) {
			const { nextHosts } = (await call(tenant, 'GET', `/v4/queue/${String(queue.id)}/next`)) as { nextHosts: IDataObject[] };
			const appointment = await bookThrough(tenant, meetingTypeId, String(queue.id), index);
			expect(appointment.userId).toBe(nextHosts[0].userId);
			counts.set(String(appointment.userId), counts.get(String(appointment.userId))! + 1);
		}
		expect(hosts.map((host) => counts.get(host))).toEqual(expected);
		const entries = (await call(tenant, 'GET', `/v4/queue/${String(queue.id)}`)).roundRobinEntries as IDataObject[];
		expect(entries).toHaveLength(300);
		expect(entries[0]).toMatchObject({ id: expect.any(Number), userId: hosts[type === 'advancedRoundRobin' ? 2 : 0], queueId: queue.id, selectionReason: expect.any(String) });
	});

	test('a busy host is skipped for the next free one, with the reason; a group is one member whose users must all be free', async () => {
		const { tenant, hosts, meetingTypeId } = await team();
		const queue = await queueOf(tenant, meetingTypeId, hosts.slice(0, 1), { type: 'simpleRoundRobin' });
		const group = await call(tenant, 'POST', '/v4/queue-user-group', { queueId: queue.id, name: 'Pair' });
		for (const userId of hosts.slice(1)) await call(tenant, 'PATCH', `/v4/queue-user-group/${String(group.id)}`, { userId });
		const paired = await call(tenant, 'PATCH', `/v4/queue-user-group/${String(group.id)}`, { mainGroupHostId: hosts[2] });
		expect(paired).toMatchObject({ userIds: [hosts[1], hosts[2]], mainGroupHostId: hosts[2], capacity: 1 });
		const first = await bookThrough(tenant, meetingTypeId, String(queue.id), 0);
		expect(first.userId).toBe(hosts[0]);
		const second = await bookThrough(tenant, meetingTypeId, String(queue.id), 1);
		expect([second.userId, second.hostIds]).toEqual([hosts[2], [hosts[2], hosts[1]]]);
		// The group's second user is busy at slot 2 (a direct booking): the turn goes on to the owner.
		await call(tenant, 'POST', '/v4/booking', { meetingTypeId, start: slot(2), hostIds: [hosts[1]], attendee: { email: 'busy@example.com', firstname: 'B', lastname: 'Usy', receiveReminders: false, notes: {} } });
		await bookThrough(tenant, meetingTypeId, String(queue.id), 3); // owner's turn
		const skipped = await bookThrough(tenant, meetingTypeId, String(queue.id), 2);
		expect(skipped.userId).toBe(hosts[0]);
		const entries = (await call(tenant, 'GET', `/v4/queue/${String(queue.id)}`)).roundRobinEntries as IDataObject[];
		expect(entries.map((entry) => [entry.userId, entry.groupId, entry.selectionReason])).toEqual([
			[hosts[0], null, 'Next in turn (simple round robin)'],
			[hosts[2], group.id, 'Next in turn (simple round robin)'],
			[hosts[0], null, 'Next in turn (simple round robin)'],
			[hosts[0], null, 'Next in turn (simple round robin); the ones before were busy'],
		]);
	});
});

describe('Routing rules: priorities', () => {
	test('among the hosts free for a slot a higher priority is booked first, hosts without one last; equal priorities go in the type\'s own order', async () => {
		const { tenant, hosts, meetingTypeId } = await team();
		const queue = await queueOf(tenant, meetingTypeId, hosts, { type: 'simpleRoundRobin', userPriorities: [{ userId: hosts[0], priority: 1 }, { userId: hosts[2], priority: 3 }] });
		const busy = (index: number, hostId: string) =>
			call(tenant, 'POST', '/v4/booking', { meetingTypeId, start: slot(index), hostIds: [hostId], attendee: { email: `busy${index}@example.com`, firstname: 'B', lastname: 'Usy', receiveReminders: false, notes: {} } });
		const picked = async (index: number) => (await bookThrough(tenant, meetingTypeId, String(queue.id), index)).userId;
		expect(await picked(0)).toBe(hosts[2]);
		expect(await picked(1)).toBe(hosts[2]);
		await busy(2, hosts[2]);
		expect(await picked(2)).toBe(hosts[0]);
		await busy(3, hosts[2]);
		await busy(3, hosts[0]);
		expect(await picked(3)).toBe(hosts[1]);
		const entries = (await call(tenant, 'GET', `/v4/queue/${String(queue.id)}`)).roundRobinEntries as IDataObject[];
		expect(entries.map((entry) => entry.selectionReason)).toEqual([
			'Priority 3, then next in turn (simple round robin)',
			'Priority 3, then next in turn (simple round robin)',
			'Priority 1, then next in turn (simple round robin); the ones before were busy',
			'Priority none, then next in turn (simple round robin); the ones before were busy',
		]);
		// All equal: in turn from after the last pick (hosts[1]).
		await call(tenant, 'PATCH', `/v4/queue/meeting-type/${meetingTypeId}`, { userPriorities: hosts.map((userId) => ({ userId, priority: 2 })) });
		expect([await picked(4), await picked(5), await picked(6)]).toEqual([hosts[2], hosts[0], hosts[1]]);
		const outOfRange = await world().api('PATCH', `/v4/queue/meeting-type/${meetingTypeId}`, tenant.token, { body: { userPriorities: [{ userId: hosts[0], priority: 4 }] } });
		expect(outOfRange).toEqual({ status: 400, body: { statusCode: 400, message: ['userPriorities.0.priority must not be greater than 3'], error: 'Bad Request' } });
	});
});

describe('Routing rules: provisional bookings', () => {
	test('confirm books the slot; a slot taken meanwhile is 409; decline ends it; a decided one is 409', async () => {
		const { tenant, hosts, meetingTypeId } = await team();
		await world().control('POST', `/__sandbox/meeting-types/${meetingTypeId}/approval`, { bookingType: 'requireHostConfirmation' });
		const ask = (index: number, email: string) => call(tenant, 'POST', '/v4/booking', { meetingTypeId, start: slot(index), hostIds: [hosts[0]], attendee: { email, firstname: 'P', lastname: 'Rov', receiveReminders: false, notes: {} } });
		const first = await ask(0, 'one@example.com');
		const second = await ask(1, 'two@example.com');
		const third = await ask(2, 'three@example.com');
		const listed = await call(tenant, 'GET', `/v4/provisional-booking/paginated?page=0&pageSize=2&status=pending&meetingTypeId=${meetingTypeId}`);
		expect(listed.total).toBe(3);
		expect((listed.provisionalBookings as IDataObject[]).map((entry) => entry.id)).toEqual([third.provisionalBookingId, second.provisionalBookingId]);
		const confirmed = await call(tenant, 'POST', `/v4/provisional-booking/${String(first.provisionalBookingId)}/confirm`);
		expect(confirmed).toEqual({ id: first.provisionalBookingId, status: 'confirmed', appointmentId: expect.any(String) });
		expect(await call(tenant, 'GET', `/v4/appointment/${String(confirmed.appointmentId)}`)).toMatchObject({ start: slot(0), userId: hosts[0] });
		await world().control('POST', `/__sandbox/meeting-types/${meetingTypeId}/approval`, { bookingType: null });
		await call(tenant, 'POST', '/v4/booking', { meetingTypeId, start: slot(1), hostIds: [hosts[0]], attendee: { email: 'fast@example.com', firstname: 'F', lastname: 'Ast', receiveReminders: false, notes: {} } });
		const taken = await world().api('POST', `/v4/provisional-booking/${String(second.provisionalBookingId)}/confirm`, tenant.token);
		expect(taken).toEqual({ status: 409, body: { statusCode: 409, message: 'The requested time slot is not available', error: 'Conflict' } });
		expect(await call(tenant, 'POST', `/v4/provisional-booking/${String(third.provisionalBookingId)}/decline`, { reason: 'Fully booked' })).toEqual({ id: third.provisionalBookingId, status: 'declined_by_host' });
		const again = await world().api('POST', `/v4/provisional-booking/${String(third.provisionalBookingId)}/confirm`, tenant.token);
		expect(again.body).toMatchObject({ statusCode: 409, message: 'The provisional booking is declined_by_host' });
	});

	test('a provisional booking through a queue lists the queue and its pick', async () => {
		const { tenant, hosts, meetingTypeId } = await team();
		const queue = await queueOf(tenant, meetingTypeId, hosts.slice(1), { type: 'simpleRoundRobin' });
		await world().control('POST', `/__sandbox/meeting-types/${meetingTypeId}/approval`, { bookingType: 'doubleOptIn' });
		const attendee = { email: 'queued@example.com', firstname: 'Q', lastname: 'Ueued', receiveReminders: false, notes: {} };
		const asked = await call(tenant, 'POST', '/v4/booking', { meetingTypeId, start: slot(0), queueId: queue.id, attendee });
		const { provisionalBookings } = await call(tenant, 'GET', '/v4/provisional-booking/paginated?page=0&pageSize=10');
		expect(provisionalBookings).toEqual([
			{
				id: asked.provisionalBookingId,
				dto: { attendee, meetingTypeId, start: slot(0), hostIds: [hosts[1]], queueId: queue.id },
				type: 'doubleOptIn',
				hosts: [expect.objectContaining({ id: hosts[1], givenName: 'Bea' })],
				queueBookingInfo: { userIds: [hosts[1]], selectionReason: 'Next in turn (simple round robin)', groupId: null },
				meetingTypeId,
				createdAt: expect.any(String),
				deletedAt: null,
			},
		]);
	});
});
