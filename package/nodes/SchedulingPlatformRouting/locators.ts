import { locator } from '../shared/locators';

/** Resource locators of the routing records (their loaders in listSearch.ts). */

export const queueLocator = locator('searchQueues', 'Queue ID');

export const queueUserGroupLocator = locator('searchQueueUserGroups', 'Group ID');

export const templateLocator = locator('searchMeetingTypeTemplates', 'Template ID');

export const provisionalBookingLocator = locator('searchProvisionalBookings', 'Provisional Booking ID');

/** Pending attendees have numeric IDs (api-reference §7: "numeric `id`", `PATCH /v4/attendee/pending/{id}` "(numeric id)"). */
export const pendingAttendeeLocator = locator('searchPendingAttendees', 'Pending Attendee ID', 'number');
