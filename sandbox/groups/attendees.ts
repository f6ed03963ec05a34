import { apiError } from '../errors';
import { Call, Group } from '../handler';
import { Attendee } from '../store';
import { canSeeAppointment } from './appointments';

const QUICK_MAIL_LIMIT = 5;
const QUICK_MAIL_WINDOW_MS = 5 * 60 * 1000;

/** Attendee V4. */
export const attendees: Group = {
	getAttendee: (call) => visibleAttendee(call, call.params.id),

	sendAttendeeQuickMail: (call) => {
		const { attendeeId, title, content } = call.body as { attendeeId: string; title: string; content: string };
		const attendee = visibleAttendee(call, attendeeId);
		const now = call.store.clock.now();
		const recent = call.store.quickMails.filter((mail) => mail.attendeeId === attendee.id && now - mail.sentAt < QUICK_MAIL_WINDOW_MS);
		if (recent.length >= QUICK_MAIL_LIMIT) {
			const oldest = recent[recent.length - QUICK_MAIL_LIMIT];
			const retryAfter = Math.ceil((oldest.sentAt + QUICK_MAIL_WINDOW_MS - now) / 1000);
			throw apiError(429, 'Quick mail limit reached: 5 emails per attendee in 5 minutes', {}, { 'Retry-After': String(retryAfter) });
		}
		call.store.quickMails.push({ attendeeId: attendee.id, title, content, sentAt: now });
		return { sent: true };
	},
};

/** An attendee is visible when its appointment is; anything else does not exist for the caller. */
function visibleAttendee({ actor, store }: Call, attendeeId: string): Attendee {
	for (const appointment of store.appointments.values()) {
		const attendee = appointment.attendees.find((candidate) => candidate.id === attendeeId);
		if (attendee && canSeeAppointment(actor, appointment)) return attendee;
	}
	throw apiError(404, 'Attendee not found');
}
