import { createServer, IncomingMessage, Server, ServerResponse, STATUS_CODES } from 'node:http';
import { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { authenticate } from './auth';
import { findRoute, operations } from './contract';
import { control, isControlPath } from './control';
import { ApiError, apiError } from './errors';
import { Fault } from './faults';
import { handlers } from './groups';
import { FileReply } from './handler';
import { DEFAULT_RATE_LIMIT, RateLimitConfig } from './rateLimit';
import { createState, LoggedRequest, SandboxState } from './state';
import { validateRequest } from './validation';

export interface SandboxOptions {
	/** 0 (the default) picks a free port. */
	port?: number;
	rateLimit?: RateLimitConfig;
}

export interface Sandbox {
	/** `http://127.0.0.1:<port>` */
	url: string;
	close(): Promise<void>;
}

interface Reply {
	status: number;
	body: unknown;
	headers?: Record<string, string>;
}

const JSON_TYPE = /^application\/json\b/i;

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const missing = operations.filter((operation) => !handlers[operation.operationId]);
	if (missing.length) throw new Error(`No handler for ${missing.map((operation) => operation.operationId).join(', ')}`);
	const state = createState(options.rateLimit ?? DEFAULT_RATE_LIMIT);
	const server = createServer((req, res) => {
		serve(state, req, res).catch(() => req.socket.destroy());
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, '127.0.0.1', resolve);
	});
	state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return { url: state.url, close: () => close(server) };
}

async function serve(state: SandboxState, req: IncomingMessage, res: ServerResponse): Promise<void> {
	const url = new URL(req.url ?? '/', 'http://127.0.0.1');
	const method = req.method ?? 'GET';
	const body = parseBody(req, await readBody(req));
	if (isControlPath(url.pathname)) return send(res, await answer(() => control(state, method, url.pathname, orThrow(body))));
	const entry: LoggedRequest = {
		method,
		path: url.pathname,
		query: url.search.slice(1),
		headers: req.headers,
		body: body instanceof ApiError ? null : (body ?? null),
		status: null,
		receivedAt: Date.now(),
	};
	state.requests.push(entry);
	const fault = state.faults.take(method, url.pathname);
	if (fault?.delayMs) await sleep(fault.delayMs);
	if (fault?.drop) {
		req.socket.destroy();
		return;
	}
	const reply = fault?.status ? faultReply(fault, fault.status) : await answer(() => callApi(state, req, url, orThrow(body)));
	entry.status = reply.status;
	// The API's own clock, as every HTTP server sends it (the trigger reads it; the control API can move it).
	send(res, { ...reply, headers: { Date: new Date(state.clock.now()).toUTCString(), ...reply.headers } });
}

/** The pipeline after logging and faults: route, authenticate, rate limit, validate, handle. */
function callApi(state: SandboxState, req: IncomingMessage, url: URL, body: unknown): Reply | Promise<Reply> {
	const method = req.method ?? 'GET';
	const route = findRoute(method, url.pathname);
	if (!route) throw apiError(404, `Cannot ${method} ${req.url}`);
	const actor = authenticate(state.store, route.operation, req.headers);
	state.limiter.take(actor.credentialId, state.clock.now());
	const input = validateRequest(route.operation, url.searchParams, body);
	const result = handlers[route.operation.operationId]({ actor, params: route.params, ...input, store: state.store });
	if (result instanceof Promise) return result.then((awaited: unknown) => replyOf(route.status, awaited));
	return replyOf(route.status, result);
}

/** A handler's result as the reply: JSON, or a file's bytes with its headers. */
function replyOf(status: number, result: unknown): Reply {
	if (!(result instanceof FileReply)) return { status, body: result };
	const disposition = `attachment; filename="${result.fileName.replace(/["\\]/g, '_')}"`;
	return { status, body: result.data, headers: { 'Content-Type': result.contentType, 'Content-Disposition': disposition } };
}

async function answer(run: () => Reply | Promise<Reply>): Promise<Reply> {
	try {
		return await run();
	} catch (error) {
		if (error instanceof ApiError) return { status: error.status, body: error.body, headers: error.headers };
		return { status: 500, body: { statusCode: 500, message: 'Internal server error' } };
	}
}

function faultReply(fault: Fault, status: number): Reply {
	const body = fault.body ?? apiError(status, STATUS_CODES[status] ?? 'Error').body;
	const retryAfter: Record<string, string> = fault.retryAfter === null ? {} : { 'Retry-After': fault.retryAfter };
	return { status, body, headers: { ...retryAfter, ...fault.headers } };
}

/** As body-parser reads it: JSON content types only, an empty JSON body is `{}`, malformed JSON a 400 to answer. */
function parseBody(req: IncomingMessage, raw: string): unknown {
	if (!JSON_TYPE.test(req.headers['content-type'] ?? '')) return undefined;
	try {
		return raw ? JSON.parse(raw) : {};
	} catch (error) {
		return apiError(400, (error as Error).message);
	}
}

function orThrow(body: unknown): unknown {
	if (body instanceof ApiError) throw body;
	return body;
}

async function readBody(req: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString('utf8');
}

/** JSON, except 204 (every successful DELETE), which has no body at all. */
function send(res: ServerResponse, reply: Reply): void {
	if (reply.status === 204) {
		res.writeHead(204, reply.headers);
		res.end();
		return;
	}
	if (Buffer.isBuffer(reply.body)) {
		res.writeHead(reply.status, reply.headers);
		res.end(reply.body);
		return;
	}
	const headers = { 'Content-Type': 'application/json; charset=utf-8', ...reply.headers };
	res.writeHead(reply.status, headers);
	const json = /json/i.test(headers['Content-Type']);
	res.end(json ? JSON.stringify(reply.body) : String(reply.body ?? ''));
}

function close(server: Server): Promise<void> {
	return new Promise((resolve, reject) => {
		server.close((error) => (error ? reject(error) : resolve()));
		server.closeAllConnections();
	});
}
