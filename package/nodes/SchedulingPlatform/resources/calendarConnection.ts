import type { INodeProperties } from 'n8n-workflow';

import { declareResource } from '../../shared/declare';
import { returnAllFields } from '../../shared/getMany';
import { locatorField, userLocator } from '../../shared/locators';

/** Whose connections an operation handles: on Get Many a filter, on Get Connect URL and Update a field of its own. */
const userField: INodeProperties = locatorField('User', 'userId', 'Whose calendar connections these are (admins only: any user of the company). Empty: the acting user\'s own.', userLocator);

const connectionId: INodeProperties = {
	displayName: 'Connection ID',
	name: 'connectionId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 3b9d6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f',
	description: 'ID of the calendar connection, as Get Many returns it',
};

const provider: INodeProperties = {
	displayName: 'Provider',
	name: 'provider',
	type: 'options',
	options: [
		{ name: 'Google Calendar', value: 'google' },
		{ name: 'Outlook Calendar', value: 'outlook' },
	],
	default: 'google',
	description: 'Calendar service to connect',
};

const redirectUrl: INodeProperties = {
	displayName: 'Redirect URL',
	name: 'redirectUrl',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. https://example.com/calendar-connected',
	description: 'Page the user is sent back to after connecting the calendar',
};

const setAsCalendarSync: INodeProperties = {
	displayName: 'Set as Calendar Sync',
	name: 'setAsCalendarSync',
	type: 'boolean',
	default: false,
	description: 'Whether the new connection becomes the calendar that new bookings are written to',
};

const filters: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options: [
		userField,
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
			displayName: 'Cancel If Declined or Deleted',
			name: 'cancelIfDeclinedOrDeleted',
			type: 'boolean',
			default: false,
			description: 'Whether an appointment is cancelled when its calendar event is declined or deleted',
		},
		{
			displayName: 'Disable Attendee Notification',
			name: 'disableAttendeeNotification',
			type: 'boolean',
			default: false,
			description: 'Whether the calendar service\'s own invitation emails to attendees are turned off',
		},
		{
			displayName: 'Primary Calendar',
			name: 'primaryCalendar',
			type: 'string',
			default: '',
			placeholder: 'e.g. jane@example.com',
			description: 'Calendar that new bookings are written to; must be one of the selected calendars',
		},
		{
			displayName: 'Selected Calendars',
			name: 'selectedCalendars',
			type: 'string',
			typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Calendar' },
			default: [],
			placeholder: 'e.g. jane@example.com',
			description: 'Calendars whose events are checked for conflicts. Replaces the current list.',
		},
		{
			displayName: 'Sync Buffers to Calendar',
			name: 'syncBuffersToCalendar',
			type: 'boolean',
			default: false,
			description: 'Whether the buffer times around meetings are written to the calendar as events',
		},
		{
			displayName: 'Validate Availability',
			name: 'validateAvailability',
			type: 'boolean',
			default: true,
			description: 'Whether events in the selected calendars block open booking times',
		},
	],
};

/**
 * Calendar Connections V4 (api-reference §2). Connections come from the provider's OAuth flow, which
 * Get Connect URL starts; the list answers { connections, total } in one request.
 */
export const { definitions: calendarConnectionOperations, properties: calendarConnectionProperties } = declareResource('calendarConnection', {
	default: 'getAll',
	operations: {
		delete: {
			option: { name: 'Delete', description: 'Needs the connection ID; returns { deleted: true }', action: 'Delete a calendar connection' },
			method: 'DELETE',
			path: '/v4/calendar-connections/connections/{connectionId}',
			pathParams: { connectionId: 'connectionId' },
			fields: [connectionId],
		},
		getAll: {
			option: {
				name: 'Get Many',
				description: 'Needs nothing (User optional, for admins); returns one item per connected calendar',
				action: 'Get many calendar connections',
			},
			method: 'GET',
			path: '/v4/calendar-connections/connections',
			query: { userId: 'filters.userId' },
			pagination: { style: 'none', itemsKey: 'connections' },
			fields: [...returnAllFields(), filters],
		},
		getAuthUrl: {
			option: {
				name: 'Get Connect URL',
				description: 'Needs the provider (Google or Outlook) and a Redirect URL; returns the consent address for the user to open',
				action: 'Get the URL that connects a calendar',
			},
			method: 'GET',
			path: '/v4/calendar-connections/auth/{provider}/url',
			pathParams: { provider: 'provider' },
			query: {
				redirectUrl: { param: 'redirectUrl', check: ['required', 'url'] },
				setAsCalendarSync: { param: 'setAsCalendarSync', convert: (on) => (on === true ? true : undefined) },
				userId: 'userId',
			},
			fields: [provider, redirectUrl, setAsCalendarSync, userField],
		},
		update: {
			option: {
				name: 'Update',
				description: 'Needs the connection and the calendars or sync options to set; returns the connection',
				action: 'Update a calendar connection',
			},
			method: 'PATCH',
			path: '/v4/calendar-connections/connections/{connectionId}',
			pathParams: { connectionId: 'connectionId' },
			query: { userId: 'userId' },
			body: {
				primaryCalendar: 'updateFields.primaryCalendar',
				selectedCalendars: 'updateFields.selectedCalendars',
				validateAvailability: 'updateFields.validateAvailability',
				cancelIfDeclinedOrDeleted: 'updateFields.cancelIfDeclinedOrDeleted',
				disableAttendeeNotification: 'updateFields.disableAttendeeNotification',
				syncBuffersToCalendar: 'updateFields.syncBuffersToCalendar',
			},
			fields: [connectionId, userField, updateFields],
		},
	},
});
