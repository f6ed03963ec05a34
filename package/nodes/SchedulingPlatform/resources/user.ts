import type { INodeProperties } from 'n8n-workflow';

import { getManyFields } from '../../shared/getMany';
import { userLocator } from '../../shared/locators';
import type { ResourceDefinitions } from '../../shared/types';
import { weekFrom, weeklyHoursProblem, weeklyHoursProperties } from '../weeklyHours';
import { channelOptions } from '../records';

/**
 * User V4 (api-reference §2). Create, update and delete need a Platform API key. Create may set the new
 * user's weekly hours (the same inputs as Availability's), its time zone and name, and the meeting type's
 * name, duration, slug and channel; Update changes only the names and the slug.
 */
export const userOperations: ResourceDefinitions = {
	create: {
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
	},
	delete: { method: 'DELETE', path: '/v4/user/{id}', pathParams: { id: 'userId' } },
	get: { method: 'GET', path: '/v4/user/{id}', pathParams: { id: 'userId' } },
	getAll: {
		method: 'GET',
		path: '/v4/user',
		query: { userType: 'filters.userType' },
		pagination: { style: 'offset', itemsKey: 'users' },
	},
	getMe: { method: 'GET', path: '/v4/user/me', needsUserContext: false },
	update: {
		method: 'PATCH',
		path: '/v4/user/{id}',
		pathParams: { id: 'userId' },
		body: { givenName: 'updateFields.givenName', familyName: 'updateFields.familyName', slug: 'updateFields.slug' },
		check: (request, input) =>
			Object.keys(request.body ?? {}).length ? undefined : `Add at least one field under ${input.label('updateFields')}: First Name, Last Name or Slug`,
	},
};

export const userProperties: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['user'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Needs Email, First Name, Last Name and Timezone (API key only); returns the user ID and booking URL',
				action: 'Create a user who can be booked',
			},
			{ name: 'Delete', value: 'delete', description: 'Needs the user (API key only); returns { deleted: true }', action: 'Delete a user' },
			{ name: 'Get', value: 'get', description: 'Needs the user ID; returns the user', action: 'Get a user by ID' },
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'Needs an admin token or an API key (User Type optional); returns one item per user of the company',
				action: 'Get many users',
			},
			{ name: 'Get Me', value: 'getMe', description: 'Needs nothing; returns the user the credential acts as', action: 'Get the current user' },
			{
				name: 'Update',
				value: 'update',
				description: 'Needs the user and a first name, last name or slug (API key only); returns the user',
				action: 'Update the name or slug of a user',
			},
		],
		default: 'getMe',
	},
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		required: true,
		default: '',
		displayOptions: { show: { resource: ['user'], operation: ['create'] } },
		description: 'Email address of the new user',
	},
	{
		displayName: 'First Name',
		name: 'givenName',
		type: 'string',
		required: true,
		default: '',
		displayOptions: { show: { resource: ['user'], operation: ['create'] } },
	},
	{
		displayName: 'Last Name',
		name: 'familyName',
		type: 'string',
		required: true,
		default: '',
		displayOptions: { show: { resource: ['user'], operation: ['create'] } },
	},
	{
		displayName: 'Timezone',
		name: 'timezone',
		type: 'string',
		placeholder: 'e.g. Europe/Berlin',
		required: true,
		default: '',
		displayOptions: { show: { resource: ['user'], operation: ['create'] } },
		description: 'IANA time zone of the user',
	},
	{
		displayName: 'Set Weekly Hours',
		name: 'setWeeklyHours',
		type: 'boolean',
		default: false,
		displayOptions: { show: { resource: ['user'], operation: ['create'] } },
		description: 'Whether to give the new user\'s weekly hours; when off, they are Monday to Friday 09:00–17:00',
	},
	...weeklyHoursProperties({ resource: ['user'], operation: ['create'], setWeeklyHours: [true] }),
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: { resource: ['user'], operation: ['create'] } },
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
	},
	{
		displayName: 'User',
		name: 'userId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		displayOptions: { show: { resource: ['user'], operation: ['delete', 'get', 'update'] } },
		description: 'The user to work on',
		...userLocator,
	},
	...getManyFields('user'),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show: { resource: ['user'], operation: ['getAll'] } },
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
	},
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: { resource: ['user'], operation: ['update'] } },
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
	},
];
