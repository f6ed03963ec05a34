import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { declareResource } from '../../shared/declare';
import { byName } from '../../shared/fields';
import { returnAllFields } from '../../shared/getMany';
import { jsonOf } from '../../shared/json';
import { userLocator } from '../../shared/locators';
import type { ParamSource } from '../../shared/types';
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

const additionalFields: INodeProperties = { displayName: 'Additional Fields', name: 'additionalFields', type: 'collection', placeholder: 'Add Field', default: {}, options: templateOptions };
const template: INodeProperties = { displayName: 'Template', name: 'templateId', type: 'resourceLocator', required: true, default: { mode: 'list', value: '' }, description: 'The template to use', ...templateLocator };
const user: INodeProperties = { displayName: 'User', name: 'userId', type: 'resourceLocator', required: true, default: { mode: 'list', value: '' }, description: 'The user who gets a meeting type from the template', ...userLocator };

const updateFields: INodeProperties = {
	displayName: 'Update Fields',
	name: 'updateFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
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
};

export const { definitions: meetingTypeTemplateOperations, properties: meetingTypeTemplateProperties } = declareResource('meetingTypeTemplate', {
	default: 'getAll',
	operations: {
		assign: {
			option: {
				name: 'Assign to User',
				description: 'Needs the template and the user; returns the ID of the meeting type made for them',
				action: 'Assign a meeting type template to a user',
			},
			method: 'POST',
			path: `${TEMPLATES}/assign/{templateId}`,
			pathParams: { templateId: 'templateId' },
			body: { userId: { param: 'userId', check: ['required', 'uuid'] } },
			fields: [template, user],
		},
		create: {
			option: { name: 'Create', description: 'Needs Name, Duration and Channel; returns the template', action: 'Create a meeting type template' },
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
			fields: [{ ...nameField, required: true }, durationField, { ...channelField, required: true }, descriptionField, additionalFields],
		},
		getAll: {
			option: { name: 'Get Many', description: 'Needs nothing; returns one item per template', action: 'Get many meeting type templates' },
			method: 'GET',
			path: TEMPLATES,
			pagination: { style: 'none' },
			fields: returnAllFields(),
		},
		update: {
			option: { name: 'Update', description: 'Needs the template and the fields to change; returns the template', action: 'Update a meeting type template' },
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
			fields: [template, updateFields],
		},
	},
});
