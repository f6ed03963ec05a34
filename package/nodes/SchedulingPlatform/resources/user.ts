import type { INodeProperties } from 'n8n-workflow';

import { declareResource } from '../../shared/declare';
import { returnAllFields } from '../../shared/getMany';
import { locatorField, userLocator } from '../../shared/locators';
import { weekFrom, weeklyHoursProblem, weeklyHoursProperties } from '../weeklyHours';
import { channelOptions } from '../records';

const email: INodeProperties = {
	displayName: 'Email',
	name: 'email',
	type: 'string',
	placeholder: 'name@email.com',
	required: true,
	default: '',
	description: 'Email address of the new user',
};

const givenName: INodeProperties = {
	displayName: 'First Name',
	name: 'givenName',
	type: 'string',
	required: true,
	default: '',
};

const familyName: INodeProperties = {
	displayName: 'Last Name',
	name: 'familyName',
	type: 'string',
	required: true,
	default: '',
};

const timezone: INodeProperties = {
	displayName: 'Timezone',
	name: 'timezone',
	type: 'string',
	placeholder: 'e.g. Europe/Berlin',
	required: true,
	default: '',
	description: 'IANA time zone of the user',
};

const setWeeklyHours: INodeProperties = {
	displayName: 'Set Weekly Hours',
	name: 'setWeeklyHours',
	type: 'boolean',
	default: false,
	description: 'Whether to give the new user\'s weekly hours; when off, they are Monday to Friday 09:00–17:00',
};

const additionalFields: INodeProperties = {
	displayName: 'Additional Fields',
	name: 'additionalFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [
		{
			displayName: 'Availability Name',
			name: 'availabilityName',
			type: 'string',
			default: '',
			description: 'Name of the default availability created with the user',
		},
		{
			displayName: 'Availability Timezone',
			name: 'availabilityTimezone',
			type: 'string',
			default: '',
			placeholder: 'e.g. Europe/Berlin',
			description: 'IANA time zone the weekly hours are meant in; the user\'s time zone when empty',
		},
		{
			displayName: 'Meeting Type Channel',
			name: 'meetingTypeChannel',
			type: 'options',
			options: channelOptions,
			default: 'phone',
			description: 'Where meetings of the default meeting type take place',
		},
		{
			displayName: 'Meeting Type Duration (Minutes)',
			name: 'meetingTypeDuration',
			type: 'number',
			typeOptions: { minValue: 5, maxValue: 480, numberPrecision: 0 },
			default: 30,
			description: 'Duration of the default meeting type created with the user',
		},
		{
			displayName: 'Meeting Type Name',
			name: 'meetingTypeName',
			type: 'string',
			default: '',
			description: 'Name of the default meeting type created with the user',
		},
		{
			displayName: 'Meeting Type Slug',
			name: 'meetingTypeSlug',
			type: 'string',
			default: '',
			description: 'URL slug of the default meeting type',
		},
	],
};

const userId: INodeProperties = { ...locatorField('User', 'userId', 'The user to work on', userLocator), required: true };

const filters: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options: [
		{
			displayName: 'User Type',
			name: 'userType',
			type: 'options',
			options: [
				{ name: 'API Platform', value: 'api-platform' },
				{ name: 'Partner', value: 'partner' },
				{ name: 'Resource', value: 'resource' },
				{ name: 'Standard', value: 'standard' },
			],
			default: 'standard',
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
		{ displayName: 'First Name', name: 'givenName', type: 'string', default: '' },
		{ displayName: 'Last Name', name: 'familyName', type: 'string', default: '' },
		{
			displayName: 'Slug',
			name: 'slug',
			type: 'string',
			default: '',
			placeholder: 'e.g. jane-doe',
			description: 'URL part of the user\'s booking page; no other user may have it',
		},
	],
};

/**
 * User V4 (api-reference §2). Create, update and delete need a Platform API key. Create may set the new
 * user's weekly hours (the same inputs as Availability's), its time zone and name, and the meeting type's
 * name, duration, slug and channel; Update changes only the names and the slug.
 */
export const { definitions: userOperations, properties: userProperties } = declareResource('user', {
	default: 'getMe',
	operations: {
		create: {
			option: {
				name: 'Create',
				description: 'Needs Email, First Name, Last Name and Timezone (API key only); returns the user ID and booking URL',
				action: 'Create a user who can be booked',
			},
			method: 'POST',
			path: '/v4/user',
			needsUserContext: false,
			body: {
				email: { param: 'email', check: 'email' },
				givenName: { param: 'givenName', check: 'required' },
				familyName: { param: 'familyName', check: 'required' },
				timezone: { param: 'timezone', check: 'timezone' },
				'availability.name': 'additionalFields.availabilityName',
				'availability.timezone': { param: 'additionalFields.availabilityTimezone', check: 'timezone' },
				'availability.schedule': { param: 'setWeeklyHours', convert: (set, input) => (set ? weekFrom(input) : undefined) },
				'meetingType.name': 'additionalFields.meetingTypeName',
				'meetingType.duration': 'additionalFields.meetingTypeDuration',
				'meetingType.slug': 'additionalFields.meetingTypeSlug',
				'meetingType.channel': 'additionalFields.meetingTypeChannel',
			},
			check: (request) => weeklyHoursProblem((request.body?.availability as { schedule?: unknown } | undefined)?.schedule),
			fields: [email, givenName, familyName, timezone, setWeeklyHours, ...weeklyHoursProperties({ setWeeklyHours: [true] }), additionalFields],
		},
		delete: {
			option: { name: 'Delete', description: 'Needs the user (API key only); returns { deleted: true }', action: 'Delete a user' },
			method: 'DELETE',
			path: '/v4/user/{id}',
			pathParams: { id: 'userId' },
			fields: [userId],
		},
		get: {
			option: { name: 'Get', description: 'Needs the user ID; returns the user', action: 'Get a user by ID' },
			method: 'GET',
			path: '/v4/user/{id}',
			pathParams: { id: 'userId' },
			fields: [userId],
		},
		getAll: {
			option: {
				name: 'Get Many',
				description: 'Needs an admin token or an API key (User Type optional); returns one item per user of the company',
				action: 'Get many users',
			},
			method: 'GET',
			path: '/v4/user',
			query: { userType: 'filters.userType' },
			pagination: { style: 'offset', itemsKey: 'users' },
			fields: [...returnAllFields(), filters],
		},
		getMe: {
			option: { name: 'Get Me', description: 'Needs nothing; returns the user the credential acts as', action: 'Get the current user' },
			method: 'GET',
			path: '/v4/user/me',
			needsUserContext: false,
		},
		update: {
			option: {
				name: 'Update',
				description: 'Needs the user and a first name, last name or slug (API key only); returns the user',
				action: 'Update the name or slug of a user',
			},
			method: 'PATCH',
			path: '/v4/user/{id}',
			pathParams: { id: 'userId' },
			body: { givenName: 'updateFields.givenName', familyName: 'updateFields.familyName', slug: 'updateFields.slug' },
			check: (request, input) =>
				Object.keys(request.body ?? {}).length ? undefined : `Add at least one field under ${input.label('updateFields')}: First Name, Last Name or Slug`,
			fields: [userId, updateFields],
		},
	},
});
