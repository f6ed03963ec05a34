import { Group } from '../handler';
import { accountingExport } from './accountingExport';
import { appointments } from './appointments';
import { attendees } from './attendees';
import { availability } from './availability';
import { availabilityExceptions } from './availabilityExceptions';
import { booking } from './booking';
import { bookingAvailability } from './bookingAvailability';
import { billingRuns } from './billingRuns';
import { bookingLinks } from './bookingLinks';
import { calendarConnections } from './calendarConnections';
import { communications } from './communications';
import { crmCompanies } from './crmCompanies';
import { crmSettings } from './crmSettings';
import { deals } from './deals';
import { contacts } from './contacts';
import { dataFields } from './dataFields';
import { emails } from './emails';
import { handoff } from './handoff';
import { invoiceDocuments } from './invoiceDocuments';
import { invoiceProducts } from './invoiceProducts';
import { invoiceSettings } from './invoiceSettings';
import { meetingTypes } from './meetingTypes';
import { meetingTypeTemplates } from './meetingTypeTemplates';
import { messenger } from './messenger';
import { notes } from './notes';
import { pendingAttendees } from './pendingAttendees';
import { personalPage } from './personalPage';
import { provisionalBookings } from './provisionalBookings';
import { queues } from './queues';
import { queueUserGroups } from './queueUserGroups';
import { recurringInvoices } from './recurringInvoices';
import { signatures } from './signatures';
import { tasks } from './tasks';
import { pipelines } from './pipelines';
import { users } from './users';
import { webhooks } from './webhooks';

/** Every operationId of the contract has its handler here: one line per group. */
export const handlers: Group = {
	...users,
	...meetingTypes,
	...availability,
	...availabilityExceptions,
	...bookingAvailability,
	...booking,
	...appointments,
	...attendees,
	...calendarConnections,
	...bookingLinks,
	...personalPage,
	...handoff,
	...tasks,
	...notes,
	...communications,
	...crmCompanies,
	...deals,
	...pipelines,
	...crmSettings,
	...contacts,
	...dataFields,
	...emails,
	...signatures,
	...messenger,
	...invoiceDocuments,
	...invoiceProducts,
	...invoiceSettings,
	...recurringInvoices,
	...billingRuns,
	...accountingExport,
	...queues,
	...queueUserGroups,
	...meetingTypeTemplates,
	...pendingAttendees,
	...provisionalBookings,
	...webhooks,
};
