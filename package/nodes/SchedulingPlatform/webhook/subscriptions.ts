import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { checkedParameter } from '../../shared/inputChecks';
import { isLoopbackHost } from '../../shared/transport/credentialChecks';
import { asNodeError, isApiStatus } from '../../shared/transport/errors';
import { apiRequest } from '../../shared/transport/request';
import type { Subscription } from './events';
import { SUBSCRIPTION_LIMIT, createSubscription, deleteSubscription, eventsProperty, listSubscriptions, updateSubscription } from './events';

/**
 * The subscription of one trigger node: n8n calls checkExists when a workflow is published (or a test event is
 * listened for), create when that was false (up to 5 times: each call reuses what an earlier one made), and delete
 * when it is unpublished. The subscription's id is kept in the node's static data (`subscriptionId`).
 */

/**
 * n8n's URL of this node, refused before anything is sent when the platform could not deliver to it. The fix is in
 * the message: n8n shows only the message of an error thrown while it activates a workflow.
 */
export function webhookUrl(ctx: IHookFunctions): string {
	const url = ctx.getNodeWebhookUrl('default') ?? '';
	let parsed: URL | undefined;
	try {
		parsed = new URL(url);
	} catch {
		parsed = undefined;
	}
	if (parsed?.protocol === 'https:' || (parsed?.protocol === 'http:' && isLoopbackHost(parsed.hostname))) return url;
	throw new NodeOperationError(
		ctx.getNode(),
		`The webhook URL ${url || '(none)'} is not https, so the Scheduling Platform cannot deliver to it (it delivers only to https addresses). Set n8n's WEBHOOK_URL environment variable to the public https address of this n8n (for example https://n8n.example.com/), restart n8n and publish the workflow again (n8n 2.x; activate it in n8n 1.x). Plain http is accepted only for a loopback address (127.0.0.1, localhost, ::1), for local tests.`,
	);
}

/** Events, checked as its field's type (an expression may give a list or comma-separated names); at least one. */
export function chosenEvents(ctx: IHookFunctions | IWebhookFunctions): string[] {
	const { value, problem } = checkedParameter(eventsProperty, 'Events', ctx.getNodeParameter('events', []));
	const events = (value ?? []) as string[];
	if (problem || !events.length) {
		throw new NodeOperationError(ctx.getNode(), problem ?? 'Events is empty', { description: 'Choose at least one event in Events.' });
	}
	return events;
}

function describe(ctx: IHookFunctions): string {
	const workflow = ctx.getWorkflow();
	return `n8n workflow ${workflow.name || workflow.id}`;
}

const sameEvents = (a: string[], b: string[]) => new Set(a).size === new Set(b).size && a.every((event) => b.includes(event));

async function subscriptions(ctx: IHookFunctions): Promise<Subscription[]> {
	const answer = await apiRequest(ctx, 0, listSubscriptions);
	return Array.isArray(answer) ? (answer as Subscription[]) : [];
}

function remember(ctx: IHookFunctions, id: Subscription['id']): void {
	ctx.getWorkflowStaticData('node').subscriptionId = id;
}

/** Takes the subscription of this URL when there is one: its events set to the chosen ones when they differ. */
async function reuse(ctx: IHookFunctions, existing: Subscription[], url: string, events: string[]): Promise<boolean> {
	const found = existing.find((subscription) => subscription.endpoint === url);
	if (!found) return false;
	if (!sameEvents(found.eventTypes ?? [], events)) await apiRequest(ctx, 0, updateSubscription(found.id, events, describe(ctx)));
	remember(ctx, found.id);
	return true;
}

/** checkExists: whether this URL has its subscription (taken, its events updated when they differ). */
export async function subscriptionExists(ctx: IHookFunctions): Promise<boolean> {
	const [url, events] = [webhookUrl(ctx), chosenEvents(ctx)];
	return await reuse(ctx, await subscriptions(ctx), url, events);
}

/** create: reuses the URL's subscription when an earlier attempt made it, else subscribes. */
export async function subscribe(ctx: IHookFunctions): Promise<boolean> {
	const [url, events] = [webhookUrl(ctx), chosenEvents(ctx)];
	const existing = await subscriptions(ctx);
	if (await reuse(ctx, existing, url, events)) return true;
	let created: IDataObject;
	try {
		created = (await apiRequest(ctx, 0, createSubscription(url, events, describe(ctx)))) as IDataObject;
	} catch (error) {
		throw isApiStatus(error, '406') ? limitReached(ctx, existing) : asNodeError(ctx, error as Error, 0);
	}
	remember(ctx, created.id as Subscription['id']);
	return true;
}

/** delete: a subscription deleted already (in the platform, or by an earlier attempt) or never stored is fine. */
export async function unsubscribe(ctx: IHookFunctions): Promise<boolean> {
	const data = ctx.getWorkflowStaticData('node');
	const id = data.subscriptionId as Subscription['id'] | undefined;
	if (id !== undefined && id !== null && id !== '') {
		try {
			await apiRequest(ctx, 0, deleteSubscription(id));
		} catch (error) {
			if (!isApiStatus(error, '404')) throw asNodeError(ctx, error as Error, 0);
		}
	}
	delete data.subscriptionId;
	return true;
}

/** An address without its secret part: the path's long segments (n8n's webhook IDs) cut to their first 8 characters. */
function shortened(endpoint: string): string {
	try {
		const url = new URL(endpoint);
		const path = url.pathname.split('/').map((segment) => (segment.length > 12 ? `${segment.slice(0, 8)}…` : segment));
		return `${url.origin}${path.join('/')}`;
	} catch {
		return endpoint.slice(0, 40);
	}
}

function listed(subscription: Subscription): string {
	const events = (subscription.eventTypes ?? []).join(', ') || 'no events';
	const description = subscription.description ? `"${subscription.description}"` : 'no description';
	return `ID ${String(subscription.id)}: ${shortened(subscription.endpoint)} (${description}; ${events})`;
}

/**
 * The 7th subscription's error. n8n shows only the message of an error thrown while it activates a workflow (1.x
 * answers the editor with it, 2.x reports it as the trigger's publication error), so the message holds the whole
 * explanation: the limit, the company's subscriptions and how to free one.
 */
function limitReached(ctx: IHookFunctions, existing: Subscription[]): NodeOperationError {
	const message = [
		`The company's limit of ${SUBSCRIPTION_LIMIT} webhook subscriptions is reached, and this workflow would need one more. The company's subscriptions are:`,
		...existing.map((subscription, index) => `${index + 1}. ${listed(subscription)}`),
		'To free one, delete a subscription the platform no longer needs (in the platform, or with DELETE /webhooks/{id}), or deactivate (unpublish) another n8n workflow that uses this trigger; then publish this workflow again (n8n 2.x; activate it in n8n 1.x). Listening for a test event also takes one while it listens.',
	].join('\n');
	return new NodeOperationError(ctx.getNode(), message);
}
