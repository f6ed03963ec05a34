import { locator } from '../shared/locators';

/** Resource locators of the scheduling resources (their loaders in listSearch.ts). */

export const meetingTypeLocator = locator('searchMeetingTypes', 'e.g. 3b9d6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f');

export const appointmentLocator = locator('searchAppointments', 'e.g. 3b9d6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f');
