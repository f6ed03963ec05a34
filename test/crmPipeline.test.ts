import type { IDataObject } from 'n8n-workflow';

import { byId, useWorld, wire } from './harness/world';

const world = useWorld();

const pat = () => world().seed.credentials.ownerPat;
const fromList = (value: string) => ({ __rl: true, mode: 'list', value });

type Pipeline = IDataObject & { id: string; stages: Array<IDataObject & { id: string }> };

/** Creates a pipeline through the API with stages named as given (the last one won, then lost, when asked). */
async function pipeline(name: string, stages: string[]): Promise<Pipeline> {
	const body = { name, stages: stages.map((stage) => ({ name: stage, color: '#1a73e8', isWon: stage === 'Won', isLost: stage === 'Lost' })) };
	const created = await world().api('POST', '/crm/pipelines', pat(), { body });
	await world().clearRequests();
	return created.body as unknown as Pipeline;
}

async function deal(p: Pipeline, stageIndex: number, name = 'Deal'): Promise<IDataObject & { id: string }> {
	const created = await world().api('POST', '/crm/deals', pat(), { body: { name, pipelineId: p.id, stageId: p.stages[stageIndex].id } });
	await world().clearRequests();
	return created.body as unknown as IDataObject & { id: string };
}

async function refused(parameters: IDataObject, message: string, reads = 0): Promise<void> {
	const { error } = await world().runNode(parameters, world().pat());
	expect(error?.message).toBe(message);
	const requests = await world().requests();
	expect(requests.filter((request) => request.method !== 'GET')).toEqual([]);
	expect(requests).toHaveLength(reads);
}

describe('Pipeline', () => {
	test('Create sends the stages in their order, a win probability of 0 left out, and returns the pipeline', async () => {
		const { items, error } = await world().runNode(
			{
				resource: 'pipeline',
				operation: 'create',
				name: 'Sales',
				stages: {
					stage: [
						{ name: 'Lead', color: '#aaaaaa', isWon: false, isLost: false, winProbability: 10, rottingDays: 14 },
						{ name: 'Won', color: '#00aa00', isWon: true, isLost: false, winProbability: 100, rottingDays: 0 },
						{ name: 'Lost', color: '#aa0000', isWon: false, isLost: true, winProbability: 0, rottingDays: 0 },
					],
				},
				additionalFields: { isDefault: true },
			},
			world().pat(),
		);
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{
				method: 'POST',
				path: '/crm/pipelines',
				query: '',
				headers: world().patHeaders(pat(), true),
				body: {
					name: 'Sales',
					isDefault: true,
					stages: [
						{ name: 'Lead', color: '#aaaaaa', isWon: false, isLost: false, winProbability: 10, rottingDays: 14 },
						{ name: 'Won', color: '#00aa00', isWon: true, isLost: false, winProbability: 100 },
						{ name: 'Lost', color: '#aa0000', isWon: false, isLost: true },
					],
				},
			},
		]);
		expect(items).toEqual([
			expect.objectContaining({
				name: 'Sales',
				isDefault: true,
				stages: [
					expect.objectContaining({ name: 'Lead', order: 0, winProbability: 10, rottingDays: 14, pipelineId: items[0].id }),
					expect.objectContaining({ name: 'Won', order: 1, isWon: true, rottingDays: null }),
					expect.objectContaining({ name: 'Lost', order: 2, isLost: true, winProbability: null }),
				],
			}),
		]);
	});

	test('Get Many lists the pipelines (default first) with one GET; Limit cuts the bare list', async () => {
		const other = await pipeline('Partners', ['Intro']);
		const all = await world().runNode({ resource: 'pipeline', operation: 'getAll', returnAll: true }, world().pat());
		expect((await world().requests()).map(wire)).toEqual([{ method: 'GET', path: '/crm/pipelines', query: '', headers: world().patHeaders(), body: null }]);
		expect(all.items[0]).toEqual(expect.objectContaining({ isDefault: true }));
		expect(all.items.map((item) => item.id)).toContain(other.id);
		const one = await world().runNode({ resource: 'pipeline', operation: 'getAll', returnAll: false, limit: 1 }, world().pat());
		expect(one.items).toHaveLength(1);
	});

	test('Update renames and makes default; the others stop being default', async () => {
		const p = await pipeline('Renewals', ['Open']);
		const { items, error } = await world().runNode(
			{ resource: 'pipeline', operation: 'update', pipelineId: fromList(p.id), updateFields: { name: 'Renewals 2026', isDefault: true } },
			world().pat(),
		);
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'PATCH', path: `/crm/pipelines/${p.id}`, query: '', headers: world().patHeaders(pat(), true), body: { name: 'Renewals 2026', isDefault: true } },
		]);
		expect(items).toEqual([expect.objectContaining({ id: p.id, name: 'Renewals 2026', isDefault: true })]);
		const listed = (await world().api('GET', '/crm/pipelines', pat())).body as unknown as Pipeline[];
		expect(listed.filter((candidate) => candidate.isDefault).map((candidate) => candidate.id)).toEqual([p.id]);
	});

	test('Delete outputs deleted from the 204; a pipeline with deals gets the API\'s 409', async () => {
		const empty = await pipeline('Empty', ['Open']);
		const removed = await world().runNode({ resource: 'pipeline', operation: 'delete', pipelineId: byId(empty.id) }, world().pat());
		expect(removed.items).toEqual([{ deleted: true }]);
		expect((await world().requests()).map(wire)).toEqual([{ method: 'DELETE', path: `/crm/pipelines/${empty.id}`, query: '', headers: world().patHeaders(), body: null }]);
		const used = await pipeline('Used', ['Open']);
		await deal(used, 0);
		const blocked = await world().runNode({ resource: 'pipeline', operation: 'delete', pipelineId: byId(used.id) }, world().pat());
		expect(blocked.error?.description).toContain('Pipeline has deals: move or delete them first');
	});

	test('Add Stage sends name, color and the settings given; the stage comes last', async () => {
		const p = await pipeline('Growth', ['Lead']);
		const { items, error } = await world().runNode(
			{ resource: 'pipeline', operation: 'addStage', pipelineId: byId(p.id), stageName: 'Proposal', stageColor: '#123456', stageFields: { winProbability: 60 } },
			world().pat(),
		);
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'POST', path: `/crm/pipelines/${p.id}/stages`, query: '', headers: world().patHeaders(pat(), true), body: { name: 'Proposal', color: '#123456', winProbability: 60 } },
		]);
		expect(items[0].stages).toEqual([expect.objectContaining({ name: 'Lead', order: 0 }), expect.objectContaining({ name: 'Proposal', order: 1, winProbability: 60 })]);
	});

	test('Update Stage checks the stage against the pipeline (read once), then patches it', async () => {
		const p = await pipeline('Support', ['New', 'Done']);
		const { items, error } = await world().runNode(
			{ resource: 'pipeline', operation: 'updateStage', pipelineId: byId(p.id), stageId: p.stages[1].id, stageUpdateFields: { name: 'Closed', rottingDays: 7 } },
			world().pat(),
			{ input: [{}, {}] },
		);
		expect(error).toBeUndefined();
		const path = `/crm/pipelines/${p.id}/stages/${p.stages[1].id}`;
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: '/crm/pipelines', query: '', headers: world().patHeaders(), body: null },
			{ method: 'PATCH', path, query: '', headers: world().patHeaders(pat(), true), body: { name: 'Closed', rottingDays: 7 } },
			{ method: 'PATCH', path, query: '', headers: world().patHeaders(pat(), true), body: { name: 'Closed', rottingDays: 7 } },
		]);
		expect((items[0].stages as IDataObject[])[1]).toEqual(expect.objectContaining({ name: 'Closed', rottingDays: 7 }));
	});

	test('a stage of another pipeline picked by expression is refused before any write', async () => {
		const p = await pipeline('Mine', ['A', 'B']);
		const other = await pipeline('Theirs', ['X']);
		await refused(
			{ resource: 'pipeline', operation: 'updateStage', pipelineId: byId(p.id), stageId: `={{ "${other.stages[0].id}" }}`, stageUpdateFields: { name: 'Y' } },
			`Stage Name or ID "${other.stages[0].id}" is not a stage of the pipeline "Mine"`,
			1,
		);
	});

	test('Delete Stage sends moveToStageId; the stage\'s deals move there', async () => {
		const p = await pipeline('Moves', ['Old', 'New']);
		const d = await deal(p, 0);
		const { items, error } = await world().runNode(
			{ resource: 'pipeline', operation: 'deleteStage', pipelineId: byId(p.id), stageId: p.stages[0].id, moveToStageId: p.stages[1].id },
			world().pat(),
		);
		expect(error).toBeUndefined();
		expect(items).toEqual([{ deleted: true }]);
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: '/crm/pipelines', query: '', headers: world().patHeaders(), body: null },
			{ method: 'DELETE', path: `/crm/pipelines/${p.id}/stages/${p.stages[0].id}`, query: `moveToStageId=${p.stages[1].id}`, headers: world().patHeaders(), body: null },
		]);
		const moved = await world().api('GET', `/crm/deals/${d.id}`, pat());
		expect(moved.body.stageId).toBe(p.stages[1].id);
	});

	test('Delete Stage refuses moving deals to the stage deleted, and the sandbox requires moveToStageId', async () => {
		const p = await pipeline('Same', ['One', 'Two']);
		await refused(
			{ resource: 'pipeline', operation: 'deleteStage', pipelineId: byId(p.id), stageId: p.stages[0].id, moveToStageId: p.stages[0].id },
			'Move Deals To must be another stage than the one deleted',
		);
		const direct = await world().api('DELETE', `/crm/pipelines/${p.id}/stages/${p.stages[0].id}`, pat());
		expect(direct.body).toEqual({ statusCode: 400, message: ['moveToStageId should not be empty', 'moveToStageId must be a string'], error: 'Bad Request' });
	});

	test('Reorder Stages sends every stage in the new order; a missing stage is refused before the write', async () => {
		const p = await pipeline('Order', ['A', 'B', 'C']);
		const [a, b, c] = p.stages.map((stage) => stage.id);
		const { items, error } = await world().runNode(
			{ resource: 'pipeline', operation: 'reorderStages', pipelineId: byId(p.id), stageOrder: { stage: [{ stageId: c }, { stageId: a }, { stageId: b }] } },
			world().pat(),
		);
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)[1]).toEqual({
			method: 'PATCH',
			path: `/crm/pipelines/${p.id}/stages/reorder`,
			query: '',
			headers: world().patHeaders(pat(), true),
			body: { stageIds: [c, a, b] },
		});
		expect((items[0].stages as IDataObject[]).map((stage) => [stage.name, stage.order])).toEqual([['C', 0], ['A', 1], ['B', 2]]);
		await world().clearRequests();
		await refused(
			{ resource: 'pipeline', operation: 'reorderStages', pipelineId: byId(p.id), stageOrder: { stage: [{ stageId: a }, { stageId: b }] } },
			'Stages must list every stage of the pipeline exactly once',
			1,
		);
	});

	test('the pipeline list searches by name; the Stage dropdown lists the chosen pipeline\'s stages', async () => {
		const p = await pipeline('Enterprise Sales', ['Qualify', 'Won']);
		const found = await world().listSearch('searchPipelines', { resource: 'pipeline', operation: 'update' }, world().pat(), 'enterprise');
		expect(found.result?.results).toEqual([{ name: 'Enterprise Sales', value: p.id }]);
		const stages = await world().loadOptions('getPipelineStages', { resource: 'pipeline', operation: 'updateStage', pipelineId: byId(p.id) }, world().pat());
		expect(stages.error).toBeUndefined();
		expect(stages.result).toEqual([
			{ name: 'Qualify', value: p.stages[0].id, description: undefined },
			{ name: 'Won', value: p.stages[1].id, description: 'Won stage' },
		]);
	});
});
