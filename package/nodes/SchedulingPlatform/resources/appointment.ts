import type { INodeProperties } from 'n8n-workflow';

import { clearSwitches } from '../../shared/clearSwitches';
import { dateTime, endAfterStart } from '../../shared/dates';
import { declareResource } from '../../shared/declare';
import { returnAllFields } from '../../shared/getMany';
import { locatorField, userLocator } from '../../shared/locators';
import { simplifyOption } from '../../shared/simplify';
import { appointmentLocator } from '../locators';
import { meetingTypeLocator } from '../records';

/**
 * What Simplify keeps of an appointment (api-reference §2 Appointment): when, whether it is cancelled, its meeting type
 * and meeting's name and length, its hosts, and each attendee with the CRM contact to link to.
 */
const SIMPLE_APPOINTMENT = [
	'id',
	'start',
	'end',
	'isCancelled',
	'meetingTypeId',
	'meetingInfo.name',
	'meetingInfo.duration',
	'hostIds',
	'attendees.id',
	'attendees.email',
	'attendees.firstname',
	'attendees.lastname',
	'attendees.phone',
	'attendees.contactId',
	'location',
	'createdAt',
];

const appointmentId: INodeProperties = { ...locatorField('Appointment', 'appointmentId', 'The appointment to work on. The list shows the newest first; type to search attendee names, emails and meeting names.', appointmentLocator), required: true };

const cancelFor: INodeProperties = {
	displayName: 'Cancel For',
	name: 'cancelFor',
	type: 'options',
	options: [
		{ name: 'All Attendees', value: 'all', description: 'Cancel the whole appointment' },
		{ name: 'One Attendee', value: 'one', description: 'Remove one attendee; the appointment is cancelled when nobody is left' },
	],
	default: 'all',
	description: 'Group appointments (meeting types with more than one spot) can lose one attendee and go on for the others',
};

const attendeeId: INodeProperties = {
	displayName: 'Attendee ID',
	name: 'attendeeId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
	displayOptions: { show: { cancelFor: ['one'] } },
	description: 'ID of the attendee to cancel, from the appointment\'s attendees list',
};

const additionalFields: INodeProperties = {
	displayName: 'Additional Fields',
	name: 'additionalFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [
		{
			displayName: 'Cancel Entire Series',
			name: 'cancelEntireSeries',
			type: 'boolean',
			default: false,
			description: 'Whether to cancel every appointment of the series this one belongs to (a recurring booking), not only this one',
		},
		{
			displayName: 'Reason',
			name: 'reason',
			type: 'string',
			typeOptions: { rows: 2 },
			default: '',
			description: 'Why it is cancelled, up to 500 characters; stored with the cancellation',
		},
	],
};

const newStart: INodeProperties = {
	displayName: 'New Start',
	name: 'newStart',
	type: 'dateTime',
	required: true,
	default: '',
	description: 'When the appointment starts now. Without an offset it is read in the workflow\'s time zone. The length stays the same.',
};

const ignoreAvailability: INodeProperties = {
	displayName: 'Ignore Availability',
	name: 'ignoreAvailability',
	type: 'boolean',
	default: false,
	description: 'Whether to move the appointment even when the host is not free at the new start',
};

const note: INodeProperties = {
	displayName: 'Note',
	name: 'note',
	type: 'string',
	typeOptions: { rows: 4 },
	default: '',
	description: 'Replaces the appointment\'s notes. Leave empty to remove them.',
};

const updateFields: INodeProperties = {
	displayName: 'Update Fields',
	name: 'updateFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [
		{
			displayName: 'Clear Summary',
			name: 'clearSummary',
			type: 'boolean',
			default: true,
			description: 'Whether to remove the stored summary (cannot be combined with a Summary text)',
		},
		{
			displayName: 'Clear Transcription',
			name: 'clearTranscription',
			type: 'boolean',
			default: true,
			description: 'Whether to remove the stored transcription (cannot be combined with a Transcription text)',
		},
		{
			displayName: 'Summary',
			name: 'summary',
			type: 'string',
			typeOptions: { rows: 4 },
			default: '',
			description: 'Short summary of the meeting, in Markdown',
		},
		{
			displayName: 'Transcription',
			name: 'transcription',
			type: 'string',
			typeOptions: { rows: 8 },
			default: '',
			description: 'Full transcription of the meeting, in Markdown',
		},
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
			displayName: 'End',
			name: 'end',
			type: 'dateTime',
			default: '',
			description: 'Only appointments that start before this moment',
		},
		locatorField('Meeting Type', 'meetingTypeId', 'Only appointments of this meeting type', meetingTypeLocator),
		{
			displayName: 'Search',
			name: 'search',
			type: 'string',
			default: '',
			placeholder: 'e.g. jane@example.com',
			description: 'Text to find in attendee names and emails and in the meeting name (not case-sensitive)',
		},
		{
			displayName: 'Sort By',
			name: 'sortBy',
			type: 'options',
			options: [
				{ name: 'Created At', value: 'appointment.createdAt' },
				{ name: 'Start', value: 'appointment.start' },
			],
			default: 'appointment.start',
		},
		{
			displayName: 'Sort Direction',
			name: 'sortDirection',
			type: 'options',
			options: [
				{ name: 'Ascending', value: 'ASC' },
				{ name: 'Descending', value: 'DESC' },
			],
			default: 'ASC',
		},
		{
			displayName: 'Start',
			name: 'start',
			type: 'dateTime',
			default: '',
			description: 'Only appointments that end after this moment',
		},
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			options: [
				{ name: 'Cancelled', value: 'cancelled' },
				{ name: 'Past', value: 'past', description: 'Not cancelled and already over' },
				{ name: 'Upcoming', value: 'upcoming', description: 'Not cancelled and not over yet' },
			],
			default: 'upcoming',
		},
		locatorField('User', 'userId', 'Only appointments this user hosts. Admins can pick any user of the company; members only themselves.', userLocator),
	],
};

/** Appointment V4 (api-reference §2). The list is page-0 paginated: { appointments, total }. */
export const { definitions: appointmentOperations, properties: appointmentProperties } = declareResource('appointment', {
	default: 'getAll',
	operations: {
		cancel: {
			option: {
				name: 'Cancel',
				description: 'Needs the appointment (and the attendee ID to cancel one of a group); returns the cancelled appointment',
				action: 'Cancel an appointment or one of its attendees',
			},
			method: 'POST',
			path: '/v4/appointment/{id}/cancel',
			pathParams: { id: 'appointmentId' },
			body: {
				cancelAll: { param: 'cancelFor', convert: (value) => (value === 'all' ? true : undefined) },
				attendeeId: { param: 'cancelFor', convert: (value, input) => (value === 'one' ? input.read('attendeeId') || undefined : undefined) },
				reason: { param: 'additionalFields.reason', check: { maxLength: 500 } },
				cancelEntireSeries: 'additionalFields.cancelEntireSeries',
			},
			check: (request) => (request.body?.cancelAll || request.body?.attendeeId ? undefined : 'Attendee ID is required when Cancel For is One Attendee'),
			fields: [appointmentId, cancelFor, attendeeId, additionalFields],
		},
		get: {
			option: { name: 'Get', description: 'Needs the appointment ID; returns the appointment with its attendees', action: 'Get an appointment by ID' },
			method: 'GET',
			path: '/v4/appointment/{id}',
			pathParams: { id: 'appointmentId' },
			simplify: SIMPLE_APPOINTMENT,
			fields: [appointmentId, simplifyOption],
		},
		getAll: {
			option: {
				name: 'Get Many',
				description: 'Filters by time, status, meeting type, host or attendee text; returns one item per appointment',
				action: 'Get many appointments',
			},
			method: 'GET',
			path: '/v4/appointment/paginated',
			query: {
				start: { param: 'filters.start', convert: dateTime() },
				end: { param: 'filters.end', convert: dateTime() },
				status: 'filters.status',
				meetingTypeId: 'filters.meetingTypeId',
				search: 'filters.search',
				sortBy: 'filters.sortBy',
				sortDirection: 'filters.sortDirection',
				userId: 'filters.userId',
			},
			pagination: { style: 'page0', itemsKey: 'appointments' },
			check: (request) => endAfterStart(request.qs, 'start', 'end', ['Start', 'End']),
			simplify: SIMPLE_APPOINTMENT,
			fields: [...returnAllFields(), simplifyOption, filters],
		},
		getToday: {
			option: {
				name: 'Get Today',
				description: 'Needs nothing: the acting user\'s day in their time zone; returns one item per appointment, by start',
				action: 'Get the appointments of today',
			},
			method: 'GET',
			path: '/v4/appointment/today',
			simplify: SIMPLE_APPOINTMENT,
			fields: [simplifyOption],
		},
		reschedule: {
			option: {
				name: 'Reschedule',
				description: 'Needs the appointment and New Start (the length stays); returns the moved appointment',
				action: 'Reschedule an appointment to a new start',
			},
			method: 'POST',
			path: '/v4/appointment/{id}/reschedule',
			pathParams: { id: 'appointmentId' },
			body: {
				start: { param: 'newStart', check: 'required', convert: dateTime() },
				ignoreAvailability: 'ignoreAvailability',
			},
			fields: [appointmentId, newStart, ignoreAvailability],
		},
		updateNotes: {
			option: {
				name: 'Update Notes',
				description: 'Needs the appointment and the Note (empty removes it); returns the appointment',
				action: 'Replace the notes of an appointment',
			},
			method: 'PATCH',
			path: '/v4/appointment/{id}/notes',
			pathParams: { id: 'appointmentId' },
			body: { note: { param: 'note', sendEmpty: true } },
			fields: [appointmentId, note],
		},
		updateTranscription: {
			option: {
				name: 'Update Transcription',
				description: 'Needs the appointment and a Transcription or Summary in Markdown, or a Clear switch; returns the appointment',
				action: 'Update the transcription of an appointment',
			},
			method: 'PATCH',
			path: '/v4/appointment/{id}/transcription',
			pathParams: { id: 'appointmentId' },
			body: { transcription: 'updateFields.transcription', summary: 'updateFields.summary' },
			...clearSwitches([
				{ key: 'transcription', field: 'updateFields.transcription', flag: 'updateFields.clearTranscription' },
				{ key: 'summary', field: 'updateFields.summary', flag: 'updateFields.clearSummary' },
			]),
			fields: [appointmentId, updateFields],
		},
	},
});
