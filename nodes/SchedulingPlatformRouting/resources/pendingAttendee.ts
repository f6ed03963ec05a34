import type { INodeProperties } from 'n8n-workflow';

import { getManyFields } from '../../shared/getMany';
import { emailList } from '../../shared/inputChecks';
import type { ResourceDefinitions } from '../../shared/types';

/**
 * Pending Attendee (api-reference §7, Beta): people who started a booking form and did not finish (numeric IDs),
 * gone once their booking completes: the list to follow up abandoned bookings from.
 */

const PENDING = '/v4/attendee/pending';

export const pendingAttendeeOperations: ResourceDefinitions = {
	create: {
		method: 'POST',
		path: PENDING,
		body: {
			email: { param: 'email', check: 'email' },
			firstname: 'additionalFields.firstName',
			lastname: 'additionalFields.lastName',
			phone: { param: 'additionalFields.phone', check: 'phone' },
			language: 'additionalFields.language',
			timezone: { param: 'additionalFields.timezone', check: 'timezone' },
			notes: { param: 'additionalFields.notes', check: { maxLength: 5000 } },
			bringalongEmails: { param: 'additionalFields.guestEmails', convert: emailList(5) },
		},
		check: ({ body }) => (body!.email === undefined && body!.phone === undefined ? 'Email or Phone is required' : undefined),
		output: (answer) => [{ id: answer as number }],
	},
	getAll: { method: 'GET', path: PENDING, pagination: { style: 'none' } },
};

const show = (operation: string[]) => ({ show: { resource: ['pendingAttendee'], operation } });

export const pendingAttendeeProperties: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['pendingAttendee'] } },
		options: [
			{ name: 'Create', value: 'create', description: 'Record someone who started a booking form', action: 'Create a pending attendee' },
			{ name: 'Get Many', value: 'getAll', description: 'List the people who started a booking and did not finish, newest first', action: 'Get many pending attendees' },
		],
		default: 'getAll',
	},
	{ displayName: 'Email', name: 'email', type: 'string', placeholder: 'name@email.com', default: '', displayOptions: show(['create']), description: 'The person\'s email (or a Phone in Additional Fields)' },
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: show(['create']),
		options: [
			{ displayName: 'First Name', name: 'firstName', type: 'string', default: '' },
			{ displayName: 'Guest Emails', name: 'guestEmails', type: 'string', default: '', description: 'Guests the person wanted to bring, separated by commas (at most 5)' },
			{ displayName: 'Language', name: 'language', type: 'string', default: '', placeholder: 'e.g. en' },
			{ displayName: 'Last Name', name: 'lastName', type: 'string', default: '' },
			{ displayName: 'Notes', name: 'notes', type: 'string', typeOptions: { rows: 3 }, default: '' },
			{ displayName: 'Phone', name: 'phone', type: 'string', default: '', placeholder: '+4915112345678', description: 'In E.164 form' },
			{ displayName: 'Timezone', name: 'timezone', type: 'string', default: '', placeholder: 'e.g. Europe/Berlin' },
		],
	},
	...getManyFields('pendingAttendee'),
];
