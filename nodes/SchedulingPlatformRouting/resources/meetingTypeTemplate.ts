import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { byName } from '../../shared/fields';
import { getManyFields } from '../../shared/getMany';
import { userLocator } from '../../shared/locators';
import type { ParamSource, ResourceDefinitions } from '../../shared/types';
import { templateLocator } from '../locators';

/**
 * Meeting Type Template (api-reference §7, Beta): meeting settings a team reuses. Assign to User gives the user a
 * meeting type made from the template.
 */

const TEMPLATES = '/v4/meeting-type-template';

function infoFields(group: string): Record<string, ParamSource> {
	return {
		'meetingInfo.name': { param: `${group}.meetingName`, check: { maxLength: 200 } },
		'meetingInfo.duration': `${group}.duration`,
		'meetingInfo.description': { param: `${group}.description`, check: { maxLength: 5000 } },
		'meetingInfo.channel': `${group}.channel`,
	};
}

export const meetingTypeTemplateOperations: ResourceDefinitions = {
	assign: { method: 'POST', path: `${TEMPLATES}/assign/{templateId}`, pathParams: { templateId: 'templateId' }, body: { userId: { param: 'userId', check: ['required', 'uuid'] } } },
	create: {
		method: 'POST',
		path: `${TEMPLATES}/create`,
		body: { name: { param: 'name', check: ['required', { maxLength: 200 }] }, ...infoFields('additionalFields'), 'meetingInfo.duration': 'duration' },
		prepare: async ({ request }) => {
			// The meeting's title is the template's name unless Meeting Name says otherwise.
			const meetingInfo = request.body!.meetingInfo as IDataObject;
			meetingInfo.name ??= request.body!.name;
		},
	},
	getAll: { method: 'GET', path: TEMPLATES, pagination: { style: 'none' } },
	update: { method: 'PATCH', path: `${TEMPLATES}/{id}`, pathParams: { id: 'templateId' }, body: { name: { param: 'updateFields.name', check: { maxLength: 200 } }, ...infoFields('updateFields') } },
};

const show = (operation: string[]) => ({ show: { resource: ['meetingTypeTemplate'], operation } });

const infoOptions: INodeProperties[] = [
	{ displayName: 'Channel', name: 'channel', type: 'string', default: '', placeholder: 'e.g. zoom', description: 'Where the meeting takes place (a meeting type channel such as google, zoom, phone)' },
	{ displayName: 'Description', name: 'description', type: 'string', typeOptions: { rows: 3 }, default: '', description: 'What the booking page says about the meeting' },
	{ displayName: 'Meeting Name', name: 'meetingName', type: 'string', default: '', description: 'The meeting\'s title on the booking page (default: the template\'s name)' },
];
const durationField: INodeProperties = { displayName: 'Duration (Minutes)', name: 'duration', type: 'number', typeOptions: { minValue: 5, maxValue: 1440, numberPrecision: 0 }, default: 30, description: 'How long the meeting lasts' };

export const meetingTypeTemplateProperties: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['meetingTypeTemplate'] } },
		options: [
			{ name: 'Assign to User', value: 'assign', description: 'Give a user a meeting type made from the template', action: 'Assign a meeting type template to a user' },
			{ name: 'Create', value: 'create', description: 'Create a template', action: 'Create a meeting type template' },
			{ name: 'Get Many', value: 'getAll', description: 'List the templates', action: 'Get many meeting type templates' },
			{ name: 'Update', value: 'update', description: 'Change a template', action: 'Update a meeting type template' },
		],
		default: 'getAll',
	},
	{ displayName: 'Name', name: 'name', type: 'string', required: true, default: '', placeholder: 'e.g. Discovery call', displayOptions: show(['create']), description: 'The template\'s name' },
	{ ...durationField, displayOptions: show(['create']) },
	{ displayName: 'Additional Fields', name: 'additionalFields', type: 'collection', placeholder: 'Add Field', default: {}, displayOptions: show(['create']), options: infoOptions },
	{ displayName: 'Template', name: 'templateId', type: 'resourceLocator', required: true, default: { mode: 'list', value: '' }, displayOptions: show(['assign', 'update']), description: 'The template to use', ...templateLocator },
	{ displayName: 'User', name: 'userId', type: 'resourceLocator', required: true, default: { mode: 'list', value: '' }, displayOptions: show(['assign']), description: 'The user who gets a meeting type from the template', ...userLocator },
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: show(['update']),
		options: byName([...infoOptions, durationField, { displayName: 'Name', name: 'name', type: 'string', default: '', description: 'The template\'s name' }]),
	},
	...getManyFields('meetingTypeTemplate'),
];
