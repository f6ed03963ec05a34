import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { byName } from '../../shared/fields';
import { getManyFields } from '../../shared/getMany';
import { jsonOf } from '../../shared/json';
import { userLocator } from '../../shared/locators';
import type { ParamSource, ResourceDefinitions } from '../../shared/types';
import { templateLocator } from '../locators';
import { queueTypeOptions } from './queue';
import { channelOptions } from '../../SchedulingPlatform/records';

/**
 * Meeting Type Template (api-reference §7, Beta): meeting settings a team reuses. Its name is `meetingInfo.name` (there
 * is no top-level name); Assign to User gives the user a meeting type made from the template.
 */

const TEMPLATES = '/v4/meeting-type-template';

/** The template's fields besides its meeting info, from a collection (Additional Fields, Update Fields). */
function templateFields(group: string): Record<string, ParamSource> {
	return {
		meetingOptions: { param: `${group}.meetingOptions`, convert: jsonOf('object') },
		spots: `${group}.spots`,
		locations: { param: `${group}.locations`, convert: jsonOf('array') },
		templateType: `${group}.templateType`,
		queueType: `${group}.queueType`,
	};
}

export const meetingTypeTemplateOperations: ResourceDefinitions = {
	assign: { method: 'POST', path: `${TEMPLATES}/assign/{templateId}`, pathParams: { templateId: 'templateId' }, body: { userId: { param: 'userId', check: ['required', 'uuid'] } } },
	create: {
		method: 'POST',
		path: `${TEMPLATES}/create`,
		body: {
			'meetingInfo.name': { param: 'name', check: 'required' },
			'meetingInfo.description': { param: 'description', sendEmpty: true },
			'meetingInfo.duration': 'duration',
			'meetingInfo.channel': 'channel',
			...templateFields('additionalFields'),
		},
		prepare: async ({ request }) => {
			// Whether a template needs a description as a meeting type does is not documented: it is always sent.
			(request.body!.meetingInfo as IDataObject).description ??= '';
		},
	},
	getAll: { method: 'GET', path: TEMPLATES, pagination: { style: 'none' } },
	update: {
		method: 'PATCH',
		path: `${TEMPLATES}/{id}`,
		pathParams: { id: 'templateId' },
		body: {
			'meetingInfo.name': 'updateFields.name',
			'meetingInfo.description': 'updateFields.description',
			'meetingInfo.duration': 'updateFields.duration',
			'meetingInfo.channel': 'updateFields.channel',
			...templateFields('updateFields'),
			lockedFields: 'updateFields.lockedFields',
		},
		check: (request) => (Object.keys(request.body ?? {}).length ? undefined : 'Add at least one field to change'),
	},
};

const show = (operation: string[]) => ({ show: { resource: ['meetingTypeTemplate'], operation } });

const nameField: INodeProperties = { displayName: 'Name', name: 'name', type: 'string', default: '', placeholder: 'e.g. Discovery call', description: 'The template\'s name, also the title of the meetings made from it (meetingInfo.name)' };
const descriptionField: INodeProperties = { displayName: 'Description', name: 'description', type: 'string', typeOptions: { rows: 3 }, default: '', description: 'What the booking page says about the meeting (may be empty)' };
const durationField: INodeProperties = { displayName: 'Duration (Minutes)', name: 'duration', type: 'number', typeOptions: { minValue: 5, maxValue: 480, numberPrecision: 0 }, default: 30, description: 'How long the meeting lasts, 5 to 480 minutes' };
const channelField: INodeProperties = { displayName: 'Channel', name: 'channel', type: 'options', options: channelOptions, default: 'phone', description: 'Where the meeting takes place' };

/** The options of both collections: the template's fields besides its meeting info. */
const templateOptions: INodeProperties[] = [
	{
		displayName: 'Booking Options (JSON)',
		name: 'meetingOptions',
		type: 'json',
		default: '{}',
		description: 'The booking options of the meeting types made from the template, as a meeting type\'s meetingOptions, e.g. {"allowedDurations": [15, 30], "allowAddingGuests": true}',
	},
	{
		displayName: 'Locations (JSON)',
		name: 'locations',
		type: 'json',
		default: '[]',
		description: 'The addresses of in-person meetings as a JSON array, as a meeting type\'s locations (several: the attendee chooses)',
	},
	{
		displayName: 'Queue Type',
		name: 'queueType',
		type: 'options',
		options: queueTypeOptions,
		default: 'simpleRoundRobin',
		description: 'How the queue of a team template picks hosts',
	},
	{ displayName: 'Spots', name: 'spots', type: 'number', typeOptions: { minValue: 1, maxValue: 100, numberPrecision: 0 }, default: 1, description: 'How many attendees can book the same time (group meetings)' },
	{
		displayName: 'Template Type',
		name: 'templateType',
		type: 'options',
		options: [
			{ name: 'Individual', value: 'individual', description: 'Assigned to users' },
			{ name: 'Team', value: 'team', description: 'Assigned to workspaces' },
		],
		default: 'individual',
		description: 'Whom the template is assigned to',
	},
];

export const meetingTypeTemplateProperties: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['meetingTypeTemplate'] } },
		options: [
			{
				name: 'Assign to User',
				value: 'assign',
				description: 'Needs the template and the user; returns the ID of the meeting type made for them',
				action: 'Assign a meeting type template to a user',
			},
			{ name: 'Create', value: 'create', description: 'Needs Name, Duration and Channel; returns the template', action: 'Create a meeting type template' },
			{ name: 'Get Many', value: 'getAll', description: 'Needs nothing; returns one item per template', action: 'Get many meeting type templates' },
			{ name: 'Update', value: 'update', description: 'Needs the template and the fields to change; returns the template', action: 'Update a meeting type template' },
		],
		default: 'getAll',
	},
	{ ...nameField, required: true, displayOptions: show(['create']) },
	{ ...durationField, displayOptions: show(['create']) },
	{ ...channelField, required: true, displayOptions: show(['create']) },
	{ ...descriptionField, displayOptions: show(['create']) },
	{ displayName: 'Additional Fields', name: 'additionalFields', type: 'collection', placeholder: 'Add Field', default: {}, displayOptions: show(['create']), options: templateOptions },
	{ displayName: 'Template', name: 'templateId', type: 'resourceLocator', required: true, default: { mode: 'list', value: '' }, displayOptions: show(['assign', 'update']), description: 'The template to use', ...templateLocator },
	{ displayName: 'User', name: 'userId', type: 'resourceLocator', required: true, default: { mode: 'list', value: '' }, displayOptions: show(['assign']), description: 'The user who gets a meeting type from the template', ...userLocator },
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: show(['update']),
		options: byName([
			...templateOptions,
			channelField,
			descriptionField,
			durationField,
			{
				displayName: 'Locked Fields',
				name: 'lockedFields',
				type: 'string',
				typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Field Key' },
				default: [],
				placeholder: 'e.g. duration',
				description: 'Keys of the fields the assigned users cannot change on their meeting types; replaces the list (none: nothing locked)',
			},
			{ ...nameField, description: 'The template\'s new name (meetingInfo.name)' },
		]),
	},
	...getManyFields('meetingTypeTemplate'),
];
