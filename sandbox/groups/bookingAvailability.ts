import { apiError } from '../errors';
import { Call, Group } from '../handler';
import { hostsOf, membersOf, queueState } from '../routing';
import { CalculationMethod, hostTimeframe, openSlots } from '../slots';
import { MeetingType, Store } from '../store';
import { isCalendarDate } from '../validation';
import { companyMeetingType, companyUser } from '../visibility';

/** Booking Availability V4: open slots, and one host's free and busy stretches. */
export const bookingAvailability: Group = {
	getBookingAvailability: ({ actor, query, store }) => {
		const meetingType = companyMeetingType(store, actor, String(query.meetingTypeId));
		const hostIds = bookingHosts(store, meetingType, query.hostIds, query.queueId);
		return openSlots(store, {
			meetingType,
			hostIds,
			start: query.start as string,
			end: query.end as string,
			timezone: (query.timezone as string | undefined) ?? store.users.get(meetingType.userId)?.timezone ?? 'UTC',
			duration: query.meetingDuration as number | undefined,
			calculationMethod: query.calculationMethod as CalculationMethod,
			ignoreAppointmentId: query.existingAppointmentId as string | undefined,
		});
	},

	/** Any user of the company may read a colleague's timeframe, like the slots of the company's meeting types. */
	getUserTimeframe: ({ actor, params, query, store }) => {
		const user = companyUser(store, actor, params.userId);
		const meetingType = query.meetingTypeId === undefined ? undefined : companyMeetingType(store, actor, String(query.meetingTypeId));
		return hostTimeframe(store, { hostId: user.id, meetingType, start: query.start as string, end: query.end as string, timezone: user.timezone });
	},

	/** The open slots of the user's first meeting type (its duration and availability, their appointments) as bare starts. */
	getBookableWindows: ({ actor, params, query, store }) => {
		const { startDate, endDate } = query;
		if (!startDate || !endDate) throw apiError(400, 'startDate and endDate are required');
		if (![startDate, endDate].every(isCalendarDate)) throw apiError(400, 'Invalid date format. Use YYYY-MM-DD');
		const user = companyUser(store, actor, params.userId);
		const [meetingType] = store.userMeetingTypes(user.id);
		if (!meetingType || String(endDate) < String(startDate)) return { windows: [] };
		const slots = openSlots(store, { meetingType, hostIds: [user.id], start: String(startDate), end: String(endDate), timezone: user.timezone });
		return { windows: slots.dates.flatMap(({ spots }) => spots.map(({ startTime }) => startTime)) };
	},
};

/**
 * The hosts asked for: users of the meeting type's company; or, for its queue, every user who hosts for a member
 * (open slots are any member's; a booking then picks the member by the queue's rules, routing.ts).
 */
export function bookingHosts(store: Store, meetingType: MeetingType, hostIds: Call['query'][string], queueId: unknown): string[] {
	const ids = Array.isArray(hostIds) ? (hostIds as string[]) : [];
	if (queueId !== undefined) {
		const { queue } = queueState(store, meetingType.companyId, String(queueId));
		const hosts = membersOf(queue).flatMap((member) => hostsOf(store, member));
		if (!hosts.length) throw apiError(409, 'The queue has no hosts');
		return [...new Set(hosts)];
	}
	if (ids.length === 0) throw apiError(400, 'Expected hostIds or queueId');
	const unknown = ids.some((id) => store.users.get(id.toLowerCase())?.companyId !== meetingType.companyId);
	if (unknown) throw apiError(404, 'Host not found');
	return ids.map((id) => id.toLowerCase());
}
