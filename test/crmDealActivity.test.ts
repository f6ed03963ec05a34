import type { IDataObject } from 'n8n-workflow';

import { byId, useWorld, wire } from './harness/world';

/**
 * Deal → Get Activity Log, Get Summary, Get Limits and Get Attachments: what the node sends, and what it outputs
 * of what the sandbox logged while deals moved through their stages.
 */

const world = useWorld();

const pat = () => world().seed.credentials.ownerPat;
const owner = () => world().seed.users.owner;

type Pipeline = IDataObject & { id: string; stages: Array<IDataObject & { id: string; name: string }> };

let sales: Pipeline;
let partners: Pipeline;
let renewal: IDataObject & { id: string };

async function api(method: string, path: string, body?: unknown, token = pat()): Promise<unknown> {
	return await world().call(method, path, token, body);
}

beforeAll(async () => {
	await world().control('POST', '/__sandbox/clock/set', { now: '2026-05-04T09:00:00Z' });
	const stage = (name: string, winProbability: number, flags: IDataObject = {}) => ({ name, color: '#1a73e8', winProbability, ...flags });
	sales = (await api('POST', '/crm/pipelines', { name: 'Field Sales', stages: [stage('Lead', 10), stage('Offer', 60), stage('Won', 100, { isWon: true }), stage('Lost', 0, { isLost: true })] })) as Pipeline;
	partners = (await api('POST', '/crm/pipelines', { name: 'Partners', stages: [stage('Intro', 20)] })) as Pipeline;
	renewal = (await api('POST', '/crm/deals', { name: 'Acme renewal', pipelineId: sales.id, stageId: sales.stages[0].id, value: 1000, currency: 'EUR' })) as IDataObject & { id: string };
	const at = async (minute: number) => await world().control('POST', '/__sandbox/clock/set', { now: `2026-05-04T09:0${minute}:00Z` });
	await at(1);
	await api('PATCH', `/crm/deals/${renewal.id}`, { stageId: sales.stages[1].id });
	await at(2);
	await api('PATCH', `/crm/deals/${renewal.id}`, { value: 1500, notes: 'Bigger team' });
	await at(3);
	await api('PATCH', `/crm/deals/${renewal.id}/won`, {});
});

const entry = (fields: IDataObject) => ({
	id: expect.any(String),
	dealId: renewal.id,
	changedById: owner().id,
	changedByName: 'Ada Admin',
	fromStageId: null,
	fromStageName: null,
	toStageId: null,
	toStageName: null,
	metadata: null,
	...fields,
});

describe('Deal activity log', () => {
	test('Get Activity Log sends its Limit as the API\'s limit and outputs the newest entries, one item each', async () => {
		const { items, error } = await world().runNode({ resource: 'deal', operation: 'getActivityLog', dealId: byId(renewal.id), limit: 2 }, world().pat());
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: `/crm/deals/${renewal.id}/activity`, query: 'limit=2', headers: world().patHeaders(), body: null },
		]);
		expect(items).toEqual([
			entry({
				activityType: 'stage_change',
				fromStageId: sales.stages[1].id,
				fromStageName: 'Offer',
				toStageId: sales.stages[2].id,
				toStageName: 'Won',
				metadata: { outcome: 'won' },
				changedAt: expect.stringMatching(/^2026-05-04T09:03:/),
			}),
			entry({
				activityType: 'field_update',
				metadata: { fields: { value: { from: 1000, to: 1500 }, notes: { from: null, to: 'Bigger team' } } },
				changedAt: expect.stringMatching(/^2026-05-04T09:02:/),
			}),
		]);
	});

	test('Return All asks for the API\'s most, 200, in one request (the log has no pages)', async () => {
		const { items } = await world().runNode({ resource: 'deal', operation: 'getActivityLog', dealId: byId(renewal.id), returnAll: true }, world().pat());
		expect((await world().requests()).map((request) => `${request.method} ${request.path}?${request.query}`)).toEqual([`GET /crm/deals/${renewal.id}/activity?limit=200`]);
		expect(items.map((item) => [item.activityType, item.toStageName])).toEqual([
			['stage_change', 'Won'],
			['field_update', null],
			['stage_change', 'Offer'],
		]);
	});

	test('a Limit above 200 is refused before sending, naming the field', async () => {
		const { error } = await world().runNode({ resource: 'deal', operation: 'getActivityLog', dealId: byId(renewal.id), limit: 201 }, world().pat());
		expect(error?.message).toBe('Limit must be a whole number from 1 to 200, not 201');
		expect(await world().requests()).toEqual([]);
	});
});

describe('Deal summary, limits and attachments', () => {
	test('Get Summary sends the owner and pipeline filters and outputs the figures as one item', async () => {
		await api('POST', '/crm/deals', { name: 'Open offer', pipelineId: sales.id, stageId: sales.stages[1].id, value: 200, currency: 'USD' });
		await api('POST', '/crm/deals', { name: 'Elsewhere', pipelineId: partners.id, stageId: partners.stages[0].id, value: 999 });
		const { items, error } = await world().runNode(
			{ resource: 'deal', operation: 'getSummary', summaryFilters: { ownerId: byId(owner().id), pipelineId: byId(sales.id) } },
			world().pat(),
		);
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: '/crm/deals/summary', query: `ownerId=${owner().id}&pipelineId=${sales.id}`, headers: world().patHeaders(), body: null },
		]);
		expect(items).toEqual([
			{
				totalDeals: 2,
				totalValue: 1700,
				weightedForecast: 120,
				openDeals: 1,
				wonDeals: 1,
				lostDeals: 0,
				currencies: ['EUR', 'USD'],
				displayCurrency: 'EUR',
				byStage: [
					{ stageId: sales.stages[2].id, stageName: 'Won', pipelineId: sales.id, count: 1, value: 1500 },
					{ stageId: sales.stages[1].id, stageName: 'Offer', pipelineId: sales.id, count: 1, value: 200 },
				],
			},
		]);
	});

	test('Get Summary without filters sends no query keys; an owner that is no UUID is refused before sending', async () => {
		const all = await world().runNode({ resource: 'deal', operation: 'getSummary' }, world().pat());
		expect((await world().requests()).map((request) => request.query)).toEqual(['']);
		expect(all.items[0].totalDeals).toBe(3);
		await world().clearRequests();
		const wrong = await world().runNode({ resource: 'deal', operation: 'getSummary', summaryFilters: { ownerId: '={{ "ada" }}' } }, world().pat());
		expect(wrong.error?.message).toBe('Owner must be an ID in UUID form, such as 6f1c2a7e-1b2c-4d5e-8f90-123456789abc; "ada" is not');
		expect(await world().requests()).toEqual([]);
	});

	test('Get Limits outputs the count and the plan\'s limit (-1: none)', async () => {
		const { items } = await world().runNode({ resource: 'deal', operation: 'getLimits' }, world().pat());
		expect((await world().requests()).map(wire)).toEqual([{ method: 'GET', path: '/crm/deals/limits', query: '', headers: world().patHeaders(), body: null }]);
		expect(items).toEqual([{ count: 3, limit: -1 }]);
	});

	test('Get Attachments outputs the entries as the API gives them, one item each', async () => {
		const files = [
			{ id: 'f-1', fileName: 'offer.pdf', size: 1024 },
			{ id: 'f-2', name: 'notes.txt', uploadedAt: '2026-05-01T10:00:00Z' },
		];
		for (const attachment of files) await world().control('POST', '/__sandbox/crm-attachments', { recordId: renewal.id, attachment });
		const { items, paired } = await world().runNode({ resource: 'deal', operation: 'getAttachments', dealId: byId(renewal.id) }, world().pat());
		expect((await world().requests()).map(wire)).toEqual([{ method: 'GET', path: `/crm/deals/${renewal.id}/attachments`, query: '', headers: world().patHeaders(), body: null }]);
		expect(items).toEqual(files);
		expect(paired).toEqual([0, 0]);
	});
});
