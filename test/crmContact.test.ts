import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { addNote, addTask, crmParent, logCall } from './harness/crm';
import { CRM_NODE_TYPE, getEngine } from '../scripts/engine';
import { byId, PAT_TYPE, useWorld, wire } from './harness/world';

/** Contact operations of the CRM node: exact wire format and output items, against the sandbox. */

const world = useWorld();

const ownerPat = () => world().seed.credentials.ownerPat;
const json = () => world().patHeaders(undefined, true);
const defineBelow = (value: IDataObject) => ({ mappingMode: 'defineBelow', value });

async function createContact(body: IDataObject): Promise<IDataObject> {
	const created = await world().api('POST', '/crm', ownerPat(), { body });
	await world().clearRequests();
	return created.body.item as IDataObject;
}

async function createDataField(body: IDataObject): Promise<IDataObject> {
	const created = await world().api('POST', '/v4/data-field', ownerPat(), { body });
	if (created.status !== 201) throw new Error(JSON.stringify(created.body));
	await world().clearRequests();
	return created.body;
}

async function stored(id: string): Promise<IDataObject> {
	const details = await world().api('GET', `/crm/details?contactId=${id}`, ownerPat());
	await world().clearRequests();
	return details.body.item as IDataObject;
}

beforeAll(async () => {
	await world().control('POST', '/__sandbox/clock/set', { now: '2027-03-01T00:00:00Z' });
	await createDataField({ label: 'Shoe Size', fieldType: 'number' });
	await createDataField({ label: 'Newsletter', fieldType: 'yes-no' });
	await createDataField({ label: 'Plan', fieldType: 'select', options: [{ label: 'Basic', value: 'basic' }, { label: 'Pro', value: 'pro' }] });
});

describe('Contact: Create', () => {
	test('sends the mapped fields, data fields in additionalData with their types, and outputs the contact', async () => {
		const { items, error } = await world().runNode(
			{
				resource: 'contact',
				operation: 'create',
				contactFields: defineBelow({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', shoeSize: '={{ "38" }}', newsletter: 'true', plan: 'pro' }),
				additionalFields: { tags: ['vip', 'speaker'] },
			},
			world().pat(),
		);
		expect(error).toBeUndefined();
		const log = (await world().requests()).map(wire);
		expect(log).toEqual([
			{ method: 'GET', path: '/v4/data-field', query: 'limit=100&offset=0', headers: world().patHeaders(), body: null },
			{
				method: 'POST',
				path: '/crm',
				query: '',
				headers: json(),
				body: { tags: ['vip', 'speaker'], firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', additionalData: { shoeSize: 38, newsletter: true, plan: 'pro' } },
			},
		]);
		expect(items).toHaveLength(1);
		expect(items[0]).toMatchObject({ firstName: 'Ada', email: 'ada@example.com', tags: ['vip', 'speaker'], additionalData: { shoeSize: 38, newsletter: true, plan: 'pro' } });
		expect(items[0]).not.toHaveProperty('item');
	});

	test('a second create with the same email makes a second contact (the API does not deduplicate)', async () => {
		const parameters = { resource: 'contact', operation: 'create', contactFields: defineBelow({ email: 'twice@example.com' }) };
		const first = await world().runNode(parameters, world().pat());
		const second = await world().runNode(parameters, world().pat());
		expect(first.items[0].id).not.toBe(second.items[0].id);
	});

	test('"Map Automatically" takes the input fields of the contact and data field names, and leaves the others', async () => {
		const { items, error } = await world().runNode(
			{ resource: 'contact', operation: 'create', contactFields: { mappingMode: 'autoMapInputData', value: null } },
			world().pat(),
			{ input: [{ email: 'auto@example.com', firstName: 'Auto', shoeSize: 44, row_number: 7 }] },
		);
		expect(error).toBeUndefined();
		const post = (await world().requests()).find((request) => request.method === 'POST');
		expect(post?.body).toEqual({ email: 'auto@example.com', firstName: 'Auto', additionalData: { shoeSize: 44 } });
		expect(items[0]).toMatchObject({ email: 'auto@example.com', additionalData: { shoeSize: 44 } });
	});

	test('an unknown data field by expression, a wrong typed value and tags that are not text are refused before writing', async () => {
		const unknown = await world().runNode(
			{ resource: 'contact', operation: 'create', contactFields: defineBelow({ email: 'x@example.com', shoeSise: '={{ 41 }}' }) },
			world().pat(),
		);
		expect(unknown.error?.message).toBe('"shoeSise" is not a contact field or a data field of the company');
		expect(unknown.error?.description).toContain('Data fields: shoeSize, newsletter, plan.');
		const wrongType = await world().runNode({ resource: 'contact', operation: 'create', contactFields: defineBelow({ email: 'x@example.com', shoeSize: 'big' }) }, world().pat());
		expect(wrongType.error?.message).toBe('Contact Fields: Shoe Size must be a number, not "big"');
		const badTags = await world().runNode(
			{ resource: 'contact', operation: 'create', contactFields: defineBelow({ email: 'x@example.com' }), additionalFields: { tags: '={{ [{ "name": "vip" }] }}' } },
			world().pat(),
		);
		expect(badTags.error?.message).toBe('Tags must be text, not an object');
		expect((await world().requests()).filter((request) => request.method !== 'GET')).toEqual([]);
	});
});

describe('Contact: Get, Get Many, Update, Delete', () => {
	test('Get by contact ID and by attendee ID outputs the contact with its appointments', async () => {
		const contact = await createContact({ email: 'get@example.com', firstName: 'Gert' });
		const byContact = await world().runNode({ resource: 'contact', operation: 'get', getBy: 'contactId', contactId: byId(String(contact.id)), simple: false }, world().pat());
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: '/crm/details', query: `contactId=${String(contact.id)}`, headers: world().patHeaders(), body: null },
		]);
		expect(byContact.items).toEqual([{ ...contact, appointments: [] }]);
		await world().clearRequests();
		const missing = await world().runNode({ resource: 'contact', operation: 'get', getBy: 'attendeeId', attendeeId: 'nobody' }, world().pat());
		expect(missing.error?.message).toBe('Contact not found (HTTP 404)');
		expect((await world().requests()).map((request) => request.query)).toEqual(['attendeeId=nobody']);
	});

	test('Get Many searches, filters by tags, sorts with upper-case order and pages from 1, one item per contact', async () => {
		for (const name of ['Zed', 'Amy', 'Kim']) await createContact({ email: `${name.toLowerCase()}@listing.example`, firstName: name, tags: ['listing'] });
		const { items } = await world().runNode(
			{ resource: 'contact', operation: 'getAll', limit: 2, filters: { searchTerm: 'listing.example', tags: ['listing'] }, sort: { sortBy: 'firstName', sortOrder: 'ASC' }, simple: false },
			world().pat(),
		);
		expect((await world().requests()).map((request) => request.query)).toEqual(['searchTerm=listing.example&tags=listing&sortBy=firstName&sortOrder=ASC&page=1&limit=2']);
		expect(items.map((item) => item.firstName)).toEqual(['Amy', 'Kim']);
		expect(items[0]).toMatchObject({ email: 'amy@listing.example', appointments: [], nextAppointmentIso: null });
		const all = await world().runNode({ resource: 'contact', operation: 'getAll', returnAll: true, filters: { searchTerm: 'listing.example' } }, world().pat());
		expect(all.items).toHaveLength(3);
	});

	test('Update sends the changed fields; clearing a data field sends null and removes the key; tags are added or removed', async () => {
		const contact = await createContact({ email: 'upd@example.com', firstName: 'Old', tags: ['a', 'b'], additionalData: { shoeSize: 40, plan: 'basic' } });
		const id = String(contact.id);
		const { items, error } = await world().runNode(
			{ resource: 'contact', operation: 'update', contactId: byId(id), contactFields: defineBelow({ firstName: 'New', shoeSize: '' }), updateFields: { tags: ['c', 'a'], tagsMode: 'add' } },
			world().pat(),
		);
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: '/v4/data-field', query: 'limit=100&offset=0', headers: world().patHeaders(), body: null },
			{ method: 'GET', path: '/crm/details', query: `contactId=${id}`, headers: world().patHeaders(), body: null },
			{ method: 'PATCH', path: `/crm/${id}`, query: '', headers: json(), body: { tags: ['a', 'b', 'c'], firstName: 'New', additionalData: { shoeSize: null } } },
		]);
		expect(items[0]).toMatchObject({ firstName: 'New', tags: ['a', 'b', 'c'], additionalData: { plan: 'basic' } });
		expect((items[0].additionalData as IDataObject).shoeSize).toBeUndefined();
		const removed = await world().runNode(
			{ resource: 'contact', operation: 'update', contactId: byId(id), contactFields: defineBelow({}), updateFields: { tags: ['a'], tagsMode: 'remove' } },
			world().pat(),
		);
		expect(removed.items[0].tags).toEqual(['b', 'c']);
	});

	test('Delete outputs { deleted: true } from the 204; the contact is gone', async () => {
		const contact = await createContact({ email: 'del@example.com' });
		const { items } = await world().runNode({ resource: 'contact', operation: 'delete', contactId: byId(String(contact.id)) }, world().pat());
		expect((await world().requests()).map(wire)).toEqual([{ method: 'DELETE', path: `/crm/${String(contact.id)}`, query: '', headers: world().patHeaders(), body: null }]);
		expect(items).toEqual([{ deleted: true }]);
		expect((await world().api('GET', `/crm/details?contactId=${String(contact.id)}`, ownerPat())).status).toBe(404);
	});

	test('the contact list search finds contacts by name or email', async () => {
		await createContact({ email: 'locator@example.com', firstName: 'Lotte', lastName: 'Locator' });
		const { result } = await world().listSearch('searchContacts', { resource: 'contact', operation: 'get' }, world().pat(), 'locator');
		expect(result?.results).toEqual([{ name: 'Lotte Locator (locator@example.com)', value: expect.any(String) }]);
	});

	test('the Contact Fields mapper lists the contact fields and the data fields with their types', async () => {
		const { result, error } = await world().resourceMapping('getContactFields', { resource: 'contact', operation: 'importMany' }, world().pat());
		expect(error).toBeUndefined();
		const fields = result!.fields;
		expect(fields.map((field) => `${String(field.id)}:${String(field.type)}`)).toEqual([
			'firstName:string',
			'lastName:string',
			'email:string',
			'phoneNumber:string',
			'notes:string',
			'shoeSize:number',
			'newsletter:boolean',
			'plan:options',
		]);
		expect(fields[7].options).toEqual([{ name: 'Basic', value: 'basic' }, { name: 'Pro', value: 'pro' }]);
	});
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

describe('Contact Fields mapper when the data fields cannot be read', () => {
	const ownIds = ['firstName', 'lastName', 'email', 'phoneNumber', 'notes', 'language', 'title', 'employer', 'seniority', 'function', 'location'];

	test('a wrong Base URL still lists the contact\'s own fields, and a read-only line and the notice say why the data fields are missing', async () => {
		const port = await closedPort();
		const credential = { type: PAT_TYPE, data: { baseUrl: `http://127.0.0.1:${port}`, token: ownerPat() } } as const;
		const { result, error } = await world().resourceMapping('getContactFields', { resource: 'contact', operation: 'create' }, credential);
		expect(error).toBeUndefined();
		const reason = 'Could not get an answer from the API. Network error ECONNREFUSED. Check the Base URL in the credential and that the API is reachable from n8n, then try again.';
		expect(result!.fields.map((field) => field.id)).toEqual([...ownIds, 'addressLine1', 'addressLine2', 'addressLine3', 'addressCity', 'addressZip', 'addressCountry', 'dataFieldsNotLoaded']);
		expect(result!.fields.at(-1)).toEqual({
			id: 'dataFieldsNotLoaded',
			displayName: `Data fields not loaded: ${reason} Once that is fixed, reopen this node (or switch Mapping Column Mode) to load them.`,
			type: 'string',
			required: false,
			defaultMatch: false,
			canBeUsedToMatch: false,
			display: true,
			readOnly: true,
		});
		expect(result!.emptyFieldsNotice).toBe(`The company's data fields could not be loaded, so only the contact's own fields are listed: ${reason}`);
	});

	test('a token the API refuses: the own fields and the API\'s reason with its fix; a working credential lists the data fields and no notice', async () => {
		const revoked = await world().mintPat(world().seed.users.owner.id);
		await world().control('POST', `/__sandbox/pats/${revoked.id}/revoke`);
		const refused = await world().resourceMapping('getContactFields', { resource: 'contact', operation: 'importMany' }, world().pat(revoked.token));
		expect(refused.result!.fields.map((field) => field.id)).toEqual(['firstName', 'lastName', 'email', 'phoneNumber', 'notes', 'dataFieldsNotLoaded']);
		expect(refused.result!.emptyFieldsNotice).toMatch(/^The company's data fields could not be loaded, so only the contact's own fields are listed: .*\(HTTP 401\)/);
		const working = await world().resourceMapping('getContactFields', { resource: 'contact', operation: 'importMany' }, world().pat());
		expect(working.result!.fields.map((field) => field.id)).toEqual(['firstName', 'lastName', 'email', 'phoneNumber', 'notes', 'shoeSize', 'newsletter', 'plan']);
		expect(working.result!.emptyFieldsNotice).toBeUndefined();
	});

	test('the mapper reloads when the operation or the Authentication changes, and Map Each Column Manually starts with every field shown', async () => {
		const { properties } = (await getEngine()).nodeTypes.getByNameAndVersion(CRM_NODE_TYPE).description;
		const mapper = properties.find((property: INodeProperties) => property.name === 'contactFields')!;
		expect(mapper.typeOptions?.loadOptionsDependsOn).toEqual(['operation', 'authentication']);
		expect(mapper.typeOptions?.resourceMapper).toMatchObject({ resourceMapperMethod: 'getContactFields', addAllFields: true, supportAutoMap: true });
	});
});

describe('Contact: Delete Many', () => {
	test('all input items go in one call of their IDs; each item gets the counts of its call', async () => {
		const ids = [];
		for (let index = 0; index < 3; index++) ids.push(String((await createContact({ email: `bulkdel${index}@example.com` })).id));
		const { items, paired } = await world().runNode(
			{ resource: 'contact', operation: 'deleteMany', contactId: byId('={{ $json.id }}') },
			world().pat(),
			{ input: [...ids, '0b7e6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f'].map((id) => ({ id })) },
		);
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'POST', path: '/crm/bulk-delete', query: '', headers: json(), body: { contactIds: [...ids, '0b7e6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f'] } },
		]);
		expect(paired).toEqual([0, 1, 2, 3]);
		expect(items[0]).toEqual({ contactId: ids[0], call: { requested: 4, deleted: 3, skipped: 1 } });
	});
});

describe('Contact: Create or Update', () => {
	test('finds the contact by a case-insensitive exact email among the search results and sends only what differs', async () => {
		await createContact({ email: 'joann.upsert@example.com', firstName: 'Joann' });
		const ann = await createContact({ email: 'Ann.Upsert@Example.com', firstName: 'Ann', additionalData: { plan: 'basic' } });
		const upsert = (fields: IDataObject) => ({ resource: 'contact', operation: 'upsert', contactFields: defineBelow(fields) });
		const updated = await world().runNode(upsert({ email: 'ann.upsert@example.com', firstName: 'Ann', lastName: 'Upsert', plan: 'basic' }), world().pat());
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: '/v4/data-field', query: 'limit=100&offset=0', headers: world().patHeaders(), body: null },
			{ method: 'GET', path: '/crm', query: 'searchTerm=ann.upsert%40example.com&page=1&limit=100', headers: world().patHeaders(), body: null },
			{ method: 'PATCH', path: `/crm/${String(ann.id)}`, query: '', headers: json(), body: { lastName: 'Upsert' } },
		]);
		expect(updated.items).toEqual([expect.objectContaining({ id: ann.id, email: 'Ann.Upsert@Example.com', lastName: 'Upsert', outcome: 'updated' })]);
		await world().clearRequests();

		const unchanged = await world().runNode(upsert({ email: 'ANN.UPSERT@example.com', lastName: 'Upsert' }), world().pat());
		expect((await world().requests()).map((request) => request.method)).toEqual(['GET', 'GET']);
		expect(unchanged.items).toEqual([expect.objectContaining({ id: ann.id, outcome: 'unchanged' })]);
		await world().clearRequests();

		const created = await world().runNode(upsert({ email: 'nobody.upsert@example.com', firstName: 'Neu' }), world().pat());
		expect((await world().requests()).map(wire)[2]).toEqual({ method: 'POST', path: '/crm', query: '', headers: json(), body: { email: 'nobody.upsert@example.com', firstName: 'Neu' } });
		expect(created.items).toEqual([expect.objectContaining({ email: 'nobody.upsert@example.com', outcome: 'created' })]);
		expect(await stored(String(ann.id))).toMatchObject({ firstName: 'Ann', lastName: 'Upsert', additionalData: { plan: 'basic' } });
	});

	test('without an email it finds the contact of exactly that phone number among the search results; a second run writes nothing', async () => {
		await createContact({ phoneNumber: '+491701234567', firstName: 'Longer' });
		const phoned = await createContact({ phoneNumber: '+49170123456', firstName: 'Phoebe' });
		const upsert = (fields: IDataObject) => ({ resource: 'contact', operation: 'upsert', contactFields: defineBelow(fields) });
		const updated = await world().runNode(upsert({ phoneNumber: '+49170123456', lastName: 'Phone' }), world().pat());
		expect((await world().requests()).map(wire).slice(1)).toEqual([
			{ method: 'GET', path: '/crm', query: 'searchTerm=%2B49170123456&page=1&limit=100', headers: world().patHeaders(), body: null },
			{ method: 'PATCH', path: `/crm/${String(phoned.id)}`, query: '', headers: json(), body: { lastName: 'Phone' } },
		]);
		expect(updated.items).toEqual([expect.objectContaining({ id: phoned.id, phoneNumber: '+49170123456', firstName: 'Phoebe', lastName: 'Phone', outcome: 'updated' })]);
		await world().clearRequests();

		const again = await world().runNode(upsert({ phoneNumber: '+49170123456', lastName: 'Phone' }), world().pat());
		expect((await world().requests()).map((request) => request.method)).toEqual(['GET', 'GET']);
		expect(again.items).toEqual([expect.objectContaining({ id: phoned.id, outcome: 'unchanged' })]);
		await world().clearRequests();

		const created = await world().runNode(upsert({ phoneNumber: '+4917012', firstName: 'Shorter' }), world().pat());
		expect((await world().requests()).map(wire)[2]).toEqual({ method: 'POST', path: '/crm', query: '', headers: json(), body: { phoneNumber: '+4917012', firstName: 'Shorter' } });
		expect(created.items).toEqual([expect.objectContaining({ phoneNumber: '+4917012', outcome: 'created' })]);
	});

	test('without an email or a phone number it is refused before any write', async () => {
		const { error } = await world().runNode({ resource: 'contact', operation: 'upsert', contactFields: defineBelow({ firstName: 'NoMail' }) }, world().pat());
		expect(error?.message).toBe('Create or Update needs an email or a phone number to find the contact');
		expect((await world().requests()).map((request) => request.path)).toEqual(['/v4/data-field']);
	});
});

describe('Booking → contact enrichment across the two nodes', () => {
	test('a booking fills the empty fields of the contact of its email and keeps the others; the CRM node reads it by attendee', async () => {
		const contact = await createContact({ email: 'grace.enrich@example.com', firstName: 'G.', tags: ['lead'] });
		const meetingTypeId = await world().createMeetingType('Enrichment Call');
		const { outputs, error } = await world().runChain(
			[
				{
					name: 'Book',
					parameters: { resource: 'booking', operation: 'create', meetingTypeId: byId(meetingTypeId), start: '2027-03-03T10:00:00+01:00', email: 'Grace.Enrich@example.com', firstName: 'Grace', lastName: 'Hopper' },
				},
				{ name: 'Appointment', parameters: { resource: 'appointment', operation: 'get', appointmentId: byId('={{ $json.appointmentId }}') } },
				{ name: 'Contact', parameters: { resource: 'contact', operation: 'get', getBy: 'attendeeId', attendeeId: '={{ $json.attendees[0].id }}', simple: false } },
			],
			world().pat(),
		);
		expect(error).toBeUndefined();
		expect(outputs.Contact).toEqual([
			expect.objectContaining({
				id: contact.id,
				email: 'grace.enrich@example.com',
				firstName: 'G.',
				lastName: 'Hopper',
				tags: ['lead'],
				appointments: [expect.objectContaining({ id: outputs.Book[0].appointmentId, start: '2027-03-03T09:00:00.000Z' })],
			}),
		]);
	});
});

describe('Contact: Get Activity', () => {
	test('reads cursor pages of at most 50, filtered by type, newest first', async () => {
		const meetingTypeId = await world().createMeetingType('Activity Call');
		const first = await world().bookAppointment(meetingTypeId, '2027-03-04T10:00:00+01:00', 'Act', 'Ivity');
		const second = await world().bookAppointment(meetingTypeId, '2027-03-05T10:00:00+01:00', 'Act', 'Ivity');
		const contactId = String((first.attendees as IDataObject[])[0].contactId);
		const { items, error } = await world().runNode(
			{ resource: 'contact', operation: 'getActivity', contactId: byId(contactId), activityTypes: ['meeting', 'note'], returnAll: true },
			world().pat(),
		);
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: `/crm/contacts/${contactId}/activity`, query: 'types=meeting&types=note&limit=50', headers: world().patHeaders(), body: null },
		]);
		expect(items.map((item) => [item.type, item.appointmentId])).toEqual([
			['meeting', second.id],
			['meeting', first.id],
		]);
		await world().clearRequests();
		const one = await world().runNode({ resource: 'contact', operation: 'getActivity', contactId: byId(contactId), limit: 1 }, world().pat());
		expect((await world().requests()).map((request) => request.query)).toEqual(['limit=1']);
		expect(one.items.map((item) => item.appointmentId)).toEqual([second.id]);
	});
});

describe('Contact: Get Activity of every kind', () => {
	test('lists the contact\'s meetings, notes, tasks and communications newest first, and only the types asked for', async () => {
		const meetingTypeId = await world().createMeetingType('Activity Mix');
		const meeting = await world().bookAppointment(meetingTypeId, '2027-03-08T10:00:00+01:00', 'Mix', 'Activity');
		const contactId = String((meeting.attendees as IDataObject[])[0].contactId);
		const parent = { contactId };
		const call = await logCall(world(), parent, '2027-02-15T09:00:00Z', 'Called about the offer');
		await world().control('POST', '/__sandbox/clock/set', { now: '2027-03-02T08:00:00Z' });
		const task = await addTask(world(), parent, 'Send the offer');
		await world().control('POST', '/__sandbox/clock/set', { now: '2027-03-02T09:00:00Z' });
		const note = await addNote(world(), parent, 'Wants a discount');
		await addNote(world(), { contactId: (await createContact({ email: 'other.activity@example.com' })).id as string }, 'Not this contact');
		const all = await world().runNode({ resource: 'contact', operation: 'getActivity', contactId: byId(contactId), returnAll: true }, world().pat());
		expect(all.error).toBeUndefined();
		expect(all.items).toEqual([
			expect.objectContaining({ type: 'meeting', appointmentId: meeting.id }),
			{ type: 'note', occurredAt: expect.stringMatching(/^2027-03-02T09:00/), noteId: note, content: 'Wants a discount', isPinned: false, authorId: world().seed.users.owner.id },
			{ type: 'task', occurredAt: expect.stringMatching(/^2027-03-02T08:00/), taskId: task, title: 'Send the offer', taskType: 'todo', dueDate: '2027-03-31T12:00:00Z', completedAt: null },
			{ type: 'communication', occurredAt: '2027-02-15T09:00:00Z', communicationId: call, communicationType: 'call', direction: 'outbound', subject: null },
		]);
		await world().clearRequests();
		const some = await world().runNode(
			{ resource: 'contact', operation: 'getActivity', contactId: byId(contactId), activityTypes: ['task', 'communication'], returnAll: true },
			world().pat(),
		);
		expect((await world().requests()).map((request) => request.query)).toEqual(['types=task&types=communication&limit=50']);
		expect(some.items.map((item) => item.type)).toEqual(['task', 'communication']);
		await world().control('POST', '/__sandbox/clock/set', { now: '2027-03-01T00:00:00Z' });
	});
});

describe('Contact: Get Notes and Get Communications', () => {
	test('Get Notes lists the contact\'s notes, pinned first then newest, one item per note', async () => {
		const contactId = (await createContact({ email: 'noted@example.com' })).id as string;
		const first = await addNote(world(), { contactId }, 'First call went well');
		await world().control('POST', '/__sandbox/clock/advance', { seconds: 60 });
		const second = await addNote(world(), { contactId }, 'Asked for a demo');
		await world().control('POST', '/__sandbox/clock/advance', { seconds: 60 });
		const pinned = await addNote(world(), { contactId }, 'Key account', true);
		const { items, error } = await world().runNode({ resource: 'contact', operation: 'getNotes', contactId: byId(contactId) }, world().pat());
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([{ method: 'GET', path: `/crm/contacts/${contactId}/notes`, query: '', headers: world().patHeaders(), body: null }]);
		expect(items.map((item) => [item.id, item.content, item.isPinned, item.contactId])).toEqual([
			[pinned, 'Key account', true, contactId],
			[second, 'Asked for a demo', false, contactId],
			[first, 'First call went well', false, contactId],
		]);
	});

	test('Get Communications lists the contact\'s communications, the latest first; an unknown contact is the API\'s 404', async () => {
		const contactId = (await createContact({ email: 'called@example.com' })).id as string;
		const early = await logCall(world(), { contactId }, '2027-01-10T10:00:00Z', 'Intro call');
		const late = await logCall(world(), { contactId }, '2027-02-10T10:00:00Z', 'Follow-up call');
		const { items, error } = await world().runNode({ resource: 'contact', operation: 'getCommunications', contactId: byId(contactId) }, world().pat());
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([{ method: 'GET', path: `/crm/contacts/${contactId}/communications`, query: '', headers: world().patHeaders(), body: null }]);
		expect(items).toEqual([
			expect.objectContaining({ id: late, type: 'call', direction: 'outbound', body: 'Follow-up call', occurredAt: '2027-02-10T10:00:00Z', contactId, dealId: null, crmCompanyId: null }),
			expect.objectContaining({ id: early, body: 'Intro call' }),
		]);
		const unknown = await world().runNode({ resource: 'contact', operation: 'getCommunications', contactId: byId('6f1c2a7e-1b2c-4d5e-8f90-123456789abc') }, world().pat());
		expect(unknown.error?.message).toBe('Contact not found (HTTP 404)');
		expect(unknown.error?.description).toContain('Contact not found');
	});
});

describe('Contact: address and company', () => {
	test('Create sends the address fields as the address object and the company picked with the company locator', async () => {
		const companyId = await crmParent(world(), 'company', 'Address GmbH');
		const { items, error } = await world().runNode(
			{
				resource: 'contact',
				operation: 'create',
				contactFields: defineBelow({ email: 'addressed@example.com', addressLine1: 'Hauptstr. 1', addressCity: 'Berlin', addressCountry: 'DE' }),
				additionalFields: { crmCompanyId: byId(companyId) },
			},
			world().pat(),
		);
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)[1]).toEqual({
			method: 'POST',
			path: '/crm',
			query: '',
			headers: json(),
			body: { crmCompanyId: companyId, email: 'addressed@example.com', address: { line1: 'Hauptstr. 1', city: 'Berlin', country: 'DE' } },
		});
		expect(items).toEqual([expect.objectContaining({ crmCompanyId: companyId, address: { line1: 'Hauptstr. 1', city: 'Berlin', country: 'DE' } })]);
	});

	test('Update changes the address parts given and keeps the others (the contact is read once); a cleared part is removed', async () => {
		const id = String((await createContact({ email: 'moving@example.com', address: { line1: 'Alte Str. 2', zip: '10115', city: 'Berlin', country: 'DE' } })).id);
		const { items, error } = await world().runNode(
			{ resource: 'contact', operation: 'update', contactId: byId(id), contactFields: defineBelow({ addressCity: 'Hamburg', addressZip: '20095', addressLine1: '' }) },
			world().pat(),
		);
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire).slice(1)).toEqual([
			{ method: 'GET', path: '/crm/details', query: `contactId=${id}`, headers: world().patHeaders(), body: null },
			{ method: 'PATCH', path: `/crm/${id}`, query: '', headers: json(), body: { address: { zip: '20095', city: 'Hamburg', country: 'DE' } } },
		]);
		expect(items[0].address).toEqual({ zip: '20095', city: 'Hamburg', country: 'DE' });
	});

	test('Create or Update compares the address part by part: the same address sends no write, a new ZIP sends the whole address', async () => {
		const id = String((await createContact({ email: 'same.address@example.com', address: { line1: 'Ring 3', city: 'Köln' } })).id);
		const run = async (addressZip?: string) =>
			await world().runNode(
				{ resource: 'contact', operation: 'upsert', contactFields: defineBelow({ email: 'same.address@example.com', addressCity: 'Köln', ...(addressZip && { addressZip }) }) },
				world().pat(),
			);
		const same = await run();
		expect(same.items).toEqual([expect.objectContaining({ id, outcome: 'unchanged' })]);
		expect((await world().requests()).map((request) => request.method)).toEqual(['GET', 'GET']);
		await world().clearRequests();
		const zip = await run('50667');
		expect((await world().requests()).map(wire)[2]).toEqual({ method: 'PATCH', path: `/crm/${id}`, query: '', headers: json(), body: { address: { line1: 'Ring 3', city: 'Köln', zip: '50667' } } });
		expect(zip.items).toEqual([expect.objectContaining({ id, outcome: 'updated', address: { line1: 'Ring 3', city: 'Köln', zip: '50667' } })]);
	});

	test('the Contact Fields mapper offers the address on Create and Update, not on Import Many (the bulk import takes none)', async () => {
		const address = ['addressLine1', 'addressLine2', 'addressLine3', 'addressCity', 'addressZip', 'addressCountry'];
		const ids = async (operation: string) => (await world().resourceMapping('getContactFields', { resource: 'contact', operation }, world().pat())).result!.fields.map((field) => field.id);
		expect(await ids('create')).toEqual(expect.arrayContaining(address));
		expect(await ids('update')).toEqual(expect.arrayContaining(address));
		expect((await ids('importMany')).filter((id) => address.includes(id))).toEqual([]);
	});
});
