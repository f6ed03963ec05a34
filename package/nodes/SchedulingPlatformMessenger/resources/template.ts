import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { getManyFields } from '../../shared/getMany';
import type { ResourceDefinitions } from '../../shared/types';
import { TEMPLATES_PATH } from '../records';

/**
 * Template (api-reference §4): the company's message templates, the only messages the API accepts while a
 * conversation's 24-hour window is closed. The API answers one bare array: Status, Language and Limit are applied here.
 */

export const templateOperations: ResourceDefinitions = {
	getAll: {
		method: 'GET',
		path: TEMPLATES_PATH,
		values: { status: 'filters.status', language: 'filters.language' },
		perform: async (call) => {
			const { status, language } = call.values;
			const templates = ((await call.send(call.request)) ?? []) as IDataObject[];
			const matching = templates.filter(
				(template) => (!status || template.status === status) && (!language || String(template.language).toLowerCase() === String(language).toLowerCase()),
			);
			return call.limit === undefined ? matching : matching.slice(0, call.limit);
		},
	},
};

export const templateProperties: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['template'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'Needs nothing (Status and Language optional); returns one item per template with its text and parameters',
				action: 'Get many message templates',
			},
		],
		default: 'getAll',
	},
	...getManyFields('template'),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show: { resource: ['template'], operation: ['getAll'] } },
		options: [
			{ displayName: 'Language', name: 'language', type: 'string', default: '', placeholder: 'e.g. en', description: 'Only templates in this language (its code, as the template has it)' },
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				options: [
					{ name: 'Approved', value: 'approved', description: 'Can be sent' },
					{ name: 'Pending', value: 'pending', description: 'Waiting for approval' },
					{ name: 'Rejected', value: 'rejected', description: 'Cannot be sent' },
				],
				default: 'approved',
				description: 'Only templates with this status',
			},
		],
	},
];
