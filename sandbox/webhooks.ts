import { request as httpRequest, RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import { Appointment, MEETING_INFO_DEFAULTS, perStore, Store, User } from './store';

/**
 * Webhooks (api-reference §9): the subscriptions of each company and the deliveries of their events. A change
 * calls `emit` (or `emitBooking`) once; each subscription of the company that lists the event then gets an HTTP
 * POST of the flat JSON body `{ webhookType, ...data }`, sent after the API's answer and never failing it. The
 * control API adds delivery faults (repeats, delays, drops, the older `{ event, data }` form) and reads the log.
 */

export const EVENT_TYPES = [
	'booking_created',
	'booking_cancelled',
	'booking_rescheduled',
	'form_submission',
	'new_employee',
	'review_submitted',
	'review_published',
	'credential_error',
	'signature_completed',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];
export type BookingEvent = Extract<EventType, `booking_${string}`>;

export const MAX_WEBHOOKS = 6;
const TIMEOUT_MS = 30_000;
/** The pause between the repeats of one delivery, unless a fault's delayMs says otherwise. */
const REPEAT_GAP_MS = 50;

export interface Webhook {
	/** A number, as in the live service, counted per store from 101. */
	id: number;
	endpoint: string;
	description: string | null;
	eventTypes: EventType[];
	companyId: string;
	createdAt: string;
}

/** What the next events with a subscription go through (`times` of them). */
export interface DeliveryFault {
	/** Deliveries of each subscription in all (a receiver must take repeats). */
	repeat: number;
	/** Before the first delivery and between repeats. */
	delayMs: number | null;
	/** Nothing is sent (logged with an error). */
	drop: boolean;
	/** The older `{ event, data }` form instead of the flat body. */
	envelope: boolean;
	times: number;
}

export interface Delivery {
	webhookId: number;
	endpoint: string;
	webhookType: EventType;
	body: unknown;
	/** The receiver's HTTP status; null when it did not answer or nothing was sent. */
	status: number | null;
	error: string | null;
	sentAt: string;
	/** When the POST went out and how long the receiver took to answer it (its status line), in real time; null without an answer. */
	postedAtMs: number | null;
	answeredInMs: number | null;
}

interface WebhookState {
	webhooks: Webhook[];
	nextId: number;
	faults: DeliveryFault[];
	deliveries: Delivery[];
}

export const webhooksOf = perStore<WebhookState>(() => ({ webhooks: [], nextId: 101, faults: [], deliveries: [] }));

/**
 * Delivers the event to each subscription of the company that lists it; the body is a snapshot of `data` now.
 * Returns how many subscriptions it goes to.
 */
export function emit(store: Store, companyId: string, webhookType: EventType, data: object): number {
	const state = webhooksOf(store);
	const targets = state.webhooks.filter((webhook) => webhook.companyId === companyId && webhook.eventTypes.includes(webhookType));
	if (!targets.length) return 0;
	const fault = takeFault(state);
	const snapshot = JSON.parse(JSON.stringify(data)) as Record<string, unknown>;
	const body = fault?.envelope ? { event: webhookType, data: snapshot } : { webhookType, ...snapshot };
	for (const webhook of targets) void deliver(store, webhook, webhookType, body, fault);
	return targets.length;
}

export function emitBooking(store: Store, webhookType: BookingEvent, appointment: Appointment): number {
	return emit(store, appointment.companyId, webhookType, bookingBody(store, appointment));
}

/** The appointment as a booking delivery carries it: exactly the fields of api-reference §9, null where the store has nothing. */
export function bookingBody(store: Store, appointment: Appointment): Record<string, unknown> {
	const meetingType = store.meetingTypes.get(appointment.meetingTypeId);
	const hosts = appointment.hostIds.map((id) => store.users.get(id)).filter((user): user is User => user !== undefined);
	return {
		id: appointment.id,
		secret: appointment.secret,
		start: appointment.start,
		end: appointment.end,
		location: appointment.location,
		isCancelled: appointment.isCancelled,
		rescheduledAt: appointment.rescheduledAt,
		meetingInfo: { channel: appointment.meetingInfo.channel, meetingLink: appointment.meetingInfo.customChannelLink },
		attendees: appointment.attendees.map(({ id, email, firstname, lastname, fullname, phone, timezone, language }) => ({
			id,
			email,
			firstname,
			lastname,
			fullname,
			phone,
			timezone,
			language,
		})),
		hosts: hosts.map(hostOf),
		hostIds: appointment.hostIds,
		meetingType: meetingType ? { id: meetingType.id, slug: meetingType.slug, meetingInfo: meetingType.meetingInfo, metadata: meetingType.metadata ?? null } : null,
		meetingTypeId: appointment.meetingTypeId,
		companyId: appointment.companyId,
		createdAt: appointment.createdAt,
		updatedAt: appointment.updatedAt,
	};
}

/** A host as a booking delivery names them (designed: the reference lists `hosts` without its fields). */
function hostOf(user: User) {
	const { id, email, givenName, familyName, fullName, timezone } = user;
	return { id, email, givenName, familyName, fullName, timezone };
}

/** The first fault, counting one use of it. */
function takeFault(state: WebhookState): DeliveryFault | undefined {
	const fault = state.faults[0];
	if (fault && --fault.times === 0) state.faults.shift();
	return fault;
}

/** The deliveries to one subscription, one after another; a deleted subscription (or a reset) stops them. */
async function deliver(store: Store, webhook: Webhook, webhookType: EventType, body: object, fault?: DeliveryFault): Promise<void> {
	const state = webhooksOf(store);
	const entry = () => ({ webhookId: webhook.id, endpoint: webhook.endpoint, webhookType, body, status: null, error: null, sentAt: store.clock.iso(), postedAtMs: null, answeredInMs: null });
	if (fault?.drop) {
		state.deliveries.push({ ...entry(), error: 'Dropped by a delivery fault' });
		return;
	}
	for (let attempt = 0; attempt < (fault?.repeat ?? 1); attempt++) {
		// A timer even without delay: the delivery goes after the API's answer.
		await sleep(fault?.delayMs ?? (attempt ? REPEAT_GAP_MS : 0), undefined, { ref: false });
		if (!state.webhooks.includes(webhook)) return;
		const delivery: Delivery = { ...entry(), postedAtMs: Date.now() };
		try {
			delivery.status = await post(webhook.endpoint, body);
			delivery.answeredInMs = Date.now() - (delivery.postedAtMs as number);
		} catch (error) {
			delivery.error = (error as Error).message;
		}
		state.deliveries.push(delivery);
	}
}

/** POSTs the JSON body; resolves with the receiver's status. No keep-alive: a receiver closes at once. */
function post(endpoint: string, body: object): Promise<number> {
	const payload = JSON.stringify(body);
	const headers = { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) };
	const options: RequestOptions = { method: 'POST', headers, agent: false, timeout: TIMEOUT_MS };
	return new Promise((resolve, reject) => {
		const url = new URL(endpoint);
		const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
		const request = send(url, options, (response) => {
			response.resume();
			resolve(response.statusCode ?? 0);
		});
		request.on('timeout', () => request.destroy(new Error(`No answer within ${TIMEOUT_MS / 1000} s`)));
		request.on('error', reject);
		request.end(payload);
	});
}

/** A fault for the next `times` events that have a subscription; faults are used in the order added. */
export function addDeliveryFault(store: Store, input: Partial<DeliveryFault>): DeliveryFault {
	const { repeat = 1, delayMs = null, drop = false, envelope = false, times = 1 } = input;
	const fault = { repeat, delayMs, drop, envelope, times };
	webhooksOf(store).faults.push(fault);
	return fault;
}

/** Sample ids: clearly not records of the sandbox. */
const sampleId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const HOUR_MS = 3600_000;
const SAMPLE_HOST = { id: sampleId(3), email: 'sam.sample@example.com', givenName: 'Sam', familyName: 'Sample', fullName: 'Sam Sample', timezone: 'Europe/Berlin' };

/** What a test event carries when no appointment or data is given (the editor's "Listen for test event"). */
export function sampleData(store: Store, companyId: string, webhookType: EventType): object {
	const now = store.clock.iso();
	if (webhookType.startsWith('booking_')) return sampleAppointment(store, companyId, webhookType);
	const samples: Record<Exclude<EventType, BookingEvent>, object> = {
		form_submission: { id: sampleId(11), formId: sampleId(12), formName: 'Sample form', answers: { Name: 'Jane Sample', Email: 'jane.sample@example.com' }, companyId, submittedAt: now },
		new_employee: { ...SAMPLE_HOST, slug: 'sam-sample', language: 'en', userType: 'standard', isAdmin: false, companyId, picture: null, title: null, createdAt: now, updatedAt: now },
		review_submitted: { id: sampleId(21), rating: 5, comment: 'Great meeting.', authorName: 'Jane Sample', companyId, createdAt: now },
		review_published: { id: sampleId(21), rating: 5, comment: 'Great meeting.', authorName: 'Jane Sample', companyId, createdAt: now, publishedAt: now },
		credential_error: { userId: sampleId(3), provider: 'google', email: 'sam.sample@example.com', message: 'The calendar connection needs to be authorised again', companyId, occurredAt: now },
		signature_completed: { id: sampleId(31), title: 'Sample contract', status: 'completed', signers: [{ name: 'Jane Sample', email: 'jane.sample@example.com', signedAt: now }], companyId, completedAt: now },
	};
	return samples[webhookType as Exclude<EventType, BookingEvent>];
}

/** An appointment tomorrow at the next full hour, as the event leaves it. */
function sampleAppointment(store: Store, companyId: string, webhookType: EventType) {
	const now = store.clock.now();
	const start = Math.ceil(now / HOUR_MS) * HOUR_MS + 24 * HOUR_MS;
	const meetingInfo = { ...MEETING_INFO_DEFAULTS, name: 'Sample Meeting', channel: 'google' };
	const attendee = { id: sampleId(2), email: 'jane.sample@example.com', firstname: 'Jane', lastname: 'Sample', fullname: 'Jane Sample', phone: null, timezone: 'Europe/Berlin', language: 'en' };
	return {
		id: sampleId(1),
		secret: '0000000000000000000000000sample1',
		start: store.clock.iso(start),
		end: store.clock.iso(start + meetingInfo.duration * 60_000),
		location: null,
		isCancelled: webhookType === 'booking_cancelled',
		rescheduledAt: webhookType === 'booking_rescheduled' ? store.clock.iso(now) : null,
		meetingInfo: { channel: meetingInfo.channel, meetingLink: null },
		attendees: [attendee],
		hosts: [SAMPLE_HOST],
		hostIds: [SAMPLE_HOST.id],
		meetingType: { id: sampleId(4), slug: 'sample-meeting', meetingInfo, metadata: null },
		meetingTypeId: sampleId(4),
		companyId,
		createdAt: store.clock.iso(now),
		updatedAt: store.clock.iso(now),
	};
}

/** A reset: the old store's deliveries still waiting stop. */
export function stopDeliveries(store: Store): void {
	webhooksOf(store).webhooks = [];
}
