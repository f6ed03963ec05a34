import type { INodeProperties } from 'n8n-workflow';

import { declareResource } from '../../shared/declare';
import { locatorField } from '../../shared/locators';
import { appointmentLocator } from '../locators';

/** Attendee V4 (api-reference §2). Guests and removal go through the attendee's appointment. */

const appointmentId: INodeProperties = { ...locatorField('Appointment', 'appointmentId', 'The appointment the attendee belongs to', appointmentLocator), required: true };

const attendeeId: INodeProperties = {
	displayName: 'Attendee ID',
	name: 'attendeeId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
	description: 'ID of the attendee, as listed in the attendees of an appointment',
};

const guestEmail: INodeProperties = {
	displayName: 'Guest Email',
	name: 'guestEmail',
	type: 'string',
	placeholder: 'e.g. colleague@example.com',
	required: true,
	default: '',
	description: 'Email address of the guest to invite; one guest per run',
};

const additionalFields: INodeProperties = {
	displayName: 'Additional Fields',
	name: 'additionalFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
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
};

const title: INodeProperties = {
	displayName: 'Title',
	name: 'title',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. Your appointment tomorrow',
	description: 'Subject line of the email',
};

const content: INodeProperties = {
	displayName: 'Content',
	name: 'content',
	type: 'string',
	typeOptions: { rows: 5 },
	required: true,
	default: '',
	description: 'Text of the email',
};

export const { definitions: attendeeOperations, properties: attendeeProperties } = declareResource('attendee', {
	default: 'get',
	operations: {
		addGuest: {
			option: {
				name: 'Add Guest',
				description: 'Needs the appointment, the attendee ID and the guest\'s email; returns the appointment',
				action: 'Add a guest to an attendee',
			},
			method: 'PATCH',
			path: '/v4/appointment/{id}/guest',
			pathParams: { id: 'appointmentId' },
			body: {
				attendeeId: { param: 'attendeeId', check: 'required' },
				email: { param: 'guestEmail', check: ['required', 'email'] },
			},
			fields: [appointmentId, attendeeId, guestEmail],
		},
		get: {
			option: {
				name: 'Get',
				description: 'Needs the attendee ID (from an appointment\'s attendees); returns the attendee with its appointment ID',
				action: 'Get an attendee by ID',
			},
			method: 'GET',
			path: '/v4/attendee/{id}',
			pathParams: { id: 'attendeeId' },
			fields: [attendeeId],
		},
		remove: {
			option: {
				name: 'Remove',
				description: 'Needs the appointment and the attendee ID; returns the appointment, cancelled when nobody is left',
				action: 'Remove an attendee from an appointment',
			},
			method: 'POST',
			path: '/v4/appointment/{id}/cancel',
			pathParams: { id: 'appointmentId' },
			body: {
				attendeeId: { param: 'attendeeId', check: 'required' },
				reason: { param: 'additionalFields.reason', check: { maxLength: 500 } },
			},
			fields: [appointmentId, attendeeId, additionalFields],
		},
		sendQuickMail: {
			option: {
				name: 'Send Quick Mail',
				description: 'Needs the attendee ID, Title and Content (5 mails per attendee in 5 minutes); returns { sent: true }',
				action: 'Send a quick mail to an attendee',
			},
			method: 'POST',
			path: '/v4/attendee/quick-mail',
			body: {
				attendeeId: { param: 'attendeeId', check: 'required' },
				title: { param: 'title', check: 'required' },
				content: { param: 'content', check: 'required' },
			},
			fields: [attendeeId, title, content],
		},
	},
});
