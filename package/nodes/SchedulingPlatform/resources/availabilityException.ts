import type { INodeProperties } from 'n8n-workflow';

import { declareResource } from '../../shared/declare';
import { returnAllFields } from '../../shared/getMany';
import { dateTime, endAfterStart } from '../../shared/dates';
import { locatorField } from '../../shared/locators';
import { availabilityLocator } from '../locators';

const typeOptions = [
	{ name: 'Blocked Time', value: false, description: 'The time cannot be booked, even inside the weekly hours' },
	{ name: 'Extra Time', value: true, description: 'The time can be booked, even outside the weekly hours' },
];

const availabilityId: INodeProperties = { ...locatorField('Availability', 'availabilityId', 'The availability the exceptions belong to', availabilityLocator), required: true };

const exceptionId: INodeProperties = {
	displayName: 'Exception ID',
	name: 'exceptionId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 42',
	description: 'ID of the exception, as Create or Get Many returns it',
};

const type: INodeProperties = {
	displayName: 'Type',
	name: 'type',
	type: 'options',
	options: typeOptions,
	default: false,
	description: 'Whether the time is added to the weekly hours or blocked',
};

const start: INodeProperties = {
	displayName: 'Start',
	name: 'start',
	type: 'dateTime',
	required: true,
	default: '',
	description: 'When the exception begins. Without an offset, the time is read in the workflow\'s time zone.',
};

const end: INodeProperties = {
	displayName: 'End',
	name: 'end',
	type: 'dateTime',
	required: true,
	default: '',
	description: 'When the exception ends; must be later than the start',
};

const additionalFields: INodeProperties = {
	displayName: 'Additional Fields',
	name: 'additionalFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [
		{ displayName: 'Note', name: 'note', type: 'string', typeOptions: { rows: 3 }, default: '', description: 'Internal note' },
		{ displayName: 'Title', name: 'title', type: 'string', default: '', placeholder: 'e.g. Vacation', description: 'Short label of the exception' },
	],
};

const filters: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options: [
		{
			displayName: 'From',
			name: 'from',
			type: 'dateTime',
			default: '',
			description: 'Only exceptions that end after this moment',
		},
		{
			displayName: 'To',
			name: 'to',
			type: 'dateTime',
			default: '',
			description: 'Only exceptions that start before this moment',
		},
	],
};

const updateFields: INodeProperties = {
	displayName: 'Update Fields',
	name: 'updateFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [
		{
			displayName: 'End',
			name: 'end',
			type: 'dateTime',
			default: '',
			description: 'When the exception ends; must be later than the start',
		},
		{ displayName: 'Note', name: 'note', type: 'string', typeOptions: { rows: 3 }, default: '', description: 'Internal note' },
		{
			displayName: 'Start',
			name: 'start',
			type: 'dateTime',
			default: '',
			description: 'When the exception begins. Without an offset, the time is read in the workflow\'s time zone.',
		},
		{ displayName: 'Title', name: 'title', type: 'string', default: '', description: 'Short label of the exception' },
		{
			displayName: 'Type',
			name: 'type',
			type: 'options',
			options: typeOptions,
			default: false,
			description: 'Whether the time is added to the weekly hours or blocked',
		},
	],
};

/**
 * availability-exception (api-reference §2): extra time (`available: true`) or blocked time (`false`)
 * on one availability. Ids are numbers in the API and are sent as the text entered. Dates without an
 * offset are read in the workflow's time zone. The list is a bare array: Limit is applied by the node.
 */
export const { definitions: availabilityExceptionOperations, properties: availabilityExceptionProperties } = declareResource('availabilityException', {
	default: 'getAll',
	operations: {
		create: {
			option: {
				name: 'Create',
				description: 'Needs the availability, Type (extra or blocked time), Start and End; returns the exception',
				action: 'Create an availability exception',
			},
			method: 'POST',
			path: '/availability-exception',
			body: {
				availabilityId: { param: 'availabilityId', check: 'required' },
				available: 'type',
				start: { param: 'start', check: 'required', convert: dateTime() },
				end: { param: 'end', check: 'required', convert: dateTime() },
				title: 'additionalFields.title',
				note: 'additionalFields.note',
			},
			check: (request) => endAfterStart(request.body, 'start', 'end', ['Start', 'End']),
			fields: [availabilityId, type, start, end, additionalFields],
		},
		delete: {
			option: { name: 'Delete', description: 'Needs the exception ID; returns { deleted: true }', action: 'Delete an availability exception' },
			method: 'DELETE',
			path: '/availability-exception/{id}',
			pathParams: { id: 'exceptionId' },
			fields: [exceptionId],
		},
		getAll: {
			option: {
				name: 'Get Many',
				description: 'Needs the availability (From and To optional); returns one item per exception, by start',
				action: 'Get many availability exceptions',
			},
			method: 'GET',
			path: '/availability-exception',
			query: {
				availabilityId: { param: 'availabilityId', check: 'required' },
				from: { param: 'filters.from', convert: dateTime() },
				to: { param: 'filters.to', convert: dateTime() },
			},
			pagination: { style: 'none' },
			check: (request) => endAfterStart(request.qs, 'from', 'to', ['From', 'To']),
			fields: [availabilityId, ...returnAllFields(), filters],
		},
		update: {
			option: { name: 'Update', description: 'Needs the exception ID and the fields to change; returns the exception', action: 'Update an availability exception' },
			method: 'PATCH',
			path: '/availability-exception/{id}',
			pathParams: { id: 'exceptionId' },
			body: {
				available: 'updateFields.type',
				start: { param: 'updateFields.start', convert: dateTime() },
				end: { param: 'updateFields.end', convert: dateTime() },
				title: 'updateFields.title',
				note: 'updateFields.note',
			},
			check: (request) => endAfterStart(request.body, 'start', 'end', ['Start', 'End']),
			fields: [exceptionId, updateFields],
		},
	},
});
