import { apiError } from './errors';

export const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

type Day = (typeof DAYS)[number];
export interface HourRange {
	start: string;
	end: string;
}
export interface DaySchedule {
	enabled: boolean;
	hours: HourRange[];
}
export type Schedule = Record<Day, DaySchedule>;

/** Monday to Friday 09:00–17:00. */
export function defaultSchedule(): Schedule {
	return weekOf((day) => (DAYS.indexOf(day) < 5 ? { enabled: true, hours: [{ start: '09:00', end: '17:00' }] } : closed()));
}

/** A full week from a partial one: missing days are disabled. */
export function completeSchedule(schedule: Partial<Schedule>): Schedule {
	return weekOf((day) => schedule[day] ?? closed());
}

/** 400 for rule violations the schema cannot express: each range ends after it starts, ranges of a day do not overlap. */
export function assertValidSchedule(schedule: Partial<Schedule>, name: string): void {
	const errors = DAYS.flatMap((day) => dayErrors(schedule[day]?.hours ?? [], `${name}.${day}.hours`));
	if (errors.length) throw apiError(400, errors);
}

function dayErrors(hours: HourRange[], name: string): string[] {
	const errors = hours.flatMap((range, index) => (range.start < range.end ? [] : [`${name}.${index}.end must be later than start`]));
	const sorted = [...hours].sort((a, b) => a.start.localeCompare(b.start));
	const overlaps = sorted.some((range, index) => index > 0 && range.start < sorted[index - 1].end);
	return overlaps ? [...errors, `${name} must not overlap`] : errors;
}

function weekOf(dayFor: (day: Day) => DaySchedule): Schedule {
	return Object.fromEntries(DAYS.map((day) => [day, dayFor(day)])) as Schedule;
}

function closed(): DaySchedule {
	return { enabled: false, hours: [] };
}
