import type { IDataObject } from 'n8n-workflow';

import { asTenant } from './harness/crm';
import { useWorld, wire } from './harness/world';

/**
 * Custom Field and Lost Reason: settings the API replaces whole on each write. Each operation reads the list,
 * changes one entry and writes the whole list back, the others as they were; nothing is written when nothing
 * changes, and the items of a run write one after the other, so none undoes another's change.
 */

const world = useWorld();

const asOwner = (method: string, path: string, body?: unknown) => asTenant(world(), { token: world().seed.credentials.ownerPat }, method, path, body);

const SOURCE = { key: 'source', label: 'Source', type: 'select', required: true, options: ['web', 'fair'] };
const SEATS = { key: 'seats', label: 'Seats', type: 'number', required: false, options: [] };

let stored: IDataObject[];

beforeEach(async () => {
	stored = ((await asOwner('PUT', '/crm/settings/custom-fields?recordType=deal', { fields: [SOURCE, SEATS] })) as IDataObject).fields as IDataObject[];
	await asOwner('PUT', '/crm/settings/lost-reasons', { reasons: [{ key: 'price', label: 'Too expensive' }, { key: 'timing', label: 'Bad timing' }], required: false });
	await world().clearRequests();
});

const upsertField = (extra: IDataObject) => ({ resource: 'customField', operation: 'upsert', recordType: 'deal', fieldType: 'text', ...extra });
const settingsPath = '/crm/settings/custom-fields';

describe('Custom Field', () => {
	test('Create or Update of a new key: reads the list, writes it whole with the new field at the end (a new ID)', async () => {
		const { items, error } = await world().runNode(upsertField({ key: 'region', label: 'Region', fieldType: 'select', options: { choices: ['north', 'south'] } }), world().pat());
		expect(error).toBeUndefined();
		const added = { id: expect.stringMatching(/^[0-9a-f-]{36}$/), key: 'region', label: 'Region', type: 'select', options: ['north', 'south'], order: 2 };
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: settingsPath, query: 'recordType=deal', headers: world().patHeaders(), body: null },
			{ method: 'PUT', path: settingsPath, query: 'recordType=deal', headers: world().patHeaders(undefined, true), body: { fields: [...stored, added] } },
		]);
		expect(items).toEqual([{ ...added, required: false, outcome: 'created' }]);
	});

	test('Create or Update that changes nothing only reads; a changed label writes the list with the field\'s ID kept', async () => {
		const same = await world().runNode(upsertField({ key: 'seats', label: 'Seats', fieldType: 'number' }), world().pat());
		expect((await world().requests()).map((request) => request.method)).toEqual(['GET']);
		expect(same.items).toEqual([{ ...stored[1], outcome: 'unchanged' }]);
		await world().clearRequests();

		const renamed = await world().runNode(upsertField({ key: 'source', label: 'Lead Source', fieldType: 'select' }), world().pat());
		const [, put] = await world().requests();
		expect(put.body).toEqual({ fields: [{ ...stored[0], label: 'Lead Source' }, stored[1]] });
		expect(renamed.items).toEqual([{ ...stored[0], label: 'Lead Source', outcome: 'updated' }]);
	});

	test('three items adding three fields in one run: each reads what the one before wrote, none is lost', async () => {
		const input = ['alpha', 'beta', 'gamma'].map((key) => ({ key }));
		const { items } = await world().runNode(upsertField({ key: '={{ $json.key }}', label: '={{ $json.key.toUpperCase() }}' }), world().pat(), { input });
		expect((await world().requests()).map((request) => [request.method, ((request.body as IDataObject | null)?.fields as IDataObject[] | undefined)?.length])).toEqual([
			['GET', undefined],
			['PUT', 3],
			['GET', undefined],
			['PUT', 4],
			['GET', undefined],
			['PUT', 5],
		]);
		expect(items.map((item) => [item.key, item.outcome])).toEqual([
			['alpha', 'created'],
			['beta', 'created'],
			['gamma', 'created'],
		]);
		const settings = (await asOwner('GET', `${settingsPath}?recordType=deal`)) as IDataObject;
		expect((settings.fields as IDataObject[]).map((field) => field.key)).toEqual(['source', 'seats', 'alpha', 'beta', 'gamma']);
	});

	test('Delete writes the list without the field; a key not in the list writes nothing', async () => {
		const gone = await world().runNode({ resource: 'customField', operation: 'delete', recordType: 'deal', existingKey: 'source' }, world().pat());
		const [, put] = await world().requests();
		expect(wire(put)).toEqual({ method: 'PUT', path: settingsPath, query: 'recordType=deal', headers: world().patHeaders(undefined, true), body: { fields: [stored[1]] } });
		expect(gone.items).toEqual([{ key: 'source', deleted: true }]);
		await world().clearRequests();
		const absent = await world().runNode({ resource: 'customField', operation: 'delete', recordType: 'deal', existingKey: 'source' }, world().pat());
		expect((await world().requests()).map((request) => request.method)).toEqual(['GET']);
		expect(absent.items).toEqual([{ key: 'source', deleted: false }]);
	});

	test('Choices on a type without choices are refused before anything is read or written', async () => {
		const { error } = await world().runNode(upsertField({ key: 'note', label: 'Note', fieldType: 'text', options: { choices: ['a'] } }), world().pat());
		expect(error?.message).toBe('Choices belong to Select and Multi Select fields only: remove them, or change Field Type');
		expect(await world().requests()).toEqual([]);
	});

	test('Get Many lists the fields of the record type; the delete dropdown offers them by label', async () => {
		const { items } = await world().runNode({ resource: 'customField', operation: 'getAll', recordType: 'company', returnAll: true }, world().pat());
		expect((await world().requests()).map((request) => `${request.path}?${request.query}`)).toEqual([`${settingsPath}?recordType=company`]);
		expect(items).toEqual([]);
		const { result } = await world().loadOptions('getCustomFieldKeys', { resource: 'customField', operation: 'delete', recordType: 'deal' }, world().pat());
		expect(result).toEqual([
			{ name: 'Source (source)', value: 'source' },
			{ name: 'Seats (seats)', value: 'seats' },
		]);
	});

	test('the API: recordType left out is deal (its default), on the read and the write; another value is refused', async () => {
		expect(((await asOwner('GET', settingsPath)) as IDataObject).fields).toEqual(stored);
		const written = (await asOwner('PUT', settingsPath, { fields: [SEATS] })) as IDataObject;
		expect(written.fields).toEqual([{ ...stored[1], order: 0 }]);
		expect(((await asOwner('GET', `${settingsPath}?recordType=deal`)) as IDataObject).fields).toEqual(written.fields);
		expect(((await asOwner('GET', `${settingsPath}?recordType=company`)) as IDataObject).fields).toEqual([]);
		const other = await world().api('GET', `${settingsPath}?recordType=contact`, world().seed.credentials.ownerPat);
		expect(other).toEqual({ status: 400, body: { statusCode: 400, message: ['recordType must be one of the following values: company, deal'], error: 'Bad Request' } });
	});
});

describe('Lost Reason', () => {
	const reasonsPath = '/crm/settings/lost-reasons';
	const price = { key: 'price', label: 'Too expensive', archived: false };
	const timing = { key: 'timing', label: 'Bad timing', archived: false };

	test('Create or Update adds a reason, the others and `required` written back as they were; the same again writes nothing', async () => {
		const params = { resource: 'lostReason', operation: 'upsert', key: 'competitor', label: 'Went with a competitor' };
		const added = await world().runNode(params, world().pat());
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: reasonsPath, query: '', headers: world().patHeaders(), body: null },
			{
				method: 'PUT',
				path: reasonsPath,
				query: '',
				headers: world().patHeaders(undefined, true),
				body: { reasons: [price, timing, { key: 'competitor', label: 'Went with a competitor' }], required: false },
			},
		]);
		expect(added.items).toEqual([{ key: 'competitor', label: 'Went with a competitor', archived: false, outcome: 'created' }]);
		await world().clearRequests();
		const again = await world().runNode(params, world().pat());
		expect((await world().requests()).map((request) => request.method)).toEqual(['GET']);
		expect(again.items).toEqual([{ key: 'competitor', label: 'Went with a competitor', archived: false, outcome: 'unchanged' }]);
	});

	test('Create or Update of a known key with an empty label changes only what is given (Archived off restores it)', async () => {
		await asOwner('PUT', reasonsPath, { reasons: [price, { ...timing, archived: true }], required: true });
		await world().clearRequests();
		const { items } = await world().runNode({ resource: 'lostReason', operation: 'upsert', key: 'timing', options: { archived: false } }, world().pat());
		const [, put] = await world().requests();
		expect(put.body).toEqual({ reasons: [price, timing], required: true });
		expect(items).toEqual([{ ...timing, outcome: 'updated' }]);
	});

	test('Archive marks the reason archived (once); an unknown key stops the item with the keys there are', async () => {
		const archived = await world().runNode({ resource: 'lostReason', operation: 'archive', existingKey: 'price' }, world().pat());
		expect((await world().requests())[1].body).toEqual({ reasons: [{ ...price, archived: true }, timing], required: false });
		expect(archived.items).toEqual([{ ...price, archived: true, outcome: 'updated' }]);
		await world().clearRequests();
		const twice = await world().runNode({ resource: 'lostReason', operation: 'archive', existingKey: 'price' }, world().pat());
		expect((await world().requests()).map((request) => request.method)).toEqual(['GET']);
		expect(twice.items).toEqual([{ ...price, archived: true, outcome: 'unchanged' }]);
		await world().clearRequests();
		const unknown = await world().runNode({ resource: 'lostReason', operation: 'archive', existingKey: 'budget' }, world().pat());
		expect(unknown.error?.message).toBe('Lost reason "budget" is not one of the company\'s lost reasons');
		expect(unknown.error?.description).toContain('The keys are: price, timing.');
		expect((await world().requests()).map((request) => request.method)).toEqual(['GET']);
	});

	test('Set Required writes the reasons back as they are with `required`; already so, nothing is written', async () => {
		const set = await world().runNode({ resource: 'lostReason', operation: 'setRequired', required: true }, world().pat());
		expect((await world().requests())[1].body).toEqual({ reasons: [price, timing], required: true });
		expect(set.items).toEqual([{ required: true, outcome: 'updated' }]);
		await world().clearRequests();
		const again = await world().runNode({ resource: 'lostReason', operation: 'setRequired', required: true }, world().pat());
		expect((await world().requests()).map((request) => request.method)).toEqual(['GET']);
		expect(again.items).toEqual([{ required: true, outcome: 'unchanged' }]);
	});

	test('a key over 64 or a label over 60 characters is refused before sending; Get Many lists every reason', async () => {
		const long = await world().runNode({ resource: 'lostReason', operation: 'upsert', key: 'k'.repeat(65), label: 'x' }, world().pat());
		expect(long.error?.message).toBe('Key must be at most 64 characters long; it has 65');
		const label = await world().runNode({ resource: 'lostReason', operation: 'upsert', key: 'k', label: 'x'.repeat(61) }, world().pat());
		expect(label.error?.message).toBe('Label must be at most 60 characters long; it has 61');
		expect(await world().requests()).toEqual([]);
		const { items } = await world().runNode({ resource: 'lostReason', operation: 'getAll', returnAll: true }, world().pat());
		expect(items).toEqual([price, timing]);
	});
});
