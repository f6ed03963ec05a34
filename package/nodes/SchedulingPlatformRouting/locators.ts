import { locator } from '../shared/locators';

/** Resource locators of the routing records (their loaders in listSearch.ts). */

export const queueLocator = locator('searchQueues', 'Queue ID');

export const queueUserGroupLocator = locator('searchQueueUserGroups', 'Group ID');

export const templateLocator = locator('searchMeetingTypeTemplates', 'Template ID');

export const provisionalBookingLocator = locator('searchProvisionalBookings', 'Provisional Booking ID');

/** Pending attendees have numeric IDs. */
export const pendingAttendeeLocator = locator('searchPendingAttendees', 'Pending Attendee ID', 'number');
