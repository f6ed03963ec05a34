import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { userLocator } from '../../shared/locators';
import type { WatchedEvent } from '../../shared/trigger/watch';
import { meetingTypeLocator } from '../../SchedulingPlatform/locators';

/**
 * Booking events (api-reference §8): appointments newest first. New Booking sorts by creation time (known);
 * cancellations and reschedules sort by update time (designed), and the moment of the event is the cancel's
 * actionAt or rescheduledAt.
 */

const APPOINTMENTS = '/v4/appointment/paginated';
const pagination = { style: 'page0', itemsKey: 'appointments' } as const;
const filters = { meetingTypeId: 'bookingFilters.meetingType', userId: 'bookingFilters.host' };
const detail = { path: '/v4/appointment/{id}' };
const byUpdate = { sortBy: 'appointment.updatedAt', sortDirection: 'DESC' };

export const bookingEvents: Record<string, WatchedEvent> = {
	newBooking: {
		noun: 'booking',
		list: { path: APPOINTMENTS, qs: { sortBy: 'appointment.createdAt', sortDirection: 'DESC' }, pagination },
		filters,
		happenedAt: (appointment) => appointment.createdAt,
		detail,
	},
	bookingCancelled: {
		noun: 'cancelled booking',
		list: { path: APPOINTMENTS, qs: { ...byUpdate, status: 'cancelled' }, pagination },
		filters,
		happenedAt: (appointment) => (appointment.isCancelled ? ((appointment.cancel as IDataObject | null)?.actionAt ?? appointment.updatedAt) : undefined),
		sortedBy: (appointment) => appointment.updatedAt,
		detail,
	},
	bookingRescheduled: {
		noun: 'rescheduled booking',
		list: { path: APPOINTMENTS, qs: byUpdate, pagination },
		filters,
		happenedAt: (appointment) => (Number(appointment.rescheduleCount ?? 0) > 0 ? appointment.rescheduledAt : undefined),
		sortedBy: (appointment) => appointment.updatedAt,
		key: (appointment) => `${String(appointment.id)}:${String(appointment.rescheduleCount)}`,
		detail,
	},
};

export const bookingEventOptions = [
	{ name: 'New Booking', value: 'newBooking', description: 'A booking is made (an appointment is created)' },
	{ name: 'Booking Cancelled', value: 'bookingCancelled', description: 'A booking is cancelled' },
	{ name: 'Booking Rescheduled', value: 'bookingRescheduled', description: 'A booking moves to another time (each move fires once)' },
];

export const bookingFilterProperties: INodeProperties[] = [
	{
		displayName: 'Filters',
		name: 'bookingFilters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show: { event: Object.keys(bookingEvents) } },
		options: [
			{
				displayName: 'Meeting Type',
				name: 'meetingType',
				type: 'resourceLocator',
				default: { mode: 'list', value: '' },
				description: 'Only bookings of this meeting type',
				...meetingTypeLocator,
			},
			{
				displayName: 'Host',
				name: 'host',
				type: 'resourceLocator',
				default: { mode: 'list', value: '' },
				description: 'Only bookings this user hosts. Watching another user than yourself needs an admin.',
				...userLocator,
			},
		],
	},
];
