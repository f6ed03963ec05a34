import { DateTime, Interval } from 'luxon';
import { apiError } from './errors';
import { DAYS } from './schedule';
import { Appointment, Availability, MeetingType, Store } from './store';

/** Open intervals of the weekly hours are built this many days beyond the asked window (for zone shifts). */
const MARGIN_DAYS = 2;

export type CalculationMethod = 'anyone' | 'everyone';

export interface SlotQuery {
	meetingType: MeetingType;
	hostIds: string[];
	/** A date (`YYYY-MM-DD`: start of that day in `timezone`) or a date-time. */
	start: string;
	/** A date (end of that day in `timezone`, inclusive) or a date-time. */
	end: string;
	timezone: string;
	/** Minutes; the meeting type's duration when not given. */
	duration?: number;
	calculationMethod?: CalculationMethod;
	/** An appointment that does not block (the one being rescheduled). */
	ignoreAppointmentId?: string;
}

export interface SlotDates {
	timezone: string;
	dates: Array<{ date: string; spots: Array<{ startTime: string }> }>;
	earliestAvailableDate: string | null;
}

export interface SlotCheck {
	meetingType: MeetingType;
	hostIds: string[];
	/** A date-time. */
	start: string;
	/** Minutes. */
	duration: number;
	/** An appointment that does not block (the one being rescheduled). */
	ignoreAppointmentId?: string;
}

/** The open slot starts of the hosts between start and end, grouped by date in the requested time zone. */
export function openSlots(store: Store, query: SlotQuery): SlotDates {
	const window = queryWindow(query);
	const duration = query.duration ?? query.meetingType.meetingInfo.duration;
	const now = store.clock.now();
	const perHost = query.hostIds.map((hostId) =>
		freeStarts(store, { ...query, hostId, duration, window, now }).filter((start) => window.contains(start)),
	);
	const starts = query.calculationMethod === 'everyone' ? common(perHost) : union(perHost);
	return groupByDate(starts, query.timezone);
}

/** A host free at this start, with the group appointment there that has room (such a host comes first); undefined when none is free. */
export function isSlotOpen(store: Store, check: SlotCheck): OpenSlot | undefined {
	const start = DateTime.fromISO(check.start, { setZone: true });
	if (!start.isValid) return undefined;
	const window = Interval.fromDateTimes(start.minus({ days: 1 }), start.plus({ days: 1 }));
	const now = store.clock.now();
	const free = check.hostIds.filter((hostId) =>
		freeStarts(store, { ...check, hostId, window, now }).some((candidate) => candidate.toMillis() === start.toMillis()),
	);
	const joining = free
		.map((hostId) => ({ hostId, appointment: joinableAppointment(store, check.meetingType, hostId, start.toMillis()) }))
		.find(({ appointment }) => appointment);
	return joining ?? (free.length ? { hostId: free[0] } : undefined);
}

export interface TimeframeQuery {
	hostId: string;
	/** When given: its availability counts for its own host, and its buffers widen the appointments. */
	meetingType?: MeetingType;
	/** A date (start of that day in `timezone`) or a date-time. */
	start: string;
	/** A date (end of that day in `timezone`, inclusive) or a date-time. */
	end: string;
	/** Zone of date-only bounds and of the answer's times. */
	timezone: string;
}

export interface Stretch {
	start: string;
	end: string;
}

/** What blocks a busy stretch (api-reference §2): the host, and `type` `event`, the one value the reference documents. */
export interface UnavailabilityEvent {
	hostId: string;
	hostName: string;
	type: 'event';
	picture: string | null;
}

export interface Timeframe {
	hostId: string;
	available: Stretch[];
	unavailable: Array<Stretch & { unavailabilityEvent: UnavailabilityEvent }>;
}

/**
 * One host's free and busy stretches in the window, from the same open and busy intervals as the slots. Busy: the
 * host's appointments (widened by the meeting type's buffers) and blocked time, each an event of the host; time
 * outside the working hours is neither free nor an event.
 */
export function hostTimeframe(store: Store, query: TimeframeQuery): Timeframe {
	const window = queryWindow(query);
	const availability = hostAvailability(store, query.meetingType, query.hostId);
	const { open, blocked } = availability ? hoursOf(store, availability, window) : { open: [], blocked: [] };
	const busy = Interval.merge(busyIntervals(store, query).map(({ interval }) => interval));
	const free = within(open, window).flatMap((interval) => interval.difference(...busy));
	const blockedTime = within(Interval.merge(blocked), window).flatMap((interval) => interval.difference(...busy));
	const host = store.users.get(query.hostId)!;
	const unavailabilityEvent: UnavailabilityEvent = { hostId: host.id, hostName: host.fullName, type: 'event', picture: host.picture };
	const stretch = (interval: Interval): Stretch => ({ start: stamp(interval.start!, query.timezone), end: stamp(interval.end!, query.timezone) });
	return {
		hostId: query.hostId,
		available: free.map(stretch),
		unavailable: [...within(busy, window), ...blockedTime]
			.sort((a, b) => a.start!.toMillis() - b.start!.toMillis())
			.map((interval) => ({ ...stretch(interval), unavailabilityEvent })),
	};
}

/** The parts of the intervals inside the window. */
function within(intervals: Interval[], window: Interval): Interval[] {
	return intervals.flatMap((interval) => interval.intersection(window) ?? []);
}

export interface OpenSlot {
	hostId: string;
	/** The host's group appointment at this start with a free spot, to join instead of creating one. */
	appointment?: Appointment;
}

function joinableAppointment(store: Store, meetingType: MeetingType, hostId: string, startMs: number): Appointment | undefined {
	return [...store.appointments.values()].find(
		(appointment) => !appointment.isCancelled && appointment.hostIds.includes(hostId) && isJoinable(appointment, meetingType, startMs),
	);
}

/** An appointment of this meeting type at exactly this start with a free spot. */
function isJoinable(appointment: Appointment, meetingType: MeetingType, startMs: number): boolean {
	return appointment.meetingTypeId === meetingType.id && Date.parse(appointment.start) === startMs && activeAttendees(appointment) < meetingType.spots;
}

/** The availability whose hours count for a host: the meeting type's for its own host, else the host's default. */
function hostAvailability(store: Store, meetingType: MeetingType | undefined, hostId: string): Availability | undefined {
	if (meetingType && hostId === meetingType.userId) return store.availabilities.get(meetingType.availabilityId);
	return store.userAvailabilities(hostId).find((availability) => availability.isDefault);
}

interface HostQuery {
	meetingType: MeetingType;
	hostId: string;
	duration: number;
	window: Interval;
	/** The clock, read once per query so every host has the same "now". */
	now: number;
	ignoreAppointmentId?: string;
}

/**
 * Slot starts of one host around the window: on the grid of its open time (every `timeslotInterval` minutes, else every
 * duration; buffers inside it when the meeting type asks), after now and at least `bookingMinimum` minutes ahead, not
 * blocked by appointments.
 */
function freeStarts(store: Store, query: HostQuery): DateTime[] {
	const availability = hostAvailability(store, query.meetingType, query.hostId);
	if (!availability) return [];
	const busy = busyIntervals(store, query);
	const { timeslotInterval = query.duration, bookingMinimum = 0 } = query.meetingType;
	return hoursOf(store, availability, query.window)
		.open.flatMap((interval) => gridStarts(interval, query.duration, timeslotInterval).filter((start) => buffersFit(start, interval, query)))
		.filter((start) => start.toMillis() > query.now && start.toMillis() - query.now >= bookingMinimum * 60_000)
		.filter((start) => !overlapsBusy(start, query, busy));
}

/** Open time (weekly hours in the availability's zone ∪ extra-time exceptions − blocked exceptions) and the blocked exceptions, around the window. */
function hoursOf(store: Store, availability: Availability, window: Interval): { open: Interval[]; blocked: Interval[] } {
	const exceptions = store.exceptionsOf(availability.id);
	const toInterval = (exception: { start: string; end: string }) => Interval.fromISO(`${exception.start}/${exception.end}`);
	const extra = exceptions.filter((exception) => exception.available).map(toInterval);
	const blocked = exceptions.filter((exception) => !exception.available).map(toInterval).filter((block) => block.isValid);
	const working = Interval.merge([...weeklyIntervals(availability, window), ...extra].filter((interval) => interval.isValid));
	return { open: working.flatMap((interval) => interval.difference(...blocked)), blocked };
}

function weeklyIntervals(availability: Availability, window: Interval): Interval[] {
	const zone = availability.timezone;
	const first = window.start!.setZone(zone).startOf('day').minus({ days: MARGIN_DAYS });
	const last = window.end!.setZone(zone).startOf('day').plus({ days: MARGIN_DAYS });
	const intervals: Interval[] = [];
	for (let day = first; day <= last; day = day.plus({ days: 1 })) {
		const { enabled, hours } = availability.schedule[DAYS[day.weekday - 1]];
		if (!enabled) continue;
		const date = day.toISODate();
		for (const range of hours) {
			const from = DateTime.fromISO(`${date}T${range.start}`, { zone });
			const to = DateTime.fromISO(`${date}T${range.end}`, { zone });
			intervals.push(Interval.fromDateTimes(from, to));
		}
	}
	return intervals;
}

/** With bufferMustStayWithinWorkingHours, the buffers around the meeting must lie in the same open time as the meeting. */
function buffersFit(start: DateTime, open: Interval, query: HostQuery): boolean {
	const { bufferBefore, bufferAfter, bufferMustStayWithinWorkingHours } = query.meetingType.meetingInfo;
	if (!bufferMustStayWithinWorkingHours) return true;
	return open.engulfs(Interval.fromDateTimes(start.minus({ minutes: bufferBefore }), start.plus({ minutes: query.duration + bufferAfter })));
}

/** Starts at the beginning of the interval and every `step` minutes after, while the meeting fits. */
function gridStarts(interval: Interval, duration: number, step: number): DateTime[] {
	const starts: DateTime[] = [];
	for (let start = interval.start!; start.plus({ minutes: duration }) <= interval.end!; start = start.plus({ minutes: step })) {
		starts.push(start);
	}
	return starts;
}

/** An appointment of the host, and the time a new meeting must keep clear of it. */
interface Busy {
	appointment: Appointment;
	interval: Interval;
}

/**
 * The host's appointments widened by the meeting type's buffers (none without one): a new meeting may not
 * overlap [start − buffer after, end + buffer before], so that its own buffers stay clear of the appointment.
 */
function busyIntervals(store: Store, query: { hostId: string; meetingType?: MeetingType; ignoreAppointmentId?: string }): Busy[] {
	const { bufferBefore = 0, bufferAfter = 0 } = query.meetingType?.meetingInfo ?? {};
	return [...store.appointments.values()]
		.filter((appointment) => !appointment.isCancelled && appointment.hostIds.includes(query.hostId) && appointment.id !== query.ignoreAppointmentId)
		.map((appointment) => ({
			appointment,
			interval: Interval.fromDateTimes(
				DateTime.fromISO(appointment.start).minus({ minutes: bufferAfter }),
				DateTime.fromISO(appointment.end).plus({ minutes: bufferBefore }),
			),
		}));
}

/** The meeting at this start overlaps a busy interval, except a same-type group appointment with room at that start. */
function overlapsBusy(start: DateTime, query: HostQuery, busy: Busy[]): boolean {
	const meeting = Interval.after(start, { minutes: query.duration });
	return busy.some(({ appointment, interval }) => !isJoinable(appointment, query.meetingType, start.toMillis()) && interval.overlaps(meeting));
}

function activeAttendees(appointment: Appointment): number {
	return appointment.attendees.filter((attendee) => !attendee.isCancelled).length;
}

/** The asked range, end excluded: a date means its whole day in the requested zone; 400 when it does not run forward. */
function queryWindow({ start, end, timezone }: Pick<SlotQuery, 'start' | 'end' | 'timezone'>): Interval {
	const from = boundary(start, timezone, 'start');
	const to = boundary(end, timezone, 'end');
	if (to <= from) throw apiError(400, ['end must be later than start']);
	return Interval.fromDateTimes(from, to);
}

function boundary(value: string, zone: string, side: 'start' | 'end'): DateTime {
	const moment = DateTime.fromISO(value, { zone });
	if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return moment;
	return side === 'start' ? moment : moment.plus({ days: 1 });
}

function union(lists: DateTime[][]): DateTime[] {
	const byMillis = new Map(lists.flat().map((start) => [start.toMillis(), start]));
	return [...byMillis.values()].sort((a, b) => a.toMillis() - b.toMillis());
}

function common(lists: DateTime[][]): DateTime[] {
	if (lists.length === 0) return [];
	const [first, ...rest] = lists;
	const others = rest.map((list) => new Set(list.map((start) => start.toMillis())));
	return union([first.filter((start) => others.every((set) => set.has(start.toMillis())))]);
}

function groupByDate(starts: DateTime[], timezone: string): SlotDates {
	const dates: SlotDates['dates'] = [];
	for (const start of starts) {
		const local = start.setZone(timezone);
		const date = local.toISODate()!;
		if (dates.at(-1)?.date !== date) dates.push({ date, spots: [] });
		dates.at(-1)!.spots.push({ startTime: stamp(local, timezone) });
	}
	return { timezone, dates, earliestAvailableDate: dates[0]?.date ?? null };
}

/** A moment as the answers give it: local time in the zone with its offset, 2027-03-08T09:00:00+01:00. */
function stamp(moment: DateTime, zone: string): string {
	return moment.setZone(zone).toFormat("yyyy-MM-dd'T'HH:mm:ssZZ");
}
