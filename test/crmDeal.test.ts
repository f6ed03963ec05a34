import type { IDataObject } from 'n8n-workflow';

import { addNote, logCall } from './harness/crm';
import { byId, useWorld, wire } from './harness/world';

const world = useWorld();

const pat = () => world().seed.credentials.ownerPat;
const owner = () => world().seed.users.owner;

type Pipeline = IDataObject & { id: string; stages: Array<IDataObject & { id: string }> };
type Deal = IDataObject & { id: string };

let sales: Pipeline;
let other: Pipeline;
/** Contacts made by bookings (a booking creates the attendee's contact): their IDs by first name. */
const contacts: Record<string, string> = {};

async function api(method: string, path: string, body?: unknown): Promise<IDataObject> {
	return await world().call(method, path, pat(), body);
}

async function deal(name: string, extra: IDataObject = {}): Promise<Deal> {
	return (await api('POST', '/crm/deals', { name, pipelineId: sales.id, stageId: sales.stages[0].id, ...extra })) as Deal;
}

beforeAll(async () => {
	await world().control('POST', '/__sandbox/clock/set', { now: '2026-03-01T12:00:00Z' });
	await world().control('POST', '/__sandbox/rate-limit', { perMinute: 10000, burst: 10000 });
	const stages = (names: string[]) => names.map((name) => ({ name, color: '#1a73e8', isWon: name === 'Won', isLost: name === 'Lost' }));
	sales = (await api('POST', '/crm/pipelines', { name: 'Sales', stages: stages(['Lead', 'Proposal', 'Won', 'Lost']) })) as Pipeline;
	other = (await api('POST', '/crm/pipelines', { name: 'Partners', stages: stages(['Intro']) })) as Pipeline;
	const [meetingType] = await world().meetingTypes();
	for (const [index, name] of ['Ada', 'Grace'].entries()) {
		const appointment = await world().bookAppointment(meetingType.id, `2026-03-02T${9 + index}:00:00+01:00`.replace("T9", "T09"), name, 'Lovelace');
		contacts[name] = (appointment.attendees as IDataObject[])[0].contactId as string;
	}
	await api('PUT', '/crm/settings/custom-fields?recordType=deal', {
		fields: [
			{ key: 'source', label: 'Source', type: 'select', required: true, options: ['web', 'fair'] },
			{ key: 'seats', label: 'Seats', type: 'number' },
		],
	});
	await api('PUT', '/crm/settings/lost-reasons', { reasons: [{ key: 'price', label: 'Too expensive' }, { key: 'old', label: 'Old reason', archived: true }] });
});

const mapper = (value: IDataObject) => ({ mappingMode: 'defineBelow', value, matchingColumns: [], schema: [] });

describe('Deal', () => {
	test('Create checks the stage against the pipeline and sends contacts with roles and the custom fields', async () => {
		const { items, error } = await world().runNode(
			{
				resource: 'deal',
				operation: 'create',
				name: 'Acme renewal',
				pipelineId: byId(sales.id),
				stageId: sales.stages[1].id,
				additionalFields: { value: 1200.5, currency: 'EUR', expectedCloseDate: '2026-04-30', contactId: byId(contacts.Ada) },
				dealContacts: { contact: [{ contactId: byId(contacts.Ada), role: 'decision_maker', isPrimary: true }, { contactId: { __rl: true, mode: 'list', value: contacts.Grace }, role: 'influencer', isPrimary: false }] },
				customFields: mapper({ source: 'web', seats: 12 }),
			},
			world().pat(),
		);
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: '/crm/pipelines', query: '', headers: world().patHeaders(), body: null },
			{ method: 'GET', path: '/crm/settings/custom-fields', query: 'recordType=deal', headers: world().patHeaders(), body: null },
			{
				method: 'POST',
				path: '/crm/deals',
				query: '',
				headers: world().patHeaders(pat(), true),
				body: {
					name: 'Acme renewal',
					pipelineId: sales.id,
					stageId: sales.stages[1].id,
					value: 1200.5,
					currency: 'EUR',
					expectedCloseDate: '2026-04-30',
					contactId: contacts.Ada,
					contacts: [
						{ contactId: contacts.Ada, role: 'decision_maker', isPrimary: true },
						{ contactId: contacts.Grace, role: 'influencer', isPrimary: false },
					],
					customFields: { source: 'web', seats: 12 },
				},
			},
		]);
		expect(items).toEqual([
			expect.objectContaining({
				name: 'Acme renewal',
				stageId: sales.stages[1].id,
				wonAt: null,
				lostAt: null,
				ownerId: owner().id,
				customFields: { source: 'web', seats: 12 },
				contacts: [
					expect.objectContaining({ contactId: contacts.Ada, role: 'decision_maker', isPrimary: true }),
					expect.objectContaining({ contactId: contacts.Grace, role: 'influencer', isPrimary: false }),
				],
			}),
		]);
	});

	test('a stage of another pipeline picked by expression is refused after one read, for every item', async () => {
		const { error } = await world().runNode(
			{ resource: 'deal', operation: 'create', name: 'Wrong', pipelineId: byId(sales.id), stageId: `={{ "${other.stages[0].id}" }}`, customFields: mapper({ source: 'web' }) },
			world().pat(),
			{ input: [{}, {}] },
		);
		expect(error?.message).toBe(`Stage Name or ID "${other.stages[0].id}" is not a stage of the pipeline "Sales"`);
		expect(error?.description).toContain('pick one of its stages: Lead');
		expect((await world().requests()).map((request) => `${request.method} ${request.path}`)).toEqual(['GET /crm/pipelines']);
	});

	test('a custom field no longer in the settings or a value outside its options stops the item before the write; a missing required one gets the API\'s 400', async () => {
		const base = { resource: 'deal', operation: 'create', name: 'X', pipelineId: byId(sales.id), stageId: sales.stages[0].id };
		const gone = await world().runNode({ ...base, customFields: mapper({ source: 'web', budget: 5 }) }, world().pat());
		expect(gone.error?.message).toBe('Custom field "budget" is not in the deal custom-field settings');
		expect((await world().requests()).filter((request) => request.method === 'POST')).toEqual([]);
		const wrong = await world().runNode({ ...base, customFields: mapper({ source: 'online' }) }, world().pat());
		expect(wrong.error?.message).toBe('Custom Fields: Source must be one of "web", "fair"; "online" is not');
		expect((await world().requests()).filter((request) => request.method === 'POST')).toEqual([]);
		const missing = await world().runNode({ ...base, customFields: mapper({ seats: 1 }) }, world().pat());
		expect(missing.error?.description).toContain('customFields.source should not be empty');
	});

	test('two primary contacts are refused before sending', async () => {
		const primary = (id: string) => ({ contactId: byId(id), role: 'user', isPrimary: true });
		const { error } = await world().runNode(
			{ resource: 'deal', operation: 'create', name: 'Two', pipelineId: byId(sales.id), stageId: sales.stages[0].id, dealContacts: { contact: [primary(contacts.Ada), primary(contacts.Grace)] } },
			world().pat(),
		);
		expect(error?.message).toBe('Only one of Contacts can be primary: turn Is Primary off for the others');
		expect(await world().requests()).toEqual([]);
	});

	test('Create maps custom fields automatically from input fields of the same name, typed as the settings say', async () => {
		const { items, error } = await world().runNode(
			{ resource: 'deal', operation: 'create', name: 'Auto', pipelineId: byId(sales.id), stageId: sales.stages[0].id, customFields: { mappingMode: 'autoMapInputData', value: null } },
			world().pat(),
			{ input: [{ source: 'fair', seats: '3', unrelated: 'x' }] },
		);
		expect(error).toBeUndefined();
		expect((await world().requests()).find((request) => request.method === 'POST')?.body).toEqual(
			expect.objectContaining({ customFields: { source: 'fair', seats: 3 } }),
		);
		expect(items[0].customFields).toEqual({ source: 'fair', seats: 3 });
	});

	test('the custom-field mapper lists the deal settings, required only on Create', async () => {
		const create = await world().resourceMapping('getCustomFields', { resource: 'deal', operation: 'create' }, world().pat());
		expect(create.error).toBeUndefined();
		expect(create.result?.fields).toEqual([
			{ id: 'source', displayName: 'Source', required: true, defaultMatch: false, display: true, type: 'options', options: [{ name: 'web', value: 'web' }, { name: 'fair', value: 'fair' }] },
			{ id: 'seats', displayName: 'Seats', required: false, defaultMatch: false, display: true, type: 'number' },
		]);
		const update = await world().resourceMapping('getCustomFields', { resource: 'deal', operation: 'update' }, world().pat());
		expect(update.result?.fields.map((field) => field.required)).toEqual([false, false]);
	});

	test('Get reads one deal with its contacts', async () => {
		const d = await deal('Readable', { customFields: { source: 'web' } });
		const { items } = await world().runNode({ resource: 'deal', operation: 'get', dealId: byId(d.id), simple: false }, world().pat());
		expect((await world().requests()).map(wire)).toEqual([{ method: 'GET', path: `/crm/deals/${d.id}`, query: '', headers: world().patHeaders(), body: null }]);
		expect(items).toEqual([expect.objectContaining({ id: d.id, name: 'Readable', contacts: [] })]);
	});

	test('Get Many sends the filters, upper-case sortOrder and page1 paging, one item per deal', async () => {
		await deal('Filter A', { customFields: { source: 'web' }, contactId: contacts.Grace });
		await deal('Filter B', { customFields: { source: 'web' }, contactId: contacts.Grace });
		const { items, error } = await world().runNode(
			{
				resource: 'deal',
				operation: 'getAll',
				returnAll: false,
				limit: 1,
				filters: { search: 'filter', pipelineId: byId(sales.id), contactId: byId(contacts.Grace), status: 'open', sortBy: 'name', sortOrder: 'ASC' },
				simple: false,
			},
			world().pat(),
		);
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{
				method: 'GET',
				path: '/crm/deals',
				query: `search=filter&pipelineId=${sales.id}&contactId=${contacts.Grace}&isOpen=true&sortBy=name&sortOrder=ASC&page=1&limit=1`,
				headers: world().patHeaders(),
				body: null,
			},
		]);
		expect(items).toEqual([expect.objectContaining({ name: 'Filter A', stage: expect.objectContaining({ name: 'Lead' }), contact: expect.objectContaining({ id: contacts.Grace }) })]);
		const all = await world().runNode({ resource: 'deal', operation: 'getAll', returnAll: true, filters: { search: 'filter' } }, world().pat());
		expect(all.items.map((item) => item.name).sort()).toEqual(['Filter A', 'Filter B']);
	});

	test('Update moves the deal to a stage of its own pipeline (the deal and the pipelines read once per run), clears contact, company, expected close date and owner with null and merges custom fields', async () => {
		const company = await api('POST', '/crm/companies', { name: 'Clearable Ltd.' });
		const d = await deal('Mover', { customFields: { source: 'web', seats: 2 }, contactId: contacts.Grace, crmCompanyId: company.id, expectedCloseDate: '2026-04-30' });
		await world().control('POST', '/__sandbox/clock/advance', { seconds: 60 });
		const { items, error } = await world().runNode(
			{
				resource: 'deal',
				operation: 'update',
				dealId: byId(d.id),
				updateFields: { stageId: sales.stages[1].id, clearContact: true, clearCompany: true, clearExpectedCloseDate: true, unassignOwner: true, value: 99 },
				customFields: mapper({ seats: 5 }),
			},
			world().pat(),
			{ input: [{}, {}] },
		);
		expect(error).toBeUndefined();
		const body = { stageId: sales.stages[1].id, value: 99, contactId: null, crmCompanyId: null, expectedCloseDate: null, ownerId: null, customFields: { seats: 5 } };
		const patch = { method: 'PATCH', path: `/crm/deals/${d.id}`, query: '', headers: world().patHeaders(pat(), true), body };
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: `/crm/deals/${d.id}`, query: '', headers: world().patHeaders(), body: null },
			{ method: 'GET', path: '/crm/pipelines', query: '', headers: world().patHeaders(), body: null },
			{ method: 'GET', path: '/crm/settings/custom-fields', query: 'recordType=deal', headers: world().patHeaders(), body: null },
			patch,
			patch,
		]);
		const updated = { pipelineId: sales.id, stageId: sales.stages[1].id, value: 99, contactId: null, crmCompanyId: null, expectedCloseDate: null, ownerId: null, customFields: { source: 'web', seats: 5 } };
		expect(items).toEqual([expect.objectContaining(updated), expect.objectContaining(updated)]);
		expect(items[0].enteredStageAt).not.toBe(d.enteredStageAt);
		for (const field of ['closedAt', 'isOpen', 'isWon', 'isLost']) expect(items[0]).not.toHaveProperty(field);
	});

	test('Update refuses a stage of another pipeline before sending: no route moves a deal to another pipeline, and the message says what is possible', async () => {
		const d = await deal('Stays', { customFields: { source: 'web' } });
		const { error } = await world().runNode({ resource: 'deal', operation: 'update', dealId: byId(d.id), updateFields: { stageId: `={{ "${other.stages[0].id}" }}` } }, world().pat(), { input: [{}, {}] });
		expect(error?.message).toBe(
			`Stage Name or ID "${other.stages[0].id}" is a stage of the pipeline "Partners", not of the deal's pipeline "Sales": the API has no route that moves a deal to another pipeline`,
		);
		expect(error?.description).toContain(
			'to have the deal in "Partners", create it anew there (Deal → Create), then delete the old deal or close it (Mark Won or Mark Lost). To move it within "Sales", pick one of its stages: Lead',
		);
		expect((await world().requests()).map((request) => `${request.method} ${request.path}`)).toEqual([`GET /crm/deals/${d.id}`, 'GET /crm/pipelines']);
		await world().clearRequests();
		const unknown = await world().runNode({ resource: 'deal', operation: 'update', dealId: byId(d.id), updateFields: { stageId: 'no-such-stage' } }, world().pat());
		expect(unknown.error?.message).toBe('Stage Name or ID "no-such-stage" is not a stage of the deal\'s pipeline "Sales"');
		expect(unknown.error?.description).toContain(`pick one of its stages: Lead (${sales.stages[0].id}), Proposal (${sales.stages[1].id})`);
		expect((await world().requests()).filter((request) => request.method === 'PATCH')).toEqual([]);
	});

	test('Update refuses a value together with the switch that clears it, before sending', async () => {
		const d = await deal('Contradiction', { customFields: { source: 'web' } });
		const both = await world().runNode(
			{ resource: 'deal', operation: 'update', dealId: byId(d.id), updateFields: { contactId: byId(contacts.Ada), clearContact: true } },
			world().pat(),
		);
		expect(both.error?.message).toBe('Contact and Clear Contact contradict each other: remove the Contact text or turn Clear Contact off');
		const date = await world().runNode(
			{ resource: 'deal', operation: 'update', dealId: byId(d.id), updateFields: { expectedCloseDate: '2026-05-01', clearExpectedCloseDate: true } },
			world().pat(),
		);
		expect(date.error?.message).toBe('Expected Close Date and Clear Expected Close Date contradict each other: remove the Expected Close Date text or turn Clear Expected Close Date off');
		expect(await world().requests()).toEqual([]);
	});

	test('the API drops a pipelineId in the update (the deal stays in its pipeline) and refuses a stage of another pipeline', async () => {
		const d = await deal('Pinned', { customFields: { source: 'web' } });
		const dropped = await world().api('PATCH', `/crm/deals/${d.id}`, pat(), { body: { pipelineId: other.id, name: 'Pinned still' } });
		expect(dropped.status).toBe(200);
		expect(dropped.body).toMatchObject({ name: 'Pinned still', pipelineId: sales.id, stageId: sales.stages[0].id });
		const moved = await world().api('PATCH', `/crm/deals/${d.id}`, pat(), { body: { pipelineId: other.id, stageId: other.stages[0].id } });
		expect(moved.status).toBe(400);
		expect(moved.body).toEqual({ statusCode: 400, message: 'stageId must be a stage of the deal\'s pipeline', error: 'Bad Request' });
	});

	test('the Stage dropdown of Update lists the stages of the chosen deal\'s pipeline only', async () => {
		const d = await deal('Dropdown', { customFields: { source: 'web' } });
		const { result, error } = await world().loadOptions('getPipelineStages', { resource: 'deal', operation: 'update', dealId: { __rl: true, mode: 'list', value: d.id } }, world().pat());
		expect(error).toBeUndefined();
		expect(result).toEqual([
			{ name: 'Lead', value: sales.stages[0].id, description: undefined },
			{ name: 'Proposal', value: sales.stages[1].id, description: undefined },
			{ name: 'Won', value: sales.stages[2].id, description: 'Won stage' },
			{ name: 'Lost', value: sales.stages[3].id, description: 'Lost stage' },
		]);
		expect((await world().requests()).map((request) => `${request.method} ${request.path}`)).toEqual([`GET /crm/deals/${d.id}`, 'GET /crm/pipelines']);
	});

	test('Delete outputs deleted from the 204', async () => {
		const d = await deal('Gone', { customFields: { source: 'web' } });
		const { items } = await world().runNode({ resource: 'deal', operation: 'delete', dealId: byId(d.id) }, world().pat());
		expect(items).toEqual([{ deleted: true }]);
		expect((await world().requests()).map(wire)).toEqual([{ method: 'DELETE', path: `/crm/deals/${d.id}`, query: '', headers: world().patHeaders(), body: null }]);
		expect((await world().api('GET', `/crm/deals/${d.id}`, pat())).status).toBe(404);
	});

	test('Mark Won moves to the won stage; marking it again gets the API\'s 409; Reopen goes back to the first open stage', async () => {
		const d = await deal('Winner', { customFields: { source: 'web' } });
		const won = await world().runNode({ resource: 'deal', operation: 'markWon', dealId: byId(d.id) }, world().pat());
		expect((await world().requests()).map(wire)).toEqual([{ method: 'PATCH', path: `/crm/deals/${d.id}/won`, query: '', headers: world().patHeaders(), body: null }]);
		expect(won.items).toEqual([expect.objectContaining({ wonAt: expect.any(String), lostAt: null, stageId: sales.stages[2].id })]);
		const again = await world().runNode({ resource: 'deal', operation: 'markWon', dealId: byId(d.id) }, world().pat());
		expect(again.error?.description).toContain('Deal is not open: reopen it first');
		await world().clearRequests();
		const reopened = await world().runNode({ resource: 'deal', operation: 'reopen', dealId: byId(d.id), reopenOptions: { stageId: sales.stages[1].id } }, world().pat());
		expect((await world().requests()).map((request) => request.body)).toEqual([{ stageId: sales.stages[1].id }]);
		expect(reopened.items).toEqual([expect.objectContaining({ wonAt: null, lostAt: null, stageId: sales.stages[1].id })]);
		const open = await world().runNode({ resource: 'deal', operation: 'reopen', dealId: byId(d.id) }, world().pat());
		expect(open.error?.description).toContain('Deal is already open');
	});

	test('Mark Lost sends a reason from the company\'s list; the dropdown leaves archived reasons out; an unknown reason gets the API\'s 400', async () => {
		const reasons = await world().loadOptions('getLostReasons', { resource: 'deal', operation: 'markLost' }, world().pat());
		expect(reasons.result).toEqual([{ name: 'Too expensive', value: 'price' }]);
		const d = await deal('Loser', { customFields: { source: 'web' } });
		await world().clearRequests();
		const lost = await world().runNode(
			{ resource: 'deal', operation: 'markLost', dealId: byId(d.id), lostReason: 'price', lostOptions: { lostReasonNote: 'Budget cut' } },
			world().pat(),
		);
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'PATCH', path: `/crm/deals/${d.id}/lost`, query: '', headers: world().patHeaders(pat(), true), body: { lostReason: 'price', lostReasonNote: 'Budget cut' } },
		]);
		expect(lost.items).toEqual([expect.objectContaining({ lostAt: expect.any(String), wonAt: null, lostReason: 'price', stageId: sales.stages[3].id })]);
		const other = await deal('Loser 2', { customFields: { source: 'web' } });
		const wrong = await world().runNode({ resource: 'deal', operation: 'markLost', dealId: byId(other.id), lostReason: '={{ "old" }}' }, world().pat());
		expect(wrong.error?.description).toContain('lostReason must be one of the company\'s lost reasons');
	});

	test('Add Contact, Update Contact Role and Remove Contact manage the deal\'s contacts', async () => {
		const d = await deal('Team', { customFields: { source: 'web' } });
		const added = await world().runNode({ resource: 'deal', operation: 'addContact', dealId: byId(d.id), contactId: byId(contacts.Ada), role: 'user', isPrimary: true }, world().pat());
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'POST', path: `/crm/deals/${d.id}/contacts`, query: '', headers: world().patHeaders(pat(), true), body: { contactId: contacts.Ada, role: 'user', isPrimary: true } },
		]);
		const link = added.items[0] as Deal;
		expect(link).toEqual(expect.objectContaining({ dealId: d.id, contactId: contacts.Ada, role: 'user', isPrimary: true }));
		await world().clearRequests();
		const twice = await world().runNode({ resource: 'deal', operation: 'addContact', dealId: byId(d.id), contactId: byId(contacts.Ada) }, world().pat());
		expect(twice.error?.description).toContain('Contact is already on this deal');
		await world().clearRequests();
		const changed = await world().runNode({ resource: 'deal', operation: 'updateContactRole', dealId: byId(d.id), dealContactId: link.id, role: 'decision_maker', isPrimary: false }, world().pat());
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'PATCH', path: `/crm/deals/${d.id}/contacts/${link.id}`, query: '', headers: world().patHeaders(pat(), true), body: { role: 'decision_maker', isPrimary: false } },
		]);
		expect(changed.items).toEqual([expect.objectContaining({ id: link.id, role: 'decision_maker', isPrimary: false })]);
		await world().clearRequests();
		const removed = await world().runNode({ resource: 'deal', operation: 'removeContact', dealId: byId(d.id), dealContactId: link.id }, world().pat());
		expect(removed.items).toEqual([{ deleted: true }]);
		expect((await world().requests()).map((request) => `${request.method} ${request.path} ${request.status}`)).toEqual([`DELETE /crm/deals/${d.id}/contacts/${link.id} 204`]);
	});

	test('Get Duplicate Candidates lists deals of the same name, read-only; Get Appointments lists the contacts\' meetings', async () => {
		const first = await deal('Globex expansion', { customFields: { source: 'web' }, contactId: contacts.Ada });
		const second = await deal('globex EXPANSION', { customFields: { source: 'fair' } });
		const candidates = await world().runNode({ resource: 'deal', operation: 'getDuplicateCandidates', dealId: byId(first.id) }, world().pat());
		expect((await world().requests()).map(wire)).toEqual([{ method: 'GET', path: `/crm/deals/${first.id}/duplicate-candidates`, query: '', headers: world().patHeaders(), body: null }]);
		expect(candidates.items).toEqual([{ deal: expect.objectContaining({ id: second.id }), score: 0.6, reasons: ['sameName'] }]);
		await world().clearRequests();
		const meetings = await world().runNode({ resource: 'deal', operation: 'getAppointments', dealId: byId(first.id) }, world().pat());
		expect((await world().requests()).map((request) => request.path)).toEqual([`/crm/deals/${first.id}/appointments`]);
		expect(meetings.items).toEqual([expect.objectContaining({ start: expect.stringContaining('2026-03-02T08:00') })]);
	});

	test('the deal list searches by name and shows the stage', async () => {
		const d = await deal('Searchable Initech', { customFields: { source: 'web' } });
		const found = await world().listSearch('searchDeals', { resource: 'deal', operation: 'get' }, world().pat(), 'initech');
		expect(found.result?.results).toEqual([{ name: 'Searchable Initech (Lead)', value: d.id }]);
		expect((await world().requests()).map((request) => request.query)).toEqual(['page=1&limit=100&search=initech']);
	});
});

describe('Deal: Get Notes and Get Communications', () => {
	test('list the deal\'s own notes (pinned first) and communications (the latest first), one item each', async () => {
		const d = await deal('Noted deal', { customFields: { source: 'web' } });
		const elsewhere = await deal('Other deal', { customFields: { source: 'fair' } });
		const plain = await addNote(world(), { dealId: d.id }, 'Budget approved');
		const pinned = await addNote(world(), { dealId: d.id }, 'Decision in May', true);
		await addNote(world(), { dealId: elsewhere.id }, 'Not this deal');
		const early = await logCall(world(), { dealId: d.id }, '2026-02-01T10:00:00Z', 'Pricing call');
		const late = await logCall(world(), { dealId: d.id }, '2026-02-20T10:00:00Z', 'Contract call');
		const notes = await world().runNode({ resource: 'deal', operation: 'getNotes', dealId: byId(d.id) }, world().pat());
		expect(notes.error).toBeUndefined();
		expect(notes.items.map((item) => [item.id, item.content, item.dealId])).toEqual([
			[pinned, 'Decision in May', d.id],
			[plain, 'Budget approved', d.id],
		]);
		const calls = await world().runNode({ resource: 'deal', operation: 'getCommunications', dealId: byId(d.id) }, world().pat());
		expect(calls.items).toEqual([expect.objectContaining({ id: late, body: 'Contract call', dealId: d.id }), expect.objectContaining({ id: early, body: 'Pricing call' })]);
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: `/crm/deals/${d.id}/notes`, query: '', headers: world().patHeaders(), body: null },
			{ method: 'GET', path: `/crm/deals/${d.id}/communications`, query: '', headers: world().patHeaders(), body: null },
		]);
	});
});
