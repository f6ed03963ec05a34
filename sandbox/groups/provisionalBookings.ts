import { apiError } from '../errors';
import { Call, Group } from '../handler';
import { userSummary } from '../routing';
import { ProvisionalBooking, Store, User } from '../store';
import { confirmProvisional } from './booking';

/**
 * Provisional Booking V4 (Beta, api-reference §7): bookings of meeting types that need approval, waiting for the host.
 * Confirm books the slot (409 when it was taken meanwhile); decline ends it.
 */

function pendingBooking({ store, actor, params }: Call): ProvisionalBooking {
	const provisional = store.provisionalBookings.get(params.id);
	if (!provisional || provisional.companyId !== actor.company.id) throw apiError(404, 'Provisional booking not found');
	if (provisional.status !== 'pending') throw apiError(409, `The provisional booking is ${provisional.status}`);
	return provisional;
}

/** An item of the list (known: docs): the booking request under `dto`, no status. */
function listed(store: Store, provisional: ProvisionalBooking) {
	const { id, attendee, meetingTypeId, start, hostIds, queueId, bookingType, queueBookingInfo, createdAt } = provisional;
	const hosts = hostIds.map((hostId) => store.users.get(hostId)).filter((user): user is User => Boolean(user)).map(userSummary);
	return { id, dto: { attendee, meetingTypeId, start, hostIds, queueId }, type: bookingType, hosts, queueBookingInfo, meetingTypeId, createdAt, deletedAt: null };
}

function list({ store, actor, query }: Call) {
	const { page, pageSize, status, meetingTypeId } = query as { page: number; pageSize: number; status?: string; meetingTypeId?: string };
	const found = [...store.provisionalBookings.values()]
		.filter((provisional) => provisional.companyId === actor.company.id)
		.filter((provisional) => (!status || provisional.status === status) && (!meetingTypeId || provisional.meetingTypeId === meetingTypeId))
		.reverse();
	return { provisionalBookings: found.slice(page * pageSize, (page + 1) * pageSize).map((provisional) => listed(store, provisional)), total: found.length };
}

export const provisionalBookings: Group = {
	listProvisionalBookings: list,
	confirmProvisionalBooking: (call) => {
		const provisional = pendingBooking(call);
		const appointment = confirmProvisional(call.store, provisional);
		provisional.status = 'confirmed';
		return { id: provisional.id, status: provisional.status, appointmentId: appointment.id };
	},
	declineProvisionalBooking: (call) => {
		const provisional = pendingBooking(call);
		provisional.status = 'declined_by_host';
		return { id: provisional.id, status: provisional.status };
	},
};
