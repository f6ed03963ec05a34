import type { INodeProperties } from 'n8n-workflow';

import type { Converter, ResourceDefinitions } from '../types';

/**
 * The field of the chosen Assign Via, read through Assign Via: n8n cannot read a hidden parameter,
 * and a value left in the hidden one is not sent.
 */
const assignedVia =
	(choice: string, param: string): Converter =>
	(via, input) =>
		via === choice ? input.read(param) || undefined : undefined;

/** Handoff V4 (api-reference §2, designed): a lead handed to a human host with a prefilled booking link. */
export const handoffOperations: ResourceDefinitions = {
	create: {
		method: 'POST',
		path: '/v4/handoff',
		body: {
			email: { param: 'email', check: ['required', 'email'] },
			firstname: 'additionalFields.firstname',
			lastname: 'additionalFields.lastname',
			phone: { param: 'additionalFields.phone', check: 'phone' },
			note: 'additionalFields.note',
			meetingTypeId: { param: 'assignVia', convert: assignedVia('meetingType', 'meetingTypeId') },
			queueId: { param: 'assignVia', convert: assignedVia('queue', 'queueId') },
		},
		check: (request) =>
			request.body?.meetingTypeId === undefined && request.body?.queueId === undefined
				? 'Meeting Type (or Queue ID, when assigning via a queue) is required'
				: undefined,
	},
	get: { method: 'GET', path: '/v4/handoff/{id}', pathParams: { id: 'handoffId' } },
};

const show = (operation: string[], extra: Record<string, string[]> = {}) => ({
	show: { resource: ['handoff'], operation, ...extra },
});

export const handoffProperties: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['handoff'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Hand a lead to a human host with a booking link prefilled with the lead\'s details',
				action: 'Create a handoff',
			},
			{ name: 'Get', value: 'get', description: 'Get a handoff and whether the lead has booked', action: 'Get a handoff' },
		],
		default: 'create',
	},
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		required: true,
		default: '',
		displayOptions: show(['create']),
		description: 'Email address of the lead',
	},
	{
		displayName: 'Assign Via',
		name: 'assignVia',
		type: 'options',
		options: [
			{ name: 'Meeting Type', value: 'meetingType', description: 'The host of the meeting type gets the lead' },
			{ name: 'Queue', value: 'queue', description: 'A round robin queue picks the host' },
		],
		default: 'meetingType',
		displayOptions: show(['create']),
		description: 'How the host who gets the lead is chosen',
	},
	{
		displayName: 'Meeting Type',
		name: 'meetingTypeId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		displayOptions: show(['create'], { assignVia: ['meetingType'] }),
		description: 'The meeting type the lead books; its host gets the lead',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchMeetingTypes', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 3b9d6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f',
			},
		],
	},
	{
		displayName: 'Queue ID',
		name: 'queueId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 3b9d6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f',
		displayOptions: show(['create'], { assignVia: ['queue'] }),
		description: 'ID of the round robin queue that picks the host',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: show(['create']),
		options: [
			{ displayName: 'First Name', name: 'firstname', type: 'string', default: '' },
			{ displayName: 'Last Name', name: 'lastname', type: 'string', default: '' },
			{
				displayName: 'Note',
				name: 'note',
				type: 'string',
				typeOptions: { rows: 3 },
				default: '',
				description: 'Context for the host, such as what the lead asked about',
			},
			{
				displayName: 'Phone',
				name: 'phone',
				type: 'string',
				placeholder: 'e.g. +4915112345678',
				default: '',
				description: 'Phone number in international (E.164) form: + and country code, digits only',
			},
		],
	},
	{
		displayName: 'Handoff ID',
		name: 'handoffId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 3b9d6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f',
		displayOptions: show(['get']),
		description: 'ID of the handoff, as Create returns it',
	},
];
