import type { IDataObject, INodeProperties, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { checkedParameter, isEmpty, propertyOf, readCheckedParameter } from '../../shared/inputChecks';
import { hashKey } from '../../shared/trigger/watermark';
import { asNodeError, isApiStatus } from '../../shared/transport/errors';
import { apiRequest } from '../../shared/transport/request';
import type { Delivery } from './events';
import { chosenEvents } from './subscriptions';
import { claim, record, release } from '../../shared/trigger/dedupe';
import { BOOKING_EVENTS, appointmentIdOf, contradiction, deliveryKey, deliveryOf, eventTimeOf, getAppointment, hostsOf, meetingTypeOf, verifiedKey } from './events';

/**
 * One delivery, from the request to the workflow: what the workflow does not want (an event not chosen, a booking
 * outside the filters, a delivery the API contradicts, a repeat) is answered 200 and starts nothing.
 *
 * A delivery the workflow may want is answered by the node itself, through n8n's response object, once the cheap
 * checks (event, filters on the delivery's IDs, repeat) have passed (api-reference §9: the receiver answers 200 at once
 * and works afterwards); then comes the work: a booking event's appointment is read when Verify Through the API is on
 * (deliveries are unsigned), within the credential's rate limit however long that takes, and the key is recorded
 * (dedupe.ts); webhook() returns `noWebhookResponse` (n8n sends nothing more) with the item, which n8n then starts the
 * execution with. A verified item is the API's appointment, never the delivery's fields (see verifiedItem). What fails
 * after the answer is logged, not thrown: n8n would answer an error a second time.
 *
 * Repeats: each delivery's key (events.ts deliveryKey) is taken in the process at once (dedupe.ts claim); the key
 * recorded across n8n's processes through the workflow's static data (dedupe.ts record, a 10-character hash) is that
 * one, or for a verified booking event the API's (events.ts verifiedKey), so that copies of a delivery, arriving at
 * the same moment at two webhook processors or hours later, start one execution, whatever a copy's body invents.
 */

/** A filter's value, checked as its field's type (a wrong ID from an expression stops with the field named). */
function filterValue(ctx: IWebhookFunctions, properties: INodeProperties[], param: string): string | undefined {
	const { value, problem, label } = readCheckedParameter(ctx, properties, param);
	if (problem) throw new NodeOperationError(ctx.getNode(), problem, { description: `Fix the value of "${label}" in the trigger's Filters.` });
	return isEmpty(value) ? undefined : String(value);
}

/** Whether a booking is within the filters: the delivery's IDs before the answer, the API's appointment after the read. */
function passesFilters(ctx: IWebhookFunctions, properties: INodeProperties[], booking: IDataObject): boolean {
	const meetingType = filterValue(ctx, properties, 'bookingFilters.meetingType');
	const host = filterValue(ctx, properties, 'bookingFilters.host');
	if (meetingType && meetingTypeOf(booking) !== meetingType) return false;
	return !host || hostsOf(booking).includes(host);
}

/**
 * What a verified booking event starts the workflow with: the appointment as the API returned it at delivery time,
 * with the event's name (`webhookType`) and its moment as the API's appointment gives it (`eventTime`, events.ts
 * eventTimeOf). Nothing of the unsigned delivery but its event name: an attendee, a location or a time the delivery
 * names but the API does not never reaches the workflow.
 */
function verifiedItem(webhookType: string, appointment: IDataObject): IDataObject {
	const event = { webhookType, eventTime: eventTimeOf(webhookType, appointment) };
	return { ...event, ...appointment, ...event };
}

/**
 * The item of a booking delivery the API confirms, and its key (events.ts verifiedKey): its appointment exists,
 * agrees with it (events.ts contradiction) and is within the filters. Undefined, logged, when the API does not know
 * the appointment or contradicts the delivery; other API errors are thrown (after the transport's retries: 429s
 * within the credential's limit, 502-504).
 */
async function verified(ctx: IWebhookFunctions, properties: INodeProperties[], delivery: Delivery): Promise<{ item: IDataObject; key: string } | undefined> {
	const id = appointmentIdOf(delivery.data);
	if (!id) return undefined;
	let appointment: IDataObject;
	try {
		appointment = (await apiRequest(ctx, 0, getAppointment(id))) as IDataObject;
	} catch (error) {
		if (!isApiStatus(error, '404')) throw asNodeError(ctx, error as Error, 0);
		ctx.logger.info(`A ${delivery.webhookType} delivery for appointment ${id} was dropped: the API does not know the appointment.`);
		return undefined;
	}
	const why = contradiction(delivery, appointment) ?? (passesFilters(ctx, properties, appointment) ? undefined : "the appointment is outside the trigger's Filters (meeting type or host)");
	if (why) ctx.logger.info(`A ${delivery.webhookType} delivery for appointment ${id} was dropped: ${why}.`);
	return why ? undefined : { item: verifiedItem(delivery.webhookType, appointment), key: verifiedKey(delivery.webhookType, appointment) };
}

/** Whether booking deliveries are checked: live ones when the option is on; test events (the editor listening) never. */
function verifies(ctx: IWebhookFunctions, properties: INodeProperties[]): boolean {
	if (ctx.getMode() === 'manual') return false;
	const param = 'options.verifyThroughApi';
	const { value, problem } = checkedParameter(propertyOf(properties, param), 'Verify Through the API', ctx.getNodeParameter(param, true));
	if (problem) throw new NodeOperationError(ctx.getNode(), problem, { description: 'Set "Verify Through the API" in the trigger\'s Options to true or false.' });
	return value !== false;
}

/** The answer the node sends itself: n8n's own words for a delivery that starts nothing, so a sender learns nothing from it. */
const RECEIVED = JSON.stringify({ message: 'Webhook call received' });

/**
 * Answers the delivery 200 now, through n8n's response object (Node's own response methods, which n8n's Express
 * response has). False when there is none or it was answered already: then n8n answers after webhook() as usual.
 */
function answerAtOnce(ctx: IWebhookFunctions): boolean {
	let response: ReturnType<IWebhookFunctions['getResponseObject']> | undefined;
	try {
		response = ctx.getResponseObject();
	} catch {
		response = undefined;
	}
	if (!response || response.headersSent || response.writableEnded) return false;
	response.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(RECEIVED) });
	response.end(RECEIVED);
	return true;
}

function errorText(error: unknown): string {
	const { message, description } = error as { message?: string; description?: string };
	return [message ?? String(error), description].filter(Boolean).join(' ');
}

const ignored: IWebhookResponseData = {};
/** Answered by the node already: n8n must send nothing more. */
const answeredAlready: IWebhookResponseData = { noWebhookResponse: true };
/** A delivery that starts nothing: n8n answers it, unless the node has. */
const startsNothing = (answered: boolean) => (answered ? answeredAlready : ignored);

/** Records the key across n8n's processes (dedupe.ts) and starts the workflow with the item, unless another copy does. */
async function startOnce(ctx: IWebhookFunctions, hash: string, item: IDataObject, answered: boolean): Promise<IWebhookResponseData> {
	if (!(await record(ctx, hash))) return startsNothing(answered);
	const workflowData = [ctx.helpers.returnJsonArray(item)];
	return answered ? { noWebhookResponse: true, workflowData } : { workflowData };
}

/** A booking delivery with Verify Through the API on, after the answer: the read, then the API's key and item. */
async function receiveVerified(ctx: IWebhookFunctions, properties: INodeProperties[], delivery: Delivery, hash: string, answered: boolean): Promise<IWebhookResponseData> {
	let event: { item: IDataObject; key: string } | undefined;
	try {
		event = await verified(ctx, properties, delivery);
	} catch (error) {
		// A dropped or failed delivery may come again and be checked again.
		release(ctx, hash);
		if (!answered) throw asNodeError(ctx, error as Error, 0);
		ctx.logger.error(
			`A ${delivery.webhookType} delivery for appointment ${String(appointmentIdOf(delivery.data))} could not be verified through the API and starts nothing: ${errorText(error)}. It was answered 200 already, so the service will not send it again: unless it does, the event is lost for this workflow.`,
		);
		return answeredAlready;
	}
	if (!event) {
		release(ctx, hash);
		return startsNothing(answered);
	}
	// Recorded by the API's key: a copy whose delivery differs (a forged updatedAt) is a repeat all the same.
	const verifiedHash = hashKey(event.key);
	if (verifiedHash !== hash && !claim(ctx, verifiedHash)) return startsNothing(answered);
	return await startOnce(ctx, verifiedHash, event.item, answered);
}

export async function receive(ctx: IWebhookFunctions, properties: INodeProperties[]): Promise<IWebhookResponseData> {
	const delivery = deliveryOf(ctx.getBodyData());
	if (!delivery || !chosenEvents(ctx).includes(delivery.webhookType)) return ignored;
	const isBooking = BOOKING_EVENTS.includes(delivery.webhookType);
	if (isBooking && !passesFilters(ctx, properties, delivery.data)) return ignored;
	const verify = isBooking && verifies(ctx, properties);
	const hash = hashKey(deliveryKey(delivery));
	if (!claim(ctx, hash)) return ignored;
	// Answered now: what follows (the claim across processes, the verification read, which waits for the credential's
	// rate limit) may take far longer than the service's 30 s.
	const answered = answerAtOnce(ctx);
	if (verify) return await receiveVerified(ctx, properties, delivery, hash, answered);
	return await startOnce(ctx, hash, { webhookType: delivery.webhookType, ...delivery.data }, answered);
}
