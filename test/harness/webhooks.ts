import { createServer } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject, INode, IWebhookResponseData, WebhookSetupMethodNames } from 'n8n-workflow';

import type { HookOutcome, WebhookSetting } from './engine';
import { runHookMethod, runWebhook } from './engine';
import { assertNoSecret } from './world';

/**
 * A webhook trigger node served the way an n8n instance serves it: its setup methods run through n8n-core's
 * HookContext and its deliveries through WebhookContext (engine.ts), with the node's static data kept between
 * calls as n8n saves it (a JSON copy after each call; of concurrent requests the last one written wins). A local
 * HTTP receiver on 127.0.0.1 stands for n8n's webhook server: what the sandbox delivers to a trigger's URL goes
 * into its webhook(), and the answer is n8n's for responseMode onReceived.
 */

/** The outcome, once its result, error, static data and log lines are scanned for secrets. */
function scanned<T>(outcome: HookOutcome<T>): HookOutcome<T> {
	const { error } = outcome;
	assertNoSecret(JSON.stringify({ ...outcome, error: error && { message: error.message, description: error.description, stack: error.stack } }));
	return outcome;
}

export class WebhookTrigger {
	/** The node's static data as n8n keeps it between calls. */
	staticData: IDataObject = {};
	/** The items of every execution a delivery started, in order. */
	readonly executions: IDataObject[][] = [];
	/** Every delivery's outcome (started or not, errors, log lines), in order of arrival. */
	readonly deliveries: Array<HookOutcome<IWebhookResponseData>> = [];

	constructor(
		readonly node: INode,
		private readonly setting: WebhookSetting,
	) {}

	/** The node's webhook URL, as n8n builds it (live or test). */
	get url(): string {
		const base = this.setting.mode === 'manual' ? `${this.setting.webhookBaseUrl}-test` : this.setting.webhookBaseUrl;
		return `${base}/${String(this.node.webhookId)}/webhook`;
	}

	/** Runs one setup method and keeps the static data it leaves. */
	async method(name: WebhookSetupMethodNames): Promise<HookOutcome<boolean>> {
		const outcome = scanned(await runHookMethod(this.node, name, this.staticData, this.setting));
		this.staticData = outcome.staticData;
		return outcome;
	}

	/** Publishing: checkExists, then create only when it answered false (n8n's createWebhookIfNotExists). */
	async activate(): Promise<HookOutcome<boolean>> {
		const exists = await this.method('checkExists');
		if (exists.error || exists.result) return exists;
		return await this.method('create');
	}

	async deactivate(): Promise<HookOutcome<boolean>> {
		return await this.method('delete');
	}

	/** One request to the node's URL: webhook() from the stored static data, which is saved after it. */
	async deliver(body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }): Promise<HookOutcome<IWebhookResponseData>> {
		const outcome = scanned(await runWebhook(this.node, { body, headers }, this.staticData, this.setting));
		this.staticData = outcome.staticData;
		this.deliveries.push(outcome);
		const items = outcome.result?.workflowData?.[0];
		if (items) this.executions.push(items.map((item) => item.json));
		return outcome;
	}
}

async function bodyOf(request: IncomingMessage): Promise<{ text: string; headers: Record<string, string> }> {
	const chunks: Buffer[] = [];
	for await (const chunk of request) chunks.push(chunk as Buffer);
	return { text: Buffer.concat(chunks).toString('utf8'), headers: request.headers as Record<string, string> };
}

/** n8n's answers to a webhook request with responseMode onReceived. */
function answerOf(outcome: HookOutcome<IWebhookResponseData>): { status: number; body: IDataObject } {
	if (outcome.error) return { status: 500, body: { code: 0, message: 'Workflow could not be started!' } };
	if (outcome.result?.workflowData) return { status: 200, body: { message: 'Workflow was started' } };
	return { status: 200, body: { message: 'Webhook call received' } };
}

/** n8n's webhook server on loopback: POST /webhook/<webhookId>/webhook goes to the registered trigger. */
export class WebhookReceiver {
	private readonly triggers = new Map<string, WebhookTrigger>();
	private readonly pending = new Set<Promise<unknown>>();

	private constructor(private readonly server: Server) {}

	static async start(): Promise<WebhookReceiver> {
		const server = createServer();
		const receiver = new WebhookReceiver(server);
		server.on('request', (request, response) => {
			const handled = receiver.handle(request).then(({ status, body }) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body)));
			receiver.pending.add(handled);
			void handled.finally(() => receiver.pending.delete(handled));
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		return receiver;
	}

	/** n8n's public webhook base URL (WEBHOOK_URL + "webhook"). */
	get webhookBaseUrl(): string {
		return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/webhook`;
	}

	/** Serves a node on this receiver, live by default. */
	serve(node: INode, options: Omit<WebhookSetting, 'webhookBaseUrl'> = {}): WebhookTrigger {
		const trigger = new WebhookTrigger(node, { webhookBaseUrl: this.webhookBaseUrl, ...options });
		this.triggers.set(new URL(trigger.url).pathname, trigger);
		return trigger;
	}

	/** Waits until every request that has arrived is answered. */
	async idle(): Promise<void> {
		while (this.pending.size) await Promise.all([...this.pending]);
	}

	async close(): Promise<void> {
		await this.idle();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	private async handle(request: IncomingMessage): Promise<{ status: number; body: IDataObject }> {
		const { text, headers } = await bodyOf(request);
		const trigger = this.triggers.get(new URL(request.url ?? '/', 'http://127.0.0.1').pathname);
		if (request.method !== 'POST' || !trigger) return { status: 404, body: { code: 404, message: 'The requested webhook is not registered.' } };
		let body: unknown;
		try {
			body = text ? JSON.parse(text) : {};
		} catch {
			return { status: 400, body: { message: 'The body is not JSON' } };
		}
		return answerOf(await trigger.deliver(body, headers));
	}
}
