import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { ApiRequest } from '../../shared/transport/request';

/**
 * What the webhook trigger knows of the API (api-reference §9), in one place: the paths, the subscription's fields,
 * the event names, and the fields of a delivery it reads. A correction of the contract is a change here.
 */

/** A company has at most this many subscriptions; the API answers a 7th with 406. */
export const SUBSCRIPTION_LIMIT = 6;

/** A subscription as GET /webhooks lists it; `id` is a number in the live service, so ids are compared as strings. */
export interface Subscription {
	id: string | number;
	endpoint: string;
	description?: string | null;
	eventTypes: string[];
}

export const listSubscriptions: ApiRequest = { method: 'GET', path: '/webhooks' };

export function createSubscription(endpoint: string, eventTypes: string[], description: string): ApiRequest {
	return { method: 'POST', path: '/webhooks', body: { endpoint, eventTypes, description } };
}

/** PATCH replaces the whole list of events. */
export function updateSubscription(id: Subscription['id'], eventTypes: string[], description: string): ApiRequest {
	return { method: 'PATCH', path: '/webhooks/{id}', pathParams: { id: String(id) }, body: { eventTypes, description } };
}

export function deleteSubscription(id: Subscription['id']): ApiRequest {
	return { method: 'DELETE', path: '/webhooks/{id}', pathParams: { id: String(id) } };
}

export function getAppointment(id: string): ApiRequest {
	return { method: 'GET', path: '/v4/appointment/{id}', pathParams: { id } };
}

/** Every event name the API accepts on a subscription, as `eventTypes` and as a delivery's `webhookType`. */
export const eventOptions: INodePropertyOptions[] = [
	{ name: 'Booking Cancelled', value: 'booking_cancelled', description: 'An appointment is cancelled, or an attendee is removed from a group booking' },
	{ name: 'Booking Created', value: 'booking_created', description: 'A new appointment is booked' },
	{ name: 'Booking Rescheduled', value: 'booking_rescheduled', description: 'An appointment moves to another time' },
	{ name: 'Credential Error', value: 'credential_error', description: 'A connected credential (such as a calendar connection) fails' },
	{ name: 'Form Submission', value: 'form_submission', description: 'A routing form or funnel is submitted' },
	{ name: 'New Employee', value: 'new_employee', description: 'A user is added to the company' },
	{ name: 'Review Published', value: 'review_published', description: 'A review is published' },
	{ name: 'Review Submitted', value: 'review_submitted', description: 'A review is submitted' },
	{ name: 'Signature Completed', value: 'signature_completed', description: 'A signature is completed' },
];

export const eventsProperty: INodeProperties = {
	displayName: 'Events',
	name: 'events',
	type: 'multiOptions',
	required: true,
	options: eventOptions,
	default: ['booking_created'],
};

/** The events whose delivery carries an appointment: the filters and the verification apply to them. */
export const BOOKING_EVENTS = ['booking_created', 'booking_cancelled', 'booking_rescheduled'];

/** One delivery: its event name and its data, flat. */
export interface Delivery {
	webhookType: string;
	data: IDataObject;
}

const isObject = (value: unknown): value is IDataObject => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The delivery in a request body: the flat form `{ webhookType, ...data }`, or the older `{ event, data }`.
 * Anything else (no event name) is no delivery.
 */
export function deliveryOf(body: unknown): Delivery | undefined {
	if (!isObject(body)) return undefined;
	const { webhookType, ...data } = body;
	if (typeof webhookType === 'string' && webhookType) return { webhookType, data };
	if (typeof body.event === 'string' && body.event && isObject(body.data)) return { webhookType: body.event, data: body.data };
	return undefined;
}

/**
 * What makes a delivery the same as another, as it came (api-reference §9's key): event, id and version (a
 * reschedule's moment, else the last update). A delivery without an id (the bodies of non-booking events are not
 * documented) is keyed by its whole data. A verified booking event is recorded by verifiedKey.
 */
export function deliveryKey({ webhookType, data }: Delivery): string {
	if (data.id === undefined || data.id === null) return `${webhookType}|${JSON.stringify(data)}`;
	const version = webhookType === 'booking_rescheduled' ? data.rescheduledAt : data.updatedAt;
	return `${webhookType}|${String(data.id)}|${String(version ?? '')}`;
}

/**
 * When a booking event happened, as the API's appointment says: its creation (`createdAt`), its reschedule
 * (`rescheduledAt`), its cancellation (`cancel.actionAt`; an attendee leaving a group booking: the appointment's
 * `updatedAt`), in ISO form (UTC); null when the appointment has none that reads as a moment.
 */
export function eventTimeOf(webhookType: string, appointment: IDataObject): string | null {
	const cancelledAt = appointment.isCancelled === true && isObject(appointment.cancel) ? appointment.cancel.actionAt : undefined;
	const moment = { booking_created: appointment.createdAt, booking_rescheduled: appointment.rescheduledAt, booking_cancelled: cancelledAt ?? appointment.updatedAt }[webhookType];
	const at = typeof moment === 'string' || typeof moment === 'number' ? new Date(moment).getTime() : NaN;
	return Number.isNaN(at) ? null : new Date(at).toISOString();
}

/**
 * What makes a verified booking event the same as another: event, appointment id and the API's moment of it
 * (eventTimeOf). Taken from the API's appointment, so a delivery with invented fields cannot make a new one.
 */
export function verifiedKey(webhookType: string, appointment: IDataObject): string {
	return `${webhookType}|${String(appointment.id)}|${eventTimeOf(webhookType, appointment) ?? ''}`;
}

/** The booking's meeting type ID, from `meetingTypeId` or the embedded `meetingType`. */
export function meetingTypeOf(data: IDataObject): string | undefined {
	const id = data.meetingTypeId ?? (isObject(data.meetingType) ? data.meetingType.id : undefined);
	return id === undefined || id === null ? undefined : String(id);
}

export function hostsOf(data: IDataObject): string[] {
	return Array.isArray(data.hostIds) ? data.hostIds.map(String) : [];
}

export function appointmentIdOf(data: IDataObject): string | undefined {
	return typeof data.id === 'string' || typeof data.id === 'number' ? String(data.id) : undefined;
}

const sameMoment = (a: unknown, b: unknown) => (a === undefined || a === null ? b === undefined || b === null : Date.parse(String(a)) === Date.parse(String(b)));

/**
 * Why the API's appointment contradicts a booking delivery, or undefined when it does not. A cancellation counts
 * when the appointment or one of its attendees (a group booking) is cancelled; a reschedule when the appointment
 * has the delivery's start and rescheduledAt.
 */
export function contradiction(delivery: Delivery, appointment: IDataObject): string | undefined {
	const { webhookType, data } = delivery;
	if (webhookType === 'booking_cancelled') {
		const attendees = Array.isArray(appointment.attendees) ? (appointment.attendees as IDataObject[]) : [];
		const cancelled = appointment.isCancelled === true || attendees.some((attendee) => attendee.isCancelled === true);
		return cancelled ? undefined : 'the appointment is not cancelled';
	}
	if (webhookType === 'booking_rescheduled') {
		if (!sameMoment(data.start, appointment.start)) return 'the appointment starts at another time';
		if (!sameMoment(data.rescheduledAt, appointment.rescheduledAt)) return 'the appointment was rescheduled at another moment';
	}
	return undefined;
}
