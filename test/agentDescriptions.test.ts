import type { IDataObject, INode, INodeProperties, INodePropertyOptions, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers, getToolDescriptionForNode } from 'n8n-workflow';

import { CRM_NODE_TYPE, INVOICING_NODE_TYPE, NODE_TYPE, getEngine } from '../scripts/engine';
import { definitions } from './harness/definitions';
import { byId, useWorld, wire } from './harness/world';

/**
 * The action nodes as AI agents use them (usableAsTool): an agent reads only the tool's description, which n8n makes
 * from the operation's action; the operation's description says in one line what it needs and returns. Get and Get
 * Many of contacts, deals, appointments and documents have n8n's Simplify (from node version 1.1, on by default),
 * which keeps exactly the chosen fields: through the engine against the sandbox, on, off and on version 1.
 */

const world = useWorld();
const pat = () => world().seed.credentials.ownerPat;

async function actionNodes(): Promise<INodeTypeDescription[]> {
	return (await getEngine()).loader.types.nodes.filter((description) => description.usableAsTool);
}

function operationsOf(description: INodeTypeDescription): Array<{ resource: string; option: INodePropertyOptions }> {
	return description.properties
		.filter((property) => property.name === 'operation')
		.flatMap((property) => (property.options as INodePropertyOptions[]).map((option) => ({ resource: String(property.displayOptions?.show?.resource?.[0]), option })));
}

describe('Operations as an agent reads them', () => {
	test('every operation of every action node has an action and a description, each one short line; no two actions of a node read the same', async () => {
		const nodes = await actionNodes();
		expect(nodes.map((node) => node.name).sort()).toEqual([
			'schedulingPlatform',
			'schedulingPlatformCrm',
			'schedulingPlatformInvoicing',
			'schedulingPlatformMessenger',
			'schedulingPlatformRouting',
			'schedulingPlatformSignatures',
		]);
		for (const node of nodes) {
			const operations = operationsOf(node);
			expect(operations.length).toBeGreaterThan(0);
			for (const { resource, option } of operations) {
				const where = `${node.name} ${resource} ${String(option.value)}`;
				expect({ where, action: typeof option.action === 'string' && /^[A-Z][^\n]{9,49}$/.test(option.action) }).toEqual({ where, action: true });
				expect({ where, description: typeof option.description === 'string' && /^[A-Z][^\n]{19,129}$/.test(option.description) }).toEqual({ where, description: true });
			}
			const actions = operations.map(({ option }) => option.action);
			expect(new Set(actions).size).toBe(actions.length);
		}
	});

	test('the tool description n8n gives an agent is the operation\'s action in the node\'s name', async () => {
		const { nodeTypes } = await getEngine();
		for (const description of await actionNodes()) {
			const type = nodeTypes.getByNameAndVersion(`n8n-nodes-scheduling-platform.${description.name}`) as INodeType;
			for (const { resource, option } of operationsOf(description)) {
				const node = { parameters: { resource, operation: option.value } } as unknown as INode;
				expect(getToolDescriptionForNode(node, type)).toBe(`${String(option.action)} in ${String(description.defaults.name)}`);
			}
		}
		const crm = nodeTypes.getByNameAndVersion(CRM_NODE_TYPE) as INodeType;
		expect(getToolDescriptionForNode({ parameters: { resource: 'contact', operation: 'get' } } as unknown as INode, crm)).toBe('Get a contact by ID or email in Scheduling Platform CRM');
	});
});

/** The fields Simplify keeps, record by record, in their order (api-reference §2, §3, §6). */
const CONTACT = ['id', 'firstName', 'lastName', 'email', 'phoneNumber', 'tags', 'crmCompanyId', 'accountOwnerId', 'createdAt', 'updatedAt'];
const DEAL = ['id', 'name', 'value', 'currency', 'pipelineId', 'stageId', 'contactId', 'crmCompanyId', 'ownerId', 'expectedCloseDate', 'wonAt', 'lostAt'];
const APPOINTMENT = ['id', 'start', 'end', 'isCancelled', 'meetingTypeId', 'meetingInfo', 'hostIds', 'attendees', 'location', 'createdAt'];
const MEETING_INFO = ['name', 'duration'];
const ATTENDEE = ['id', 'email', 'firstname', 'lastname', 'phone', 'contactId'];
const DOCUMENT = ['id', 'type', 'status', 'number', 'contactId', 'dealId', 'currency', 'issueDate', 'dueDate', 'grossTotal', 'amountDue'];

/** The operations that offer Simplify, by node and resource. */
const SIMPLIFIED = {
	[NODE_TYPE]: { appointment: ['get', 'getAll', 'getToday'] },
	[CRM_NODE_TYPE]: { contact: ['get', 'getAll'], deal: ['get', 'getAll'] },
	[INVOICING_NODE_TYPE]: { document: ['get', 'getAll'] },
};

const only = (record: IDataObject, keys: string[]) => Object.fromEntries(keys.map((key) => [key, record[key]]));

/** The appointment as Simplify gives it, written out from the full one. */
function simpleAppointment(appointment: IDataObject): IDataObject {
	return {
		...only(appointment, APPOINTMENT),
		meetingInfo: only(appointment.meetingInfo as IDataObject, MEETING_INFO),
		attendees: (appointment.attendees as IDataObject[]).map((attendee) => only(attendee, ATTENDEE)),
	};
}

describe('Simplify: the option', () => {
	test('is n8n\'s Simplify (simple, on by default), shown from version 1.1 for exactly the operations whose definitions name the fields it keeps', async () => {
		const { nodeTypes } = await getEngine();
		for (const [type, resources] of Object.entries(SIMPLIFIED)) {
			const { description } = nodeTypes.getByNameAndVersion(type);
			expect(description.version).toEqual(type === NODE_TYPE ? [1, 1.1, 1.2] : [1, 1.1]);
			const fields = description.properties.filter((property) => property.name === 'simple');
			expect(fields.map(({ displayName, type: kind, default: value, description: text }) => ({ displayName, kind, value, text }))).toEqual(
				Object.keys(resources).map(() => ({ displayName: 'Simplify', kind: 'boolean', value: true, text: 'Whether to return a simplified version of the response instead of the raw data' })),
			);
			const shown = Object.fromEntries(fields.map(({ displayOptions }) => [String(displayOptions?.show?.resource), displayOptions?.show?.operation]));
			expect(shown).toEqual(resources);
			for (const field of fields) expect(field.displayOptions?.show?.['@version']).toEqual([{ _cnd: { gte: 1.1 } }]);
		}
		const withFields = (await definitions()).flatMap(({ file, operations }) =>
			Object.entries(operations)
				.filter(([, definition]) => definition.simplify)
				.map(([operation]) => `${file.replace('.js', '')} ${operation}`),
		);
		const offered = Object.values(SIMPLIFIED).flatMap((resources) => Object.entries(resources).flatMap(([resource, operations]) => operations.map((operation) => `${resource} ${operation}`)));
		expect(withFields.sort()).toEqual(offered.sort());
	});

	test('n8n keeps no Simplify for a version 1 node (its saved workflows give the whole records) and turns it on for version 1.1', async () => {
		const { description } = (await getEngine()).nodeTypes.getByNameAndVersion(CRM_NODE_TYPE);
		const parameters = (typeVersion: number, values: IDataObject) =>
			NodeHelpers.getNodeParameters(description.properties as INodeProperties[], values as never, true, false, { typeVersion } as INode, description);
		expect(parameters(1, { resource: 'deal', operation: 'get', simple: true })).not.toHaveProperty('simple');
		expect(parameters(1.1, { resource: 'deal', operation: 'get' })).toMatchObject({ simple: true });
		expect(parameters(1.1, { resource: 'deal', operation: 'update' })).not.toHaveProperty('simple');
	});
});

describe('Simplify through the engine: exactly the chosen fields; off, and on version 1, the whole record', () => {
	beforeAll(async () => {
		await world().control('POST', '/__sandbox/rate-limit', { perMinute: 10000, burst: 10000 });
	});

	async function api(method: string, path: string, body?: unknown): Promise<IDataObject> {
		return await world().call(method, path, pat(), body, { keepLog: true });
	}

	/**
	 * Runs the parameters three ways: Simplify as default (on), off, and on version 1 with `simple: true` set (n8n
	 * drops it there); each sends the same request.
	 */
	async function threeWays(parameters: IDataObject): Promise<{ on: IDataObject[]; off: IDataObject[]; versionOne: IDataObject[] }> {
		const run = async (extra: IDataObject, version?: number) => {
			await world().clearRequests();
			const { items, error } = await world().runNode({ ...parameters, ...extra }, world().pat(), { version });
			expect(error).toBeUndefined();
			return { items, requests: (await world().requests()).map(wire) };
		};
		const [on, off, versionOne] = [await run({}), await run({ simple: false }), await run({ simple: true }, 1)];
		expect(off.requests).toEqual(on.requests);
		expect(versionOne.requests).toEqual(on.requests);
		return { on: on.items, off: off.items, versionOne: versionOne.items };
	}

	test('Contact → Get and Get Many', async () => {
		const created = await api('POST', '/crm', { email: 'simple.contact@example.com', firstName: 'Simone', lastName: 'Simple', phoneNumber: '+4915790001111', tags: ['agent'], title: 'Buyer', notes: 'Long notes' });
		const details = await api('GET', `/crm/details?contactId=${String((created.item as IDataObject).id)}`);
		const contact = details.item as IDataObject;

		const get = await threeWays({ resource: 'contact', operation: 'get', getBy: 'contactId', contactId: byId(String(contact.id)) });
		expect(get.on.map(Object.keys)).toEqual([CONTACT]);
		expect(get.on).toEqual([only(contact, CONTACT)]);
		expect(get.off).toEqual([{ ...contact, appointments: details.appointments }]);
		expect(get.versionOne).toEqual(get.off);

		const many = await threeWays({ resource: 'contact', operation: 'getAll', returnAll: true, filters: { searchTerm: 'simple.contact@' } });
		expect(many.on.map(Object.keys)).toEqual([CONTACT]);
		expect(many.on).toEqual(get.on);
		expect(many.off).toEqual([{ ...contact, appointments: [], nextAppointmentIso: null }]);
		expect(many.versionOne).toEqual(many.off);
	});

	test('Deal → Get and Get Many', async () => {
		const pipeline = await api('POST', '/crm/pipelines', { name: 'Agents', stages: [{ name: 'Lead', color: '#1a73e8' }] });
		const contact = await api('POST', '/crm', { email: 'deal.contact@example.com' });
		const created = await api('POST', '/crm/deals', {
			name: 'Simple deal',
			pipelineId: pipeline.id,
			stageId: (pipeline.stages as IDataObject[])[0].id,
			value: 1200,
			currency: 'EUR',
			contactId: (contact.item as IDataObject).id,
			notes: 'Long notes',
			customFields: { source: 'web' },
		});
		const deal = await api('GET', `/crm/deals/${String(created.id)}`);

		const get = await threeWays({ resource: 'deal', operation: 'get', dealId: byId(String(deal.id)) });
		expect(get.on.map(Object.keys)).toEqual([DEAL]);
		expect(get.on).toEqual([only(deal, DEAL)]);
		expect(get.off).toEqual([deal]);
		expect(get.versionOne).toEqual([deal]);

		const many = await threeWays({ resource: 'deal', operation: 'getAll', returnAll: true, filters: { search: 'Simple deal' } });
		expect(many.on).toEqual(get.on);
		expect(many.off).toEqual([expect.objectContaining({ ...deal, stage: expect.objectContaining({ name: 'Lead' }) })]);
		expect(many.versionOne).toEqual(many.off);
	});

	test('Appointment → Get, Get Many and Get Today: the attendees and the meeting keep the fields a mapping reads', async () => {
		await world().control('POST', '/__sandbox/clock/set', { now: '2026-03-01T12:00:00Z' });
		const meetingType = await world().meetingType('30 Minute Meeting');
		const booked = await world().bookAppointment(meetingType.id, '2026-03-02T09:00:00+01:00', 'Ada', 'Agent');
		const appointment = await api('GET', `/v4/appointment/${String(booked.id)}`);
		expect(Object.keys(appointment)).toEqual(expect.arrayContaining(['secret', 'cancel', 'notes']));

		const get = await threeWays({ resource: 'appointment', operation: 'get', appointmentId: byId(String(appointment.id)) });
		expect(get.on.map(Object.keys)).toEqual([APPOINTMENT]);
		expect(get.on.map((item) => Object.keys(item.meetingInfo as IDataObject))).toEqual([MEETING_INFO]);
		expect(get.on.flatMap((item) => (item.attendees as IDataObject[]).map(Object.keys))).toEqual([ATTENDEE]);
		expect(get.on).toEqual([simpleAppointment(appointment)]);
		expect(get.off).toEqual([appointment]);
		expect(get.versionOne).toEqual([appointment]);

		const many = await threeWays({ resource: 'appointment', operation: 'getAll', returnAll: true, filters: { search: 'ada.agent@example.com' } });
		expect(many.on).toEqual(get.on);
		expect(many.off).toEqual([appointment]);
		expect(many.versionOne).toEqual([appointment]);

		await world().control('POST', '/__sandbox/clock/set', { now: '2026-03-02T07:00:00Z' });
		const today = await threeWays({ resource: 'appointment', operation: 'getToday' });
		expect(today.on).toEqual(get.on);
		expect(today.off).toEqual([appointment]);
	});

	test('Document → Get and Get Many: no lines with Simplify on', async () => {
		const contact = await api('POST', '/crm', { email: 'document.contact@example.com' });
		const created = await api('POST', '/invoicing/documents', {
			type: 'invoice',
			contactId: (contact.item as IDataObject).id,
			lineItems: [{ description: 'Consulting', quantity: 2, unitPrice: 100, taxRate: 19 }],
		});
		const document = await api('GET', `/invoicing/documents/${String(created.id)}`);

		const get = await threeWays({ resource: 'document', operation: 'get', documentId: byId(String(document.id)) });
		expect(get.on.map(Object.keys)).toEqual([DOCUMENT]);
		expect(get.on).toEqual([only(document, DOCUMENT)]);
		expect(get.on[0]).toMatchObject({ type: 'invoice', status: 'draft', grossTotal: 238, amountDue: 238 });
		expect(get.off).toEqual([document]);
		expect(get.versionOne).toEqual([document]);

		const many = await threeWays({ resource: 'document', operation: 'getAll', returnAll: true, filters: { contactId: byId(String(document.contactId)) } });
		expect(many.on).toEqual(get.on);
		expect(many.off).toEqual([document]);
		expect(many.versionOne).toEqual([document]);
	});
});
