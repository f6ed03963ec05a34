import { locator } from '../shared/locators';

/** Resource locators of the scheduling resources (their loaders in listSearch.ts; meeting types: records.ts). */

export const appointmentLocator = locator('searchAppointments', 'Appointment ID');

export const availabilityLocator = locator('searchAvailabilities', 'Availability ID');
