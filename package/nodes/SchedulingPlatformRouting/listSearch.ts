import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { matches } from '../shared/listSearch';
import { recordIn } from '../shared/transport/answers';
import { MAX_PAGE_SIZE } from '../shared/transport/pagination';
import { apiRequest } from '../shared/transport/request';

/**
 * "From List" loaders of queues, their groups, templates, pending attendees (bare arrays, filtered here) and pending
 * provisional bookings (page0).
 */

const person = (user: IDataObject) => `${String(user.givenName ?? '')} ${String(user.familyName ?? '')}`.trim();

export async function searchQueues(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const queues = (await apiRequest(this, 0, { method: 'GET', path: '/v4/queue/company' })) as IDataObject[];
	const name = (queue: IDataObject) => `${String(queue.type)}: ${((queue.users ?? []) as IDataObject[]).map(person).join(', ') || 'no hosts'}`;
	return { results: queues.filter((queue) => matches(filter, name(queue), queue.id, queue.meetingTypeId)).map((queue) => ({ name: name(queue), value: String(queue.id) })) };
}

/** The groups of every queue of the company (the queues list them; there is no list of groups of its own). */
export async function searchQueueUserGroups(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const queues = (await apiRequest(this, 0, { method: 'GET', path: '/v4/queue/company' })) as IDataObject[];
	const groups = queues.flatMap((queue) => ((queue.userGroups ?? []) as IDataObject[]).map((group) => ({ group, queue })));
	const name = ({ group, queue }: { group: IDataObject; queue: IDataObject }) => `${String(group.name ?? group.id)} (${String(queue.type)} queue, ${((group.users ?? []) as IDataObject[]).map(person).join(', ') || 'no members'})`;
	return { results: groups.filter((entry) => matches(filter, name(entry), entry.group.id)).map((entry) => ({ name: name(entry), value: String(entry.group.id) })) };
}

/** Templates by their name, `meetingInfo.name` (a template has no top-level name). */
export async function searchMeetingTypeTemplates(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const templates = (await apiRequest(this, 0, { method: 'GET', path: '/v4/meeting-type-template' })) as IDataObject[];
	const name = (template: IDataObject) => String((template.meetingInfo as IDataObject | undefined)?.name ?? template.id);
	return { results: templates.filter((template) => matches(filter, name(template), template.id)).map((template) => ({ name: name(template), value: String(template.id) })) };
}

/** Pending attendees (numeric IDs) by email and name, newest first as the API lists them. */
export async function searchPendingAttendees(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const entries = (await apiRequest(this, 0, { method: 'GET', path: '/v4/attendee/pending' })) as IDataObject[];
	const name = (entry: IDataObject) => [entry.email ?? entry.phone, entry.fullname && `(${String(entry.fullname)})`].filter(Boolean).join(' ');
	return { results: entries.filter((entry) => matches(filter, name(entry), entry.id)).map((entry) => ({ name: name(entry), value: String(entry.id) })) };
}

export async function searchProvisionalBookings(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const page = Number(paginationToken ?? 0);
	const answer = (await apiRequest(this, 0, { method: 'GET', path: '/v4/provisional-booking/paginated', qs: { page, pageSize: MAX_PAGE_SIZE, status: 'pending' } })) as IDataObject;
	const bookings = (answer.provisionalBookings ?? []) as IDataObject[];
	// The request sits under `dto` (api-reference §7): each of attendee and start is read there, else at the top level.
	const name = (booking: IDataObject) => {
		const request = recordIn(booking, 'dto') ?? booking;
		const [attendee, start] = [request.attendee ?? booking.attendee, request.start ?? booking.start];
		return `${String((attendee as IDataObject | undefined)?.email ?? 'unknown')} at ${String(start ?? 'an unknown time')}`;
	};
	return {
		results: bookings.filter((booking) => matches(filter, name(booking), booking.id)).map((booking) => ({ name: name(booking), value: String(booking.id) })),
		paginationToken: (page + 1) * MAX_PAGE_SIZE < Number(answer.total ?? 0) ? String(page + 1) : undefined,
	};
}
