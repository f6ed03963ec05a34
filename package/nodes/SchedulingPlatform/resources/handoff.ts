import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { dateTime, endAfterStart } from '../../shared/dates';
import { declareResource } from '../../shared/declare';
import { locatorField, userLocator } from '../../shared/locators';
import { appointmentLocator } from '../locators';
import type { Converter, OperationCall } from '../../shared/types';
import { idList } from './booking';

/** The API's answer: the IDs handed off and the IDs not handed off because of a conflict (no reason; `conflicts` may be absent). */
interface BulkAnswer {
	success: string[];
	conflicts?: string[];
}

/** One item per appointment ID with its outcome, or one item with both lists (`conflicts` [] when the API leaves it out). */
function bulkItems(answer: unknown, call: OperationCall): IDataObject[] {
	const { success, conflicts = [] } = answer as BulkAnswer;
	if (call.read('output') === 'summary') return [{ ...(answer as IDataObject), conflicts }];
	return [...success.map((appointmentId) => ({ appointmentId, handedOff: true })), ...conflicts.map((appointmentId) => ({ appointmentId, handedOff: false }))];
}

/**
 * Appointment IDs picked one by one, each of which may also be "a, b" from an expression: any non-empty text each (the
 * reference shows no form of an appointment ID); none given: left out.
 */
const appointmentIds: Converter = (value) => {
	const ids = (value as unknown[]).flatMap((item) => String(item).split(',')).map((item) => item.trim()).filter(Boolean);
	return ids.length > 0 ? ids : undefined;
};

const appointmentId: INodeProperties = { ...locatorField('Appointment', 'appointmentId', 'The appointment to hand off. The list shows the newest first; type to search attendee names, emails and meeting names.', appointmentLocator), required: true };

const handOffTo: INodeProperties = {
	displayName: 'Hand Off To',
	name: 'handOffTo',
	type: 'options',
	options: [
		{ name: 'Queue', value: 'queue', description: 'A round robin queue picks the new host' },
		{ name: 'Queue Group', value: 'queueGroup', description: 'A group of queues picks the new host' },
		{ name: 'User', value: 'user', description: 'A colleague becomes the new host' },
	],
	default: 'user',
	description: 'Who gets the appointment. The new host must be free at its time.',
};

const userId: INodeProperties = { ...locatorField('User', 'userId', 'The new host, a user of the company', userLocator), required: true, displayOptions: { show: { handOffTo: ['user'] } } };

const queueId: INodeProperties = {
	displayName: 'Queue ID',
	name: 'queueId',
	type: 'string',
	required: true,
	default: '',
	displayOptions: { show: { handOffTo: ['queue'] } },
	description: 'ID of the round robin queue that picks the new host',
};

const queueGroupId: INodeProperties = {
	displayName: 'Queue Group ID',
	name: 'queueGroupId',
	type: 'string',
	required: true,
	default: '',
	displayOptions: { show: { handOffTo: ['queueGroup'] } },
	description: 'ID of the queue group that picks the new host',
};

const optionsAppointmentId: INodeProperties = locatorField('Appointment', 'appointmentId', 'The appointment to hand off: its hosts are left out, and users not free at its time come with "blocked": true. Empty: every user of the company.', appointmentLocator);

const filters: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options: [
		{
			displayName: 'Channel ID',
			name: 'channelId',
			type: 'string',
			default: '',
			description: 'Only users who handle this messenger channel',
		},
		{
			displayName: 'Online Only',
			name: 'isOnline',
			type: 'boolean',
			default: true,
			description: 'Whether to list only users who are online now',
		},
	],
};

const currentHostIds: INodeProperties = {
	displayName: 'Current Host Names or IDs',
	name: 'currentHostIds',
	type: 'multiOptions',
	typeOptions: { loadOptionsMethod: 'getUsers' },
	required: true,
	default: [],
	description:
		'The hosts whose appointments are handed off, such as a colleague on holiday or leaving. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

const start: INodeProperties = {
	displayName: 'Start',
	name: 'start',
	type: 'dateTime',
	required: true,
	default: '',
	description: 'Appointments that start at or after this moment are handed off. Without an offset it is read in the workflow\'s time zone.',
};

const end: INodeProperties = {
	displayName: 'End',
	name: 'end',
	type: 'dateTime',
	required: true,
	default: '',
	description: 'Appointments that start before this moment are handed off. Without an offset it is read in the workflow\'s time zone.',
};

const manyHandOffTo: INodeProperties = {
	displayName: 'Hand Off To',
	name: 'handOffTo',
	type: 'options',
	options: [
		{ name: 'One User', value: 'user', description: 'Every appointment goes to the same user' },
		{ name: 'Several Users (Round Robin)', value: 'roundRobin', description: 'The appointments go to the users in turn' },
	],
	default: 'user',
	description: 'Who gets the appointments. Each new host must be free at the appointment\'s time, else it is a conflict.',
};

const targetUserId: INodeProperties = { ...locatorField('User', 'targetUserId', 'The new host of every appointment', userLocator), required: true, displayOptions: { show: { handOffTo: ['user'] } } };

const targetUserIds: INodeProperties = {
	displayName: 'User Names or IDs',
	name: 'targetUserIds',
	type: 'multiOptions',
	typeOptions: { loadOptionsMethod: 'getUsers' },
	required: true,
	default: [],
	displayOptions: { show: { handOffTo: ['roundRobin'] } },
	description:
		'The new hosts, who get the appointments in turn (by start). Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

const output: INodeProperties = {
	displayName: 'Output',
	name: 'output',
	type: 'options',
	options: [
		{
			name: 'One Item per Appointment',
			value: 'perAppointment',
			description: 'Each item: appointmentId and handedOff (false for a conflict; the API gives no reason)',
		},
		{ name: 'Summary', value: 'summary', description: 'One item with the API\'s lists of appointment IDs: success and conflicts' },
	],
	default: 'perAppointment',
};

const additionalFields: INodeProperties = {
	displayName: 'Additional Fields',
	name: 'additionalFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [
		{
			displayName: 'Appointment IDs',
			name: 'appointmentIds',
			type: 'string',
			typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Appointment ID' },
			default: [],
			description: 'Hand off only these of the hosts\' appointments in the period; from an expression, a list or comma-separated text',
		},
		{
			displayName: 'Enable Availability Check',
			name: 'enableAvailabilityCheck',
			type: 'boolean',
			default: true,
			description: 'Whether round robin gives an appointment to the next user in turn who is free at its time, instead of making it a conflict when the user in turn is busy',
		},
		{
			displayName: 'Ignore Availability',
			name: 'ignoreAvailability',
			type: 'boolean',
			default: true,
			description: 'Whether to hand off appointments even when the new host is not free at their time',
		},
	],
};

/** Handoff V4 (api-reference §2): appointments moved to another host. */
export const { definitions: handoffOperations, properties: handoffProperties } = declareResource('handoff', {
	default: 'handOffAppointment',
	operations: {
		handOffAppointment: {
			option: {
				name: 'Hand Off Appointment',
				description: 'Needs the appointment and a user, queue or queue group; returns the appointment with its new host',
				action: 'Hand off an appointment to another host',
			},
			method: 'POST',
			path: '/v4/handoff/appointment',
			body: {
				appointmentId: 'appointmentId',
				userId: 'userId',
				queueId: 'queueId',
				queueGroupId: 'queueGroupId',
			},
			fields: [appointmentId, handOffTo, userId, queueId, queueGroupId],
		},
		getOptions: {
			option: {
				name: 'Get Handoff Options',
				description: 'Needs the appointment (optional); returns one item per user, blocked when not free at its time',
				action: 'Get the users an appointment can be handed to',
			},
			method: 'GET',
			path: '/v4/handoff/available-handoffs',
			query: { appointmentId: 'appointmentId', isOnline: 'filters.isOnline', channelId: 'filters.channelId' },
			output: (answer) => (answer as { users: IDataObject[] }).users,
			fields: [optionsAppointmentId, filters],
		},
		handOffMany: {
			option: {
				name: 'Hand Off Many',
				description: 'Needs the current hosts, Start, End and the users to hand to; returns one item per appointment, or a summary',
				action: 'Hand off the appointments of hosts in a period',
			},
			method: 'POST',
			path: '/v4/handoff/bulk',
			body: {
				userId: { param: 'currentHostIds', convert: idList },
				start: { param: 'start', convert: dateTime() },
				end: { param: 'end', convert: dateTime() },
				targetUserId: 'targetUserId',
				targetUserIds: { param: 'targetUserIds', convert: idList },
				appointmentIds: { param: 'additionalFields.appointmentIds', convert: appointmentIds },
				enableAvailabilityCheck: 'additionalFields.enableAvailabilityCheck',
				ignoreAvailability: 'additionalFields.ignoreAvailability',
			},
			check: (request) => endAfterStart(request.body, 'start', 'end', ['Start', 'End']),
			output: bulkItems,
			fields: [currentHostIds, start, end, manyHandOffTo, targetUserId, targetUserIds, output, additionalFields],
		},
	},
});
