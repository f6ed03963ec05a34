import type { IDataObject, INodeProperties, IPollFunctions } from 'n8n-workflow';

import { searchUsers } from '../shared/listSearch';
import { userLocator } from '../shared/locators';
import { declareArea } from '../shared/trigger/pollingNode';
import type { RecordCheck } from '../shared/trigger/eventParts';
import type { SnapshotEvent } from '../shared/trigger/snapshot';
import { momentOf } from '../shared/trigger/time';
import { shortHash } from '../shared/trigger/watermark';
import { meetingTypeLocator, searchMeetingTypes } from './records';

/**
 * Booking events (api-reference §2 Appointment V4 and §8). The list sorts only by `appointment.createdAt` and
 * `appointment.start`:
 * - New Booking: newest first by creation.
 * - Booking Cancelled and Booking Rescheduled: no order shows them, so a window of appointments by start is read
 *   whole each poll and compared with a snapshot of the last poll (shared/trigger/snapshot.ts).
 * - Appointment Starting Soon and Appointment Ended: the appointments of a short window by start, read whole; the
 *   event's moment is the start less the chosen minutes (or the booking, when later) and the end.
 */

const APPOINTMENTS = '/v4/appointment/paginated';
const pagination = { style: 'page0', itemsKey: 'appointments' } as const;
const filters = { meetingTypeId: 'bookingFilters.meetingType', userId: 'bookingFilters.host' };
const filterRecords: Record<string, RecordCheck> = {
	'bookingFilters.meetingType': { noun: 'meeting type', path: '/v4/meeting-type/{id}' },
	'bookingFilters.host': { noun: 'user', path: '/v4/user/{id}' },
};
const detail = { path: '/v4/appointment/{id}' };
const byStart = { sortBy: 'appointment.start', sortDirection: 'ASC' };
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** The longest meeting (a meeting type lasts 5 to 480 minutes): an appointment ending now started at most this long ago. */
const LONGEST_MEETING = 480 * MINUTE;
/** Room for a clock that differs from the API's. */
const CLOCK_SLACK = 5 * MINUTE;

const iso = (ms: number) => new Date(ms).toISOString();
const live = (appointment: IDataObject) => appointment.isCancelled !== true;
const cancelledAt = (appointment: IDataObject) => (appointment.cancel as IDataObject | null | undefined)?.actionAt;

/** The window of Booking Cancelled / Rescheduled, from the node's options. */
function snapshotWindow(ctx: IPollFunctions): { pastDays: number; aheadDays: number } {
	const options = ctx.getNodeParameter('windowOptions', {}) as { pastDays?: number; aheadDays?: number };
	return { pastDays: options.pastDays ?? 1, aheadDays: options.aheadDays ?? 90 };
}

function changeEvent(ctx: IPollFunctions, noun: string, rule: Pick<SnapshotEvent, 'print' | 'printWidth' | 'fired' | 'happenedAt'>): SnapshotEvent {
	const { pastDays, aheadDays } = snapshotWindow(ctx);
	return {
		noun,
		list: { path: APPOINTMENTS, qs: byStart, pagination },
		filters,
		filterRecords,
		settings: { pastDays, aheadDays },
		window: (now) => ({ start: iso(now - pastDays * DAY), end: iso(now + aheadDays * DAY) }),
		limits: {
			scope: 'the Watched Window',
			records: 'appointments',
			first: 'start first',
			kept: 'those cancelled or moved in the last minute first, then those that start first',
			othersFire: 'the others fire by their own time of cancellation or move after the last poll',
			recent: 'cancelled or moved',
			narrow: 'Narrow the Watched Window (Days Ahead, Days Back) or filter by Meeting Type or Host.',
		},
		// A booking, a move, a cancellation or any update: while the window is read, such a change may shift the pages.
		changedAt: (appointment) => [appointment.updatedAt, appointment.createdAt, appointment.rescheduledAt, cancelledAt(appointment)],
		...rule,
	};
}

/** Where and how often an appointment was moved: its start and reschedule count, in 4 characters. */
const whenPrint = (appointment: IDataObject) => shortHash(`${String(appointment.start)}|${String(appointment.rescheduleCount ?? 0)}`, 4);

const minutesBefore: INodeProperties = {
	displayName: 'Minutes Before Start',
	name: 'minutesBefore',
	type: 'number',
	default: 15,
	typeOptions: { minValue: 1, maxValue: 1440, numberPrecision: 0 },
	description: 'How many minutes before its start an appointment fires. One booked later than that fires when it is booked.',
};

const bookingFilters: INodeProperties = {
	displayName: 'Filters',
	name: 'bookingFilters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options: [
		{
			displayName: 'Meeting Type',
			name: 'meetingType',
			type: 'resourceLocator',
			default: { mode: 'list', value: '' },
			description: 'Only bookings of this meeting type',
			...meetingTypeLocator,
		},
		{
			displayName: 'Host',
			name: 'host',
			type: 'resourceLocator',
			default: { mode: 'list', value: '' },
			description: 'Only bookings this user hosts. Watching another user than yourself needs an admin.',
			...userLocator,
		},
	],
};

const windowOptions: INodeProperties = {
	displayName: 'Watched Window',
	name: 'windowOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Days Ahead',
			name: 'aheadDays',
			type: 'number',
			default: 90,
			typeOptions: { minValue: 1, maxValue: 365, numberPrecision: 0 },
			description:
				'Watch appointments that start up to this many days from now. Each poll reads the window: one request per 100 appointments in it, at most 100 (the 10,000 that start first are watched), and about 12 bytes of stored state per appointment, at most 2,000 remembered (others fire by their own time of cancellation or move). Past a bound the log warns.',
		},
		{
			displayName: 'Days Back',
			name: 'pastDays',
			type: 'number',
			default: 1,
			typeOptions: { minValue: 0, maxValue: 30, numberPrecision: 0 },
			description: 'Watch appointments that started up to this many days ago too',
		},
	],
};

/** The Scheduling Platform Trigger's events. */
export const schedulingArea = declareArea(
	{
		newBooking: {
			option: { name: 'New Booking', description: 'A booking is made (an appointment is created)' },
			read: {
				noun: 'booking',
				list: { path: APPOINTMENTS, qs: { sortBy: 'appointment.createdAt', sortDirection: 'DESC' }, pagination },
				filters,
				filterRecords,
				happenedAt: (appointment) => appointment.createdAt,
				detail,
			},
			fields: [bookingFilters],
			fullRecord: true,
		},
		/** Cancelled now and not at the last poll; new to the window: cancelled after the last poll. */
		bookingCancelled: {
			option: { name: 'Booking Cancelled', description: 'A booking in the watched window is cancelled' },
			read: (ctx) =>
				changeEvent(ctx, 'cancelled booking', {
					print: (appointment) => (appointment.isCancelled === true ? 'C' : 'O'),
					printWidth: 1,
					fired: (appointment, before, since) => appointment.isCancelled === true && (before !== undefined ? before === 'O' : (momentOf(cancelledAt(appointment)) ?? -Infinity) > since),
					happenedAt: (appointment) => cancelledAt(appointment) ?? appointment.updatedAt,
				}),
			fields: [bookingFilters, windowOptions],
		},
		/** Its start or reschedule count changed since the last poll; new to the window: rescheduled after the last poll. Not when cancelled. */
		bookingRescheduled: {
			option: { name: 'Booking Rescheduled', description: 'A booking in the watched window moves to another time (each move fires once)' },
			read: (ctx) =>
				changeEvent(ctx, 'rescheduled booking', {
					print: whenPrint,
					printWidth: 4,
					fired: (appointment, before, since) =>
						live(appointment) &&
						(before !== undefined
							? before !== whenPrint(appointment)
							: Number(appointment.rescheduleCount ?? 0) > 0 && (momentOf(appointment.rescheduledAt) ?? -Infinity) > since),
					happenedAt: (appointment) => (Number(appointment.rescheduleCount ?? 0) > 0 ? appointment.rescheduledAt : undefined),
				}),
			fields: [bookingFilters, windowOptions],
		},
		/**
		 * N minutes before the start; booked (or moved) later than that: when booked or moved. A move to another start is
		 * a new occurrence (key id + start), so the new time is announced too.
		 */
		appointmentStartingSoon: {
			option: { name: 'Appointment Starting Soon', description: 'An appointment starts within the chosen minutes (not cancelled ones)' },
			read: (ctx) => {
				const minutes = ctx.getNodeParameter('minutesBefore', 15) as number;
				const lead = minutes * MINUTE;
				return {
					noun: 'appointment starting soon',
					list: { path: APPOINTMENTS, qs: byStart, pagination },
					unordered: true,
					settings: { minutes },
					range: (since, now) => ({ start: iso(since ?? now), end: iso(now + lead + CLOCK_SLACK) }),
					filters,
					filterRecords,
					happenedAt: (appointment) => {
						const start = momentOf(appointment.start);
						if (!live(appointment) || start === undefined) return undefined;
						return iso(Math.max(start - lead, momentOf(appointment.createdAt) ?? -Infinity, momentOf(appointment.rescheduledAt) ?? -Infinity));
					},
					key: (appointment) => `${String(appointment.id)}:${String(appointment.start)}`,
					detail,
				};
			},
			fields: [minutesBefore, bookingFilters],
			fullRecord: true,
		},
		appointmentEnded: {
			option: { name: 'Appointment Ended', description: 'An appointment has ended (not cancelled ones)' },
			read: {
				noun: 'ended appointment',
				list: { path: APPOINTMENTS, qs: byStart, pagination },
				unordered: true,
				range: (since, now) => ({ start: iso((since ?? now) - LONGEST_MEETING), end: iso(now + CLOCK_SLACK) }),
				filters,
				filterRecords,
				happenedAt: (appointment) => (live(appointment) ? appointment.end : undefined),
				detail,
			},
			fields: [bookingFilters],
			fullRecord: true,
		},
	},
	{ searchUsers, searchMeetingTypes },
);
