import { locator } from '../shared/locators';

/** Resource locators of the scheduling resources (their loaders in listSearch.ts). */

export const meetingTypeLocator = locator('searchMeetingTypes', 'Meeting Type ID');

export const appointmentLocator = locator('searchAppointments', 'Appointment ID');

export const availabilityLocator = locator('searchAvailabilities', 'Availability ID');
