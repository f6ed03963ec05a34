import type { IDataObject, INode, JsonObject } from 'n8n-workflow';

/** n8n-workflow's Failure (2.41), written out: older versions do not export it. */
type Failure = { cause: 'rate-limited' | 'temporarily-unavailable'; retryAfterMs?: number } | { cause: 'credential-invalid' | 'configuration-invalid' };
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/**
 * Turns an API error answer into a NodeApiError. The message (what n8n's toast shows) is the API's own
 * reason with the status, e.g. "The requested time slot is not available (HTTP 409)"; where the API gives
 * no words, what happened. The description says what happened, quotes the API in full and says how to fix
 * it, in full sentences. The fix is also kept in the error's context (`hint`) for the editor's lists.
 */

const WHAT_HAPPENED: Record<number, string> = {
	400: 'The API rejected the request as invalid',
	401: 'The API did not accept the credential',
	403: 'The API refused the request: the credential is not allowed to do this',
	404: 'The API could not find the requested resource',
	409: 'The request conflicts with the current state of the resource',
	429: 'The API rate limit was exceeded',
};

const HOW_TO_FIX: Record<number, string> = {
	400: 'Correct the fields the API names and run the node again.',
	401: 'Check the credential: the token or API key may be mistyped, revoked, deactivated or expired. Create a new one in the dashboard if needed and update the credential.',
	403: 'Use a credential whose user, role, plan or token scope allows this operation.',
	404: 'Check the ID: the resource may have been deleted, or it belongs to a user the credential cannot see.',
	409: 'Reload the resource, check its current state and adjust the request.',
	429: 'The API\'s limit for this credential (100 requests per minute by default) is shared by every workflow and n8n process that uses it, and others kept it busy for a minute. Run fewer workflows with this credential at the same time, or give them their own credentials; if your plan allows other numbers, set Requests per Minute and Burst in the credential.',
};

/** Fixes for the API's own sentences (first match wins): pattern, fix. */
export type ErrorHints = ReadonlyArray<readonly [RegExp, string]>;

/**
 * Fixes for the API's sentences about the credential and the acting user, which any request may meet; each area's
 * sentences are in its folder's errorHints.ts, which its node gives the executor (`withHints`).
 */
const CREDENTIAL_FIXES: ErrorHints = [
	[/x-service-api-user-id.*for API key/i, 'Set "Act As User" in the node, or a Default Acting User ID in the API Key credential.'],
	[/does not belong to company/i, 'The acting user is not a member of the API key\'s company: pick a user of that company in "Act As User" or in the credential\'s Default Acting User ID.'],
	[/API key has expired/i, 'API keys live 1 to 90 days: create a new key in the dashboard and update the credential.'],
	[/Access token has expired/i, 'Create a new Personal Access Token in the integrations area of the dashboard and update the credential.'],
	[/^Invalid API key$/i, 'The API key is mistyped, revoked or deactivated: check the credential, or create a new key in the dashboard and update the credential.'],
	[/^Invalid access token$/i, 'The token is mistyped or revoked: check the credential, or create a new Personal Access Token in the integrations area of the dashboard and update the credential.'],
	[/x-service-api-user-id must be a UUID/i, 'Act As User and the Default Acting User ID must be the UUID of a user of the company.'],
	[/header requires a Platform API Key/i, 'Personal Access Tokens always act as their owner: to act for another user, switch Authentication to Platform API Key and set Act As User.'],
	[/User management requires a Platform API Key/i, 'Switch the node\'s Authentication to Platform API Key: this operation is not available to Personal Access Tokens.'],
	[/^Forbidden resource$/i, 'Only admins may do this: use an admin\'s token, or a Platform API key.'],
	[/access token is not scoped for the (\S+) feature/i, 'Create a Personal Access Token that includes this feature\'s scope, or use a token without scope limits, and update the credential.'],
];

/** HTTP status texts: a body that says only this gives no reason of its own. */
const STATUS_TEXT = /^(Bad Request|Unauthorized|Forbidden|Not Found|Conflict|Too Many Requests|Internal Server Error|Bad Gateway|Service Unavailable|Gateway Timeout|Not Acceptable|Unprocessable Entity)$/i;
/** The message shows at most this many of a validation list's reasons, and at most this many characters of them. */
const REASONS_IN_MESSAGE = 2;
const MESSAGE_LENGTH = 160;

/** The API's reasons, one per constraint for a validation list; none when it gave no words of its own. */
export function apiReasons(body: unknown): string[] {
	if (body && typeof body === 'object') {
		const { message, errors } = body as IDataObject;
		if (Array.isArray(errors) && errors.length) {
			return (errors as IDataObject[]).map((e) => (e.field ? `${String(e.field)}: ${String(e.message)}` : String(e.message)));
		}
		if (Array.isArray(message)) return message.map(String).filter((text) => text.trim());
		if (typeof message === 'string' && message.trim() && !STATUS_TEXT.test(message.trim())) return [message.trim()];
		return [];
	}
	if (typeof body === 'string' && body.trim() && !/^\s*</.test(body)) return [body.trim().slice(0, 500)];
	return [];
}

/** The API's words as one text (for matching and logs). */
export function apiWords(body: unknown): string {
	const reasons = apiReasons(body);
	if (reasons.length) return reasons.join('; ');
	if (body && typeof body === 'object' && typeof (body as IDataObject).message === 'string') return String((body as IDataObject).message);
	return 'The API gave no further details.';
}

/** A text as a sentence: a full stop added when it ends without one. */
export function sentence(text: string): string {
	const trimmed = text.trim();
	return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** The reason for the message: the first reasons of a list, kept short; the rest is in the description. */
function reasonForMessage(reasons: string[]): string {
	let shown = reasons.slice(0, REASONS_IN_MESSAGE);
	if (shown.join('; ').length > MESSAGE_LENGTH) shown = shown.slice(0, 1);
	let text = shown.join('; ');
	if (text.length > MESSAGE_LENGTH) text = `${text.slice(0, MESSAGE_LENGTH - 1).trimEnd()}…`;
	const more = reasons.length - shown.length;
	return more > 0 ? `${text} (and ${more} more)` : text;
}

/** The fix for the plan limit or the API's words about the credential, when there is one. */
function specificFix(status: number, words: string, body: IDataObject): string | undefined {
	if (status === 403 && body.code === 'PLAN_LIMIT_REACHED') {
		const feature = body.feature ? ` (${String(body.feature)})` : '';
		return `Your plan does not include this feature${feature}: upgrade the plan in the dashboard, or ask the company owner to.`;
	}
	return CREDENTIAL_FIXES.find(([pattern]) => pattern.test(words))?.[1];
}

/** The fix for an HTTP status. */
function statusFix(status: number): string {
	if (status >= 500) return 'This is a problem on the API side. Try again later; if it persists, contact the platform\'s support.';
	return HOW_TO_FIX[status] ?? 'Check the request and try again.';
}

/** How to fix an error answer: the fix for the API's own words when there is one, else the status's. */
export function howToFix(status: number, words: string, body: IDataObject): string {
	return specificFix(status, words, body) ?? statusFix(status);
}

/** The API's words of the errors whose fix is only the status's, which an area's hints may make precise (`withHints`). */
const wordsOf = new WeakMap<NodeApiError, string>();

/** The error with the first of the area's hints that matches the API's words as its fix, in the description and the hint. */
export function withHints<T extends Error>(error: T, hints: ErrorHints): T {
	const words = error instanceof NodeApiError ? wordsOf.get(error) : undefined;
	const fix = words === undefined ? undefined : hints.find(([pattern]) => pattern.test(words))?.[1];
	if (!fix || !(error instanceof NodeApiError)) return error;
	const before = String(error.context.hint ?? '');
	if (error.description?.endsWith(before)) error.description = `${error.description.slice(0, error.description.length - before.length)}${fix}`;
	error.context.hint = fix;
	return error;
}

/** The text with every secret replaced, and objects and lists with every text inside them. */
export function masked<T>(value: T, secrets: string[]): T {
	if (typeof value === 'string') return secrets.reduce((text, secret) => text.split(secret).join('***'), value as string) as T;
	if (Array.isArray(value)) return value.map((item) => masked(item, secrets)) as T;
	if (value && typeof value === 'object') {
		return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, masked(item, secrets)])) as T;
	}
	return value;
}

export function apiErrorFromResponse(
	node: INode,
	status: number,
	answer: unknown,
	itemIndex: number,
	options: { extra?: string; secrets?: string[]; retryAfterMs?: number } = {},
): NodeApiError {
	// Longest first, so a whole key is masked before its secret part.
	const body = masked(answer, [...(options.secrets ?? [])].sort((a, b) => b.length - a.length));
	const data: IDataObject = body && typeof body === 'object' ? (body as IDataObject) : {};
	const reasons = apiReasons(body);
	const happened = WHAT_HAPPENED[status] ?? (status >= 500 ? 'The API failed with a server error' : 'The API answered with an error');
	const specific = specificFix(status, reasons.join('; '), data);
	const fix = specific ?? statusFix(status);
	const statusText = typeof data.message === 'string' ? data.message.trim() : '';
	const said = reasons.length || statusText
		? `The API says: ${sentence(reasons.length ? reasons.join('; ') : statusText)}`
		: typeof body === 'string' && body.trim()
			? 'The answer was not JSON (an HTML page or plain text): the Base URL may not point at the API.'
			: 'The API gave no further details.';
	const error = new NodeApiError(node, { ...data, statusCode: status } as JsonObject, {
		message: `${reasons.length ? reasonForMessage(reasons) : happened} (HTTP ${status})`,
		description: `${happened}${options.extra ?? ''}. ${said} ${fix}`,
		httpCode: String(status),
		itemIndex,
	});
	error.context.hint = fix;
	if (!specific) wordsOf.set(error, reasons.join('; '));
	declareFailure(error, failureOf(status, options.retryAfterMs));
	return error;
}

/**
 * Why a request failed, as n8n 2.x's poll backoff reads it (`failure` on the error: permanent causes wait 30 minutes,
 * timed ones the API's Retry-After): 401 the credential, 403 and 404 the node's settings, 429 the rate limit, 5xx
 * the API. Other statuses declare nothing and n8n decides by the status.
 */
function failureOf(status: number, retryAfterMs?: number): Failure | undefined {
	if (status === 401) return { cause: 'credential-invalid' };
	if (status === 403 || status === 404) return { cause: 'configuration-invalid' };
	if (status === 429) return retryAfterMs === undefined ? { cause: 'rate-limited' } : { cause: 'rate-limited', retryAfterMs };
	if (status >= 500) return { cause: 'temporarily-unavailable' };
	return undefined;
}

/** Set as a plain property: n8n-workflow before 2.41 has no `failure` option, and n8n reads the property alone. */
function declareFailure(error: NodeApiError | NodeOperationError, failure: Failure | undefined): void {
	if (failure) (error as { failure?: Failure }).failure = failure;
}

/**
 * A request that got no answer. The network code goes in the description only: n8n replaces a message that
 * names one with its own advice to retry immediately, which is wrong for a write that may have been applied.
 */
export function networkError(node: INode, code: string, mayHaveBeenApplied: boolean, itemIndex: number): NodeOperationError {
	if (mayHaveBeenApplied) {
		return new NodeOperationError(node, 'The connection broke before the API answered: the change may have been applied', {
			description: `Network error ${code}. It was not sent again, because it changes data. Check the resource in the platform before running the node again, so nothing is done twice.`,
			itemIndex,
		});
	}
	const error = new NodeOperationError(node, 'Could not get an answer from the API', {
		description: `Network error ${code}. Check the Base URL in the credential and that the API is reachable from n8n, then try again.`,
		itemIndex,
	});
	declareFailure(error, { cause: 'temporarily-unavailable' });
	return error;
}

/** A redirect that would take the credential to another origin, or from https to plain http: not followed. */
export function redirectError(node: INode, status: number, host: string, baseUrl: string, itemIndex: number, protocol?: string): NodeOperationError {
	const downgrade = protocol === 'http:' && baseUrl.startsWith('https:') ? ' over plain http' : '';
	return new NodeOperationError(node, `The API redirected the request (HTTP ${status}) to ${host}${downgrade}; the redirect was not followed`, {
		description: `Requests carry your credential, so they are only sent to the Base URL's own address (${baseUrl}). Check the Base URL in the credential: it may be an old or wrong address that now redirects elsewhere.`,
		itemIndex,
	});
}

/** Whether an error is the API's answer with this HTTP status (e.g. '404'). */
export function isApiStatus(error: unknown, status: string): boolean {
	return error instanceof NodeApiError && String(error.httpCode) === status;
}

/** Any error as n8n's: API and node errors as they are, anything else wrapped for the item. */
export function asNodeError(ctx: { getNode(): INode }, error: Error, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(ctx.getNode(), error, { itemIndex });
}
