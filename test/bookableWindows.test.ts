import type { IDataObject } from 'n8n-workflow';

import { byId, useWorld, wire } from './harness/world';

/**
 * Booking → Get Bookable Windows: `GET /v4/user/{userId}/bookable-windows?startDate&endDate` (api-reference §2).
 * "Now" is Monday 2027-03-01 00:00 UTC; the owner Ada works Mon–Fri 09:00–17:00 Europe/Berlin (+01:00), and her first
 * meeting type is the seed's 30-minute one.
 */

const world = useWorld();

const ownerPat = () => world().seed.credentials.ownerPat;
const owner = () => world().seed.users.owner;

const windows = (extra: IDataObject = {}) => ({
	resource: 'booking',
	operation: 'getBookableWindows',
	userId: byId(owner().id),
	startDate: '2027-03-08',
	endDate: '2027-03-08',
	...extra,
});

/** Berlin times of Monday 8 March as the API gives them. */
const at = (time: string) => `2027-03-08T${time}:00+01:00`;

/** Every half hour from 09:00 to 16:30. */
const HALF_HOURS = Array.from({ length: 16 }, (_, index) => `${String(9 + Math.floor(index / 2)).padStart(2, '0')}:${index % 2 ? '30' : '00'}`);

beforeAll(async () => {
	await world().control('POST', '/__sandbox/clock/set', { now: '2027-03-01T00:00:00Z' });
});

describe('Booking: Get Bookable Windows', () => {
	test('one item per bookable start of the day, from the user\'s hours and first meeting type; a booking takes its start away', async () => {
		const { items, error } = await world().runNode(windows(), world().pat());
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: `/v4/user/${owner().id}/bookable-windows`, query: 'startDate=2027-03-08&endDate=2027-03-08', headers: world().patHeaders(), body: null },
		]);
		expect(items).toEqual(HALF_HOURS.map((time) => ({ start: at(time), userId: owner().id })));

		const [first] = await world().meetingTypes();
		await world().bookAppointment(first.id, at('10:00'));
		const after = await world().runNode(windows(), world().pat());
		expect(after.items.map((item) => item.start)).toEqual(HALF_HOURS.filter((time) => time !== '10:00').map(at));
	});

	test('Raw Answer gives the API\'s { windows } as one item; the date picker\'s times are cut to the day; a longer meeting type gives fewer starts', async () => {
		const [first] = await world().meetingTypes();
		await world().api('PATCH', `/v4/meeting-type/${first.id}`, ownerPat(), { body: { meetingInfo: { duration: 120 } } });
		await world().clearRequests();
		const { items, error } = await world().runNode(windows({ startDate: '2027-03-09T00:00:00', endDate: '2027-03-10T00:00:00', output: 'raw' }), world().pat());
		expect(error).toBeUndefined();
		expect((await world().requests()).map((request) => request.query)).toEqual(['startDate=2027-03-09&endDate=2027-03-10']);
		const day = (date: string) => ['09:00', '11:00', '13:00', '15:00'].map((time) => `${date}T${time}:00+01:00`);
		expect(items).toEqual([{ windows: [...day('2027-03-09'), ...day('2027-03-10')] }]);
		await world().api('PATCH', `/v4/meeting-type/${first.id}`, ownerPat(), { body: { meetingInfo: { duration: 30 } } });
	});

	test('a weekend has no windows: no item, or { windows: [] } as the raw answer', async () => {
		const none = await world().runNode(windows({ startDate: '2027-03-06', endDate: '2027-03-07' }), world().pat());
		expect(none.error).toBeUndefined();
		expect(none.items).toEqual([]);
		const raw = await world().runNode(windows({ startDate: '2027-03-06', endDate: '2027-03-07', output: 'raw' }), world().pat());
		expect(raw.items).toEqual([{ windows: [] }]);
	});

	test('the API\'s errors: both dates required, YYYY-MM-DD only, an unknown user or one of another company is 404', async () => {
		const ask = async (query: string, userId = owner().id) => await world().api('GET', `/v4/user/${userId}/bookable-windows${query}`, ownerPat());
		const bad = (message: string) => ({ status: 400, body: { statusCode: 400, message, error: 'Bad Request' } });
		expect(await ask('?startDate=2027-03-08')).toEqual(bad('startDate and endDate are required'));
		expect(await ask('')).toEqual(bad('startDate and endDate are required'));
		expect(await ask('?startDate=08.03.2027&endDate=2027-03-09')).toEqual(bad('Invalid date format. Use YYYY-MM-DD'));
		expect(await ask('?startDate=2027-03-08&endDate=2027-02-30')).toEqual(bad('Invalid date format. Use YYYY-MM-DD'));
		const notFound = { status: 404, body: { statusCode: 404, message: 'User not found', error: 'Not Found' } };
		expect(await ask('?startDate=2027-03-08&endDate=2027-03-08', '3b9d6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f')).toEqual(notFound);
		expect(await ask('?startDate=2027-03-08&endDate=2027-03-08', world().seed.users.outsider.id)).toEqual(notFound);
		await world().clearRequests();
		const outsider = await world().runNode(windows({ userId: byId(world().seed.users.outsider.id) }), world().pat());
		expect(outsider.error?.message).toBe('User not found (HTTP 404)');
	});

	test('refused before sending: End Date before Start Date, a day that does not exist, text that is not a date, no date', async () => {
		const cases: Array<[IDataObject, string]> = [
			[{ endDate: '2027-03-07' }, 'End Date (2027-03-07) must be later than Start Date (2027-03-08)'],
			[{ startDate: '2027-02-30' }, 'Start Date must be a real date; 2027-02-30 does not exist'],
			[{ endDate: '={{ "next week" }}' }, 'End Date must be a date such as 2026-03-09, not "next week"'],
			[{ startDate: '={{ $json.missing ?? "" }}' }, 'Start Date is required'],
			[{ userId: byId('={{ "ada" }}') }, 'User ID must be in UUID form, such as 6f1c2a7e-1b2c-4d5e-8f90-123456789abc; "ada" is not'],
		];
		for (const [extra, message] of cases) {
			const { error } = await world().runNode(windows(extra), world().pat());
			expect(error?.message).toBe(message);
		}
		expect(await world().requests()).toEqual([]);
	});
});
