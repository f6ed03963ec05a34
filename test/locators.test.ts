import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { PACKAGE_NAME, getEngine } from '../scripts/engine';
import { byId, useWorld, wire } from './harness/world';

/** Resource locators: By ID checks the ID's form (in the editor and at run time); a contact can be named By Email. */

const world = useWorld();

const ownerPat = () => world().seed.credentials.ownerPat;
const byEmail = (value: string) => ({ __rl: true, mode: 'email', value });
const UUID_RULE = '^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})?$';
const DATE_TIME_RULE = '^(\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:?\\d{2})?)?$';

async function createContact(body: IDataObject): Promise<string> {
	const created = await world().api('POST', '/crm', ownerPat(), { body });
	if (created.status !== 201) throw new Error(JSON.stringify(created.body));
	await world().clearRequests();
	return String((created.body.item as IDataObject).id);
}

/** Every resource locator of every node (in collections and rows too), by node, with the rule of each of its typed modes. */
async function locatorModes(): Promise<Record<string, string>> {
	const { loader, nodeTypes } = await getEngine();
	const found: Record<string, string> = {};
	const walk = (node: string, properties: INodeProperties[], path: string) => {
		for (const property of properties) {
			for (const mode of property.type === 'resourceLocator' ? (property.modes ?? []) : []) {
				if (mode.type === 'list') continue;
				const rule = mode.validation?.[0] as { properties?: { regex?: string } } | undefined;
				found[`${node} ${path}${property.name} ${mode.name}`] = rule?.properties?.regex ?? 'none';
			}
			const children = (property.options ?? []) as Array<INodeProperties & { values?: INodeProperties[] }>;
			walk(node, children.filter((child) => 'type' in child), `${path}${property.name}.`);
			for (const group of children.filter((child) => child.values)) walk(node, group.values!, `${path}${property.name}.${group.name}.`);
		}
	};
	for (const name of Object.keys(loader.known.nodes)) walk(name, nodeTypes.getByNameAndVersion(`${PACKAGE_NAME}.${name}`).description.properties, '');
	return found;
}

describe('By ID checks the form of the ID', () => {
	test('every locator mode of every node has its rule: UUIDs for users, numbers for data fields and pending attendees, any text for other IDs, emails By Email', async () => {
		const modes = await locatorModes();
		const rules = new Set(Object.values(modes));
		// Only a By ID mode may have no rule: an ID whose form the API does not show (idForms.test.ts holds every one to its decision).
		expect(Object.entries(modes).filter(([key, rule]) => rule === 'none' && !key.endsWith(' id'))).toEqual([]);
		expect(Object.keys(modes).filter((key) => modes[key] === UUID_RULE && !/(actAsUser|userId|ownerId|assigneeId|host|owner) id$/i.test(key))).toEqual([]);
		expect(rules).toEqual(new Set([UUID_RULE, '^(\\d+)?$', '^([^\\s@]+@[^\\s@]+\\.[^\\s@]+)?$', '^([^:\\s]+:[^:\\s]+)?$', DATE_TIME_RULE, 'none']));
		// A moment rather than an ID: Booking Create's Start, picked from the open slots or typed.
		expect(Object.keys(modes).filter((key) => modes[key] === DATE_TIME_RULE)).toEqual(['schedulingPlatform start dateTime']);
		expect(Object.keys(modes).filter((key) => modes[key] === '^(\\d+)?$')).toEqual([
			'schedulingPlatformCrm dataFieldId id',
			'schedulingPlatformRouting pendingAttendeeId id',
		]);
		// By Email is offered wherever the CRM and Invoicing nodes name a contact, except the rows of Deal Create and the triggers' filters.
		const email = Object.keys(modes).filter((key) => key.endsWith(' email'));
		expect(email).toContain('schedulingPlatformCrm contactId email');
		expect(email).toContain('schedulingPlatformCrm filters.contactId email');
		expect(email).toContain('schedulingPlatformInvoicing contactId email');
		expect(email.every((key) => key.startsWith('schedulingPlatformCrm ') || key.startsWith('schedulingPlatformInvoicing '))).toBe(true);
		expect(modes['schedulingPlatformCrm dealContacts.contact.contactId id']).toBe('none');
		expect(modes['schedulingPlatformCrm dealContacts.contact.contactId email']).toBeUndefined();
		expect(Object.keys(modes).filter((key) => /Trigger /.test(key) && key.endsWith(' email'))).toEqual([]);
	});

	test.each([
		['Scheduling: User', { resource: 'user', operation: 'get', userId: byId('={{ "grace hopper" }}') }, 'User ID must be in UUID form'],
		['CRM: Get Many filter (Owner, a user)', { resource: 'deal', operation: 'getAll', filters: { ownerId: byId('={{ "grace hopper" }}') } }, 'User ID must be in UUID form'],
		['Routing: Host (a user)', { resource: 'queue', operation: 'addHost', meetingTypeId: byId('mt_1'), userId: byId('={{ "grace hopper" }}') }, 'User ID must be in UUID form'],
		['CRM: Data Field (a number)', { resource: 'dataField', operation: 'getUsage', dataFieldId: byId('={{ "grace hopper" }}') }, 'Data Field ID must be a number, such as 42'],
	])('%s: an ID of the wrong form from an expression is refused before sending', async (_what, parameters, message) => {
		const { error } = await world().runNode(parameters, world().pat());
		expect(error?.message).toBe(`${message}${message.endsWith('42') ? '' : ', such as 6f1c2a7e-1b2c-4d5e-8f90-123456789abc'}; "grace hopper" is not`);
		expect(await world().requests()).toEqual([]);
	});

	test('a literal ID of the wrong form is refused by n8n itself (the editor shows the same message under the field)', async () => {
		await expect(world().runNode({ resource: 'user', operation: 'delete', userId: byId('grace hopper') }, world().pat())).rejects.toThrow(
			/node has issues:\n- User ID must be in UUID form, such as 6f1c2a7e-1b2c-4d5e-8f90-123456789abc/,
		);
		expect(await world().requests()).toEqual([]);
	});

	test.each([
		['Scheduling: Meeting Type', { resource: 'meetingType', operation: 'get', meetingTypeId: byId('={{ "grace hopper" }}') }, 'GET /v4/meeting-type/grace%20hopper'],
		['CRM: Contact', { resource: 'contact', operation: 'delete', contactId: byId('grace hopper') }, 'DELETE /crm/grace%20hopper'],
		['CRM: Get Many filter (Contact)', { resource: 'task', operation: 'getAll', filters: { contactId: byId('={{ "grace hopper" }}') } }, 'GET /crm/tasks'],
		['Messenger: Conversation', { resource: 'conversation', operation: 'get', conversationId: byId('={{ "grace hopper" }}') }, 'GET /v4/messenger/conversations/grace%20hopper'],
		['Signatures: Signature Request', { resource: 'signatureRequest', operation: 'get', signatureRequestId: byId('grace hopper') }, 'GET /v4/signatures/grace%20hopper'],
	])('%s: an ID whose form the API does not show is sent as it is, typed in or from an expression', async (_what, parameters, request) => {
		await world().runNode(parameters, world().pat());
		expect((await world().requests()).map((logged) => `${logged.method} ${logged.path}`)).toEqual([request]);
	});
});

describe('Contact By Email', () => {
	let ada: string;
	beforeAll(async () => {
		ada = await createContact({ email: 'ada@lovelace.example', firstName: 'Ada' });
		// A substring match of the search that is not the same email.
		await createContact({ email: 'nada@lovelace.example', firstName: 'Nada' });
		for (let index = 0; index < 2; index++) await createContact({ email: 'twice@lovelace.example', firstName: `Twice ${index}` });
	});

	test('finds the one contact of the email (exact, ignoring case) and works on it', async () => {
		const { items, error } = await world().runNode({ resource: 'contact', operation: 'get', getBy: 'contactId', contactId: byEmail('ADA@Lovelace.example') }, world().pat());
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: '/crm', query: 'searchTerm=ADA%40Lovelace.example&page=1&limit=100', headers: world().patHeaders(), body: null },
			{ method: 'GET', path: '/crm/details', query: `contactId=${ada}`, headers: world().patHeaders(), body: null },
		]);
		expect(items).toEqual([expect.objectContaining({ id: ada, email: 'ada@lovelace.example' })]);
	});

	test('in another node (Invoicing) and per item from an expression; one search per email in a node run', async () => {
		const { items, error } = await world().runNode(
			{
				resource: 'document',
				operation: 'create',
				type: 'offer',
				contactId: byEmail('={{ $json.email }}'),
				lineItemsMode: 'form',
				lineItemsForm: { line: [{ description: 'Consulting', quantity: 1, unitPrice: '100' }] },
			},
			world().pat(),
			{ input: [{ email: 'ada@lovelace.example' }, { email: 'Ada@lovelace.example' }, { email: 'ada@lovelace.example' }] },
		);
		expect(error).toBeUndefined();
		const log = await world().requests();
		expect(log.filter((request) => request.path === '/crm').map((request) => request.query)).toEqual([
			'searchTerm=ada%40lovelace.example&page=1&limit=100',
			'searchTerm=Ada%40lovelace.example&page=1&limit=100',
		]);
		expect(log.filter((request) => request.method === 'POST').map((request) => (request.body as IDataObject).contactId)).toEqual([ada, ada, ada]);
		expect(items.map((item) => item.contactId)).toEqual([ada, ada, ada]);
	});

	test('an email no contact has, or several have, stops the item before anything is written, saying which', async () => {
		const none = await world().runNode({ resource: 'note', operation: 'create', parentType: 'contact', contactId: byEmail('nobody@lovelace.example'), content: 'Hi' }, world().pat());
		expect(none.error?.message).toBe('Contact: no CRM contact has the email nobody@lovelace.example');
		expect(none.error?.description).toBe('Item 1: Check the address, pick the contact From List, or create it first (Contact → Create or Update).');
		const several = await world().runNode({ resource: 'note', operation: 'create', parentType: 'contact', contactId: byEmail('twice@lovelace.example'), content: 'Hi' }, world().pat());
		expect(several.error?.message).toMatch(/^Contact: 2 CRM contacts have the email twice@lovelace\.example \([0-9a-f-]{36}, [0-9a-f-]{36}\)$/);
		expect(several.error?.description).toBe('Item 1: Pick the one you mean From List or By ID, or merge the duplicates in the CRM first.');
		// The search finds ada@ and nada@ (a substring search); neither is this email.
		const substring = await world().runNode({ resource: 'note', operation: 'create', parentType: 'contact', contactId: byEmail('da@lovelace.example'), content: 'Hi' }, world().pat());
		expect(substring.error?.message).toBe('Contact: no CRM contact has the email da@lovelace.example');
		expect((await world().requests()).filter((request) => request.method !== 'GET')).toEqual([]);
	});

	test('a Get Many filter By Email filters by the contact found', async () => {
		await world().api('POST', '/crm/tasks', ownerPat(), { body: { title: 'Call Ada', type: 'call', dueDate: '2027-01-10', contactId: ada } });
		await world().clearRequests();
		const { items, error } = await world().runNode({ resource: 'task', operation: 'getAll', returnAll: true, filters: { contactId: byEmail('ada@lovelace.example') } }, world().pat());
		expect(error).toBeUndefined();
		const list = (await world().requests()).find((request) => request.path === '/crm/tasks');
		expect(list?.query).toContain(`contactId=${ada}`);
		expect(items.map((item) => item.title)).toEqual(['Call Ada']);
	});
});
