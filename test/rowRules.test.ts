import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { typedValue } from '../package/dist/nodes/shared/inputChecks';
import { asTenant, crmParent, freshTenant } from './harness/crm';
import { byId, useWorld, wire } from './harness/world';

/**
 * The rows of repeated-row fields (fixed collections) get the field-type rules of their own property descriptions,
 * as every other field does (inputChecks.ts): each bad value is refused before anything is sent, naming the field,
 * the row and the row field's label; numeric and true/false text is converted. Also the inputs of issue 24 §3 that
 * were sent although knowable: names over 100 characters, a currency that is no ISO 4217 code, a number written in
 * hexadecimal, and a Limit of 0 on a Get Many that reads its list itself.
 */

const world = useWorld();

const SOME_ID = '6f1c2a7e-1b2c-4d5e-8f90-123456789abc';
const LONG = 'x'.repeat(101);

async function refused(parameters: IDataObject, message: string, field: string): Promise<void> {
	const { error } = await world().runNode(parameters, world().pat());
	expect(error).toMatchObject({ name: 'NodeOperationError', message, description: `Item 1: fix the value of "${field}" and run the node again.` });
	expect(await world().requests()).toEqual([]);
}

describe('Pipeline: stage rows and names', () => {
	const stage = (fields: IDataObject) => ({ name: 'Lead', color: '#aaaaaa', isWon: false, isLost: false, winProbability: 10, rottingDays: 0, ...fields });
	const create = (...rows: IDataObject[]) => ({ resource: 'pipeline', operation: 'create', name: 'Sales', stages: { stage: rows } });

	test.each([
		['Win Probability 101', { winProbability: 101 }, 'Stages → row 2 → Win Probability (%) must be a whole number from 0 to 100, not 101'],
		['Win Probability "high"', { winProbability: '={{ "high" }}' }, 'Stages → row 2 → Win Probability (%) must be a whole number from 0 to 100, not "high"'],
		['Rotting Days -1', { rottingDays: -1 }, 'Stages → row 2 → Rotting Days must be a whole number of at least 0, not -1'],
		['Color "red"', { color: 'red' }, 'Stages → row 2 → Color must be a color in #rrggbb form, such as #1a73e8; "red" is not'],
		['a Name an expression leaves empty', { name: '={{ $json.missing }}' }, 'Stages → row 2 → Name is required'],
		['Is Won Stage "yes"', { isWon: '={{ "yes" }}' }, 'Stages → row 2 → Is Won Stage must be true or false, not "yes"'],
		['a Name of 101 characters', { name: LONG }, 'Stages → row 2 → Name must be at most 100 characters long; it has 101'],
	])('Create refuses a stage row with %s before sending', async (_case, fields, message) => {
		await refused(create(stage({}), stage(fields)), message, 'Stages');
	});

	test('Create converts numeric and true/false text in stage rows and sends numbers and booleans', async () => {
		const { error } = await world().runNode(create(stage({ winProbability: '={{ "40" }}', rottingDays: '={{ " 7 " }}', isWon: '={{ "false" }}' })), world().pat());
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{
				method: 'POST',
				path: '/crm/pipelines',
				query: '',
				headers: world().patHeaders(undefined, true),
				body: { name: 'Sales', stages: [{ name: 'Lead', color: '#aaaaaa', isWon: false, isLost: false, winProbability: 40, rottingDays: 7 }] },
			},
		]);
	});

	test.each([
		['Create', { resource: 'pipeline', operation: 'create', name: LONG }, 'Name', 'Name must be at most 100 characters long; it has 101'],
		['Update', { resource: 'pipeline', operation: 'update', pipelineId: byId(SOME_ID), updateFields: { name: LONG } }, 'Name', 'Name must be at most 100 characters long; it has 101'],
		['Add Stage', { resource: 'pipeline', operation: 'addStage', pipelineId: byId(SOME_ID), stageName: LONG, stageColor: '#aaaaaa' }, 'Stage Name', 'Stage Name must be at most 100 characters long; it has 101'],
		['Update Stage', { resource: 'pipeline', operation: 'updateStage', pipelineId: byId(SOME_ID), stageId: 'st-1', stageUpdateFields: { name: LONG } }, 'Name', 'Name must be at most 100 characters long; it has 101'],
	])('%s refuses a name of 101 characters before sending', async (_operation, parameters, field, message) => {
		await refused(parameters, message, field);
	});
});

describe('Deal: contact rows, value and currency', () => {
	const create = (fields: IDataObject) => ({ resource: 'deal', operation: 'create', name: 'Acme', pipelineId: byId(SOME_ID), stageId: 'st-1', ...fields });
	const contactRow = (fields: IDataObject) => ({ dealContacts: { contact: [{ contactId: byId(SOME_ID), role: 'other', isPrimary: false, ...fields }] } });

	test.each([
		['a contact row with Role "boss"', contactRow({ role: '={{ "boss" }}' }), 'Contacts', 'Contacts → row 1 → Role must be one of "decision_maker", "influencer", "other", "primary", "user"; "boss" is not'],
		['a contact row with Is Primary "yes"', contactRow({ isPrimary: '={{ "yes" }}' }), 'Contacts', 'Contacts → row 1 → Is Primary must be true or false, not "yes"'],
		['a contact row whose contact an expression leaves empty', contactRow({ contactId: byId('={{ $json.missing }}') }), 'Contacts', 'Contacts → row 1 → Contact is required'],
		['Value "0x10" (hexadecimal)', { additionalFields: { value: '={{ "0x10" }}' } }, 'Value', 'Value must be a number of at least 0 in plain decimal digits (such as 12.5), not "0x10"'],
		['Value "1e3" (exponent)', { additionalFields: { value: '={{ "1e3" }}' } }, 'Value', 'Value must be a number of at least 0 in plain decimal digits (such as 12.5), not "1e3"'],
		['Currency "EURO"', { additionalFields: { currency: 'EURO' } }, 'Currency', 'Currency must be an ISO 4217 currency code in capitals, such as EUR, USD or CHF; "EURO" is not'],
	])('Create refuses %s before sending', async (_case, fields, field, message) => {
		await refused(create(fields), message, field);
	});

	test('Create sends a contact row\'s role and Is Primary from expressions as the API\'s values, and a decimal Value text as a number', async () => {
		const pipeline = (await world().api('POST', '/crm/pipelines', world().seed.credentials.ownerPat, { body: { name: 'Rows', stages: [{ name: 'Lead', color: '#1a73e8' }] } })).body;
		const stageId = String((pipeline.stages as IDataObject[])[0].id);
		const contactId = await crmParent(world(), 'contact', 'ada@example.com');
		await world().clearRequests();
		const { error, items } = await world().runNode(
			{
				...create({ pipelineId: byId(String(pipeline.id)), stageId }),
				additionalFields: { value: '={{ "12.50" }}', currency: 'USD' },
				...contactRow({ contactId: byId(contactId), role: '={{ "influencer" }}', isPrimary: '={{ "true" }}' }),
			},
			world().pat(),
		);
		expect(error).toBeUndefined();
		const [post] = (await world().requests()).filter((request) => request.method === 'POST');
		expect(post.body).toEqual({ name: 'Acme', pipelineId: pipeline.id, stageId, value: 12.5, currency: 'USD', contacts: [{ contactId, role: 'influencer', isPrimary: true }] });
		expect(items[0]).toMatchObject({ value: 12.5, currency: 'USD' });
	});
});

describe('Queue Update Settings: host rows', () => {
	const settings = (rows: IDataObject) => ({ resource: 'queue', operation: 'updateSettings', meetingTypeId: byId(SOME_ID), settings: rows });
	const capacity = (value: unknown) => settings({ userCapacities: { capacity: [{ userId: SOME_ID, capacity: value }] } });

	test.each([
		[-1, 'Host Capacities → row 1 → Capacity must be a whole number from 1 to 100, not -1'],
		[0, 'Host Capacities → row 1 → Capacity must be a whole number from 1 to 100, not 0'],
		[2.5, 'Host Capacities → row 1 → Capacity must be a whole number from 1 to 100, not 2.5'],
		['={{ "abc" }}', 'Host Capacities → row 1 → Capacity must be a whole number from 1 to 100, not "abc"'],
		[101, 'Host Capacities → row 1 → Capacity must be a whole number from 1 to 100, not 101'],
	])('a host capacity of %j is refused before sending', async (value, message) => {
		await refused(capacity(value), message, 'Host Capacities');
	});

	test('a host priority of 4 is refused before sending', async () => {
		await refused(settings({ userPriorities: { priority: [{ userId: SOME_ID, priority: 4 }] } }), 'Host Priorities → row 1 → Priority must be a whole number from 1 to 3, not 4', 'Host Priorities');
	});

	test('a host capacity "2" as text is sent as the number 2', async () => {
		const tenant = await freshTenant(world());
		const [meetingType] = (await asTenant(world(), tenant, 'GET', '/v4/meeting-type')) as unknown as IDataObject[];
		await asTenant(world(), tenant, 'PATCH', `/v4/queue/meeting-type/${String(meetingType.id)}`, { userId: tenant.userId });
		await world().clearRequests();
		const { error } = await world().runNode(
			{ ...settings({ userCapacities: { capacity: [{ userId: tenant.userId, capacity: '={{ "2" }}' }] } }), meetingTypeId: byId(String(meetingType.id)) },
			world().pat(tenant.token),
		);
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{
				method: 'PATCH',
				path: `/v4/queue/meeting-type/${String(meetingType.id)}`,
				query: '',
				headers: world().patHeaders(tenant.token, true),
				body: { userCapacities: [{ userId: tenant.userId, capacity: 2 }] },
			},
		]);
	});
});

describe('Get Many: the Limit before any request', () => {
	test('Messenger Template Get Many with Limit 0 is refused before the templates are read', async () => {
		await refused({ resource: 'template', operation: 'getAll', returnAll: false, limit: 0 }, 'Limit must be a whole number of at least 1, not 0', 'Limit');
	});
});

describe('the row rule of any fixed collection, nested fields included', () => {
	const inner: INodeProperties = {
		displayName: 'Slots',
		name: 'slots',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		options: [{ displayName: 'Slot', name: 'slot', values: [{ displayName: 'Minutes', name: 'minutes', type: 'number', typeOptions: { minValue: 5 }, default: 15 }] }],
	};
	const extras: INodeProperties = {
		displayName: 'Extras',
		name: 'extras',
		type: 'collection',
		default: {},
		options: [{ displayName: 'Due', name: 'due', type: 'dateTime', default: '' }],
	};
	const days: INodeProperties = {
		displayName: 'Days',
		name: 'days',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		options: [
			{ displayName: 'Monday', name: 'monday', values: [inner, extras] },
			{ displayName: 'Tuesday', name: 'tuesday', values: [{ displayName: 'Open', name: 'open', type: 'boolean', default: true }] },
		],
	};
	const check = (value: unknown) => {
		try {
			return typedValue(days, value);
		} catch (error) {
			return (error as Error).message;
		}
	};

	test('a row field inside a row, or inside a collection of a row, is checked by its own description and named by its place', () => {
		expect(check({ monday: [{ slots: { slot: [{ minutes: 30 }, { minutes: 2 }] } }] })).toBe('→ Monday → row 1 → Slots → row 2 → Minutes must be a number of at least 5, not 2');
		expect(check({ monday: [{}, { extras: { due: '2027-02-30' } }] })).toBe('→ Monday → row 2 → Extras → Due must be a real date; 2027-02-30 does not exist');
		expect(check({ tuesday: [{ open: 'maybe' }] })).toBe('→ Tuesday → row 1 → Open must be true or false, not "maybe"');
		expect(check({ monday: ['text'] })).toBe('→ Monday → row 1 must hold fields, not "text"');
	});

	test('converted values replace the given ones; unset members are left out, fields no description names are kept', () => {
		expect(check({ monday: [{ slots: { slot: [{ minutes: '20' }] }, extras: { due: null }, note: 'kept' }], tuesday: [{ open: 'FALSE' }] })).toEqual({
			monday: [{ slots: { slot: [{ minutes: 20 }] }, extras: {}, note: 'kept' }],
			tuesday: [{ open: false }],
		});
	});
});
