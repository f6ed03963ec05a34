import { uuidValidation } from '../shared/inputChecks';
import { locator } from '../shared/locators';

/** Resource locators of the routing records (their loaders in listSearch.ts). */

const EXAMPLE_ID = 'e.g. 3b9d6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f';

export const queueLocator = locator('searchQueues', EXAMPLE_ID, uuidValidation('Queue ID'));

export const queueUserGroupLocator = locator('searchQueueUserGroups', EXAMPLE_ID, uuidValidation('Group ID'));

export const templateLocator = locator('searchMeetingTypeTemplates', EXAMPLE_ID, uuidValidation('Template ID'));

export const provisionalBookingLocator = locator('searchProvisionalBookings', EXAMPLE_ID, uuidValidation('Provisional Booking ID'));

/** Pending attendees have numeric IDs. */
export const pendingAttendeeLocator = locator('searchPendingAttendees', 'e.g. 42', [
	{ type: 'regex', properties: { regex: '^(\\d+)?$', errorMessage: 'Pending Attendee ID must be a number, such as 42' } },
]);
