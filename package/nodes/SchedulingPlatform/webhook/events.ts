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

/** What an event whose delivery carries an appointment adds: the filters and the verification apply to it. */
interface BookingEvent {
	/** When it happened, as the API's appointment says (eventTimeOf). */
	happenedAt: (appointment: IDataObject) => unknown;
	/** The delivery's field that tells one version of the event from another (deliveryKey); updatedAt when not given. */
	version?: string;
	/** Why the API's appointment contradicts the delivery (contradiction), or undefined when it does not. */
	contradiction?: (data: IDataObject, appointment: IDataObject) => string | undefined;
}

/** One webhook event, declared in one entry: its option in the Events list and, for a booking event, what it carries. */
interface WebhookEvent {
	name: string;
	description: string;
	booking?: BookingEvent;
}

const sameMoment = (a: unknown, b: unknown) => (a === undefined || a === null ? b === undefined || b === null : Date.parse(String(a)) === Date.parse(String(b)));

/**
 * Every event name the API accepts on a subscription, as `eventTypes` and as a delivery's `webhookType`. A booking's
 * moment: its creation (`createdAt`), its reschedule (`rescheduledAt`), its cancellation (`cancel.actionAt`; an
 * attendee leaving a group booking: the appointment's `updatedAt`). A cancellation is contradicted when neither the
 * appointment nor one of its attendees (a group booking) is cancelled; a reschedule when the appointment has another
 * start or rescheduledAt.
 */
const WEBHOOK_EVENTS: Record<string, WebhookEvent> = {
	booking_cancelled: {
		name: 'Booking Cancelled',
		description: 'An appointment is cancelled, or an attendee is removed from a group booking',
		booking: {
			happenedAt: (appointment) => (appointment.isCancelled === true && isObject(appointment.cancel) ? appointment.cancel.actionAt : undefined) ?? appointment.updatedAt,
			contradiction: (_data, appointment) => {
				const attendees = Array.isArray(appointment.attendees) ? (appointment.attendees as IDataObject[]) : [];
				return appointment.isCancelled === true || attendees.some((attendee) => attendee.isCancelled === true) ? undefined : 'the appointment is not cancelled';
			},
		},
	},
	booking_created: { name: 'Booking Created', description: 'A new appointment is booked', booking: { happenedAt: (appointment) => appointment.createdAt } },
	booking_rescheduled: {
		name: 'Booking Rescheduled',
		description: 'An appointment moves to another time',
		booking: {
			happenedAt: (appointment) => appointment.rescheduledAt,
			version: 'rescheduledAt',
			contradiction: (data, appointment) => {
				if (!sameMoment(data.start, appointment.start)) return 'the appointment starts at another time';
				return sameMoment(data.rescheduledAt, appointment.rescheduledAt) ? undefined : 'the appointment was rescheduled at another moment';
			},
		},
	},
	credential_error: { name: 'Credential Error', description: 'A connected credential (such as a calendar connection) fails' },
	form_submission: { name: 'Form Submission', description: 'A routing form or funnel is submitted' },
	new_employee: { name: 'New Employee', description: 'A user is added to the company' },
	review_published: { name: 'Review Published', description: 'A review is published' },
	review_submitted: { name: 'Review Submitted', description: 'A review is submitted' },
	signature_completed: { name: 'Signature Completed', description: 'A signature is completed' },
};

export const eventOptions: INodePropertyOptions[] = Object.entries(WEBHOOK_EVENTS).map(([value, { name, description }]) => ({ name, value, description }));

export const eventsProperty: INodeProperties = {
	displayName: 'Events',
	name: 'events',
	type: 'multiOptions',
	required: true,
	options: eventOptions,
	default: ['booking_created'],
};

/** The events whose delivery carries an appointment: the filters and the verification apply to them. */
export const BOOKING_EVENTS = Object.keys(WEBHOOK_EVENTS).filter((event) => WEBHOOK_EVENTS[event].booking);

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
	const version = data[WEBHOOK_EVENTS[webhookType]?.booking?.version ?? 'updatedAt'];
	return `${webhookType}|${String(data.id)}|${String(version ?? '')}`;
}

/** When a booking event happened, as the API's appointment says, in ISO form (UTC); null when it has no moment for it. */
export function eventTimeOf(webhookType: string, appointment: IDataObject): string | null {
	const moment = WEBHOOK_EVENTS[webhookType]?.booking?.happenedAt(appointment);
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

/** Why the API's appointment contradicts a booking delivery, or undefined when it does not. */
export function contradiction({ webhookType, data }: Delivery, appointment: IDataObject): string | undefined {
	return WEBHOOK_EVENTS[webhookType]?.booking?.contradiction?.(data, appointment);
}
