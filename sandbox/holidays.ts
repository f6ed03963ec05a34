import Holidays from 'date-holidays';
import { DateTime } from 'luxon';

/** A public holiday as a whole day in a time zone: from its midnight to the next. */
export interface HolidayDay {
	title: string;
	start: string;
	end: string;
}

/**
 * The public holidays (type `public` only) of a year in a country and, optionally, one of its states or
 * regions, from the `date-holidays` rules, named in English. Each is its whole day in `zone`.
 */
export function publicHolidays(year: number, country: string, state: string | undefined, zone: string): HolidayDay[] {
	const rules = state ? new Holidays(country, state, { languages: ['en'] }) : new Holidays(country, { languages: ['en'] });
	return rules
		.getHolidays(year)
		.filter((holiday) => holiday.type === 'public')
		.map((holiday) => {
			const day = DateTime.fromISO(holiday.date.slice(0, 10), { zone });
			return { title: holiday.name, start: stamp(day), end: stamp(day.plus({ days: 1 })) };
		});
}

function stamp(moment: DateTime): string {
	return moment.toISO({ suppressMilliseconds: true })!;
}
