import type { IDataObject } from 'n8n-workflow';

import { byId, useWorld, wire } from './harness/world';

/**
 * Availability → Add Public Holidays. "Now" is put at 2025-12-01, before every date used. 2026: Tue 6 January
 * (Epiphany, Bavaria only), Thu 4 June (Corpus Christi, Bavaria only; Berlin works). Every new user has
 * Mon–Fri 09:00–17:00 in their own time zone (here Europe/Berlin: +01:00 in winter, +02:00 in summer) and a
 * 30-minute meeting type.
 */

const world = useWorld();

interface Host {
	userId: string;
	availabilityId: string;
	meetingTypeId: string;
}

let hostCount = 0;

async function newHost(): Promise<Host> {
	hostCount += 1;
	const created = await world().api('POST', '/v4/user', world().seed.credentials.apiKey, {
		body: { email: `holiday${hostCount}@holidays.example`, givenName: 'Holiday', familyName: `Host ${hostCount}`, timezone: 'Europe/Berlin' },
	});
	expect(created.status).toBe(201);
	await world().clearRequests();
	return created.body as unknown as Host;
}

async function addHolidays(host: Host, parameters: IDataObject) {
	return await world().runNode(
		{ resource: 'availability', operation: 'addHolidays', availabilityId: byId(host.availabilityId), year: 2026, country: 'DE', ...parameters },
		world().apiKey(host.userId),
	);
}

/** The dates with open slots from the node's Get Open Slots between start and end (dates, Berlin). */
async function slotDates(host: Host, start: string, end: string): Promise<string[]> {
	const { items, error } = await world().runNode(
		{ resource: 'booking', operation: 'getSlots', meetingTypeId: byId(host.meetingTypeId), start, end, timezone: 'Europe/Berlin' },
		world().apiKey(host.userId),
	);
	expect(error).toBeUndefined();
	return [...new Set(items.map((item) => item.date as string))];
}

const titles = (items: IDataObject[]) => items.map((item) => item.title);

beforeAll(async () => {
	await world().control('POST', '/__sandbox/clock/set', { now: '2025-12-01T00:00:00Z' });
});

describe('Availability → Add Public Holidays', () => {
	test('Bavaria 2026 blocks Epiphany and Corpus Christi as whole days in the availability\'s time zone; their open slots disappear', async () => {
		const host = await newHost();
		expect(await slotDates(host, '2026-01-05', '2026-01-07')).toEqual(['2026-01-05', '2026-01-06', '2026-01-07']);
		await world().clearRequests();

		const { items, error } = await addHolidays(host, { germanState: 'BY' });
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{
				method: 'PATCH',
				path: `/availability/${host.availabilityId}/holiday-exceptions`,
				query: '',
				headers: world().keyHeaders(host.userId, true),
				body: { year: 2026, country: 'DE', germanState: 'BY' },
			},
		]);
		expect(titles(items)).toEqual([
			'New Year\'s Day',
			'Epiphany',
			'Good Friday',
			'Easter Monday',
			'Labour Day',
			'Ascension Day',
			'Whit Monday',
			'Corpus Christi',
			'National Holiday',
			'All Saints\' Day',
			'Christmas Day',
			'Boxing Day',
		]);
		const blocked = { id: expect.any(Number), availabilityId: host.availabilityId, userId: host.userId, available: false, note: null, createdAt: expect.any(String), updatedAt: expect.any(String) };
		expect(items[1]).toEqual({ ...blocked, title: 'Epiphany', start: '2026-01-06T00:00:00+01:00', end: '2026-01-07T00:00:00+01:00' });
		expect(items[7]).toEqual({ ...blocked, title: 'Corpus Christi', start: '2026-06-04T00:00:00+02:00', end: '2026-06-05T00:00:00+02:00' });

		expect(await slotDates(host, '2026-01-05', '2026-01-07')).toEqual(['2026-01-05', '2026-01-07']);
		expect(await slotDates(host, '2026-06-03', '2026-06-05')).toEqual(['2026-06-03', '2026-06-05']);
	});

	test('Berlin 2026 does not block Corpus Christi (not a holiday there): 4 June keeps its slots', async () => {
		const host = await newHost();
		const { items, error } = await addHolidays(host, { germanState: 'BE' });
		expect(error).toBeUndefined();
		expect(titles(items)).toContain('International Women\'s Day');
		expect(titles(items)).not.toContain('Corpus Christi');
		expect(titles(items)).not.toContain('Epiphany');
		expect(await slotDates(host, '2026-06-03', '2026-06-05')).toEqual(['2026-06-03', '2026-06-04', '2026-06-05']);
		expect(await slotDates(host, '2026-01-05', '2026-01-07')).toEqual(['2026-01-05', '2026-01-06', '2026-01-07']);
	});

	test('adding the same year again adds nothing: the answer (and the node\'s output) is empty, the exceptions stay as they were', async () => {
		const host = await newHost();
		const first = await addHolidays(host, { germanState: 'BY' });
		expect(first.items).toHaveLength(12);
		const again = await addHolidays(host, { germanState: 'BY' });
		expect(again.error).toBeUndefined();
		expect(again.items).toEqual([]);
		const exceptions = await world().api('GET', `/availability-exception?availabilityId=${host.availabilityId}`, world().seed.credentials.apiKey, { actAs: host.userId });
		expect(exceptions.body).toEqual(first.items);
		// Nationwide holidays of the same year are already blocked too: only nothing new comes back.
		const nationwide = await addHolidays(host, {});
		expect(nationwide.items).toEqual([]);
		expect((await world().requests()).filter((r) => r.method === 'PATCH').map((r) => [r.status, r.body])).toEqual([
			[200, { year: 2026, country: 'DE', germanState: 'BY' }],
			[200, { year: 2026, country: 'DE', germanState: 'BY' }],
			[200, { year: 2026, country: 'DE' }],
		]);
	});

	test('other countries use their own holidays, in the availability\'s time zone', async () => {
		const host = await newHost();
		const { items } = await addHolidays(host, { country: 'US', year: 2027 });
		expect(items).toContainEqual(expect.objectContaining({ title: 'Independence Day (substitute day)', start: '2027-07-05T00:00:00+02:00' }));
		expect(items).toContainEqual(expect.objectContaining({ title: 'Thanksgiving Day', start: '2027-11-25T00:00:00+01:00', end: '2027-11-26T00:00:00+01:00' }));
	});

	test('the node refuses a year out of range and a German State without Germany before sending', async () => {
		const host = await newHost();
		const year = await addHolidays(host, { year: 2028 });
		expect(year.error?.message).toBe('Year must be a whole number from 2025 to 2027, not 2028');
		const state = await addHolidays(host, { country: '={{ "AT" }}', germanState: 'BY' });
		expect(state.error?.message).toBe('German State can only be used with Country Germany (DE)');
		expect(await world().requests()).toEqual([]);
	});

	test('a German State left over from an earlier choice of Germany is hidden with another country and not sent', async () => {
		const host = await newHost();
		const { items, error } = await addHolidays(host, { country: 'AT', germanState: 'BY' });
		expect(error).toBeUndefined();
		expect(titles(items)).toContain('Epiphany');
		expect((await world().requests()).map((r) => r.body)).toEqual([{ year: 2026, country: 'AT' }]);
	});

	test('the API refuses a German state without DE, a year out of range and an unknown country with 400 naming the property', async () => {
		const host = await newHost();
		const patch = (body: IDataObject) =>
			world().api('PATCH', `/availability/${host.availabilityId}/holiday-exceptions`, world().seed.credentials.apiKey, { actAs: host.userId, body });
		const badRequest = (message: string[]) => ({ status: 400, body: { statusCode: 400, message, error: 'Bad Request' } });
		expect(await patch({ year: 2026, country: 'AT', germanState: 'BY' })).toEqual(badRequest(['germanState can only be used with country DE']));
		expect(await patch({ year: 2024, country: 'DE' })).toEqual(badRequest(['year must not be less than 2025']));
		expect(await patch({ year: 2028 })).toEqual(badRequest(['year must not be greater than 2027']));
		expect(await patch({ year: 2026, country: 'GB' })).toEqual(
			badRequest(['country must be one of the following values: DE, AT, BE, CA, DK, NL, EE, FI, FR, IT, NZ, ES, SE, CH, US']),
		);
		expect(await patch({ country: 'DE' })).toEqual(badRequest(['year should not be empty', 'year must be an integer number', 'year must not be greater than 2027', 'year must not be less than 2025']));
		expect(await patch({ year: 2026, germanState: 'XX' })).toEqual(
			badRequest(['germanState must be one of the following values: BW, BY, BE, BB, HB, HH, HE, MV, NI, NW, RP, SL, SN, ST, SH, TH']),
		);
		const exceptions = await world().api('GET', `/availability-exception?availabilityId=${host.availabilityId}`, world().seed.credentials.apiKey, { actAs: host.userId });
		expect(exceptions.body).toEqual([]);
	});
});
