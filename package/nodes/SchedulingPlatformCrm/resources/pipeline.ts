import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { OperationCall } from '../../shared/types';
import { declareResource } from '../../shared/declare';
import { returnAllFields } from '../../shared/getMany';
import { locatorField } from '../../shared/locators';
import { pipelineLocator } from '../records';

/**
 * Pipeline (api-reference §3): a bare list with the stages embedded. A stage picked by expression is checked
 * against the pipeline's stages, read once per run (GET /crm/pipelines), before anything is sent.
 */

const PIPELINES = { method: 'GET' as const, path: '/crm/pipelines' };

/** The pipeline, from the list read once per run; an unknown pipeline stops the item. */
export async function pipelineOf(call: OperationCall, pipelineId: string): Promise<IDataObject> {
	const pipelines = (await call.lookup(PIPELINES)) as IDataObject[];
	const pipeline = pipelines.find((candidate) => candidate.id === pipelineId);
	if (!pipeline) call.fail(`Pipeline "${pipelineId}" was not found`, 'pick a pipeline from the list, or check the ID.');
	return pipeline;
}

export const stagesOf = (pipeline: IDataObject) => (pipeline.stages ?? []) as IDataObject[];

/** The pipeline's stages as a message lists them: "Lead (id), Won (id)". */
export const stageNames = (pipeline: IDataObject) => stagesOf(pipeline).map((stage) => `${String(stage.name)} (${String(stage.id)})`).join(', ');

/** The pipeline that has the stage, from the list read once per run; undefined when none has it. */
export async function pipelineOfStage(call: OperationCall, stageId: unknown): Promise<IDataObject | undefined> {
	const pipelines = (await call.lookup(PIPELINES)) as IDataObject[];
	return pipelines.find((pipeline) => stagesOf(pipeline).some((stage) => stage.id === stageId));
}

/** A stage ID (from the parameter named) must be a stage of the pipeline; unset passes. */
export async function assertStageOf(call: OperationCall, pipelineId: string, stageId: unknown, stageParam: string): Promise<void> {
	if (stageId === undefined) return;
	const pipeline = await pipelineOf(call, pipelineId);
	if (stagesOf(pipeline).some((stage) => stage.id === stageId)) return;
	call.fail(
		`${call.label(stageParam)} "${String(stageId)}" is not a stage of the pipeline "${String(pipeline.name)}"`,
		`pick one of its stages: ${stageNames(pipeline)}.`,
	);
}

const stageList = (stages: unknown) => ((stages as IDataObject | undefined)?.stage ?? []) as IDataObject[];

/** Stages of a new pipeline, in the order given; a win probability or rotting days of 0 (the default) is not sent. */
function newStages(stages: unknown): IDataObject[] {
	return stageList(stages).map((stage) => Object.fromEntries(Object.entries(stage).filter(([key, value]) => !(['winProbability', 'rottingDays'].includes(key) && !value))));
}

/** Reorder names every stage of the pipeline exactly once. */
async function checkReorder(call: OperationCall): Promise<void> {
	const pipelineId = String(call.read('pipelineId'));
	const known = stagesOf(await pipelineOf(call, pipelineId)).map((stage) => String(stage.id));
	const given = call.request.body!.stageIds as string[];
	const missing = known.filter((id) => !given.includes(id));
	const wrong = given.filter((id, index) => !known.includes(id) || given.indexOf(id) !== index);
	if (missing.length || wrong.length) {
		call.fail(
			'Stages must list every stage of the pipeline exactly once',
			`${missing.length ? `add ${missing.join(', ')}` : `remove ${wrong.join(', ')}`} in Stages.`,
		);
	}
}

/** Names of pipelines and stages: at most 100 characters. */
const NAME_LENGTH = { maxLength: 100 };

/** A stage dropdown: the stages of the chosen pipeline (Pipeline), else of the chosen deal's pipeline, else of every pipeline. */
export function stageField(name: string, displayName: string): INodeProperties {
	return {
		displayName,
		name,
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getPipelineStages', loadOptionsDependsOn: ['pipelineId.value', 'filters.pipelineId.value', 'dealId.value'] },
		default: '',
		description: 'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
	};
}

/** Settings of a stage, for Create (each stage), Add Stage and Update Stage. */
const stageSettings: INodeProperties[] = [
	{ displayName: 'Is Lost Stage', name: 'isLost', type: 'boolean', default: false, description: 'Whether deals in this stage count as lost' },
	{ displayName: 'Is Won Stage', name: 'isWon', type: 'boolean', default: false, description: 'Whether deals in this stage count as won' },
	{ displayName: 'Rotting Days', name: 'rottingDays', type: 'number', typeOptions: { minValue: 0, numberPrecision: 0 }, default: 0, description: 'Days after which an untouched deal in this stage counts as rotting' },
	{ displayName: 'Win Probability (%)', name: 'winProbability', type: 'number', typeOptions: { minValue: 0, maxValue: 100, numberPrecision: 0 }, default: 0, description: 'Chance, 0 to 100, that a deal in this stage is won' },
];

const stageName: INodeProperties = { displayName: 'Name', name: 'name', type: 'string', default: '', description: 'Name of the stage, at most 100 characters' };
const stageColor: INodeProperties = { displayName: 'Color', name: 'color', type: 'color', default: '#1a73e8', description: 'Color of the stage on the board' };
const nameAndColor = (required: boolean): INodeProperties[] => [
	{ ...stageName, required },
	{ ...stageColor, required, default: required ? '#1a73e8' : '' },
];

const name: INodeProperties = {
	displayName: 'Name',
	name: 'name',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. Sales',
	description: 'Name of the pipeline, at most 100 characters',
};

const stages: INodeProperties = {
	displayName: 'Stages',
	name: 'stages',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true, sortable: true },
	placeholder: 'Add Stage',
	default: {},
	description: 'Stages of the pipeline, in their order',
	options: [{ displayName: 'Stage', name: 'stage', values: [...nameAndColor(true), ...stageSettings] }],
};

const additionalFields: INodeProperties = {
	displayName: 'Additional Fields',
	name: 'additionalFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [{ displayName: 'Is Default', name: 'isDefault', type: 'boolean', default: false, description: 'Whether new deals go to this pipeline unless another is named; the other pipelines stop being the default' }],
};

const pipelineId: INodeProperties = { ...locatorField('Pipeline', 'pipelineId', 'Pipeline to work on', pipelineLocator), required: true };

const updateFields: INodeProperties = {
	displayName: 'Update Fields',
	name: 'updateFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [
		{ displayName: 'Is Default', name: 'isDefault', type: 'boolean', default: false, description: 'Whether new deals go to this pipeline unless another is named; on makes the other pipelines non-default' },
		{ displayName: 'Name', name: 'name', type: 'string', default: '', description: 'New name of the pipeline, at most 100 characters' },
	],
};

const stageFields: INodeProperties = {
	displayName: 'Additional Fields',
	name: 'stageFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: stageSettings,
};

const stageIdField: INodeProperties = { ...stageField('stageId', 'Stage Name or ID'), required: true };

const moveToStageId: INodeProperties = {
	...stageField('moveToStageId', 'Move Deals To Name or ID'),
	description: 'Another stage of the pipeline: the deleted stage\'s deals move there first. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	required: true,
};

const stageUpdateFields: INodeProperties = {
	displayName: 'Update Fields',
	name: 'stageUpdateFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [...nameAndColor(false), ...stageSettings],
};

const stageOrder: INodeProperties = {
	displayName: 'Stages',
	name: 'stageOrder',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true, sortable: true },
	placeholder: 'Add Stage',
	required: true,
	default: {},
	description: 'Every stage of the pipeline, in the new order',
	options: [
		{
			displayName: 'Stage',
			name: 'stage',
			values: [stageField('stageId', 'Stage Name or ID')],
		},
	],
};

export const { definitions: pipelineOperations, properties: pipelineProperties } = declareResource('pipeline', {
	default: 'getAll',
	operations: {
		create: {
			option: { name: 'Create', description: 'Needs Name and the stages in order; returns the pipeline', action: 'Create a pipeline with its stages' },
			method: 'POST',
			path: '/crm/pipelines',
			body: {
				name: { param: 'name', check: ['required', NAME_LENGTH] },
				isDefault: 'additionalFields.isDefault',
				stages: { param: 'stages', memberChecks: { name: NAME_LENGTH }, convert: newStages },
			},
			fields: [name, stages, additionalFields],
		},
		getAll: {
			option: { name: 'Get Many', description: 'Needs nothing; returns one item per pipeline with its stages, the default first', action: 'Get many pipelines' },
			method: 'GET',
			path: '/crm/pipelines',
			pagination: { style: 'none' },
			fields: returnAllFields(),
		},
		update: {
			option: { name: 'Update', description: 'Needs the pipeline and a new name or default flag; returns the pipeline', action: 'Update a pipeline' },
			method: 'PATCH',
			path: '/crm/pipelines/{id}',
			pathParams: { id: 'pipelineId' },
			body: { name: { param: 'updateFields.name', check: NAME_LENGTH }, isDefault: 'updateFields.isDefault' },
			fields: [pipelineId, updateFields],
		},
		delete: {
			option: { name: 'Delete', description: 'Needs a pipeline no deal uses; returns { deleted: true }', action: 'Delete a pipeline' },
			method: 'DELETE',
			path: '/crm/pipelines/{id}',
			pathParams: { id: 'pipelineId' },
			fields: [pipelineId],
		},
		addStage: {
			option: { name: 'Add Stage', description: 'Needs the pipeline, Name and Color; returns the pipeline with its stages', action: 'Add a stage to a pipeline' },
			method: 'POST',
			path: '/crm/pipelines/{id}/stages',
			pathParams: { id: 'pipelineId' },
			body: {
				name: { param: 'stageName', check: NAME_LENGTH },
				color: 'stageColor',
				isWon: 'stageFields.isWon',
				isLost: 'stageFields.isLost',
				winProbability: 'stageFields.winProbability',
				rottingDays: 'stageFields.rottingDays',
			},
			fields: [
				pipelineId,
				{ ...stageName, required: true, name: 'stageName', displayName: 'Stage Name', placeholder: 'e.g. Negotiation' },
				{ ...stageColor, required: true, name: 'stageColor', displayName: 'Stage Color' },
				stageFields,
			],
		},
		updateStage: {
			option: {
				name: 'Update Stage',
				description: 'Needs the pipeline, the stage and the fields to change; returns the pipeline',
				action: 'Update a stage of a pipeline',
			},
			method: 'PATCH',
			path: '/crm/pipelines/{id}/stages/{stageId}',
			pathParams: { id: 'pipelineId', stageId: 'stageId' },
			body: {
				name: { param: 'stageUpdateFields.name', check: NAME_LENGTH },
				color: 'stageUpdateFields.color',
				isWon: 'stageUpdateFields.isWon',
				isLost: 'stageUpdateFields.isLost',
				winProbability: 'stageUpdateFields.winProbability',
				rottingDays: 'stageUpdateFields.rottingDays',
			},
			prepare: async (call) => await assertStageOf(call, call.request.pathParams!.id, call.request.pathParams!.stageId, 'stageId'),
			fields: [pipelineId, stageIdField, stageUpdateFields],
		},
		deleteStage: {
			option: {
				name: 'Delete Stage',
				description: 'Needs the pipeline, the stage and the stage its deals move to; returns { deleted: true }',
				action: 'Delete a stage of a pipeline',
			},
			method: 'DELETE',
			path: '/crm/pipelines/{id}/stages/{stageId}',
			pathParams: { id: 'pipelineId', stageId: 'stageId' },
			query: { moveToStageId: { param: 'moveToStageId', check: 'required' } },
			check: (request) => (request.qs.moveToStageId === request.pathParams!.stageId ? 'Move Deals To must be another stage than the one deleted' : undefined),
			prepare: async (call) => {
				const { id, stageId } = call.request.pathParams!;
				await assertStageOf(call, id, stageId, 'stageId');
				await assertStageOf(call, id, call.request.qs.moveToStageId, 'moveToStageId');
			},
			fields: [pipelineId, stageIdField, moveToStageId],
		},
		reorderStages: {
			option: {
				name: 'Reorder Stages',
				description: 'Needs the pipeline and every stage in the new order; returns the pipeline',
				action: 'Reorder the stages of a pipeline',
			},
			method: 'PATCH',
			path: '/crm/pipelines/{id}/stages/reorder',
			pathParams: { id: 'pipelineId' },
			body: { stageIds: { param: 'stageOrder', check: 'required', convert: (value) => stageList(value).map((stage) => stage.stageId) } },
			prepare: checkReorder,
			fields: [pipelineId, stageOrder],
		},
	},
});
