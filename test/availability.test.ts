import type { IDataObject } from 'n8n-workflow';

import { byId, useWorld, wire } from './harness/world';

const world = useWorld();

const owner = () => world().seed.users.owner;

const closed = { enabled: false, hours: [] };
const range = (start: string, end: string) => ({ start, end });
const base = { resource: 'availability', operation: 'create', name: 'Office Hours', timezone: 'Europe/Berlin' };

function parseError(text: string): string {
	try {
		JSON.parse(text);
		return '';
	} catch (error) {
		return (error as Error).message;
	}
}

async function ownerDefaultAvailability(): Promise<IDataObject> {
	const list = await world().api('GET', '/availability', world().seed.credentials.ownerPat);
	await world().clearRequests();
	return list.body.find((item: IDataObject) => item.isDefault) as IDataObject;
}

describe('Availability', () => {
	test('Create from the form: split days and several days per range become the full 7-day schedule', async () => {
		const { items, error } = await world().runNode(
			{
				...base,
				scheduleInput: 'form',
				weeklyHours: {
					ranges: [
						{ days: ['monday', 'tuesday'], start: '13:00', end: '17:00' },
						{ days: ['monday', 'tuesday', 'friday'], start: '09:00', end: '12:00' },
						{ days: ['saturday'], start: ' 10:00 ', end: '14:30' },
					],
				},
			},
			world().ownerKey(),
		);
		expect(error).toBeUndefined();
		const schedule = {
			monday: { enabled: true, hours: [range('09:00', '12:00'), range('13:00', '17:00')] },
			tuesday: { enabled: true, hours: [range('09:00', '12:00'), range('13:00', '17:00')] },
			wednesday: closed,
			thursday: closed,
			friday: { enabled: true, hours: [range('09:00', '12:00')] },
			saturday: { enabled: true, hours: [range('10:00', '14:30')] },
			sunday: closed,
		};
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'POST', path: '/availability', query: '', headers: world().keyHeaders(owner().id, true), body: { name: 'Office Hours', timezone: 'Europe/Berlin', schedule } },
		]);
		expect(items).toEqual([
			{
				id: expect.any(String),
				userId: world().seed.users.owner.id,
				name: 'Office Hours',
				timezone: 'Europe/Berlin',
				schedule,
				availabilityExceptions: [],
				isDefault: false,
				createdAt: expect.any(String),
			},
		]);
	});

	test('Create from JSON: missing days are sent closed and ranges sorted by start', async () => {
		const json = JSON.stringify({
			wednesday: { enabled: true, hours: [range('14:00', '18:00'), range('08:00', '12:00')] },
			sunday: { hours: [range('10:00', '11:00')] },
		});
		const { items, error } = await world().runNode({ ...base, scheduleInput: 'json', scheduleJson: json }, world().pat());
		expect(error).toBeUndefined();
		const schedule = {
			monday: closed,
			tuesday: closed,
			wednesday: { enabled: true, hours: [range('08:00', '12:00'), range('14:00', '18:00')] },
			thursday: closed,
			friday: closed,
			saturday: closed,
			sunday: { enabled: true, hours: [range('10:00', '11:00')] },
		};
		expect((await world().requests()).map(wire)).toEqual([
			{
				method: 'POST',
				path: '/availability',
				query: '',
				headers: { authorization: `Bearer ${world().seed.credentials.ownerPat}`, 'content-type': 'application/json' },
				body: { name: 'Office Hours', timezone: 'Europe/Berlin', schedule },
			},
		]);
		expect(items).toEqual([expect.objectContaining({ name: 'Office Hours', schedule, isDefault: false })]);
	});

	test('Create refuses bad weekly hours and a bad time zone before sending anything', async () => {
		const form = (...ranges: IDataObject[]) => ({ ...base, scheduleInput: 'form', weeklyHours: { ranges } });
		const json = (text: string) => ({ ...base, scheduleInput: 'json', scheduleJson: text });
		const cases: Array<[IDataObject, string]> = [
			[
				form({ days: ['monday'], start: '09:00', end: '12:30' }, { days: ['wednesday', 'monday'], start: '12:00', end: '17:00' }),
				'Weekly Hours, Monday: 09:00–12:30 and 12:00–17:00 overlap',
			],
			[form({ days: ['tuesday'], start: '17:00', end: '09:00' }), 'Weekly Hours, Tuesday: 17:00–09:00 must end after it starts'],
			[form({ days: ['monday'], start: '08:00', end: '09:00' }, { days: '={{ [] }}', start: '09:00', end: '12:00' }), 'Weekly Hours → row 2 → Days is required'],
			[form({ days: ['friday'], start: '10:00', end: '10:00' }), 'Weekly Hours, Friday: 10:00–10:00 must end after it starts'],
			[form({ days: ['thursday'], start: '9:00', end: '17:00' }), 'Weekly Hours, Thursday: "9:00" is not a time in HH:mm form, such as 09:00 or 17:30'],
			[form({ days: ['sunday'], start: '09:00', end: '24:00' }), 'Weekly Hours, Sunday: "24:00" is not a time in HH:mm form, such as 09:00 or 17:30'],
			[json('{"monday": '), `Weekly Hours (JSON) is not valid JSON: ${parseError('{"monday": ')}`],
			[
				json('["monday"]'),
				'Weekly Hours (JSON) must be an object with days as keys, such as { "monday": { "enabled": true, "hours": [{ "start": "09:00", "end": "17:00" }] } }',
			],
			[
				json('{"mon": {"enabled": true, "hours": []}}'),
				'Weekly Hours (JSON) has an unknown day "mon": use monday, tuesday, wednesday, thursday, friday, saturday, sunday',
			],
			[json('{"saturday": {"enabled": "yes", "hours": []}}'), 'Weekly Hours, Saturday: must be written as { "enabled": true, "hours": [{ "start": "09:00", "end": "17:00" }] }'],
			[json('{"monday": {"hours": [{"start": "08:00", "end": "10:00"}, {"start": "09:00", "end": "11:00"}]}}'), 'Weekly Hours, Monday: 08:00–10:00 and 09:00–11:00 overlap'],
			[{ ...form(), timezone: 'Mars/Olympus' }, 'Timezone must be an IANA time zone such as Europe/Berlin or America/New_York; "Mars/Olympus" is not'],
		];
		for (const [parameters, message] of cases) {
			const { error } = await world().runNode(parameters, world().ownerKey());
			expect(error?.message).toBe(message);
			expect(error?.description).toMatch(/^Item 1: fix /);
		}
		expect(await world().requests()).toEqual([]);
	});

	test('the API itself refuses overlapping and backwards hours with 400 naming the day', async () => {
		const post = (schedule: IDataObject) =>
			world().api('POST', '/availability', world().seed.credentials.ownerPat, { body: { name: 'Bad', timezone: 'UTC', schedule } });
		const answer = await post({ sunday: { enabled: true, hours: [range('9:00', '10:00')] } });
		expect(answer).toEqual({
			status: 400,
			body: {
				statusCode: 400,
				message: ['schedule.sunday.hours.0.start must match /^([01][0-9]|2[0-3]):[0-5][0-9]$/ regular expression'],
				error: 'Bad Request',
			},
		});
		const rules = await post({
			monday: { enabled: true, hours: [range('09:00', '12:00'), range('11:00', '13:00')] },
			friday: { enabled: true, hours: [range('18:00', '08:00')] },
		});
		expect(rules).toEqual({
			status: 400,
			body: {
				statusCode: 400,
				message: ['schedule.monday.hours must not overlap', 'schedule.friday.hours.0.end must be later than start'],
				error: 'Bad Request',
			},
		});
	});

	test('Get reads one availability; a member cannot see the owner\'s (404 with the API\'s words)', async () => {
		const id = await world().createAvailability('Owner only');
		const { items } = await world().runNode({ resource: 'availability', operation: 'get', availabilityId: byId(id) }, world().ownerKey());
		expect(items).toEqual([expect.objectContaining({ id, name: 'Owner only', userId: world().seed.users.owner.id, availabilityExceptions: [] })]);
		const member = await world().runNode(
			{ resource: 'availability', operation: 'get', availabilityId: byId(id) },
			world().pat(world().seed.credentials.memberPat),
		);
		expect(member.error?.message).toBe('Availability not found (HTTP 404)');
		expect(member.error?.description).toContain('Availability not found');
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: `/availability/${id}`, query: '', headers: world().keyHeaders(), body: null },
			{ method: 'GET', path: `/availability/${id}`, query: '', headers: { authorization: `Bearer ${world().seed.credentials.memberPat}` }, body: null },
		]);
	});

	test('an admin reads the availability of a member of the company', async () => {
		const list = await world().api('GET', '/availability', world().seed.credentials.memberPat);
		const memberDefault = list.body[0] as IDataObject;
		await world().clearRequests();
		const { items } = await world().runNode({ resource: 'availability', operation: 'get', availabilityId: byId(memberDefault.id as string) }, world().ownerKey());
		expect(items).toEqual([memberDefault]);
		expect(items[0]).toMatchObject({ userId: world().seed.users.member.id, timezone: 'America/New_York', isDefault: true });
	});

	test('Get Many returns the bare list; Limit cuts it without extra requests', async () => {
		await world().createAvailability('Second');
		const expected = await world().api('GET', '/availability', world().seed.credentials.ownerPat);
		expect(expected.body.length).toBeGreaterThan(1);
		await world().clearRequests();
		const all = await world().runNode({ resource: 'availability', operation: 'getAll', returnAll: true }, world().ownerKey());
		expect(all.items).toEqual(expected.body);
		const one = await world().runNode({ resource: 'availability', operation: 'getAll', returnAll: false, limit: 1 }, world().ownerKey());
		expect(one.items).toEqual([expected.body[0]]);
		expect(one.items[0]).toMatchObject({ isDefault: true });
		const request = { method: 'GET', path: '/availability', query: '', headers: world().keyHeaders(), body: null };
		expect((await world().requests()).map(wire)).toEqual([request, request]);
	});

	test('Update sends the weekly hours only when Update Weekly Hours is on', async () => {
		const id = await world().createAvailability('Before');
		const renamed = await world().runNode(
			{ resource: 'availability', operation: 'update', availabilityId: byId(id), updateFields: { name: 'After', timezone: 'America/New_York' } },
			world().ownerKey(),
		);
		expect(renamed.items).toEqual([expect.objectContaining({ id, name: 'After', timezone: 'America/New_York' })]);
		const rescheduled = await world().runNode(
			{
				resource: 'availability',
				operation: 'update',
				availabilityId: byId(id),
				updateWeeklyHours: true,
				scheduleInput: 'form',
				weeklyHours: { ranges: [{ days: ['thursday'], start: '08:00', end: '16:00' }] },
				updateFields: {},
			},
			world().ownerKey(),
		);
		const schedule = {
			monday: closed,
			tuesday: closed,
			wednesday: closed,
			thursday: { enabled: true, hours: [range('08:00', '16:00')] },
			friday: closed,
			saturday: closed,
			sunday: closed,
		};
		expect(rescheduled.items).toEqual([expect.objectContaining({ id, name: 'After', schedule })]);
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'PATCH', path: `/availability/${id}`, query: '', headers: world().keyHeaders(owner().id, true), body: { name: 'After', timezone: 'America/New_York' } },
			{ method: 'PATCH', path: `/availability/${id}`, query: '', headers: world().keyHeaders(owner().id, true), body: { schedule } },
		]);
	});

	test('Update refuses overlapping hours and a bad time zone before sending', async () => {
		const id = await world().createAvailability('Untouched');
		const overlap = await world().runNode(
			{
				resource: 'availability',
				operation: 'update',
				availabilityId: byId(id),
				updateWeeklyHours: true,
				scheduleInput: 'json',
				scheduleJson: '{"friday": {"enabled": true, "hours": [{"start": "10:00", "end": "12:00"}, {"start": "11:59", "end": "13:00"}]}}',
			},
			world().ownerKey(),
		);
		expect(overlap.error?.message).toBe('Weekly Hours, Friday: 10:00–12:00 and 11:59–13:00 overlap');
		const zone = await world().runNode(
			{ resource: 'availability', operation: 'update', availabilityId: byId(id), updateFields: { timezone: 'Berlin' } },
			world().ownerKey(),
		);
		expect(zone.error?.message).toBe('Timezone must be an IANA time zone such as Europe/Berlin or America/New_York; "Berlin" is not');
		expect(await world().requests()).toEqual([]);
	});

	test('Delete removes an unused availability; the default one and one in use get the API\'s 409', async () => {
		const id = await world().createAvailability('Short-lived');
		const { items } = await world().runNode({ resource: 'availability', operation: 'delete', availabilityId: byId(id) }, world().ownerKey());
		expect(items).toEqual([{ deleted: true }]);
		expect((await world().api('GET', `/availability/${id}`, world().seed.credentials.ownerPat)).status).toBe(404);

		const defaultOne = (await ownerDefaultAvailability()).id as string;
		const refused = await world().runNode({ resource: 'availability', operation: 'delete', availabilityId: byId(defaultOne) }, world().ownerKey());
		expect(refused.error?.message).toBe('The default availability cannot be deleted (HTTP 409)');
		expect(refused.error?.description).toBe(
			'The request conflicts with the current state of the resource. The API says: The default availability cannot be deleted. Every user keeps a default availability: change it with Availability → Update instead, or make another availability the default in the dashboard first.',
		);

		const used = await world().createAvailability('Used');
		await world().createMeetingType('Uses it', { availabilityId: used });
		const inUse = await world().runNode({ resource: 'availability', operation: 'delete', availabilityId: byId(used) }, world().ownerKey());
		expect(inUse.error?.description).toContain('The availability is used by a meeting type');
		expect((await world().requests()).map(wire)).toEqual([{ method: 'DELETE', path: `/availability/${used}`, query: '', headers: world().keyHeaders(), body: null }]);
	});

	test('the availability list for the resource locator filters by name', async () => {
		const id = await world().createAvailability('Weekend Shift');
		const { result } = await world().listSearch('searchAvailabilities', { resource: 'availability', operation: 'get' }, world().pat(), 'weekend');
		expect(result?.results).toEqual([{ name: 'Weekend Shift (Europe/Berlin)', value: id }]);
		expect((await world().requests()).map((r) => `${r.method} ${r.path}`)).toEqual(['GET /availability']);
	});
});
