import type { INodeProperties } from 'n8n-workflow';

import { declareResource } from '../../shared/declare';
import { returnAllFields } from '../../shared/getMany';
import { locatorField } from '../../shared/locators';
import { availabilityLocator } from '../locators';
import { weekFrom, weeklyHoursProblem, weeklyHoursProperties } from '../weeklyHours';

/**
 * availability (api-reference §2): a user's weekly hours in a time zone (weeklyHours.ts: form or JSON,
 * checked before sending). The list is a bare array: Limit is applied by the node. Add Public Holidays
 * blocks the public holidays of a year, country and (Germany) state as blocked-time exceptions.
 */

/** The countries whose public holidays the API knows (api-reference §2), by English name. */
const countryOptions = [
	{ name: 'Austria', value: 'AT' },
	{ name: 'Belgium', value: 'BE' },
	{ name: 'Canada', value: 'CA' },
	{ name: 'Denmark', value: 'DK' },
	{ name: 'Estonia', value: 'EE' },
	{ name: 'Finland', value: 'FI' },
	{ name: 'France', value: 'FR' },
	{ name: 'Germany', value: 'DE' },
	{ name: 'Italy', value: 'IT' },
	{ name: 'Netherlands', value: 'NL' },
	{ name: 'New Zealand', value: 'NZ' },
	{ name: 'Spain', value: 'ES' },
	{ name: 'Sweden', value: 'SE' },
	{ name: 'Switzerland', value: 'CH' },
	{ name: 'United States', value: 'US' },
];

/** German states (germanState), for the holidays that only some states keep; empty: nationwide holidays only. */
const germanStateOptions = [
	{ name: 'Baden-Württemberg', value: 'BW' },
	{ name: 'Bavaria', value: 'BY' },
	{ name: 'Berlin', value: 'BE' },
	{ name: 'Brandenburg', value: 'BB' },
	{ name: 'Bremen', value: 'HB' },
	{ name: 'Hamburg', value: 'HH' },
	{ name: 'Hesse', value: 'HE' },
	{ name: 'Lower Saxony', value: 'NI' },
	{ name: 'Mecklenburg-Western Pomerania', value: 'MV' },
	{ name: 'None (Nationwide Holidays Only)', value: '' },
	{ name: 'North Rhine-Westphalia', value: 'NW' },
	{ name: 'Rhineland-Palatinate', value: 'RP' },
	{ name: 'Saarland', value: 'SL' },
	{ name: 'Saxony', value: 'SN' },
	{ name: 'Saxony-Anhalt', value: 'ST' },
	{ name: 'Schleswig-Holstein', value: 'SH' },
	{ name: 'Thuringia', value: 'TH' },
];

const holidayFields: INodeProperties[] = [
	{
		displayName: 'Year',
		name: 'year',
		type: 'number',
		typeOptions: { minValue: 2025, maxValue: 2027, numberPrecision: 0 },
		required: true,
		default: 2026,
		description: 'Year whose public holidays to block, 2025 to 2027',
	},
	{
		displayName: 'Country',
		name: 'country',
		type: 'options',
		options: countryOptions,
		required: true,
		default: 'DE',
		description: 'Country whose public holidays to block',
	},
	{
		displayName: 'German State',
		name: 'germanState',
		type: 'options',
		options: germanStateOptions,
		default: '',
		displayOptions: { show: { country: ['DE'] } },
		description: 'State whose own public holidays (such as Corpus Christi in Bavaria) are blocked too',
	},
];

const availabilityId: INodeProperties = { ...locatorField('Availability', 'availabilityId', 'The availability to work on', availabilityLocator), required: true };

const name: INodeProperties = {
	displayName: 'Name',
	name: 'name',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. Office Hours',
	description: 'Name of the availability, shown when picking it for a meeting type',
};

const timezone: INodeProperties = {
	displayName: 'Timezone',
	name: 'timezone',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. Europe/Berlin',
	description: 'IANA time zone the weekly hours are meant in, such as Europe/Berlin or America/New_York',
};

const updateWeeklyHours: INodeProperties = {
	displayName: 'Update Weekly Hours',
	name: 'updateWeeklyHours',
	type: 'boolean',
	default: false,
	description: 'Whether to replace the weekly hours. The new hours replace the whole week: days not given become unavailable.',
};

const updateFields: INodeProperties = {
	displayName: 'Update Fields',
	name: 'updateFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [
		{ displayName: 'Name', name: 'name', type: 'string', default: '', description: 'New name of the availability' },
		{
			displayName: 'Timezone',
			name: 'timezone',
			type: 'string',
			default: '',
			placeholder: 'e.g. Europe/Berlin',
			description: 'IANA time zone the weekly hours are meant in',
		},
	],
};

export const { definitions: availabilityOperations, properties: availabilityProperties } = declareResource('availability', {
	default: 'getAll',
	operations: {
		addHolidays: {
			option: {
				name: 'Add Public Holidays',
				description: 'Needs the availability, Year and Country; returns one item per holiday newly blocked',
				action: 'Add public holidays to an availability',
			},
			method: 'PATCH',
			path: '/availability/{id}/holiday-exceptions',
			pathParams: { id: 'availabilityId' },
			body: { year: 'year', country: 'country', germanState: 'germanState' },
			check: (request, input) =>
				request.body?.germanState && request.body.country !== 'DE'
					? `${input.label('germanState')} can only be used with ${input.label('country')} Germany (DE)`
					: undefined,
			fields: [availabilityId, ...holidayFields],
		},
		create: {
			option: { name: 'Create', description: 'Needs Name, Timezone and the weekly hours (form or JSON); returns the availability', action: 'Create an availability with weekly hours' },
			method: 'POST',
			path: '/availability',
			body: {
				name: { param: 'name', check: 'required' },
				timezone: { param: 'timezone', check: 'timezone' },
				schedule: { param: 'scheduleInput', convert: (_mode, input) => weekFrom(input) },
			},
			check: (request) => weeklyHoursProblem(request.body?.schedule),
			fields: [name, timezone, ...weeklyHoursProperties()],
		},
		delete: {
			option: {
				name: 'Delete',
				description: 'Needs an availability that is neither the default nor used by a meeting type; returns { deleted: true }',
				action: 'Delete an availability',
			},
			method: 'DELETE',
			path: '/availability/{id}',
			pathParams: { id: 'availabilityId' },
			fields: [availabilityId],
		},
		get: {
			option: { name: 'Get', description: 'Needs the availability ID; returns it with its weekly hours and exceptions', action: 'Get an availability by ID' },
			method: 'GET',
			path: '/availability/{id}',
			pathParams: { id: 'availabilityId' },
			fields: [availabilityId],
		},
		getAll: {
			option: { name: 'Get Many', description: 'Needs nothing; returns one item per availability of the acting user', action: 'Get many availabilities' },
			method: 'GET',
			path: '/availability',
			pagination: { style: 'none' },
			fields: returnAllFields(),
		},
		update: {
			option: {
				name: 'Update',
				description: 'Needs the availability and a new name, time zone or weekly hours; returns the availability',
				action: 'Update an availability',
			},
			method: 'PATCH',
			path: '/availability/{id}',
			pathParams: { id: 'availabilityId' },
			body: {
				name: 'updateFields.name',
				timezone: { param: 'updateFields.timezone', check: 'timezone' },
				schedule: { param: 'updateWeeklyHours', convert: (update, input) => (update ? weekFrom(input) : undefined) },
			},
			check: (request) => weeklyHoursProblem(request.body?.schedule),
			fields: [availabilityId, updateWeeklyHours, ...weeklyHoursProperties({ updateWeeklyHours: [true] }), updateFields],
		},
	},
});
