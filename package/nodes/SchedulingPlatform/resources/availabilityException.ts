import type { INodeProperties } from 'n8n-workflow';

import { getManyFields } from '../../shared/getMany';
import { dateTime, endAfterStart } from '../../shared/dates';
import type { ResourceDefinitions } from '../../shared/types';
import { availabilityLocator } from '../locators';

/**
 * availability-exception (api-reference §2): extra time (`available: true`) or blocked time (`false`)
 * on one availability. Ids are numbers in the API and are sent as the text entered. Dates without an
 * offset are read in the workflow's time zone. The list is a bare array: Limit is applied by the node.
 */
export const availabilityExceptionOperations: ResourceDefinitions = {
	create: {
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
	},
	delete: { method: 'DELETE', path: '/availability-exception/{id}', pathParams: { id: 'exceptionId' } },
	getAll: {
		method: 'GET',
		path: '/availability-exception',
		query: {
			availabilityId: { param: 'availabilityId', check: 'required' },
			from: { param: 'filters.from', convert: dateTime() },
			to: { param: 'filters.to', convert: dateTime() },
		},
		pagination: { style: 'none' },
		check: (request) => endAfterStart(request.qs, 'from', 'to', ['From', 'To']),
	},
	update: {
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
	},
};

const typeOptions = [
	{ name: 'Blocked Time', value: false, description: 'The time cannot be booked, even inside the weekly hours' },
	{ name: 'Extra Time', value: true, description: 'The time can be booked, even outside the weekly hours' },
];

export const availabilityExceptionProperties: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['availabilityException'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Needs the availability, Type (extra or blocked time), Start and End; returns the exception',
				action: 'Create an availability exception',
			},
			{ name: 'Delete', value: 'delete', description: 'Needs the exception ID; returns { deleted: true }', action: 'Delete an availability exception' },
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'Needs the availability (From and To optional); returns one item per exception, by start',
				action: 'Get many availability exceptions',
			},
			{ name: 'Update', value: 'update', description: 'Needs the exception ID and the fields to change; returns the exception', action: 'Update an availability exception' },
		],
		default: 'getAll',
	},
	{
		displayName: 'Availability',
		name: 'availabilityId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		displayOptions: { show: { resource: ['availabilityException'], operation: ['create', 'getAll'] } },
		description: 'The availability the exceptions belong to',
		...availabilityLocator,
	},
	{
		displayName: 'Exception ID',
		name: 'exceptionId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 42',
		displayOptions: { show: { resource: ['availabilityException'], operation: ['delete', 'update'] } },
		description: 'ID of the exception, as Create or Get Many returns it',
	},
	{
		displayName: 'Type',
		name: 'type',
		type: 'options',
		options: typeOptions,
		default: false,
		displayOptions: { show: { resource: ['availabilityException'], operation: ['create'] } },
		description: 'Whether the time is added to the weekly hours or blocked',
	},
	{
		displayName: 'Start',
		name: 'start',
		type: 'dateTime',
		required: true,
		default: '',
		displayOptions: { show: { resource: ['availabilityException'], operation: ['create'] } },
		description: 'When the exception begins. Without an offset, the time is read in the workflow\'s time zone.',
	},
	{
		displayName: 'End',
		name: 'end',
		type: 'dateTime',
		required: true,
		default: '',
		displayOptions: { show: { resource: ['availabilityException'], operation: ['create'] } },
		description: 'When the exception ends; must be later than the start',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: { resource: ['availabilityException'], operation: ['create'] } },
		options: [
			{ displayName: 'Note', name: 'note', type: 'string', typeOptions: { rows: 3 }, default: '', description: 'Internal note' },
			{ displayName: 'Title', name: 'title', type: 'string', default: '', placeholder: 'e.g. Vacation', description: 'Short label of the exception' },
		],
	},
	...getManyFields('availabilityException'),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show: { resource: ['availabilityException'], operation: ['getAll'] } },
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
	},
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: { resource: ['availabilityException'], operation: ['update'] } },
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
	},
];
