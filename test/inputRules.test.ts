import type { IDataObject } from 'n8n-workflow';

import { byId, useWorld } from './harness/world';

/**
 * The shared rules of inputChecks.ts, one per field type, tried as a stranger would: values typed in and values
 * from expressions. Each bad value is refused before anything is sent, naming the field's label; values of the
 * right meaning in the wrong type (text "45", "false") are converted.
 */

const world = useWorld();

let availabilityId: string;

beforeAll(async () => {
	availabilityId = await world().createAvailability('Rules');
});

const exception = (fields: IDataObject) => ({
	resource: 'availabilityException',
	operation: 'create',
	availabilityId: byId(availabilityId),
	type: false,
	start: '2027-03-01T10:00',
	end: '2027-03-01T12:00',
	...fields,
});

async function refused(parameters: IDataObject, message: string): Promise<void> {
	const { error } = await world().runNode(parameters, world().pat(), { timezone: 'Europe/Berlin' });
	expect(error?.message).toBe(message);
	expect(error?.description).toMatch(/^Item 1: fix the value/);
	expect(await world().requests()).toEqual([]);
}

describe('dates', () => {
	test.each([
		['2027-02-30T10:00', 'Start must be a real date; 2027-02-30 does not exist'],
		['={{ "2027-02-29" }}T10:00', 'Start must be a real date; 2027-02-29 does not exist'],
		['2027-13-01T10:00', 'Start must be a real date; 2027-13-01 does not exist'],
		['2027-03-01T25:00', 'Start must have a time of day from 00:00 to 23:59; "2027-03-01T25:00" does not'],
		['2027-03-01T10:60:00+01:00', 'Start must have a time of day from 00:00 to 23:59; "2027-03-01T10:60:00+01:00" does not'],
		['={{ { "when": "today" } }}', 'Start must be text, not an object'],
	])('%s is refused, not rolled over', async (start, message) => {
		await refused(exception({ start }), message);
	});

	test('a leap day is a real date', async () => {
		const { error } = await world().runNode(exception({ start: '2028-02-29T10:00', end: '2028-02-29T11:00' }), world().pat(), { timezone: 'Europe/Berlin' });
		expect(error).toBeUndefined();
		expect((await world().requests())[0].body).toEqual(expect.objectContaining({ start: '2028-02-29T10:00:00+01:00', end: '2028-02-29T11:00:00+01:00' }));
	});

	test('a time zone that does not exist names its own field, not the runtime\'s message', async () => {
		const meetingTypeId = await world().createMeetingType('Zone Rule');
		await refused(
			{ resource: 'booking', operation: 'getSlots', meetingTypeId: byId(meetingTypeId), start: '2027-03-09T10:00', end: '2027-03-10', timezone: 'Mars/Base' },
			'Start is read in the time zone given in "Timezone", which must be an IANA time zone such as Europe/Berlin or America/New_York; "Mars/Base" is not',
		);
	});
});

describe('options, booleans and text', () => {
	test('an option from an expression is matched to the field\'s own value ("true" → true)', async () => {
		const { error } = await world().runNode(exception({ type: '={{ "true" }}' }), world().pat(), { timezone: 'Europe/Berlin' });
		expect(error).toBeUndefined();
		expect((await world().requests())[0].body).toEqual(expect.objectContaining({ available: true }));
	});

	test('an option that is not in the list is refused, listing the values', async () => {
		await refused(exception({ type: '={{ "sometimes" }}' }), 'Type must be one of false, true; "sometimes" is not');
	});

	test('a boolean from an expression as text is sent as a boolean; other text is refused', async () => {
		const meetingTypeId = await world().createMeetingType('Boolean Rule');
		const booking = {
			resource: 'booking',
			operation: 'getSlots',
			meetingTypeId: byId(meetingTypeId),
			start: '2027-03-09',
			end: '2027-03-10',
		};
		await refused({ ...booking, additionalFields: { calculationMethod: '={{ "someone" }}' } }, 'Calculation Method must be one of "anyone", "everyone"; "someone" is not');
		await refused(
			{ resource: 'availability', operation: 'update', availabilityId: byId(availabilityId), updateWeeklyHours: '={{ "maybe" }}' },
			'Update Weekly Hours must be true or false, not "maybe"',
		);
		const { error } = await world().runNode(
			{ resource: 'availability', operation: 'update', availabilityId: byId(availabilityId), updateWeeklyHours: '={{ "false" }}', updateFields: { name: 'Renamed' } },
			world().pat(),
		);
		expect(error).toBeUndefined();
		expect((await world().requests())[0].body).toEqual({ name: 'Renamed' });
	});

	test('an object or a list where text is expected is refused', async () => {
		await refused({ resource: 'availability', operation: 'create', name: '={{ ["a", "b"] }}', timezone: 'Europe/Berlin' }, 'Name must be text, not a list');
	});

	test('a required field that an expression leaves empty is refused', async () => {
		await refused({ resource: 'availability', operation: 'create', name: '={{ $json.missing }}', timezone: 'Europe/Berlin' }, 'Name is required');
	});

	test.each([
		['jane..doe@example.com'],
		['.jane@example.com'],
		['jane@example..com'],
		['jane@example'],
	])('the email %s is refused', async (email) => {
		await refused(
			{ resource: 'user', operation: 'create', email, givenName: 'Jane', familyName: 'Doe', timezone: 'Europe/Berlin' },
			`Email must be an email address such as jane@example.com; "${email}" is not`,
		);
	});
});

describe('numbers', () => {
	const meetingTypes = (extra: IDataObject) => ({ resource: 'meetingType', operation: 'getAll', returnAll: false, ...extra });

	test.each([
		[0, 'Limit must be a whole number of at least 1, not 0'],
		['={{ 2.5 }}', 'Limit must be a whole number of at least 1, not 2.5'],
		['={{ "ten" }}', 'Limit must be a whole number of at least 1, not "ten"'],
		['={{ -3 }}', 'Limit must be a whole number of at least 1, not -3'],
	])('Limit %s is refused before sending', async (limit, message) => {
		await refused(meetingTypes({ limit }), message);
	});

	test('a Limit given as text by an expression is used as a number', async () => {
		const { items, error } = await world().runNode(meetingTypes({ limit: '={{ "1" }}' }), world().pat());
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
	});
});
