import type { IDataObject } from 'n8n-workflow';

import { byId, useWorld, wire } from './harness/world';

/** Data Field operations of the CRM node: exact wire format and output items, against the sandbox. */

const world = useWorld();

const json = () => world().patHeaders(undefined, true);

async function createField(body: IDataObject): Promise<IDataObject> {
	const created = await world().api('POST', '/v4/data-field', world().seed.credentials.ownerPat, { body });
	await world().clearRequests();
	return created.body;
}

describe('Data Field', () => {
	test('Create sends label, type, name and options; the name is derived from the label when empty', async () => {
		const { items, error } = await world().runNode(
			{
				resource: 'dataField',
				operation: 'create',
				label: 'Favourite Colour',
				fieldType: 'select',
				additionalFields: { required: true, options: { option: [{ label: 'Red', value: 'red' }, { label: 'Blue', value: 'blue' }] } },
			},
			world().pat(),
		);
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{
				method: 'POST',
				path: '/v4/data-field',
				query: '',
				headers: json(),
				body: { label: 'Favourite Colour', fieldType: 'select', required: true, options: [{ label: 'Red', value: 'red' }, { label: 'Blue', value: 'blue' }] },
			},
		]);
		expect(items).toEqual([
			{
				id: expect.any(Number),
				name: 'favouriteColour',
				label: 'Favourite Colour',
				fieldType: 'select',
				required: true,
				hidden: false,
				options: [{ label: 'Red', value: 'red' }, { label: 'Blue', value: 'blue' }],
				target: 'contact',
				default: null,
				mutable: true,
			},
		]);
	});

	test('a select field without options is refused by the API with its reason', async () => {
		const { error } = await world().runNode({ resource: 'dataField', operation: 'create', label: 'Size', fieldType: 'radio' }, world().pat());
		expect(error?.description).toContain('options should not be empty for a radio field');
	});

	test('Get Many pages by offset; Update, Get Usage and Delete address the field by its number', async () => {
		const field = await createField({ label: 'Budget', fieldType: 'number' });
		const id = String(field.id);
		await world().api('POST', '/crm', world().seed.credentials.ownerPat, { body: { email: 'budget@example.com', additionalData: { budget: 100 } } });
		await world().clearRequests();

		const all = await world().runNode({ resource: 'dataField', operation: 'getAll', returnAll: true }, world().pat());
		expect((await world().requests()).map((request) => request.query)).toEqual(['limit=100&offset=0']);
		expect(all.items.map((item) => item.name)).toContain('budget');
		await world().clearRequests();

		const updated = await world().runNode({ resource: 'dataField', operation: 'update', dataFieldId: byId(id), updateFields: { label: 'Budget (EUR)', hidden: true } }, world().pat());
		expect((await world().requests()).map(wire)).toEqual([{ method: 'PATCH', path: `/v4/data-field/${id}`, query: '', headers: json(), body: { label: 'Budget (EUR)', hidden: true } }]);
		expect(updated.items[0]).toMatchObject({ name: 'budget', label: 'Budget (EUR)', hidden: true });
		await world().clearRequests();

		const usage = await world().runNode({ resource: 'dataField', operation: 'getUsage', dataFieldId: byId(id) }, world().pat());
		expect((await world().requests()).map((request) => request.path)).toEqual([`/data-field/${id}/usage`]);
		expect(usage.items).toEqual([{ id: field.id, contactCount: 1, formCount: 0 }]);
		await world().clearRequests();

		const deleted = await world().runNode({ resource: 'dataField', operation: 'delete', dataFieldId: byId(id) }, world().pat());
		expect((await world().requests()).map(wire)).toEqual([{ method: 'DELETE', path: `/v4/data-field/${id}`, query: '', headers: world().patHeaders(), body: null }]);
		expect(deleted.items).toEqual([{ deleted: true }]);
	});

	test('an ID that is not a number is refused before sending, naming the field', async () => {
		const { error } = await world().runNode({ resource: 'dataField', operation: 'getUsage', dataFieldId: byId('={{ "budget" }}') }, world().pat());
		expect(error?.message).toBe('Data Field ID must be a number, such as 42; "budget" is not');
		expect(await world().requests()).toEqual([]);
	});

	test('Reorder sends every ID as a number in the new order and outputs the fields in it', async () => {
		await createField({ label: 'Second', fieldType: 'text-single' });
		const listed = await world().api('GET', '/v4/data-field?limit=100', world().seed.credentials.ownerPat);
		const ids = (listed.body.dataFields as IDataObject[]).map((field) => String(field.id)).reverse();
		await world().clearRequests();
		const { items } = await world().runNode({ resource: 'dataField', operation: 'reorder', fieldIds: `={{ ${JSON.stringify(ids)} }}` }, world().pat());
		expect((await world().requests()).map(wire)).toEqual([{ method: 'PATCH', path: '/v4/data-field/reorder', query: '', headers: json(), body: { fieldIds: ids.map(Number) } }]);
		expect(items.map((item) => String(item.id))).toEqual(ids);
		const partial = await world().runNode({ resource: 'dataField', operation: 'reorder', fieldIds: [ids[0]] }, world().pat());
		expect(partial.error?.description).toContain('fieldIds must list every data field of the company once');
	});

	test('the data field list search shows label, name and type', async () => {
		await createField({ label: 'Birthday', fieldType: 'date-of-birth' });
		const { result } = await world().listSearch('searchDataFields', { resource: 'dataField', operation: 'delete' }, world().pat(), 'birth');
		expect(result?.results).toEqual([{ name: 'Birthday (birthday, date-of-birth)', value: expect.any(String) }]);
	});
});
