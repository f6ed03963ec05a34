import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';

import type { InputReader } from '../shared/types';

/**
 * Weekly hours (the API's `schedule`), shared by Availability → Create / Update and User → Create: the same
 * inputs (a form of time ranges or the API's JSON) and the same converter. `weekFrom` turns either into the
 * API's full 7-day schedule; `weeklyHoursProblem` refuses it before sending when a time is not HH:mm, a range
 * does not end after it starts, ranges of a day overlap, or the JSON is bad.
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

/** The form's rows (each: days, start, end). */
function formRows(value: unknown): IDataObject[] {
	return ((value as IDataObject | undefined)?.ranges ?? []) as IDataObject[];
}

/** The form's rows as a week; days no row names are closed. */
function weekFromForm(value: unknown): IDataObject {
	const entries = formRows(value);
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
 * (text that is not JSON, a day that is not an object) is passed on as it is, for weeklyHoursProblem to name.
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
export function weekFrom(input: InputReader): unknown {
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

/**
 * Why the weekly hours cannot be sent, naming the day; undefined when they can (or none are sent). A form row
 * without days is refused when it is read (Days is required in its row).
 */
export function weeklyHoursProblem(schedule: unknown): string | undefined {
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

const dayOptions = [
	{ name: 'Friday', value: 'friday' },
	{ name: 'Monday', value: 'monday' },
	{ name: 'Saturday', value: 'saturday' },
	{ name: 'Sunday', value: 'sunday' },
	{ name: 'Thursday', value: 'thursday' },
	{ name: 'Tuesday', value: 'tuesday' },
	{ name: 'Wednesday', value: 'wednesday' },
];

/**
 * The weekly hours inputs (Define Weekly Hours As, Weekly Hours, Weekly Hours (JSON)), for the operation whose block
 * lists them (shared/declare.ts); `show`: the other fields' values they need, such as Set Weekly Hours on.
 */
export function weeklyHoursProperties(show: NonNullable<IDisplayOptions['show']> = {}): INodeProperties[] {
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
