import { randomUUID } from 'node:crypto';
import { tenantRecord, tenantRecords } from '../crm';
import { apiError } from '../errors';
import { Call, Group } from '../handler';
import { Pipeline, Stage } from '../store';

type StageInput = Omit<Stage, 'id' | 'pipelineId' | 'order'>;

function pathPipeline({ actor, params, store }: Call): Pipeline {
	return tenantRecord(store, actor, 'pipelines', params.id);
}

function pathStage(pipeline: Pipeline, stageId: string): Stage {
	const stage = pipeline.stages.find((candidate) => candidate.id === stageId);
	if (!stage) throw apiError(404, 'Stage not found');
	return stage;
}

function newStage(pipelineId: string, input: Partial<StageInput>, order: number): Stage {
	const { name = '', color = '', isWon = false, isLost = false, winProbability = null, rottingDays = null } = input;
	if (isWon && isLost) throw apiError(400, 'A stage cannot be both won and lost');
	return { id: randomUUID(), pipelineId, name, color, order, isWon, isLost, winProbability, rottingDays };
}

/** isDefault true makes every other pipeline of the tenant non-default. */
function makeDefault(call: Call, pipeline: Pipeline): void {
	for (const other of tenantRecords(call.store.pipelines, call.actor)) other.isDefault = other.id === pipeline.id;
}

function touched(call: Call, pipeline: Pipeline): Pipeline {
	pipeline.updatedAt = call.store.clock.iso();
	return pipeline;
}

/** CRM Pipelines: stages live inside their pipeline, in `order`. */
export const pipelines: Group = {
	/** The default pipeline first, then by creation. */
	listPipelines: ({ actor, store }) => tenantRecords(store.pipelines, actor).sort((a, b) => Number(b.isDefault) - Number(a.isDefault)),

	createPipeline: (call) => {
		const { name, isDefault, stages = [] } = call.body as { name: string; isDefault?: boolean; stages?: StageInput[] };
		const now = call.store.clock.iso();
		const first = tenantRecords(call.store.pipelines, call.actor).length === 0;
		const id = randomUUID();
		const pipeline: Pipeline = { id, companyId: call.actor.company.id, name, isDefault: false, stages: stages.map((stage, order) => newStage(id, stage, order)), createdAt: now, updatedAt: now };
		call.store.pipelines.set(id, pipeline);
		if (isDefault || first) makeDefault(call, pipeline);
		return pipeline;
	},

	updatePipeline: (call) => {
		const pipeline = pathPipeline(call);
		const { name, isDefault } = call.body as { name?: string; isDefault?: boolean };
		if (name !== undefined) pipeline.name = name;
		if (isDefault) makeDefault(call, pipeline);
		if (isDefault === false) pipeline.isDefault = false;
		return touched(call, pipeline);
	},

	deletePipeline: (call) => {
		const pipeline = pathPipeline(call);
		if ([...call.store.deals.values()].some((deal) => deal.pipelineId === pipeline.id)) {
			throw apiError(409, 'Pipeline has deals: move or delete them first');
		}
		call.store.pipelines.delete(pipeline.id);
	},

	createStage: (call) => {
		const pipeline = pathPipeline(call);
		pipeline.stages.push(newStage(pipeline.id, call.body as StageInput, pipeline.stages.length));
		return touched(call, pipeline);
	},

	updateStage: (call) => {
		const pipeline = pathPipeline(call);
		const stage = pathStage(pipeline, call.params.stageId);
		const merged = { ...stage, ...(call.body as Partial<StageInput>) };
		if (merged.isWon && merged.isLost) throw apiError(400, 'A stage cannot be both won and lost');
		Object.assign(stage, merged);
		return touched(call, pipeline);
	},

	/** The stage's deals move to moveToStageId (required by the contract), another stage of the same pipeline. */
	deleteStage: (call) => {
		const pipeline = pathPipeline(call);
		const stage = pathStage(pipeline, call.params.stageId);
		const target = pipeline.stages.find((candidate) => candidate.id === call.query.moveToStageId);
		if (!target || target.id === stage.id) throw apiError(400, 'moveToStageId must be another stage of the same pipeline');
		for (const deal of call.store.deals.values()) if (deal.stageId === stage.id) Object.assign(deal, { stageId: target.id, updatedAt: call.store.clock.iso() });
		pipeline.stages = pipeline.stages.filter((candidate) => candidate.id !== stage.id);
		pipeline.stages.forEach((candidate, order) => (candidate.order = order));
		touched(call, pipeline);
	},

	reorderStages: (call) => {
		const pipeline = pathPipeline(call);
		const { stageIds } = call.body as { stageIds: string[] };
		const known = new Set(pipeline.stages.map((stage) => stage.id));
		if (stageIds.length !== known.size || new Set(stageIds).size !== known.size || stageIds.some((id) => !known.has(id))) {
			throw apiError(400, 'stageIds must list every stage of the pipeline exactly once');
		}
		pipeline.stages = stageIds.map((id, order) => Object.assign(pathStage(pipeline, id), { order }));
		return touched(call, pipeline);
	},
};
