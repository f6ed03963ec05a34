import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject, INode, IWebhookResponseData, WebhookSetupMethodNames } from 'n8n-workflow';

import type { HookOutcome, WebhookSetting } from '../../scripts/engine';
import { runHookMethod, runWebhook } from '../../scripts/engine';
import { assertNoSecret } from './secrets';

/**
 * A webhook trigger node served the way an n8n instance serves it: its setup methods run through n8n-core's
 * HookContext and its deliveries through WebhookContext (engine.ts), with the node's static data kept between
 * calls as n8n saves it (a JSON copy after each call that changed it; of concurrent requests the last one written wins). A local
 * HTTP receiver on 127.0.0.1 stands for n8n's webhook server: what the sandbox delivers to a trigger's URL goes
 * into its webhook() with the request's response object (getResponseObject), and after webhook() the answer is n8n's
 * for responseMode onReceived (both lines' webhook-helpers executeWebhook): none when webhook() returned
 * `noWebhookResponse` (the node answered itself), else "Workflow was started", "Webhook call received" or, for an
 * error, 500. An answer n8n would send to a response the node had answered already is counted (`answeredTwice`).
 */

/** The header of the node's requests to its own URL (package/nodes/shared/trigger/dedupe.ts CONTROL_HEADER). */
const OWN_REQUEST_HEADER = 'x-scheduling-platform-dedupe';

/** An answer to a delivery: who sent it (the node through the response object, or n8n after webhook()) and when. */
export interface Answer {
	status: number;
	body: unknown;
	by: 'node' | 'n8n';
	at: number;
}

/** A delivery's outcome: webhook()'s, with the answer and when webhook() returned. */
export interface DeliveryOutcome extends HookOutcome<IWebhookResponseData> {
	answer?: Answer;
	/** n8n would have answered a response that was answered already (express throws; the sender saw the first). */
	answeredTwice: boolean;
	/** n8n left the request without an answer (webhook() said `noWebhookResponse` and nobody answered). */
	unanswered: boolean;
	receivedAt: number;
	returnedAt: number;
}

/** What n8n's Express response offers the node and this harness uses: Node's own response methods. */
interface ResponseLike {
	headersSent: boolean;
	writableEnded: boolean;
	writeHead(status: number, headers?: Record<string, string | number>): unknown;
	end(body?: string): unknown;
}

/**
 * n8n's response object of a delivery handed to webhook() without an HTTP request (a test calling deliver()): it
 * records the one answer, as a real response sends only one.
 */
class RecordedResponse implements ResponseLike {
	headersSent = false;
	writableEnded = false;
	status = 0;
	body?: string;

	writeHead(status: number): this {
		if (this.headersSent) throw Object.assign(new Error('Cannot write headers after they are sent to the client'), { code: 'ERR_HTTP_HEADERS_SENT' });
		this.status = status;
		this.headersSent = true;
		return this;
	}

	end(body?: string): this {
		if (this.writableEnded) throw Object.assign(new Error('write after end'), { code: 'ERR_STREAM_WRITE_AFTER_END' });
		this.headersSent = true;
		this.writableEnded = true;
		this.body = body;
		return this;
	}
}

/** Watches a response for the node's own answer: its status, body and moment. */
function watched(response: ResponseLike, answer: (status: number, body: unknown) => void): ResponseLike {
	let status = 200;
	const { writeHead, end } = response;
	response.writeHead = function (code: number, ...rest: unknown[]) {
		status = code;
		return (writeHead as (...args: unknown[]) => unknown).call(response, code, ...rest);
	};
	response.end = function (body?: string) {
		if (!response.writableEnded) answer(status, body === undefined ? undefined : parsed(body));
		return end.call(response, body);
	};
	return response;
}

function parsed(text: string): unknown {
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}

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
	/** Every delivery's outcome (started or not, errors, log lines, its answer), in order of webhook()'s return. */
	readonly deliveries: DeliveryOutcome[] = [];
	/** The node's requests to its own URL (dedupe.ts claims across processes), apart from the deliveries. */
	readonly ownRequests: DeliveryOutcome[] = [];

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

	/**
	 * One request to the node's URL: webhook() from the stored static data, which is saved after it when it changed, with `response` as
	 * n8n's response object (a recorded one when the test gives none); then n8n's answer unless the node gave its own.
	 */
	async deliver(body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }, response: ResponseLike = new RecordedResponse()): Promise<DeliveryOutcome> {
		let answer: Answer | undefined;
		const receivedAt = Date.now();
		watched(response, (status, sent) => (answer = { status, body: sent, by: 'node', at: Date.now() }));
		const outcome = scanned(await runWebhook(this.node, { body, headers, response }, this.staticData, this.setting));
		const returnedAt = Date.now();
		const byNode = answer;
		const n8nAnswer = outcome.result?.noWebhookResponse === true && !outcome.error ? undefined : answerOf(outcome);
		const answeredTwice = n8nAnswer !== undefined && response.headersSent;
		if (n8nAnswer && !answeredTwice) {
			const text = JSON.stringify(n8nAnswer.body);
			response.writeHead(n8nAnswer.status, { 'content-type': 'application/json' });
			response.end(text);
			answer = { ...n8nAnswer, by: 'n8n', at: Date.now() };
		}
		const delivery: DeliveryOutcome = { ...outcome, answer: byNode ?? answer, answeredTwice, unanswered: !response.headersSent, receivedAt, returnedAt };
		// n8n saves static data after a request only when webhook() changed it and did not fail (live-webhooks.js).
		if (outcome.staticDataChanged && !outcome.error) this.staticData = outcome.staticData;
		(headers[OWN_REQUEST_HEADER] === undefined ? this.deliveries : this.ownRequests).push(delivery);
		const items = outcome.result?.workflowData?.[0];
		if (items) this.executions.push(items.map((item) => item.json));
		return delivery;
	}
}

async function bodyOf(request: IncomingMessage): Promise<{ text: string; headers: Record<string, string> }> {
	const chunks: Buffer[] = [];
	for await (const chunk of request) chunks.push(chunk as Buffer);
	return { text: Buffer.concat(chunks).toString('utf8'), headers: request.headers as Record<string, string> };
}

/** n8n's answers to a webhook request with responseMode onReceived, after webhook() returned. */
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
			const handled = receiver.handle(request, response);
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

	/** Answers a request itself when it goes to no trigger or is no JSON; else the trigger's delivery answers it. */
	private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
		const { text, headers } = await bodyOf(request);
		const answer = (status: number, body: IDataObject) => void response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
		const trigger = this.triggers.get(new URL(request.url ?? '/', 'http://127.0.0.1').pathname);
		if (request.method !== 'POST' || !trigger) return answer(404, { code: 404, message: 'The requested webhook is not registered.' });
		let body: unknown;
		try {
			body = text ? JSON.parse(text) : {};
		} catch {
			return answer(400, { message: 'The body is not JSON' });
		}
		await trigger.deliver(body, headers, response);
	}
}
