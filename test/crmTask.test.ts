import type { IDataObject } from 'n8n-workflow';

import { crmParent, freshTenant } from './harness/crm';
import { byId, useWorld, wire } from './harness/world';

const world = useWorld();

const parent = (kind: 'contact' | 'deal' | 'company', name: string, companyId?: string) => crmParent(world(), kind, name, companyId);

const owner = () => world().seed.users.owner;
const ownerPat = () => world().seed.credentials.ownerPat;

/**
 * Tasks created directly through the API (with the owner's PAT unless given), in the order given, To Do and due on
 * 2026-03-31 unless the body says otherwise; the request log is cleared after.
 */
async function addTasks(bodies: IDataObject[], token = ownerPat()): Promise<IDataObject[]> {
	const created: IDataObject[] = [];
	for (const body of bodies) created.push((await world().api('POST', '/crm/tasks', token, { body: { type: 'todo', dueDate: '2026-03-31T12:00:00Z', ...body } })).body);
	await world().clearRequests();
	return created;
}

const taskFields = (extra: IDataObject = {}) => ({
	id: expect.any(String),
	companyId: world().seed.companies.acme.id,
	type: 'todo',
	description: null,
	priority: 'medium',
	dueDate: null,
	reminderAt: null,
	completedAt: null,
	assigneeId: owner().id,
	contactId: null,
	dealId: null,
	crmCompanyId: null,
	createdAt: expect.any(String),
	updatedAt: expect.any(String),
	...extra,
});

describe('CRM Task', () => {
	beforeEach(async () => {
		await world().control('POST', '/__sandbox/clock/set', { now: '2026-03-10T12:00:00Z' });
	});

	test('Create sends every field (dates read in the workflow time zone, locators by ID) and returns the task', async () => {
		const contactId = await parent('contact', 'lin@example.com');
		const dealId = await parent('deal', 'Big order');
		const crmCompanyId = await parent('company', 'Lin GmbH');
		const member = world().seed.users.member.id;
		const { items, error } = await world().runNode(
			{
				resource: 'task',
				operation: 'create',
				title: 'Call back about the offer',
				type: 'call',
				dueDate: '2026-03-12T09:00:00',
				additionalFields: {
					description: 'Ask about the budget',
					priority: 'high',
					reminderAt: '2026-03-12T08:30:00+01:00',
					assigneeId: byId(member),
					contactId: byId(contactId),
					dealId: byId(dealId),
					crmCompanyId: byId(crmCompanyId),
				},
			},
			world().ownerKey(),
			{ timezone: 'Europe/Berlin' },
		);
		expect(error).toBeUndefined();
		const body = {
			title: 'Call back about the offer',
			type: 'call',
			description: 'Ask about the budget',
			priority: 'high',
			dueDate: '2026-03-12T09:00:00+01:00',
			reminderAt: '2026-03-12T08:30:00+01:00',
			assigneeId: member,
			contactId,
			dealId,
			crmCompanyId,
		};
		expect((await world().requests()).map(wire)).toEqual([{ method: 'POST', path: '/crm/tasks', query: '', headers: world().keyHeaders(owner().id, true), body }]);
		expect(items).toEqual([taskFields(body)]);
	});

	test('Create with title, type and due date only: the acting user is the assignee, priority Medium', async () => {
		const { items } = await world().runNode({ resource: 'task', operation: 'create', title: 'Send the contract', type: 'follow_up', dueDate: '2026-03-12T09:00:00Z' }, world().pat());
		const body = { title: 'Send the contract', type: 'follow_up', dueDate: '2026-03-12T09:00:00Z' };
		expect((await world().requests()).map(wire)).toEqual([{ method: 'POST', path: '/crm/tasks', query: '', headers: world().patHeaders(ownerPat(), true), body }]);
		expect(items).toEqual([taskFields(body)]);
	});

	test('Create refuses before sending: an empty title, a due date that an expression leaves empty, a type that is not one of the five, a date that does not exist, a contact of another tenant (404 from the API)', async () => {
		const create = (fields: IDataObject) => world().runNode({ resource: 'task', operation: 'create', title: 'Pay', type: 'todo', dueDate: '2026-03-12T09:00:00Z', ...fields }, world().pat());
		expect((await create({ title: ' ' })).error?.message).toBe('Title is required');
		expect((await create({ dueDate: '={{ $json.due }}' })).error?.message).toBe('Due Date is required');
		expect((await create({ type: '={{ "chat" }}' })).error?.message).toBe('Type must be one of "call", "email", "follow_up", "meeting", "todo"; "chat" is not');
		expect((await create({ dueDate: '2026-02-30T10:00:00' })).error?.message).toBe('Due Date must be a real date; 2026-02-30 does not exist');
		expect(await world().requests()).toEqual([]);

		const foreign = await parent('contact', 'olga@other.example', world().seed.companies.other.id);
		const other = await create({ additionalFields: { contactId: byId(foreign) } });
		expect(other.error?.httpCode).toBe('404');
		expect(other.error?.description).toContain('Contact not found');
	});

	test('the API refuses a task without type and due date, and a type outside its list, in its validation words', async () => {
		const bare = await world().api('POST', '/crm/tasks', ownerPat(), { body: { title: 'Bare' } });
		expect(bare.body).toEqual({
			statusCode: 400,
			message: ['type must be a valid enum value', 'dueDate should not be empty', 'dueDate must be a valid ISO 8601 date string'],
			error: 'Bad Request',
		});
		const chat = await world().api('POST', '/crm/tasks', ownerPat(), { body: { title: 'Chat', type: 'chat', dueDate: '2026-03-12T09:00:00Z', priority: 'urgent' } });
		expect(chat.body).toEqual({
			statusCode: 400,
			message: ['type must be a valid enum value', 'priority must be one of the following values: low, medium, high'],
			error: 'Bad Request',
		});
		const [task] = await addTasks([{ title: 'Typed' }]);
		const update = await world().api('PATCH', `/crm/tasks/${task.id as string}`, ownerPat(), { body: { type: 'chat' } });
		expect(update.body).toEqual({ statusCode: 400, message: ['type must be a valid enum value'], error: 'Bad Request' });
	});

	test('Get reads one task; Update sends only the changed fields; an empty Update is refused; PATCH ignores completion fields', async () => {
		const [task] = await addTasks([{ title: 'Prepare the demo', dueDate: '2026-03-11T10:00:00Z' }]);
		const got = await world().runNode({ resource: 'task', operation: 'get', taskId: byId(task.id as string) }, world().pat());
		expect(got.items).toEqual([task]);

		const updated = await world().runNode(
			{ resource: 'task', operation: 'update', taskId: byId(task.id as string), updateFields: { title: 'Prepare the long demo', priority: 'low', dueDate: '2026-03-13T10:00:00Z' } },
			world().pat(),
		);
		const changes = { title: 'Prepare the long demo', priority: 'low', dueDate: '2026-03-13T10:00:00Z' };
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: `/crm/tasks/${task.id as string}`, query: '', headers: world().patHeaders(), body: null },
			{ method: 'PATCH', path: `/crm/tasks/${task.id as string}`, query: '', headers: world().patHeaders(ownerPat(), true), body: changes },
		]);
		expect(updated.items).toEqual([{ ...task, ...changes, updatedAt: expect.any(String) }]);
		await world().clearRequests();

		const nothing = await world().runNode({ resource: 'task', operation: 'update', taskId: byId(task.id as string), updateFields: {} }, world().pat());
		expect(nothing.error?.message).toBe('Add at least one field under Update Fields');
		expect(await world().requests()).toEqual([]);

		const sneaky = await world().api('PATCH', `/crm/tasks/${task.id as string}`, ownerPat(), { body: { completedAt: '2026-03-10T12:00:00Z', status: 'completed', title: 'Still open' } });
		expect(sneaky.body).toMatchObject({ title: 'Still open', completedAt: null });
	});

	test('Complete sets completedAt by the sandbox clock (a second Complete keeps the first); Reopen clears it', async () => {
		const [task] = await addTasks([{ title: 'Sign' }]);
		const taskId = byId(task.id as string);
		const done = await world().runNode({ resource: 'task', operation: 'complete', taskId }, world().ownerKey());
		const completedAt = done.items[0].completedAt as string;
		expect(completedAt).toMatch(/^2026-03-10T12:00:/);
		expect(done.items).toEqual([{ ...task, completedAt, updatedAt: completedAt }]);
		await world().control('POST', '/__sandbox/clock/advance', { seconds: 3600 });
		const again = await world().runNode({ resource: 'task', operation: 'complete', taskId }, world().ownerKey());
		expect(again.items[0]).toMatchObject({ completedAt, updatedAt: expect.stringMatching(/^2026-03-10T13:00:/) });
		const reopened = await world().runNode({ resource: 'task', operation: 'reopen', taskId }, world().ownerKey());
		expect(reopened.items[0]).toMatchObject({ completedAt: null, updatedAt: expect.stringMatching(/^2026-03-10T13:00:/) });
		const path = `/crm/tasks/${task.id as string}`;
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'PATCH', path: `${path}/complete`, query: '', headers: world().keyHeaders(), body: null },
			{ method: 'PATCH', path: `${path}/complete`, query: '', headers: world().keyHeaders(), body: null },
			{ method: 'PATCH', path: `${path}/uncomplete`, query: '', headers: world().keyHeaders(), body: null },
		]);
	});

	test('Delete outputs { deleted: true } from the 204; the task is gone (404)', async () => {
		const [task] = await addTasks([{ title: 'Obsolete' }]);
		const { items } = await world().runNode({ resource: 'task', operation: 'delete', taskId: byId(task.id as string) }, world().pat());
		expect(items).toEqual([{ deleted: true }]);
		const gone = await world().runNode({ resource: 'task', operation: 'get', taskId: byId(task.id as string) }, world().pat());
		expect(gone.error?.httpCode).toBe('404');
		expect(gone.error?.description).toContain('Task not found');
		expect((await world().requests()).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
			`DELETE /crm/tasks/${task.id as string} 204`,
			`GET /crm/tasks/${task.id as string} 404`,
		]);
	});

	test('Get Many pages with page and limit (Return All: pages of 100; Limit: exactly that many) and sends the filters', async () => {
		const tenant = await freshTenant(world());
		const contactId = await parent('contact', 'ann@example.com', tenant.companyId);
		const dueDates = Array.from({ length: 105 }, (_, index) => new Date(Date.UTC(2026, 3, 1, 0, 105 - index)).toISOString());
		const many = await addTasks(dueDates.map((dueDate, index) => ({ title: `Task ${index + 1}`, dueDate })), tenant.token);
		const all = await world().runNode({ resource: 'task', operation: 'getAll', returnAll: true }, world().pat(tenant.token));
		expect(all.items).toEqual([...many].reverse());
		const limited = await world().runNode({ resource: 'task', operation: 'getAll', returnAll: false, limit: 3 }, world().pat(tenant.token));
		expect(limited.items).toEqual([...many].reverse().slice(0, 3));
		expect((await world().requests()).map((r) => r.query)).toEqual(['page=1&limit=100', 'page=2&limit=100', 'page=1&limit=3']);
		await world().clearRequests();

		const [, mine] = await addTasks([
			{ title: 'Later', contactId, dueDate: '2026-05-01T10:00:00Z' },
			{ title: 'Soon', contactId, dueDate: '2026-04-01T10:00:00Z' },
		], tenant.token);
		const filtered = await world().runNode(
			{
				resource: 'task',
				operation: 'getAll',
				returnAll: true,
				filters: { status: 'open', contactId: byId(contactId), assigneeId: byId(tenant.userId), dueAfter: '2026-03-01T00:00:00', dueBefore: '2026-04-15T00:00:00' },
			},
			world().pat(tenant.token),
			{ timezone: 'Europe/Berlin' },
		);
		expect(filtered.items).toEqual([mine]);
		expect((await world().requests()).map(wire)).toEqual([
			{
				method: 'GET',
				path: '/crm/tasks',
				query: `status=open&assigneeId=${tenant.userId}&contactId=${contactId}&dueBefore=2026-04-15T00%3A00%3A00%2B02%3A00&dueAfter=2026-03-01T00%3A00%3A00%2B01%3A00&page=1&limit=100`,
				headers: world().patHeaders(tenant.token),
				body: null,
			},
		]);
	});

	test('Get Overdue and Get Upcoming list open tasks by due date on the sandbox clock; Limit cuts the list', async () => {
		const { token } = await freshTenant(world());
		const [late, done, soon, later, far] = await addTasks([
			{ title: 'Late', dueDate: '2026-03-09T12:00:00Z' },
			{ title: 'Late but done', dueDate: '2026-03-08T12:00:00Z' },
			{ title: 'Tomorrow', dueDate: '2026-03-11T12:00:00Z' },
			{ title: 'In three days', dueDate: '2026-03-13T11:00:00Z' },
			{ title: 'In ten days', dueDate: '2026-03-20T12:00:00Z' },
		], token);
		await world().api('PATCH', `/crm/tasks/${done.id as string}/complete`, token);
		await world().clearRequests();
		const overdue = await world().runNode({ resource: 'task', operation: 'getOverdue', returnAll: true }, world().pat(token));
		expect(overdue.items).toEqual([late]);
		const upcoming = await world().runNode({ resource: 'task', operation: 'getUpcoming', days: 3, returnAll: true }, world().pat(token));
		expect(upcoming.items).toEqual([soon, later]);
		const limited = await world().runNode({ resource: 'task', operation: 'getUpcoming', days: 30, returnAll: false, limit: 2 }, world().pat(token));
		expect(limited.items).toEqual([soon, later]);
		await world().control('POST', '/__sandbox/clock/advance', { seconds: 11 * 24 * 3600 });
		const laterOverdue = await world().runNode({ resource: 'task', operation: 'getOverdue', returnAll: true }, world().pat(token));
		expect(laterOverdue.items).toEqual([late, soon, later, far]);
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: '/crm/tasks/overdue', query: '', headers: world().patHeaders(token), body: null },
			{ method: 'GET', path: '/crm/tasks/upcoming', query: 'days=3', headers: world().patHeaders(token), body: null },
			{ method: 'GET', path: '/crm/tasks/upcoming', query: 'days=30', headers: world().patHeaders(token), body: null },
			{ method: 'GET', path: '/crm/tasks/overdue', query: '', headers: world().patHeaders(token), body: null },
		]);
		const zero = await world().runNode({ resource: 'task', operation: 'getUpcoming', days: 0, returnAll: true }, world().pat(token));
		expect(zero.error?.message).toBe('Days Ahead must be a whole number from 1 to 365, not 0');
	});

	test('The Task locator lists tasks by title, filtered in the node; another tenant sees none of them', async () => {
		const { token } = await freshTenant(world());
		const [call] = await addTasks([{ title: 'Call Lin', dueDate: '2026-03-11T12:00:00Z' }, { title: 'Write offer' }], token);
		const { result } = await world().listSearch('searchTasks', { resource: 'task', operation: 'get' }, world().pat(token), 'call');
		expect(result).toEqual({ results: [{ name: 'Call Lin (due 2026-03-11T12:00:00Z)', value: call.id }], paginationToken: undefined });
		const outsider = await world().mintPat(world().seed.users.outsider.id);
		const other = await world().listSearch('searchTasks', { resource: 'task', operation: 'get' }, world().pat(outsider.token));
		expect(other.result).toEqual({ results: [], paginationToken: undefined });
	});
});
