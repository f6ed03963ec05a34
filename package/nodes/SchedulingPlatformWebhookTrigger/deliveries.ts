import type { IDataObject, INodeProperties, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { checkedParameter, isEmpty, propertyOf, readCheckedParameter } from '../shared/inputChecks';
import { hashKey } from '../shared/trigger/watermark';
import { asNodeError, isApiStatus } from '../shared/transport/errors';
import { apiRequest } from '../shared/transport/request';
import type { Delivery } from './events';
import { chosenEvents } from './subscriptions';
import { BOOKING_EVENTS, appointmentIdOf, contradiction, deliveryKey, deliveryOf, getAppointment, hostsOf, meetingTypeOf } from './events';

/**
 * One delivery, from the request to the workflow: what the workflow does not want (an event not chosen, a booking
 * outside the filters, a delivery the API contradicts, a repeat) is answered 200 and starts nothing.
 *
 * Repeats: each delivery's key (events.ts deliveryKey) is kept as a 10-character hash, in two places. The node's
 * static data keeps the SEEN_MAX (200) most recent ones (about 2.6 KB), which n8n saves after each request; the process
 * keeps the keys of the last RECENT_MS per workflow, node and mode, so repeats arriving at the same time in one
 * process (before either request's static data is saved) start one execution.
 */

/** The most recent delivery keys kept in static data. */
const SEEN_MAX = 200;
/** How long the process remembers a delivery key. */
const RECENT_MS = 10 * 60_000;

/** Per workflow, node and mode (live and test deliveries are separate): delivery hash → when it is forgotten. */
const recent = new Map<string, Map<string, number>>();

function recentOf(ctx: IWebhookFunctions): Map<string, number> {
	const owner = `${ctx.getWorkflow().id ?? ''}|${ctx.getNode().name}|${ctx.getMode()}`;
	let keys = recent.get(owner);
	if (!keys) recent.set(owner, (keys = new Map()));
	const now = Date.now();
	for (const [key, until] of keys) if (until <= now) keys.delete(key);
	return keys;
}

function seenOf(ctx: IWebhookFunctions): string[] {
	const { seen } = ctx.getWorkflowStaticData('node');
	return Array.isArray(seen) ? (seen as string[]) : [];
}

/** Claims a delivery for this request (synchronously, so a concurrent repeat sees the claim); false for a repeat. */
function claim(ctx: IWebhookFunctions, hash: string): boolean {
	const keys = recentOf(ctx);
	if (keys.has(hash) || seenOf(ctx).includes(hash)) return false;
	keys.set(hash, Date.now() + RECENT_MS);
	return true;
}

function release(ctx: IWebhookFunctions, hash: string): void {
	recentOf(ctx).delete(hash);
}

function record(ctx: IWebhookFunctions, hash: string): void {
	const seen = [...seenOf(ctx), hash];
	ctx.getWorkflowStaticData('node').seen = seen.slice(-SEEN_MAX);
}

/** A filter's value, checked as its field's type (a wrong ID from an expression stops with the field named). */
function filterValue(ctx: IWebhookFunctions, properties: INodeProperties[], param: string): string | undefined {
	const { value, problem, label } = readCheckedParameter(ctx, properties, param);
	if (problem) throw new NodeOperationError(ctx.getNode(), problem, { description: `Fix the value of "${label}" in the trigger's Filters.` });
	return isEmpty(value) ? undefined : String(value);
}

function passesFilters(ctx: IWebhookFunctions, properties: INodeProperties[], { data }: Delivery): boolean {
	const meetingType = filterValue(ctx, properties, 'bookingFilters.meetingType');
	const host = filterValue(ctx, properties, 'bookingFilters.host');
	if (meetingType && meetingTypeOf(data) !== meetingType) return false;
	return !host || hostsOf(data).includes(host);
}

/** Whether the API confirms a booking delivery: the appointment exists and agrees with it. */
async function confirmed(ctx: IWebhookFunctions, delivery: Delivery): Promise<boolean> {
	const id = appointmentIdOf(delivery.data);
	if (!id) return false;
	let appointment: IDataObject;
	try {
		appointment = (await apiRequest(ctx, 0, getAppointment(id))) as IDataObject;
	} catch (error) {
		if (!isApiStatus(error, '404')) throw asNodeError(ctx, error as Error, 0);
		ctx.logger.info(`A ${delivery.webhookType} delivery for appointment ${id} was dropped: the API does not know the appointment.`);
		return false;
	}
	const why = contradiction(delivery, appointment);
	if (why) ctx.logger.info(`A ${delivery.webhookType} delivery for appointment ${id} was dropped: ${why}.`);
	return !why;
}

/** Whether booking deliveries are checked: live ones when the option is on; test events (the editor listening) never. */
function verifies(ctx: IWebhookFunctions, properties: INodeProperties[]): boolean {
	if (ctx.getMode() === 'manual') return false;
	const param = 'options.verifyThroughApi';
	const { value, problem } = checkedParameter(propertyOf(properties, param), 'Verify Through the API', ctx.getNodeParameter(param, true));
	if (problem) throw new NodeOperationError(ctx.getNode(), problem, { description: 'Set "Verify Through the API" in the trigger\'s Options to true or false.' });
	return value !== false;
}

const ignored: IWebhookResponseData = {};

export async function receive(ctx: IWebhookFunctions, properties: INodeProperties[]): Promise<IWebhookResponseData> {
	const delivery = deliveryOf(ctx.getBodyData());
	if (!delivery || !chosenEvents(ctx).includes(delivery.webhookType)) return ignored;
	const isBooking = BOOKING_EVENTS.includes(delivery.webhookType);
	if (isBooking && !passesFilters(ctx, properties, delivery)) return ignored;
	const hash = hashKey(deliveryKey(delivery));
	if (!claim(ctx, hash)) return ignored;
	let wanted = false;
	try {
		wanted = !isBooking || !verifies(ctx, properties) || (await confirmed(ctx, delivery));
	} finally {
		// A dropped or failed delivery may come again and be checked again.
		if (!wanted) release(ctx, hash);
	}
	if (!wanted) return ignored;
	record(ctx, hash);
	return { workflowData: [ctx.helpers.returnJsonArray({ webhookType: delivery.webhookType, ...delivery.data })] };
}
