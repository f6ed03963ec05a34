import type { INodeProperties } from 'n8n-workflow';

import type { ResourceDefinitions } from '../types';

/** Personal Page V4 (api-reference §2): the acting user's own booking page, listing their meeting types. */
export const personalPageOperations: ResourceDefinitions = {
	get: { method: 'GET', path: '/v4/personal-page/me' },
	update: {
		method: 'PATCH',
		path: '/v4/personal-page/me',
		body: {
			description: { param: 'updateFields.description', sendEmpty: true },
			primaryColor: 'updateFields.primaryColor',
			secondaryColor: 'updateFields.secondaryColor',
			useCustomColors: 'updateFields.useCustomColors',
			showAllMeetingTypes: 'updateFields.showAllMeetingTypes',
			meetingTypeOrder: 'updateFields.meetingTypeOrder',
		},
	},
};

export const personalPageProperties: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['personalPage'] } },
		options: [
			{ name: 'Get', value: 'get', description: 'Get the acting user\'s personal booking page', action: 'Get the personal page' },
			{
				name: 'Update',
				value: 'update',
				description: 'Change the text, colors and meeting types of the personal booking page',
				action: 'Update the personal page',
			},
		],
		default: 'get',
	},
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: { resource: ['personalPage'], operation: ['update'] } },
		options: [
			{
				displayName: 'Description',
				name: 'description',
				type: 'string',
				typeOptions: { rows: 3 },
				default: '',
				description: 'Text shown at the top of the page; empty clears it',
			},
			{
				displayName: 'Meeting Type Order',
				name: 'meetingTypeOrder',
				type: 'string',
				typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Meeting Type ID' },
				default: [],
				placeholder: 'e.g. 3b9d6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f',
				description: 'IDs of your meeting types in the order the page lists them. Replaces the current order.',
			},
			{
				displayName: 'Primary Color',
				name: 'primaryColor',
				type: 'color',
				default: '#1a73e8',
				description: 'Main color of the page, used when Use Custom Colors is on',
			},
			{
				displayName: 'Secondary Color',
				name: 'secondaryColor',
				type: 'color',
				default: '#ffffff',
				description: 'Second color of the page, used when Use Custom Colors is on',
			},
			{
				displayName: 'Show All Meeting Types',
				name: 'showAllMeetingTypes',
				type: 'boolean',
				default: true,
				description: 'Whether the page lists every enabled meeting type of the user',
			},
			{
				displayName: 'Use Custom Colors',
				name: 'useCustomColors',
				type: 'boolean',
				default: false,
				description: 'Whether the page uses the primary and secondary colors instead of the company\'s',
			},
		],
	},
];
