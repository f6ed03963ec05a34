import { apiError } from '../errors';
import { Call, Group } from '../handler';
import { EventType, MAX_WEBHOOKS, Webhook, webhooksOf } from '../webhooks';

/**
 * Webhooks (api-reference §9): the subscriptions of the caller's company, at most 6 (a 7th: 406). Ids are numbers;
 * the path names one by its digits. Deliveries are `webhooks.ts`.
 */

interface WebhookBody {
	endpoint?: string;
	eventTypes?: EventType[];
	description?: string | null;
}

function companyWebhooks({ store, actor }: Call): Webhook[] {
	return webhooksOf(store).webhooks.filter((webhook) => webhook.companyId === actor.company.id);
}

function pathWebhook(call: Call): Webhook {
	const webhook = companyWebhooks(call).find((candidate) => String(candidate.id) === call.params.id);
	if (!webhook) throw apiError(404, 'Webhook not found');
	return webhook;
}

function create(call: Call): Webhook {
	if (companyWebhooks(call).length >= MAX_WEBHOOKS) throw apiError(406, 'Webhook limit reached');
	const { store, actor } = call;
	const { endpoint, eventTypes, description } = call.body as WebhookBody;
	const state = webhooksOf(store);
	const webhook: Webhook = {
		id: state.nextId++,
		endpoint: endpoint!,
		description: description ?? null,
		eventTypes: eventTypes!,
		companyId: actor.company.id,
		createdAt: store.clock.iso(),
	};
	state.webhooks.push(webhook);
	return webhook;
}

function remove(call: Call): void {
	const webhook = pathWebhook(call);
	const state = webhooksOf(call.store);
	state.webhooks = state.webhooks.filter((other) => other !== webhook);
}

export const webhooks: Group = {
	listWebhooks: companyWebhooks,
	createWebhook: create,
	updateWebhook: (call) => Object.assign(pathWebhook(call), call.body as WebhookBody),
	deleteWebhook: remove,
};
