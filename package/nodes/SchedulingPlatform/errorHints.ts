import type { ErrorHints } from '../shared/transport/errors';

/**
 * How to fix the Scheduling API's own error sentences (first match wins), more precise than the fix for the HTTP status:
 * the executor puts the first that matches the API's words into the error's description and hint (shared/transport/errors.ts).
 */
export const schedulingErrorHints: ErrorHints = [
	[/requested time slot is not available/i, 'Take a start time from Booking → Get Open Slots for this meeting type (and hosts) in the same time zone; when rescheduling, pass the appointment as Rescheduling Appointment there, or turn on Ignore Availability.'],
	[/new host is not available/i, 'Pick a host who is free at the appointment\'s time (Handoff → Get Handoff Options shows who is), or turn on Ignore Availability.'],
	[/cancelled appointment cannot be/i, 'The appointment is cancelled and can no longer be changed: book a new one with Booking → Create (Appointment → Get shows its state).'],
	[/appointment is already cancelled/i, 'Nothing to do: the appointment was cancelled before (Appointment → Get shows its state).'],
	[/attendee is already cancelled/i, 'Nothing to do: the attendee was cancelled before (Attendee → Get shows its state).'],
	[/meeting type is disabled/i, 'Turn the meeting type on with Meeting Type → Update (Enabled), or book another meeting type.'],
	[/meeting type with this slug already exists/i, 'Slugs are unique within the company: choose another Slug, or leave it empty so the API makes one from the name.'],
	[/user with this slug already exists/i, 'Slugs are unique within the company: choose another Slug for this user.'],
	[/user with this email already exists/i, 'Each email belongs to one user: find the existing user with User → Get Many, or create the user with another email.'],
	[/company owner cannot be deleted/i, 'The company owner stays: delete another user, or transfer the ownership in the dashboard first.'],
	[/default availability cannot be deleted/i, 'Every user keeps a default availability: change it with Availability → Update instead, or make another availability the default in the dashboard first.'],
	[/availability is used by a meeting type/i, 'Give the meeting types that use it another availability in the dashboard first, or delete them with Meeting Type → Delete.'],
	[/guest is already invited/i, 'Nothing to do: this email is already a guest of the appointment.'],
	[/^Host not found$/i, 'Every host must be a user of the company: pick the hosts from the list, or check their IDs with User → Get Many.'],
	[/Expected hostIds or queueId/i, 'Pick Hosts, or give a Queue ID, or leave both empty so the node reads them from the meeting type.'],
	[/Quick mail limit reached/i, 'Each quick mail counts against its attendee for 5 minutes: wait up to 5 minutes before mailing this attendee again, or space the mails out (for example with a Wait node).'],
];
