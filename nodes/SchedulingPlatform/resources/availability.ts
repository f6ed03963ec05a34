import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { InputReader, ResourceDefinitions } from '../types';

/**
 * availability (api-reference §2): a user's weekly hours in a time zone. The list is a bare array:
 * Limit is applied by the node. The weekly hours come from the form or from JSON; `weekFrom` turns
 * either into the API's full 7-day `schedule`, and `scheduleProblem` refuses it before sending when
 * a time is not HH:mm, a range does not end after it starts, ranges of a day overlap, or the JSON is bad.
 */

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;
const DAY_EXAMPLE = '{ "enabled": true, "hours": [{ "start": "09:00", "end": "17:00" }] }';

interface Range {
	start: string;
	end: string;
}

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function dayName(day: string): string {
	return day.charAt(0).toUpperCase() + day.slice(1);
}

function byStart(hours: unknown[]): unknown[] {
	return [...hours].sort((a, b) => String((a as Range)?.start).localeCompare(String((b as Range)?.start)));
}

function openDay(hours: Range[]): IDataObject {
	return hours.length ? { enabled: true, hours: byStart(hours) as IDataObject[] } : { enabled: false, hours: [] };
}

/** The form's entries (each: days, start, end) as a week; days no entry names are closed. */
function weekFromForm(value: unknown): IDataObject {
	const entries = ((value as IDataObject | undefined)?.ranges ?? []) as IDataObject[];
	const hoursOf = (day: string): Range[] =>
		entries
			.filter((entry) => ((entry.days ?? []) as string[]).includes(day))
			.map((entry) => ({ start: String(entry.start ?? '').trim(), end: String(entry.end ?? '').trim() }));
	return Object.fromEntries(DAYS.map((day) => [day, openDay(hoursOf(day))]));
}

function parseJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}

/**
 * The API's schedule object as a full week: missing days closed, ranges sorted. What cannot be read
 * (text that is not JSON, a day that is not an object) is passed on as it is, for scheduleProblem to name.
 */
function weekFromJson(value: unknown): unknown {
	const parsed = typeof value === 'string' ? parseJson(value) : value;
	if (!isObject(parsed)) return parsed;
	const given = Object.entries(parsed).map(([day, spec]) => {
		if (!isObject(spec) || !Array.isArray(spec.hours)) return [day, spec];
		return [day, { enabled: spec.enabled ?? spec.hours.length > 0, hours: byStart(spec.hours) }];
	});
	return { ...weekFromForm(undefined), ...Object.fromEntries(given) };
}

/** The schedule to send, from "Define Weekly Hours As". */
function weekFrom(input: InputReader): unknown {
	return input.read('scheduleInput') === 'json' ? weekFromJson(input.read('scheduleJson')) : weekFromForm(input.read('weeklyHours'));
}

function notAnObject(value: unknown): string {
	if (typeof value === 'string') {
		try {
			JSON.parse(value);
		} catch (error) {
			return `Weekly Hours (JSON) is not valid JSON: ${(error as Error).message}`;
		}
	}
	return 'Weekly Hours (JSON) must be an object with days as keys, such as { "monday": ' + DAY_EXAMPLE + ' }';
}

function rangeProblem(range: unknown): string | undefined {
	if (!isObject(range)) return 'each range must be written as { "start": "09:00", "end": "17:00" }';
	const bad = [range.start, range.end].filter((time) => typeof time !== 'string' || !HH_MM.test(time));
	if (bad.length) return `"${String(bad[0] ?? '')}" is not a time in HH:mm form, such as 09:00 or 17:30`;
	return String(range.start) < String(range.end) ? undefined : `${String(range.start)}–${String(range.end)} must end after it starts`;
}

function dayProblem(spec: unknown): string | undefined {
	if (!isObject(spec) || typeof spec.enabled !== 'boolean' || !Array.isArray(spec.hours)) return `must be written as ${DAY_EXAMPLE}`;
	const hours = spec.hours as Range[];
	const problem = hours.map(rangeProblem).find(Boolean);
	if (problem) return problem;
	const overlap = hours.findIndex((range, index) => index > 0 && range.start < hours[index - 1].end);
	return overlap > 0 ? `${hours[overlap - 1].start}–${hours[overlap - 1].end} and ${hours[overlap].start}–${hours[overlap].end} overlap` : undefined;
}

/** Why the schedule cannot be sent, naming the day; undefined when it can (or none is sent). */
function scheduleProblem(schedule: unknown): string | undefined {
	if (schedule === undefined) return undefined;
	if (!isObject(schedule)) return notAnObject(schedule);
	const unknown = Object.keys(schedule).find((day) => !DAYS.includes(day));
	if (unknown) return `Weekly Hours (JSON) has an unknown day "${unknown}": use ${DAYS.join(', ')}`;
	for (const day of DAYS) {
		const problem = dayProblem(schedule[day]);
		if (problem) return `Weekly Hours, ${dayName(day)}: ${problem}`;
	}
	return undefined;
}

export const availabilityOperations: ResourceDefinitions = {
	create: {
		method: 'POST',
		path: '/availability',
		body: {
			name: { param: 'name', check: 'required' },
			timezone: { param: 'timezone', check: 'timezone' },
			schedule: { param: 'scheduleInput', convert: (_mode, input) => weekFrom(input) },
		},
		check: (request) => scheduleProblem(request.body?.schedule),
	},
	delete: { method: 'DELETE', path: '/availability/{id}', pathParams: { id: 'availabilityId' } },
	get: { method: 'GET', path: '/availability/{id}', pathParams: { id: 'availabilityId' } },
	getAll: { method: 'GET', path: '/availability', pagination: { style: 'none' } },
	update: {
		method: 'PATCH',
		path: '/availability/{id}',
		pathParams: { id: 'availabilityId' },
		body: {
			name: 'updateFields.name',
			timezone: { param: 'updateFields.timezone', check: 'timezone' },
			schedule: { param: 'updateWeeklyHours', convert: (update, input) => (update ? weekFrom(input) : undefined) },
		},
		check: (request) => scheduleProblem(request.body?.schedule),
	},
};

const dayOptions = [
	{ name: 'Friday', value: 'friday' },
	{ name: 'Monday', value: 'monday' },
	{ name: 'Saturday', value: 'saturday' },
	{ name: 'Sunday', value: 'sunday' },
	{ name: 'Thursday', value: 'thursday' },
	{ name: 'Tuesday', value: 'tuesday' },
	{ name: 'Wednesday', value: 'wednesday' },
];

/** The weekly hours inputs: on Create, and on Update once "Update Weekly Hours" is on. */
function weeklyHoursProperties(condition: Record<string, Array<string | boolean>>): INodeProperties[] {
	const show = { resource: ['availability'], ...condition };
	return [
		{
			displayName: 'Define Weekly Hours As',
			name: 'scheduleInput',
			type: 'options',
			options: [
				{ name: 'Form', value: 'form', description: 'Pick days and times below' },
				{ name: 'JSON', value: 'json', description: 'Give the API\'s schedule object' },
			],
			default: 'form',
			displayOptions: { show },
		},
		{
			displayName: 'Weekly Hours',
			name: 'weeklyHours',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Time Range' },
			default: {},
			placeholder: 'Add Time Range',
			displayOptions: { show: { ...show, scheduleInput: ['form'] } },
			description:
				'When the availability can be booked each week. Add one time range per block of hours; add two for a split day (09:00–12:00 and 13:00–17:00). Days without a range are unavailable.',
			options: [
				{
					displayName: 'Time Range',
					name: 'ranges',
					values: [
						{
							displayName: 'Days',
							name: 'days',
							type: 'multiOptions',
							options: dayOptions,
							required: true,
							default: [],
							description: 'Days this time range applies to',
						},
						{
							displayName: 'Start',
							name: 'start',
							type: 'string',
							default: '09:00',
							placeholder: '09:00',
							description: 'Start time in 24-hour HH:mm form',
						},
						{
							displayName: 'End',
							name: 'end',
							type: 'string',
							default: '17:00',
							placeholder: '17:00',
							description: 'End time in 24-hour HH:mm form, later than the start',
						},
					],
				},
			],
		},
		{
			displayName: 'Weekly Hours (JSON)',
			name: 'scheduleJson',
			type: 'json',
			default: '{\n  "monday": { "enabled": true, "hours": [{ "start": "09:00", "end": "17:00" }] }\n}',
			displayOptions: { show: { ...show, scheduleInput: ['json'] } },
			description:
				'The API\'s schedule object: keys monday to sunday, each { "enabled": true, "hours": [{ "start": "09:00", "end": "17:00" }] }. Days left out are unavailable.',
		},
	];
}

export const availabilityProperties: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['availability'] } },
		options: [
			{ name: 'Create', value: 'create', description: 'Create an availability: weekly hours in a time zone', action: 'Create an availability' },
			{ name: 'Delete', value: 'delete', description: 'Delete an availability that is neither the default nor used by a meeting type', action: 'Delete an availability' },
			{ name: 'Get', value: 'get', description: 'Get an availability with its exceptions', action: 'Get an availability' },
			{ name: 'Get Many', value: 'getAll', description: 'List the availabilities of the acting user', action: 'Get many availabilities' },
			{ name: 'Update', value: 'update', description: 'Change the name, time zone or weekly hours of an availability', action: 'Update an availability' },
		],
		default: 'getAll',
	},
	{
		displayName: 'Availability',
		name: 'availabilityId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		displayOptions: { show: { resource: ['availability'], operation: ['delete', 'get', 'update'] } },
		description: 'The availability to work on',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchAvailabilities', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 3b9d6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f',
			},
		],
	},
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Office Hours',
		displayOptions: { show: { resource: ['availability'], operation: ['create'] } },
		description: 'Name of the availability, shown when picking it for a meeting type',
	},
	{
		displayName: 'Timezone',
		name: 'timezone',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Europe/Berlin',
		displayOptions: { show: { resource: ['availability'], operation: ['create'] } },
		description: 'IANA time zone the weekly hours are meant in, such as Europe/Berlin or America/New_York',
	},
	{
		displayName: 'Update Weekly Hours',
		name: 'updateWeeklyHours',
		type: 'boolean',
		default: false,
		displayOptions: { show: { resource: ['availability'], operation: ['update'] } },
		description: 'Whether to replace the weekly hours. The new hours replace the whole week: days not given become unavailable.',
	},
	...weeklyHoursProperties({ operation: ['create'] }),
	...weeklyHoursProperties({ operation: ['update'], updateWeeklyHours: [true] }),
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		displayOptions: { show: { resource: ['availability'], operation: ['getAll'] } },
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: 50,
		displayOptions: { show: { resource: ['availability'], operation: ['getAll'], returnAll: [false] } },
		description: 'Max number of results to return',
	},
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: { resource: ['availability'], operation: ['update'] } },
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
	},
];
