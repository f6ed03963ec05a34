import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { matches } from '../shared/listSearch';
import { MAX_PAGE_SIZE } from '../shared/transport/pagination';
import { apiRequest } from '../shared/transport/request';

/** "From List" loaders of the scheduling resources (availabilities, appointments; meeting types: nodes/shared/records/scheduling.ts); users are shared. */

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
