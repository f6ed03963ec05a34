import type { IDataObject } from 'n8n-workflow';

import { asTenant, crmParent } from './harness/crm';
import { byId, useWorld, wire } from './harness/world';

/** Company → Get Summary, Get Tasks, Get Attachments; Contact → Get Attachments; Task → Get Summary. */

const world = useWorld();

const owner = () => world().seed.users.owner;
const member = () => world().seed.users.member;
const asOwner = (method: string, path: string, body?: unknown) => asTenant(world(), { token: world().seed.credentials.ownerPat }, method, path, body);

let acme: string;
let globex: string;

beforeAll(async () => {
	await world().control('POST', '/__sandbox/clock/set', { now: '2026-03-11T12:00:00Z' });
	acme = ((await asOwner('POST', '/crm/companies', { name: 'Acme Tools', industry: 'Software', size: '11-50' })) as IDataObject).id as string;
	globex = ((await asOwner('POST', '/crm/companies', { name: 'Globex', industry: 'Software', ownerId: member().id })) as IDataObject).id as string;
	await asOwner('POST', '/crm/companies', { name: 'Initech', size: '11-50' });
	const pipeline = (await asOwner('POST', '/crm/pipelines', { name: 'Summaries', stages: [{ name: 'New', color: '#1a73e8' }] })) as IDataObject;
	const stageId = (pipeline.stages as IDataObject[])[0].id;
	await asOwner('POST', '/crm/deals', { name: 'Tools order', pipelineId: pipeline.id, stageId, value: 400.5, crmCompanyId: acme });
	await asOwner('POST', '/crm/deals', { name: 'Globex order', pipelineId: pipeline.id, stageId, value: 99, crmCompanyId: globex });
	const task = (title: string, fields: IDataObject) => asOwner('POST', '/crm/tasks', { title, type: 'call', dueDate: '2026-03-20T09:00:00Z', ...fields });
	await task('Overdue call', { dueDate: '2026-03-10T09:00:00Z', crmCompanyId: acme, priority: 'high' });
	await task('Call today', { dueDate: '2026-03-11T15:00:00Z', crmCompanyId: acme });
	await task('Mail on Sunday', { type: 'email', dueDate: '2026-03-15T09:00:00Z' });
	await task('Member\'s follow-up', { type: 'follow_up', assigneeId: member().id, crmCompanyId: globex });
	const done = (await task('Done already', { type: 'todo' })) as IDataObject;
	await asOwner('PATCH', `/crm/tasks/${String(done.id)}/complete`);
	await world().clearRequests();
});

describe('Company', () => {
	test('Get Summary sends the owner filter and outputs the figures as one item', async () => {
		const { items, error } = await world().runNode({ resource: 'company', operation: 'getSummary', summaryFilters: { ownerId: byId(owner().id) } }, world().pat());
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: '/crm/companies/summary', query: `ownerId=${owner().id}`, headers: world().patHeaders(), body: null },
		]);
		expect(items).toEqual([{ totalCompanies: 2, totalDealsValue: 400.5, companiesWithDeals: 1, byIndustry: { Software: 1, unknown: 1 }, bySize: { '11-50': 2 } }]);
	});

	test('Get Tasks lists the company\'s tasks through the tasks route, one item each, the earliest due first', async () => {
		const { items } = await world().runNode({ resource: 'company', operation: 'getTasks', companyId: byId(acme) }, world().pat());
		expect((await world().requests()).map(wire)).toEqual([{ method: 'GET', path: `/crm/tasks/by-company/${acme}`, query: '', headers: world().patHeaders(), body: null }]);
		expect(items.map((task) => [task.title, task.crmCompanyId])).toEqual([
			['Overdue call', acme],
			['Call today', acme],
		]);
	});

	test('Get Attachments of a company and of a contact pass the entries through as the API gives them', async () => {
		const contactId = await crmParent(world(), 'contact', 'files@client.example');
		await world().control('POST', '/__sandbox/crm-attachments', { recordId: acme, attachment: { name: 'contract.pdf', mimeType: 'application/pdf' } });
		await world().control('POST', '/__sandbox/crm-attachments', { recordId: contactId, attachment: { fileName: 'cv.docx' } });
		const company = await world().runNode({ resource: 'company', operation: 'getAttachments', companyId: byId(acme) }, world().pat());
		const contact = await world().runNode({ resource: 'contact', operation: 'getAttachments', contactId: byId(contactId) }, world().pat());
		expect((await world().requests()).map((request) => `${request.method} ${request.path}`)).toEqual([`GET /crm/companies/${acme}/attachments`, `GET /crm/contacts/${contactId}/attachments`]);
		expect(company.items).toEqual([{ name: 'contract.pdf', mimeType: 'application/pdf' }]);
		expect(contact.items).toEqual([{ fileName: 'cv.docx' }]);
		const none = await world().runNode({ resource: 'company', operation: 'getAttachments', companyId: byId(globex) }, world().pat());
		expect(none.items).toEqual([]);
	});
});

describe('Task', () => {
	test('Get Summary of one assignee sends the assignee; without one, every task counts (on the API\'s clock)', async () => {
		const mine = await world().runNode({ resource: 'task', operation: 'getSummary', summaryFilters: { assigneeId: byId(owner().id) } }, world().pat());
		expect((await world().requests()).map(wire)).toEqual([{ method: 'GET', path: '/crm/tasks/summary', query: `assigneeId=${owner().id}`, headers: world().patHeaders(), body: null }]);
		expect(mine.items).toEqual([
			{
				totalTasks: 4,
				completedTasks: 1,
				overdueTasks: 1,
				dueTodayTasks: 1,
				dueThisWeekTasks: 2,
				byType: { call: 2, email: 1, todo: 1 },
				byPriority: { high: 1, medium: 3 },
			},
		]);
		const all = await world().runNode({ resource: 'task', operation: 'getSummary' }, world().pat());
		expect(all.items[0]).toEqual(expect.objectContaining({ totalTasks: 5, byType: { call: 2, email: 1, follow_up: 1, todo: 1 } }));
	});
});
