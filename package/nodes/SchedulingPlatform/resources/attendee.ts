import type { INodeProperties } from 'n8n-workflow';

import { appointmentLocator } from '../locators';
import type { ResourceDefinitions } from '../../shared/types';

/** Attendee V4 (api-reference §2). Guests and removal go through the attendee's appointment. */
export const attendeeOperations: ResourceDefinitions = {
	addGuest: {
		method: 'PATCH',
		path: '/v4/appointment/{id}/guest',
		pathParams: { id: 'appointmentId' },
		body: {
			attendeeId: { param: 'attendeeId', check: 'required' },
			email: { param: 'guestEmail', check: ['required', 'email'] },
		},
	},
	get: { method: 'GET', path: '/v4/attendee/{id}', pathParams: { id: 'attendeeId' } },
	remove: {
		method: 'POST',
		path: '/v4/appointment/{id}/cancel',
		pathParams: { id: 'appointmentId' },
		body: {
			attendeeId: { param: 'attendeeId', check: 'required' },
			reason: { param: 'additionalFields.reason', check: { maxLength: 500 } },
		},
	},
	sendQuickMail: {
		method: 'POST',
		path: '/v4/attendee/quick-mail',
		body: {
			attendeeId: { param: 'attendeeId', check: 'required' },
			title: { param: 'title', check: 'required' },
			content: { param: 'content', check: 'required' },
		},
	},
};

const show = (operation: string[]) => ({ show: { resource: ['attendee'], operation } });

export const attendeeProperties: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['attendee'] } },
		options: [
			{
				name: 'Add Guest',
				value: 'addGuest',
				description: 'Needs the appointment, the attendee ID and the guest\'s email; returns the appointment',
				action: 'Add a guest to an attendee',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Needs the attendee ID (from an appointment\'s attendees); returns the attendee with its appointment ID',
				action: 'Get an attendee by ID',
			},
			{
				name: 'Remove',
				value: 'remove',
				description: 'Needs the appointment and the attendee ID; returns the appointment, cancelled when nobody is left',
				action: 'Remove an attendee from an appointment',
			},
			{
				name: 'Send Quick Mail',
				value: 'sendQuickMail',
				description: 'Needs the attendee ID, Title and Content (5 mails per attendee in 5 minutes); returns { sent: true }',
				action: 'Send a quick mail to an attendee',
			},
		],
		default: 'get',
	},
	{
		displayName: 'Appointment',
		name: 'appointmentId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		displayOptions: show(['addGuest', 'remove']),
		description: 'The appointment the attendee belongs to',
		...appointmentLocator,
	},
	{
		displayName: 'Attendee ID',
		name: 'attendeeId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
		displayOptions: show(['addGuest', 'get', 'remove', 'sendQuickMail']),
		description: 'ID of the attendee, as listed in the attendees of an appointment',
	},
	{
		displayName: 'Guest Email',
		name: 'guestEmail',
		type: 'string',
		placeholder: 'e.g. colleague@example.com',
		required: true,
		default: '',
		displayOptions: show(['addGuest']),
		description: 'Email address of the guest to invite; one guest per run',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: show(['remove']),
		options: [
			{
				displayName: 'Reason',
				name: 'reason',
				type: 'string',
				typeOptions: { rows: 2 },
				default: '',
				description: 'Why the attendee is removed, up to 500 characters',
			},
		],
	},
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Your appointment tomorrow',
		displayOptions: show(['sendQuickMail']),
		description: 'Subject line of the email',
	},
	{
		displayName: 'Content',
		name: 'content',
		type: 'string',
		typeOptions: { rows: 5 },
		required: true,
		default: '',
		displayOptions: show(['sendQuickMail']),
		description: 'Text of the email',
	},
];
