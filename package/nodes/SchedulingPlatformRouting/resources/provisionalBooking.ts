import type { INodeProperties } from 'n8n-workflow';

import { getManyFields } from '../../shared/getMany';
import type { ResourceDefinitions } from '../../shared/types';
import { provisionalBookingLocator } from '../locators';
import { meetingTypeLocator } from '../../SchedulingPlatform/records';

/**
 * Provisional Booking (api-reference §7, Beta): bookings of meeting types that need the host's approval. Confirm books
 * the slot (409 when someone took it meanwhile), Decline ends the request.
 */

const ONE = '/v4/provisional-booking/{id}';
const bookingPath = { id: 'provisionalBookingId' };

export const provisionalBookingOperations: ResourceDefinitions = {
	confirm: { method: 'POST', path: `${ONE}/confirm`, pathParams: bookingPath },
	decline: { method: 'POST', path: `${ONE}/decline`, pathParams: bookingPath, body: { reason: { param: 'reason', check: { maxLength: 1000 } } } },
	getAll: {
		method: 'GET',
		path: '/v4/provisional-booking/paginated',
		query: { status: 'filters.status', meetingTypeId: 'filters.meetingTypeId' },
		pagination: { style: 'page0', itemsKey: 'provisionalBookings' },
	},
};

const show = (operation: string[]) => ({ show: { resource: ['provisionalBooking'], operation } });

export const provisionalBookingProperties: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['provisionalBooking'] } },
		options: [
			{
				name: 'Confirm',
				value: 'confirm',
				description: 'Needs the provisional booking; returns it confirmed, with the appointment ID',
				action: 'Confirm a provisional booking',
			},
			{ name: 'Decline', value: 'decline', description: 'Needs the provisional booking (Reason optional); returns it declined', action: 'Decline a provisional booking' },
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'Filters by status or meeting type; returns one item per request, newest first',
				action: 'Get many provisional bookings',
			},
		],
		default: 'getAll',
	},
	{
		displayName: 'Provisional Booking',
		name: 'provisionalBookingId',
		type: 'resourceLocator',
		required: true,
		default: { mode: 'list', value: '' },
		displayOptions: show(['confirm', 'decline']),
		description: 'The request to decide (the list shows pending ones)',
		...provisionalBookingLocator,
	},
	{ displayName: 'Reason', name: 'reason', type: 'string', default: '', placeholder: 'e.g. Fully booked that week', displayOptions: show(['decline']), description: 'Why it is declined' },
	...getManyFields('provisionalBooking'),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: show(['getAll']),
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
	},
];
