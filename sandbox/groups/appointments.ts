import { DateTime } from 'luxon';
import { Actor } from '../auth';
import { apiError } from '../errors';
import { Call, Group } from '../handler';
import { ordered } from '../listOrder';
import { isSlotOpen } from '../slots';
import { Appointment, Attendee, Store } from '../store';
import { assertMayList, canSee, visible } from '../visibility';
import { emitBooking } from '../webhooks';

interface ListQuery {
	page: number;
	pageSize: number;
	start?: string;
	end?: string;
	search?: string;
	status?: 'upcoming' | 'past' | 'cancelled';
	meetingTypeId?: string;
	sortBy: 'appointment.start' | 'appointment.createdAt';
	sortDirection: 'ASC' | 'DESC';
	userId?: string;
}

/** cancelEntireSeries is accepted and changes nothing: the sandbox has no series, each appointment is its own. */
interface CancelBody {
	reason?: string;
	attendeeId?: string;
	cancelAll?: boolean;
}

/** Appointment V4. */
export const appointments: Group = {
	listAppointments: ({ actor, query, store }) => {
		const filters = query as unknown as ListQuery;
		const host = hostToList(actor, filters.userId);
		const now = store.clock.now();
		const found = [...store.appointments.values()]
			.filter((appointment) => canSeeAppointment(actor, appointment) && (!host || hosts(host, appointment)) && matches(filters, appointment, now));
		const sorted = ordered(store, found, byField(filters.sortBy, filters.sortDirection));
		const from = filters.page * filters.pageSize;
		return { appointments: sorted.slice(from, from + filters.pageSize), total: sorted.length };
	},

	/** What the acting user hosts today in their own time zone, not cancelled, by start. */
	listTodayAppointments: ({ actor, store }) => {
		const zone = actor.user.timezone;
		const today = DateTime.fromMillis(store.clock.now(), { zone }).toISODate();
		return [...store.appointments.values()]
			.filter((appointment) => !appointment.isCancelled && hosts(actor.user.id, appointment) && DateTime.fromISO(appointment.start, { zone }).toISODate() === today)
			.sort(byField('appointment.start', 'ASC'));
	},

	getAppointment: visibleAppointment,

	cancelAppointment: (call) => {
		const appointment = visibleAppointment(call);
		const { reason, attendeeId, cancelAll } = call.body as CancelBody;
		if (appointment.isCancelled) throw apiError(409, 'The appointment is already cancelled');
		if (!cancelAll && attendeeId) {
			cancelAttendee(appointment, attendeeId);
		} else if (!cancelAll && spotsOf(call.store, appointment) > 1) {
			throw apiError(400, 'attendeeId or cancelAll is required for group bookings');
		} else {
			for (const attendee of appointment.attendees) attendee.isCancelled = true;
		}
		const now = call.store.clock.iso();
		if (appointment.attendees.every((attendee) => attendee.isCancelled)) {
			Object.assign(appointment, { isCancelled: true, cancel: { reason: reason ?? null, actionAt: now, actionBy: call.actor.user.id } });
		}
		appointment.updatedAt = now;
		emitBooking(call.store, 'booking_cancelled', appointment);
		return appointment;
	},

	rescheduleAppointment: (call) => {
		const appointment = visibleAppointment(call);
		const { start, ignoreAvailability } = call.body as { start: string; ignoreAvailability?: boolean };
		if (appointment.isCancelled) throw apiError(409, 'A cancelled appointment cannot be rescheduled');
		const durationMs = Date.parse(appointment.end) - Date.parse(appointment.start);
		if (!ignoreAvailability && !hostIsFree(call.store, appointment, appointment.userId, start)) {
			throw apiError(409, 'The requested time slot is not available');
		}
		const now = call.store.clock.iso();
		Object.assign(appointment, {
			start: new Date(start).toISOString(),
			end: new Date(Date.parse(start) + durationMs).toISOString(),
			rescheduledAt: now,
			rescheduleCount: appointment.rescheduleCount + 1,
			updatedAt: now,
		});
		emitBooking(call.store, 'booking_rescheduled', appointment);
		return appointment;
	},

	updateAppointmentNotes: (call) => update(call, { notes: call.body.note as string | null }),

	updateAppointmentTranscription: (call) => update(call, call.body as Pick<Appointment, 'transcription' | 'summary'>),

	addAppointmentGuest: (call) => {
		const appointment = visibleAppointment(call);
		const { attendeeId, email } = call.body as { attendeeId: string; email: string };
		const attendee = attendeeOf(appointment, attendeeId);
		if (attendee.guests.some((guest) => guest.toLowerCase() === email.toLowerCase())) {
			throw apiError(409, 'This guest is already invited');
		}
		attendee.guests.push(email);
		appointment.updatedAt = call.store.clock.iso();
		return appointment;
	},
};

/** Members see the appointments they host, admins any of their company. */
export function canSeeAppointment(actor: Actor, appointment: Appointment): boolean {
	return canSee(actor, [appointment.userId, ...appointment.hostIds], appointment.companyId);
}

function visibleAppointment({ actor, params, store }: Call): Appointment {
	return appointmentFor(store, actor, params.id);
}

/** The appointment when the caller may see it, else 404. */
export function appointmentFor(store: Store, actor: Actor, id: string): Appointment {
	return visible(store.appointments.get(id), (appointment) => canSeeAppointment(actor, appointment), 'Appointment');
}

function hosts(userId: string, appointment: Appointment): boolean {
	return appointment.userId === userId || appointment.hostIds.includes(userId);
}

/** A member lists only what they host and may name only themselves (else 403); an admin may narrow to any host. */
function hostToList(actor: Actor, userId: string | undefined): string | undefined {
	assertMayList(actor, userId);
	return userId ?? (actor.user.isAdmin ? undefined : actor.user.id);
}

function matches(filters: ListQuery, appointment: Appointment, now: number): boolean {
	const { start, end, search, status, meetingTypeId } = filters;
	if (start && Date.parse(appointment.end) <= Date.parse(start)) return false;
	if (end && Date.parse(appointment.start) >= Date.parse(end)) return false;
	if (meetingTypeId && appointment.meetingTypeId !== meetingTypeId) return false;
	if (status && statusOf(appointment, now) !== status) return false;
	return !search || searchable(appointment).some((text) => text.toLowerCase().includes(search.toLowerCase()));
}

function statusOf(appointment: Appointment, now: number): ListQuery['status'] {
	if (appointment.isCancelled) return 'cancelled';
	return Date.parse(appointment.end) > now ? 'upcoming' : 'past';
}

function searchable(appointment: Appointment): string[] {
	const people = appointment.attendees.flatMap((attendee) => [attendee.firstname, attendee.lastname, attendee.fullname, attendee.email]);
	return [appointment.meetingInfo.name, ...people].filter((text): text is string => typeof text === 'string');
}

function byField(sortBy: ListQuery['sortBy'], direction: ListQuery['sortDirection']) {
	const field = sortBy === 'appointment.createdAt' ? 'createdAt' : 'start';
	const sign = direction === 'DESC' ? -1 : 1;
	return (a: Appointment, b: Appointment) => sign * (Date.parse(a[field]) - Date.parse(b[field]));
}

function attendeeOf(appointment: Appointment, attendeeId: string): Attendee {
	const attendee = appointment.attendees.find((candidate) => candidate.id === attendeeId);
	if (!attendee) throw apiError(404, 'Attendee not found');
	return attendee;
}

function cancelAttendee(appointment: Appointment, attendeeId: string): void {
	const attendee = attendeeOf(appointment, attendeeId);
	if (attendee.isCancelled) throw apiError(409, 'The attendee is already cancelled');
	attendee.isCancelled = true;
}

/** The meeting type's spots; an appointment whose meeting type was deleted counts its attendees. */
function spotsOf(store: Store, appointment: Appointment): number {
	return store.meetingTypes.get(appointment.meetingTypeId)?.spots ?? appointment.attendees.length;
}

/** The host has an open slot for the appointment at this start (its own by default); the appointment itself does not block it. */
export function hostIsFree(store: Store, appointment: Appointment, hostId: string, start = appointment.start): boolean {
	const meetingType = store.meetingTypes.get(appointment.meetingTypeId);
	if (!meetingType) return false;
	const duration = (Date.parse(appointment.end) - Date.parse(appointment.start)) / 60000;
	return isSlotOpen(store, { meetingType, hostIds: [hostId], start, duration, ignoreAppointmentId: appointment.id }) !== undefined;
}

function update(call: Call, changes: Partial<Appointment>): Appointment {
	const appointment = visibleAppointment(call);
	return Object.assign(appointment, changes, { updatedAt: call.store.clock.iso() });
}
