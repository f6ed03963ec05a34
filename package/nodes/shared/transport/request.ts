import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import {
	actingUserProblem,
	credentialProblem,
	normaliseBaseUrl,
	rateLimitOf,
} from './credentialChecks';
import { apiErrorFromResponse, apiWords, networkError, redirectError } from './errors';
import type { RateLimit } from './rateLimiter';
import { bucketKey, noteAnswer, noteRateLimited, takeEndpointCall, takeToken } from './rateLimiter';

/**
 * The one transport: every request of every node, trigger and dropdown loader goes through apiRequest.
 * It picks the credential, checks its form, sets the acting user, waits for the client-side rate limit,
 * retries what is safe to retry, and turns API errors into NodeApiError.
 */

/** Nodes, editor lists, the polling trigger, and the webhook trigger's subscription methods and deliveries. */
export type ApiContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions | IHookFunctions | IWebhookFunctions;

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path template such as /v4/user/{id}; placeholders are filled from pathParams, URL-encoded. */
	path: string;
	pathParams?: Record<string, string>;
	qs?: IDataObject;
	body?: IDataObject;
	/** False for the few endpoints that work with an API key and no acting user. */
	needsUserContext?: boolean;
	/** Acting user for this request only (API key), over the node's and the credential's. */
	actAs?: string;
	/** The endpoint's own limit of calls per minute (bulk import and delete), waited for before sending. */
	callsPerMinute?: number;
	/**
	 * The answer is a file: asked for with this Accept header and read as bytes (n8n's `encoding: 'arraybuffer'`),
	 * returned as { data: Buffer, headers } (binary.ts FileAnswer). An error answer is still read as JSON.
	 */
	fileAccept?: string;
	/** Returns { body, headers } instead of the body alone (the trigger reads the API's clock from the Date header). */
	fullAnswer?: boolean;
}

/** A successful answer with its headers, for requests sent with `fullAnswer`. */
export interface FullAnswer {
	body: unknown;
	headers: IDataObject;
}

export const CREDENTIAL_TYPES = {
	personalAccessToken: 'schedulingPlatformPatApi',
	apiKey: 'schedulingPlatformApiKeyApi',
} as const;

/** How long requests answered 429 are retried, from the first 429: the time the API's limit needs to refill. */
const RATE_LIMIT_MAX_WAIT_MS = 60_000;
/** The words of a 429 for the credential's own limit (api-reference §1.2); endpoints with their own limits say more. */
const CREDENTIAL_LIMIT_WORDS = /^Too Many Requests$/i;
const READ_TRIES = 3;
const RETRYABLE_READ_STATUS = [502, 503, 504];
/** Network errors after which the request certainly never reached the API. */
const NOT_SENT = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'];

interface Auth {
	credentialType: string;
	/** The credential as read once for the node run, handed to n8n's request helper so it does not read it again. */
	credentials: ICredentialsDecrypted;
	baseUrl: string;
	actingUser: string;
	bucket: string;
	/** The credential's Requests per Minute and Burst. */
	limit: RateLimit;
	/** The credential's secret and its parts, masked wherever the API echoes them. */
	secrets: string[];
}

/** Same-origin redirects followed at most. */
const MAX_REDIRECTS = 5;

function readParam(ctx: ApiContext, name: string, itemIndex: number, fallback: string): string {
	const value =
		'getInputData' in ctx
			? ctx.getNodeParameter(name, itemIndex, fallback, { extractValue: true })
			: ctx.getNodeParameter(name, fallback, { extractValue: true });
	return String(value ?? fallback).trim();
}

function fail(ctx: ApiContext, message: string, itemIndex: number, description?: string): never {
	throw new NodeOperationError(ctx.getNode(), message, { itemIndex, description });
}

/**
 * The credentials of a node run, read once per type: n8n reads a credential from its database at every
 * getCredentials call, one after the other, which would make parallel items wait for each other.
 */
const credentialsRead = new WeakMap<ApiContext, Map<string, Promise<ICredentialDataDecryptedObject>>>();

async function credentialsFor(ctx: ApiContext, type: string, itemIndex: number): Promise<ICredentialDataDecryptedObject> {
	let reads = credentialsRead.get(ctx);
	if (!reads) credentialsRead.set(ctx, (reads = new Map()));
	let read = reads.get(type);
	if (!read) {
		read = ctx.getCredentials(type, itemIndex);
		reads.set(type, read);
		read.catch(() => reads.delete(type));
	}
	return await read;
}

async function resolveAuth(ctx: ApiContext, itemIndex: number, request: ApiRequest): Promise<Auth> {
	const authentication = readParam(ctx, 'authentication', itemIndex, 'personalAccessToken');
	const isApiKey = authentication === 'apiKey';
	const credentialType = isApiKey ? CREDENTIAL_TYPES.apiKey : CREDENTIAL_TYPES.personalAccessToken;
	const credentials = await credentialsFor(ctx, credentialType, itemIndex);
	const secret = isApiKey ? credentials.apiKey : credentials.token;
	const problem = credentialProblem(credentials, isApiKey);
	if (problem) fail(ctx, 'The credential is not in the expected form', itemIndex, problem);

	let actingUser = '';
	if (isApiKey) {
		const fromNode = request.actAs ?? readParam(ctx, 'actAsUser', itemIndex, '');
		const nodeProblem = actingUserProblem(fromNode, 'Act As User');
		if (nodeProblem) fail(ctx, 'Act As User is not a valid user ID', itemIndex, nodeProblem);
		actingUser = fromNode || String(credentials.actingUserId ?? '').trim();
		if (request.needsUserContext !== false && !actingUser) {
			// A list in the editor (From List, a dropdown) with nothing set yet reads as the company owner, as
			// the Act As User list does; a run of the node never guesses whom to act for.
			if (isEditorLoader(ctx) && request.actAs === undefined) actingUser = await companyOwner(ctx, itemIndex);
			else {
				fail(ctx, 'This operation needs a user to act for', itemIndex,
					'With a Platform API key, most operations act for a user of the company. Set "Act As User" in the node, or a Default Acting User ID in the credential.');
			}
		}
	}
	const baseUrl = normaliseBaseUrl(credentials.baseUrl);
	const saved = ctx.getNode().credentials?.[credentialType];
	return {
		credentialType,
		credentials: { id: saved?.id ?? '', name: saved?.name ?? credentialType, type: credentialType, data: credentials },
		baseUrl,
		actingUser,
		bucket: bucketKey(credentialType, baseUrl, String(secret)),
		limit: rateLimitOf(credentials),
		secrets: secretParts(String(secret).trim()),
	};
}

/** A list or dropdown of the editor (listSearch, loadOptions, resourceMapping), not a run of the node or a trigger. */
export function isEditorLoader(ctx: ApiContext): ctx is ILoadOptionsFunctions {
	return !('getInputData' in ctx) && 'getCurrentNodeParameter' in ctx;
}

/** The company owner's ID, read once per loader call: GET /v4/user/me answers as the owner for an API key without acting user. */
const ownerRead = new WeakMap<ApiContext, Promise<string>>();

export async function companyOwner(ctx: ApiContext, itemIndex = 0): Promise<string> {
	let read = ownerRead.get(ctx);
	if (!read) {
		read = apiRequest(ctx, itemIndex, { method: 'GET', path: '/v4/user/me', needsUserContext: false, actAs: '' }).then((owner) => String((owner as IDataObject).id));
		ownerRead.set(ctx, read);
		read.catch(() => ownerRead.delete(ctx));
	}
	return await read;
}

/** A PAT and the token after "rgo-"; an API key and its secret part after the second colon. */
function secretParts(secret: string): string[] {
	const part = secret.startsWith('rgo-') ? secret.slice(4) : secret.split(':').slice(2).join(':');
	return part.length >= 8 ? [secret, part] : [secret];
}

/**
 * Why a value cannot fill a placeholder of a path: empty, or only dots ("." and ".." are path steps once URLs are
 * normalised, so `/v4/queue/workspace/..` would read `/v4/queue/`). The executor names the field with it.
 */
export function pathValueProblem(value: string): string | undefined {
	if (value === '') return 'cannot be empty';
	return /^\.+$/.test(value) ? `cannot be "${value}"` : undefined;
}

/**
 * The one path builder: every placeholder of every request (definitions, hooks, list searches, triggers) is filled
 * here, URL-encoded, and a value that would change the path is refused before anything is sent.
 */
function buildPath(ctx: ApiContext, itemIndex: number, template: string, params: Record<string, string> = {}): string {
	return template.replace(/\{(\w+)\}/g, (_, name: string) => {
		const value = params[name] ?? '';
		const problem = pathValueProblem(value);
		if (problem) {
			fail(ctx, `The ${name} in the path ${template} ${problem}`, itemIndex,
				'An ID that is empty or only dots would call another address than the one meant. Check the ID this request took from its input or from an earlier answer.');
		}
		return encodeURIComponent(value);
	});
}

function retryAfterMs(header: unknown): number | undefined {
	if (header === undefined || header === null || header === '') return undefined;
	const seconds = Number(header);
	if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
	const date = Date.parse(String(header));
	return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function backoffMs(attempt: number): number {
	const base = Math.min(16_000, 1000 * 2 ** attempt);
	return Math.round(base / 2 + (Math.random() * base) / 2);
}

async function send(ctx: ApiContext, auth: Auth, options: IHttpRequestOptions, itemsLeft?: number): Promise<IN8nHttpFullResponse> {
	await takeToken(auth.bucket, auth.limit, itemsLeft);
	const response = (await ctx.helpers.httpRequestWithAuthentication.call(ctx, auth.credentialType, options, {
		credentialsDecrypted: auth.credentials,
	})) as IN8nHttpFullResponse;
	if (response.statusCode !== 429) noteAnswer(auth.bucket, auth.limit);
	return response;
}

function errorCode(error: unknown): string {
	const err = error as { cause?: { code?: string }; code?: string; context?: { code?: string } };
	return err?.cause?.code ?? err?.code ?? 'ECONNRESET';
}

/**
 * Where a redirect answer points, when it may be followed: the same origin as the Base URL only, so the
 * credential never travels to another host or over plain http. Otherwise the error names the target.
 */
function redirectTarget(ctx: ApiContext, auth: Auth, response: IN8nHttpFullResponse, from: string, itemIndex: number): string {
	const location = String(response.headers?.location ?? '');
	let target: URL;
	try {
		target = new URL(location, from);
	} catch {
		throw redirectError(ctx.getNode(), response.statusCode, location || 'no address', auth.baseUrl, itemIndex);
	}
	if (target.origin !== new URL(auth.baseUrl).origin) throw redirectError(ctx.getNode(), response.statusCode, target.host, auth.baseUrl, itemIndex, target.protocol);
	return target.href;
}

/** 307 and 308 repeat the request as it was; other redirects continue as a GET without body (as browsers and n8n do). */
function redirected(options: IHttpRequestOptions, status: number, url: string): IHttpRequestOptions {
	const keep = status === 307 || status === 308;
	return keep ? { ...options, url, qs: undefined } : { ...options, url, qs: undefined, method: 'GET', body: undefined };
}

/** The items of the node run after this one (the rate limiter drains once near a run's end); undefined outside a node run. */
function itemsAfter(ctx: ApiContext, itemIndex: number): number | undefined {
	if (!('getInputData' in ctx)) return undefined;
	return Math.max(0, (ctx.getInputData()?.length ?? 0) - itemIndex - 1);
}

export async function apiRequest(ctx: ApiContext, itemIndex: number, request: ApiRequest): Promise<unknown> {
	const path = buildPath(ctx, itemIndex, request.path, request.pathParams);
	const auth = await resolveAuth(ctx, itemIndex, request);
	const headers: IDataObject = auth.actingUser ? { 'x-service-api-user-id': auth.actingUser } : {};
	let options: IHttpRequestOptions = {
		method: request.method,
		url: `${auth.baseUrl}${path}`,
		qs: request.qs,
		body: request.body,
		headers,
		json: true,
		arrayFormat: 'repeat',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
	};
	if (request.fileAccept) {
		// As bytes: n8n hands `encoding` to axios as its responseType (1.x and 2.x), so the file is never a string.
		headers.Accept = request.fileAccept;
		options = { ...options, json: false, encoding: 'arraybuffer' };
	}
	const isRead = request.method === 'GET';
	const itemsLeft = itemsAfter(ctx, itemIndex);
	if (request.callsPerMinute) await takeEndpointCall(bucketKey(auth.bucket, request.method, request.path), request.callsPerMinute);
	let firstRateLimitAt: number | undefined;
	let redirects = 0;
	for (let attempt = 0; ; attempt++) {
		let response: IN8nHttpFullResponse;
		try {
			response = await send(ctx, auth, options, itemsLeft);
		} catch (error) {
			if (isRead && attempt + 1 < READ_TRIES) {
				await sleep(backoffMs(attempt) / 2);
				continue;
			}
			const code = errorCode(error);
			throw networkError(ctx.getNode(), code, !isRead && !NOT_SENT.includes(code), itemIndex);
		}
		const status = response.statusCode;
		if (request.fileAccept) {
			if (status >= 200 && status < 300) return { data: asBuffer(response.body), headers: response.headers ?? {} };
			response = { ...response, body: errorBody(response.body) as IN8nHttpFullResponse['body'] };
		}
		if (status >= 300 && status < 400) {
			if (++redirects > MAX_REDIRECTS) throw apiErrorFromResponse(ctx.getNode(), status, `More than ${MAX_REDIRECTS} redirects in a row`, itemIndex);
			options = redirected(options, status, redirectTarget(ctx, auth, response, String(options.url), itemIndex));
			attempt--;
			continue;
		}
		if (status < 400) return request.fullAnswer ? ({ body: response.body, headers: response.headers ?? {} } satisfies FullAnswer) : response.body;
		if (status === 429) {
			// Not processed by the API, so safe to repeat, also for writes: the bucket pauses until the API has room.
			const delay = retryAfterMs(response.headers?.['retry-after']) ?? backoffMs(attempt);
			const waitedMs = firstRateLimitAt === undefined ? 0 : Date.now() - firstRateLimitAt;
			firstRateLimitAt ??= Date.now();
			if (waitedMs + delay <= RATE_LIMIT_MAX_WAIT_MS) {
				// The credential's limit pauses every request of the credential; an endpoint's own limit (quick mail) only this one.
				if (CREDENTIAL_LIMIT_WORDS.test(apiWords(response.body))) noteRateLimited(auth.bucket, auth.limit, delay);
				else await sleep(delay);
				continue;
			}
			const asked = `the API asked to wait ${Math.round(delay / 1000)} s more, past the ${RATE_LIMIT_MAX_WAIT_MS / 1000} s the node waits`;
			const extra = waitedMs ? ` (waited ${Math.round(waitedMs / 1000)} s over ${attempt + 1} tries; ${asked})` : ` (${asked})`;
			throw apiErrorFromResponse(ctx.getNode(), status, response.body, itemIndex, { extra, secrets: auth.secrets, retryAfterMs: delay });
		}
		if (isRead && RETRYABLE_READ_STATUS.includes(status) && attempt + 1 < READ_TRIES) {
			await sleep(backoffMs(attempt) / 2);
			continue;
		}
		throw apiErrorFromResponse(ctx.getNode(), status, response.body, itemIndex, { secrets: auth.secrets });
	}
}

function asBuffer(body: unknown): Buffer {
	if (Buffer.isBuffer(body)) return body;
	if (body instanceof ArrayBuffer) return Buffer.from(body);
	if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
	return Buffer.from(typeof body === 'string' ? body : JSON.stringify(body ?? ''));
}

/** The error answer of a file request, read as bytes: its JSON (the API's ApiError) or its text. */
function errorBody(body: unknown): unknown {
	const text = asBuffer(body).toString('utf8');
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}
