import type { IDataObject } from 'n8n-workflow';

import { InputProblem, isTimezone, TIMEZONE_FORM } from './inputChecks';
import type { Converter, InputReader } from './types';

/**
 * Dates as the API wants them: ISO 8601 with an offset. A date and time entered without an offset
 * (as n8n's date picker gives it) is read in a time zone: the one named by `zoneParam` when set,
 * else the workflow's. Only n8n-workflow is a dependency, so the offset comes from Intl.
 */

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const LOCAL = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;
const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

const EXAMPLE = 'such as 2026-03-09T10:00:00+01:00';

/** Minutes the zone is ahead of UTC at the instant. */
function offsetMinutes(zone: string, instant: number): number {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone: zone,
		hourCycle: 'h23',
		year: 'numeric',
		month: 'numeric',
		day: 'numeric',
		hour: 'numeric',
		minute: 'numeric',
		second: 'numeric',
	}).formatToParts(new Date(instant));
	const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
	const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
	return Math.round((wall - Math.floor(instant / 1000) * 1000) / 60000);
}

function formatOffset(minutes: number): string {
	const sign = minutes < 0 ? '-' : '+';
	const abs = Math.abs(minutes);
	return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** "2026-03-09T10:00" read in the zone → "2026-03-09T10:00:00+01:00". */
function localToOffset(value: string, zone: string): string {
	const [, y, mo, d, h, mi, s = '00'] = LOCAL.exec(value) ?? [];
	const wall = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s);
	let offset = offsetMinutes(zone, wall);
	offset = offsetMinutes(zone, wall - offset * 60000);
	return `${y}-${mo}-${d}T${h}:${mi}:${s}${formatOffset(offset)}`;
}

/** The zone named by the zone field, else the workflow's; a named zone that does not exist is refused, naming that field. */
function zoneOf(zoneParam: string | undefined, input: InputReader): string {
	const named = zoneParam ? String(input.read(zoneParam) ?? '') : '';
	if (named && !isTimezone(named)) {
		throw new InputProblem(`is read in the time zone given in "${input.label(zoneParam!)}", which must be ${TIMEZONE_FORM}; "${named}" is not`);
	}
	return named || input.timezone;
}

/** A date and time with an offset; `dateOnly` also lets a plain date (YYYY-MM-DD) through. */
export function dateTime(options: { zoneParam?: string; dateOnly?: boolean } = {}): Converter {
	return (value, input) => {
		const text = value instanceof Date ? value.toISOString() : String(value).trim();
		if (options.dateOnly && DATE_ONLY.test(text) && !Number.isNaN(Date.parse(text))) return text;
		if (WITH_OFFSET.test(text) && !Number.isNaN(Date.parse(text))) return text;
		if (LOCAL.test(text) && !Number.isNaN(Date.parse(`${text.slice(0, 10)}T00:00:00Z`))) {
			return localToOffset(text, zoneOf(options.zoneParam, input));
		}
		const kinds = options.dateOnly ? 'a date (2026-03-09) or a date and time' : 'a date and time';
		throw new InputProblem(`must be ${kinds} ${EXAMPLE}, not "${text}"`);
	};
}

/** A problem when both are set and end is not after start. Plain dates count as the start of their day. */
export function endAfterStart(
	fields: IDataObject | undefined,
	startKey: string,
	endKey: string,
	labels: [string, string],
): string | undefined {
	const start = fields?.[startKey];
	const end = fields?.[endKey];
	if (typeof start !== 'string' || typeof end !== 'string') return undefined;
	const inclusiveEnd = DATE_ONLY.test(end) && DATE_ONLY.test(start);
	const ok = inclusiveEnd ? Date.parse(end) >= Date.parse(start) : Date.parse(end) > Date.parse(start);
	return ok ? undefined : `${labels[1]} (${end}) must be later than ${labels[0]} (${start})`;
}

/**
 * A calendar day, `YYYY-MM-DD`, as the API wants date-only fields (issue and due dates, billing run dates): the
 * date as written, so the picker's 2026-03-09T00:00:00 and an expression's 2026-03-09T23:30:00+01:00 are both the
 * 9th. The field's type rule has already refused days that do not exist.
 */
export const calendarDay: Converter = (value) => {
	const text = value instanceof Date ? value.toISOString() : String(value).trim();
	if (!/^\d{4}-\d{2}-\d{2}([T ].*)?$/.test(text)) throw new InputProblem(`must be a date such as 2026-03-09, not "${text}"`);
	return text.slice(0, 10);
};
