import type { INodeProperties } from 'n8n-workflow';

import { byName } from '../../shared/fields';
import { declareResource } from '../../shared/declare';
import { returnAllFields } from '../../shared/getMany';
import { dateTime } from '../../shared/dates';
import { parentIds, parentProperties } from '../parents';

/**
 * Communication (api-reference §3 Notes and communications): a call, email, SMS or messenger conversation
 * logged on exactly one contact, deal or company. Get Many lists those of a contact or company (a bare array,
 * the latest first: Limit is applied by the node); a deal's are under Deal > Get Communications.
 */

const communicationPath = '/crm/communications/{id}';
const communicationId = { id: 'communicationId' };

const typeField: INodeProperties = {
	displayName: 'Type',
	name: 'type',
	type: 'options',
	options: [
		{ name: 'Call', value: 'call' },
		{ name: 'Email', value: 'email' },
		{ name: 'Messenger', value: 'messenger' },
		{ name: 'SMS', value: 'sms' },
	],
	default: 'call',
	description: 'How the contact was reached',
};

const directionField: INodeProperties = {
	displayName: 'Direction',
	name: 'direction',
	type: 'options',
	options: [
		{ name: 'Inbound', value: 'inbound', description: 'They reached out' },
		{ name: 'Outbound', value: 'outbound', description: 'You reached out' },
	],
	default: 'outbound',
	description: 'Who started the communication',
};

const bodyField: INodeProperties = {
	displayName: 'Body',
	name: 'body',
	type: 'string',
	typeOptions: { rows: 4 },
	default: '',
	description: 'The message text, or notes about the call',
};

const occurredAtField: INodeProperties = {
	displayName: 'Occurred At',
	name: 'occurredAt',
	type: 'dateTime',
	default: '',
	description: 'When it happened. Without an offset, the time is read in the workflow\'s time zone.',
};

const detailFields: INodeProperties[] = [
	{
		displayName: 'Duration (Seconds)',
		name: 'durationSeconds',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 0 },
		default: 0,
		description: 'How long the call lasted',
	},
	{
		displayName: 'Outcome',
		name: 'outcome',
		type: 'options',
		options: [
			{ name: 'Busy', value: 'busy' },
			{ name: 'Connected', value: 'connected' },
			{ name: 'No Answer', value: 'no_answer' },
			{ name: 'Voicemail', value: 'voicemail' },
		],
		default: 'connected',
		description: 'How the call went',
	},
	{ displayName: 'Subject', name: 'subject', type: 'string', default: '', description: 'Subject line (for emails)' },
];

const communicationIdField: INodeProperties = {
	displayName: 'Communication ID',
	name: 'communicationId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 3b9d6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f',
	description: 'ID of the communication, as Log or Get Many returns it',
};

const additionalFields: INodeProperties = {
	displayName: 'Additional Fields',
	name: 'additionalFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [
		...detailFields.slice(0, 1),
		{ displayName: 'External ID', name: 'externalId', type: 'string', default: '', description: 'The ID of the message or call in another system, to find it again' },
		...detailFields.slice(1),
	],
};

const updateFields: INodeProperties = {
	displayName: 'Update Fields',
	name: 'updateFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: byName([bodyField, directionField, ...detailFields, occurredAtField, typeField]),
};

export const { definitions: communicationOperations, properties: communicationProperties } = declareResource('communication', {
	default: 'log',
	operations: {
		delete: {
			option: { name: 'Delete', description: 'Needs the communication ID; deletes it for good and returns { deleted: true }', action: 'Delete a communication' },
			method: 'DELETE',
			path: communicationPath,
			pathParams: communicationId,
			fields: [communicationIdField],
		},
		getAll: {
			option: {
				name: 'Get Many',
				description: 'Needs a contact or company; returns one item per communication, the latest first',
				action: 'Get many communications',
			},
			method: 'GET',
			path: '/crm/communications',
			query: { contactId: 'contactId', crmCompanyId: 'crmCompanyId' },
			pagination: { style: 'none' },
			fields: [...parentProperties(['contact', 'company'], 'whose communications to list'), ...returnAllFields()],
		},
		log: {
			option: {
				name: 'Log',
				description: 'Needs Type, Direction, Body, Occurred At and one contact, deal or company; returns the communication',
				action: 'Log a call or message on a CRM record',
			},
			method: 'POST',
			path: '/crm/communications',
			body: {
				type: 'type',
				direction: 'direction',
				body: { param: 'body', check: 'required' },
				occurredAt: { param: 'occurredAt', check: 'required', convert: dateTime() },
				subject: 'additionalFields.subject',
				durationSeconds: 'additionalFields.durationSeconds',
				outcome: 'additionalFields.outcome',
				externalId: 'additionalFields.externalId',
				...parentIds,
			},
			fields: [
				...parentProperties(['contact', 'deal', 'company'], 'the communication is logged on'),
				typeField,
				directionField,
				{ ...bodyField, required: true },
				{ ...occurredAtField, required: true },
				additionalFields,
			],
		},
		update: {
			option: { name: 'Update', description: 'Needs the communication ID and the fields to change; returns the communication', action: 'Update a communication' },
			method: 'PATCH',
			path: communicationPath,
			pathParams: communicationId,
			body: {
				type: 'updateFields.type',
				direction: 'updateFields.direction',
				subject: 'updateFields.subject',
				body: 'updateFields.body',
				durationSeconds: 'updateFields.durationSeconds',
				outcome: 'updateFields.outcome',
				occurredAt: { param: 'updateFields.occurredAt', convert: dateTime() },
			},
			check: (request, input) => (Object.keys(request.body ?? {}).length ? undefined : `Add at least one field under ${input.label('updateFields')}`),
			fields: [communicationIdField, updateFields],
		},
	},
});
