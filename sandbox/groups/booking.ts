import { randomBytes, randomUUID } from 'node:crypto';
import { contactForAttendee } from '../contacts';
import { apiError } from '../errors';
import { Group } from '../handler';
import { pickHost, QueuePick, queueState, recordPick } from '../routing';
import { isSlotOpen } from '../slots';
import { Appointment, Attendee, MeetingType, ProvisionalBooking, Store } from '../store';
import { companyMeetingType } from '../visibility';
import { emitBooking } from '../webhooks';
import { bookingHosts } from './bookingAvailability';
import { completePendingAttendee } from './pendingAttendees';

interface BookingInput {
	meetingTypeId: string;
	start: string;
	attendee: AttendeeInput;
	hostIds?: string[];
	queueId?: string;
	duration?: number;
	channel?: string;
	location?: string;
	skipNotifications?: boolean;
	icsTitle?: string;
	icsDescription?: string;
	phoneOnlyBooking?: boolean;
}

interface AttendeeInput {
	email: string;
	firstname?: string;
	lastname?: string;
	fullname?: string;
	phone?: string;
	timezone?: string;
	language?: string;
	receiveReminders: boolean;
	notes: Record<string, unknown>;
	bringalongEmails?: string[];
	dataPolicyAccepted?: boolean;
}

/** What one booking settled: the meeting type, the free host, the time, and when it was booked. */
interface Booked {
	input: BookingInput;
	meetingType: MeetingType;
	hostId: string;
	/** Every host of the appointment (a queue's group: all its users). */
	hostIds: string[];
	start: string;
	end: string;
	/** Minutes. */
	duration: number;
	bookedAt: string;
}

/** Booking V4. */
export const booking: Group = {
	createBooking: ({ actor, body, store }) => {
		const input = body as unknown as BookingInput;
		if (input.phoneOnlyBooking && !input.attendee.phone) throw apiError(400, ['attendee.phone should not be empty']);
		const meetingType = companyMeetingType(store, actor, input.meetingTypeId);
		const queue = input.queueId === undefined ? undefined : meetingTypeQueue(store, meetingType, input.queueId);
		const hostIds = queue ? [] : bookingHosts(store, meetingType, input.hostIds, undefined);
		if (!meetingType.enabled) throw apiError(409, 'The meeting type is disabled');
		const duration = input.duration ?? meetingType.meetingInfo.duration;
		const pick = queue && pickHost(store, queue, meetingType, input.start, duration);
		const slot = queue ? pick && { hostId: pick.hostIds[0], hostIds: pick.hostIds } : isSlotOpen(store, { meetingType, hostIds, start: input.start, duration });
		if (!slot) throw apiError(409, 'The requested time slot is not available');
		const startMs = Date.parse(input.start);
		const booked: Booked = {
			input,
			meetingType,
			hostId: slot.hostId,
			hostIds: 'hostIds' in slot ? slot.hostIds : [slot.hostId],
			start: new Date(startMs).toISOString(),
			end: new Date(startMs + duration * 60_000).toISOString(),
			duration,
			bookedAt: store.clock.iso(),
		};
		if (store.approvals.has(meetingType.id)) return provisionalBooking(store, booked, queue && pick && { queueId: queue.queue.id, pick });
		const appointment = book(store, booked, 'appointment' in slot ? slot.appointment : undefined);
		if (queue && pick) recordPick(store, queue, pick, appointment.id);
		return { appointmentId: appointment.id, secret: appointment.secret };
	},
};

/**
 * Appointments of a meeting type's host at each start, one attendee each, as a booking makes them but without a slot
 * check (the control API seeds many at once: `POST /__sandbox/appointments`); their ids, in order.
 */
export function bookMany(store: Store, meetingType: MeetingType, starts: string[], email: string): string[] {
	const duration = meetingType.meetingInfo.duration;
	return starts.map((start) => {
		const startMs = Date.parse(start);
		const input: BookingInput = { meetingTypeId: meetingType.id, start, attendee: { email, receiveReminders: false, notes: {} } };
		const booked: Booked = {
			input,
			meetingType,
			hostId: meetingType.userId,
			hostIds: [meetingType.userId],
			start: new Date(startMs).toISOString(),
			end: new Date(startMs + duration * 60_000).toISOString(),
			duration,
			bookedAt: store.clock.iso(),
		};
		return book(store, booked).id;
	});
}

/** The meeting type's own queue (400 for another queue id, 404 for none of the company). */
function meetingTypeQueue(store: Store, meetingType: MeetingType, queueId: string) {
	const queue = queueState(store, meetingType.companyId, queueId);
	if (queue.queue.meetingTypeId !== meetingType.id) throw apiError(400, ['queueId is not the queue of this meeting type']);
	return queue;
}

/**
 * The appointment (a new one, or the group appointment to join) with the attendee; the attendee's pending
 * booking-form entries of the company are deleted, as the booking completed.
 */
function book(store: Store, booked: Booked, joining?: Appointment): Appointment {
	const appointment = joining ?? newAppointment(store, booked);
	appointment.attendees.push(newAttendee(store, booked, appointment));
	appointment.updatedAt = booked.bookedAt;
	completePendingAttendee(store, booked.meetingType.companyId, booked.input.attendee.email);
	emitBooking(store, 'booking_created', appointment);
	return appointment;
}

/**
 * Confirms a provisional booking: its slot must still be open for its host (409 otherwise); the appointment is made
 * as the booking would have made it.
 */
export function confirmProvisional(store: Store, provisional: ProvisionalBooking): Appointment {
	const meetingType = store.meetingTypes.get(provisional.meetingTypeId);
	const duration = (Date.parse(provisional.end) - Date.parse(provisional.start)) / 60_000;
	const open = meetingType && provisional.hostIds.every((hostId) => isSlotOpen(store, { meetingType, hostIds: [hostId], start: provisional.start, duration }));
	if (!meetingType || !open) throw apiError(409, 'The requested time slot is not available');
	const input = { meetingTypeId: meetingType.id, start: provisional.start, attendee: provisional.attendee } as unknown as BookingInput;
	const { hostIds, userId: hostId, start, end } = provisional;
	return book(store, { input, meetingType, hostId, hostIds, start, end, duration, bookedAt: store.clock.iso() });
}

/** Approval needed: a provisional booking, no appointment; the slot stays open. Through a queue: its pick is kept. */
function provisionalBooking(store: Store, { input, meetingType, hostId, hostIds, start, end, bookedAt }: Booked, queued?: { queueId: string; pick: QueuePick }) {
	const provisional: ProvisionalBooking = {
		id: randomUUID(),
		bookingType: store.approvals.get(meetingType.id)!,
		status: 'pending',
		userId: hostId,
		companyId: meetingType.companyId,
		meetingTypeId: meetingType.id,
		start,
		end,
		hostIds,
		attendee: { ...input.attendee },
		queueId: queued?.queueId ?? null,
		queueBookingInfo: queued ? { userIds: queued.pick.hostIds, selectionReason: queued.pick.reason, groupId: queued.pick.member.groupId } : null,
		createdAt: bookedAt,
	};
	store.provisionalBookings.set(provisional.id, provisional);
	return { bookingType: provisional.bookingType, provisionalBookingId: provisional.id };
}

function newAppointment(store: Store, { input, meetingType, hostId, hostIds, start, end, duration, bookedAt }: Booked): Appointment {
	const appointment: Appointment = {
		id: randomUUID(),
		secret: randomBytes(16).toString('hex'),
		userId: hostId,
		companyId: meetingType.companyId,
		start,
		end,
		isCancelled: false,
		cancel: null,
		rescheduledAt: null,
		rescheduleCount: 0,
		meetingTypeId: meetingType.id,
		meetingInfo: { ...meetingType.meetingInfo, duration, channel: input.channel ?? meetingType.meetingInfo.channel },
		hostIds,
		attendees: [],
		location: input.location ?? null,
		notes: null,
		transcription: null,
		summary: null,
		icsTitle: input.icsTitle ?? null,
		icsDescription: input.icsDescription ?? null,
		createdAt: bookedAt,
		updatedAt: bookedAt,
	};
	store.appointments.set(appointment.id, appointment);
	return appointment;
}

/** The attendee, linked to the company's CRM contact of their email (created or enriched). */
function newAttendee(store: Store, { input, meetingType, hostId }: Booked, appointment: Appointment): Attendee {
	const attendee = input.attendee;
	const contact = contactForAttendee(store, meetingType.companyId, hostId, attendee);
	const joinedName = [attendee.firstname, attendee.lastname].filter(Boolean).join(' ');
	return {
		id: randomUUID(),
		appointmentId: appointment.id,
		email: attendee.email,
		firstname: attendee.firstname ?? null,
		lastname: attendee.lastname ?? null,
		fullname: attendee.fullname ?? (joinedName || null),
		phone: attendee.phone ?? null,
		timezone: attendee.timezone ?? null,
		language: attendee.language ?? null,
		contactId: contact.id,
		receiveReminders: attendee.receiveReminders,
		notes: attendee.notes,
		guests: attendee.bringalongEmails ?? [],
		isCancelled: false,
	};
}
