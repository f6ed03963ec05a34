import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { declareResource } from '../../shared/declare';
import { returnAllFields } from '../../shared/getMany';
import { TEMPLATES_PATH } from '../records';

/**
 * Template (api-reference §4): the company's message templates, the only messages the API accepts while a
 * conversation's 24-hour window is closed. The API answers one bare array: Status, Language and Limit are applied here.
 */

const filters: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
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
};

export const { definitions: templateOperations, properties: templateProperties } = declareResource('template', {
	default: 'getAll',
	operations: {
		getAll: {
			option: {
				name: 'Get Many',
				description: 'Needs nothing (Status and Language optional); returns one item per template with its text and parameters',
				action: 'Get many message templates',
			},
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
			fields: [...returnAllFields(), filters],
		},
	},
});
