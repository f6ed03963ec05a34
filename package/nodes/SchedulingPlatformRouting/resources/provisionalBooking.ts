import type { INodeProperties } from 'n8n-workflow';

import { declareResource } from '../../shared/declare';
import { returnAllFields } from '../../shared/getMany';
import { locatorField } from '../../shared/locators';
import { provisionalBookingLocator } from '../locators';
import { meetingTypeLocator } from '../../SchedulingPlatform/records';

/**
 * Provisional Booking (api-reference §7, Beta): bookings of meeting types that need the host's approval. Confirm books
 * the slot (409 when someone took it meanwhile), Decline ends the request.
 */

const ONE = '/v4/provisional-booking/{id}';
const bookingPath = { id: 'provisionalBookingId' };

const provisionalBooking: INodeProperties = { ...locatorField('Provisional Booking', 'provisionalBookingId', 'The request to decide (the list shows pending ones)', provisionalBookingLocator), required: true };

const reason: INodeProperties = { displayName: 'Reason', name: 'reason', type: 'string', default: '', placeholder: 'e.g. Fully booked that week', description: 'Why it is declined' };

const filters: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options: [
		{ displayName: 'Meeting Type', name: 'meetingTypeId', type: 'resourceLocator', default: { mode: 'list', value: '' }, description: 'Only requests for this meeting type', ...meetingTypeLocator },
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			options: [
				{ name: 'Confirmed', value: 'confirmed' },
				{ name: 'Declined by Host', value: 'declined_by_host' },
				{ name: 'Expired', value: 'expired' },
				{ name: 'Pending', value: 'pending' },
			],
			default: 'pending',
		},
	],
};

export const { definitions: provisionalBookingOperations, properties: provisionalBookingProperties } = declareResource('provisionalBooking', {
	default: 'getAll',
	operations: {
		confirm: {
			option: { name: 'Confirm', description: 'Needs the provisional booking; returns it confirmed, with the appointment ID', action: 'Confirm a provisional booking' },
			method: 'POST',
			path: `${ONE}/confirm`,
			pathParams: bookingPath,
			fields: [provisionalBooking],
		},
		decline: {
			option: { name: 'Decline', description: 'Needs the provisional booking (Reason optional); returns it declined', action: 'Decline a provisional booking' },
			method: 'POST',
			path: `${ONE}/decline`,
			pathParams: bookingPath,
			body: { reason: { param: 'reason', check: { maxLength: 1000 } } },
			fields: [provisionalBooking, reason],
		},
		getAll: {
			option: { name: 'Get Many', description: 'Filters by status or meeting type; returns one item per request, newest first', action: 'Get many provisional bookings' },
			method: 'GET',
			path: '/v4/provisional-booking/paginated',
			query: { status: 'filters.status', meetingTypeId: 'filters.meetingTypeId' },
			pagination: { style: 'page0', itemsKey: 'provisionalBookings' },
			fields: [...returnAllFields(), filters],
		},
	},
});
