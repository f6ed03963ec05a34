import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { fixedValue, matches } from '../shared/listSearch';
import { MAX_PAGE_SIZE } from '../shared/transport/pagination';
import { apiRequest } from '../shared/transport/request';
import type { SlotAnswer } from './resources/booking';
import { SLOT_LIST_DAYS, defaultHosts, meetingTypeRequest, openSlots } from './resources/booking';

/**
 * "From List" loaders of the scheduling resources (availabilities, appointments, open slots; meeting types: records.ts);
 * users: shared/listSearch.ts, the acting user's list.
 */

export async function searchAvailabilities(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const availabilities = (await apiRequest(this, 0, { method: 'GET', path: '/availability' })) as IDataObject[];
	return {
		results: availabilities
			.filter((availability) => matches(filter, availability.name, availability.timezone, availability.id))
			.map((availability) => ({
				name: `${String(availability.name)} (${String(availability.timezone)})${availability.isDefault ? ', default' : ''}`,
				value: String(availability.id),
			})),
	};
}

/** Appointments, the newest start first; the API searches attendee names and emails itself. */
export async function searchAppointments(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const page = Number(paginationToken ?? 0);
	const qs: IDataObject = { page, pageSize: MAX_PAGE_SIZE, sortBy: 'appointment.start', sortDirection: 'DESC' };
	if (filter) qs.search = filter;
	const answer = (await apiRequest(this, 0, { method: 'GET', path: '/v4/appointment/paginated', qs })) as IDataObject;
	const appointments = (answer.appointments ?? []) as IDataObject[];
	return {
		results: appointments.map((appointment) => ({ name: appointmentName(appointment), value: String(appointment.id) })),
		paginationToken: (page + 1) * MAX_PAGE_SIZE < Number(answer.total ?? 0) ? String(page + 1) : undefined,
	};
}

function appointmentName(appointment: IDataObject): string {
	const attendees = (appointment.attendees ?? []) as IDataObject[];
	const who = attendees.map((attendee) => attendee.fullname || attendee.email).join(', ');
	const what = String((appointment.meetingInfo as IDataObject)?.name ?? 'Appointment');
	const cancelled = appointment.isCancelled ? ' (cancelled)' : '';
	return `${String(appointment.start)} · ${what}${who ? ` with ${who}` : ''}${cancelled}`;
}

const DAY_MS = 86_400_000;
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** A slot as the API gives it, in its local time: "Mon 2027-03-08, 10:00 (Europe/Berlin)". */
function slotName({ startTime, date, timezone }: ReturnType<typeof openSlots>[number]): string {
	return `${WEEKDAYS[new Date(`${date}T00:00:00Z`).getUTCDay()]} ${date}, ${startTime.slice(11, 16)} (${timezone})`;
}

/**
 * The hosts and length the list asks for: Hosts, Queue ID and Duration as Create sends them when they are fixed
 * values (an expression is known only when the node runs), else the meeting type's queue or host.
 */
async function slotQuery(ctx: ILoadOptionsFunctions, meetingTypeId: string): Promise<IDataObject> {
	const fields = (ctx.getCurrentNodeParameter('additionalFields') ?? {}) as IDataObject;
	const hostIds = Array.isArray(fields.hostIds) ? fields.hostIds.map(fixedValue).filter(Boolean) : [];
	const queueId = fixedValue(fields.queueId);
	const hosts = hostIds.length ? { hostIds } : queueId ? { queueId } : defaultHosts((await apiRequest(ctx, 0, meetingTypeRequest(meetingTypeId))) as IDataObject);
	return typeof fields.duration === 'number' ? { ...hosts, meetingDuration: fields.duration } : hosts;
}

/**
 * Booking → Create's Start: the open slots of the chosen meeting type from today (UTC) to SLOT_LIST_DAYS - 1 days
 * ahead, in one request, each in the host's time zone as the API answers; the value is the slot's start with its offset.
 */
export async function searchOpenSlots(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const meetingTypeId = fixedValue(this.getCurrentNodeParameter('meetingTypeId'));
	if (!meetingTypeId) {
		throw new NodeOperationError(this.getNode(), 'Choose a Meeting Type first', { description: 'The list shows the open slots of the meeting type chosen above.' });
	}
	const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);
	const { hostIds, queueId, meetingDuration } = await slotQuery(this, meetingTypeId);
	const qs = { meetingTypeId, start: day(0), end: day(SLOT_LIST_DAYS - 1), hostIds, queueId, meetingDuration };
	const answer = (await apiRequest(this, 0, { method: 'GET', path: '/v4/booking-availability', qs, needsUserContext: false })) as SlotAnswer;
	return {
		results: openSlots(answer)
			.map((slot) => ({ name: slotName(slot), value: slot.startTime }))
			.filter((slot) => matches(filter, slot.name, slot.value)),
	};
}
