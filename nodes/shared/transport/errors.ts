import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/**
 * Turns an API error answer into a NodeApiError: the message says what happened, the description
 * keeps the API's own words and adds how to fix it.
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
	400: 'Correct the fields named above and run the node again.',
	401: 'Check the credential: the token or API key may be mistyped, revoked, deactivated or expired. Create a new one in the dashboard if needed and update the credential.',
	403: 'Use a credential whose user, role, plan or token scope allows this operation.',
	404: 'Check the ID: the resource may have been deleted, or it belongs to a user the credential cannot see.',
	409: 'Reload the resource, check its current state and adjust the request.',
	429: 'The API\'s limit for this credential (100 requests per minute by default) is shared by every workflow and n8n process that uses it, and others kept it busy for a minute. Run fewer workflows with this credential at the same time, or give them their own credentials; if your plan allows other numbers, set Requests per Minute and Burst in the credential.',
};

/** Fixes for specific API sentences, more precise than the per-status fix. */
const SPECIFIC_FIXES: Array<[RegExp, string]> = [
	[/x-service-api-user-id.*for API key/i, 'Set "Act As User" in the node, or a Default Acting User ID in the API Key credential.'],
	[/does not belong to company/i, 'The acting user is not a member of the API key\'s company: pick a user of that company in "Act As User" or in the credential\'s Default Acting User ID.'],
	[/API key has expired/i, 'API keys live 1 to 90 days: create a new key in the dashboard and update the credential.'],
	[/Access token has expired/i, 'Create a new Personal Access Token in the integrations area of the dashboard and update the credential.'],
	[/x-service-api-user-id must be a UUID/i, 'Act As User and the Default Acting User ID must be the UUID of a user of the company.'],
	[/header requires a Platform API Key/i, 'Personal Access Tokens always act as their owner: to act for another user, switch Authentication to Platform API Key and set Act As User.'],
	[/User management requires a Platform API Key/i, 'Switch the node\'s Authentication to Platform API Key: this operation is not available to Personal Access Tokens.'],
	[/^Forbidden resource$/i, 'Only admins may do this: use an admin\'s token, or a Platform API key.'],
	[/Quick mail limit reached/i, 'Each quick mail counts against its attendee for 5 minutes: wait up to 5 minutes before mailing this attendee again, or space the mails out (for example with a Wait node).'],
];

export function apiWords(body: unknown): string {
	if (body && typeof body === 'object') {
		const { message, errors } = body as IDataObject;
		if (Array.isArray(errors) && errors.length) {
			return (errors as IDataObject[]).map((e) => `${String(e.field)}: ${String(e.message)}`).join('; ');
		}
		if (Array.isArray(message)) return message.map(String).join('; ');
		if (typeof message === 'string' && message) return message;
	}
	if (typeof body === 'string' && body.trim()) return body.trim().slice(0, 500);
	return 'The API gave no further details.';
}

function howToFix(status: number, words: string, body: IDataObject): string {
	if (status === 403 && body.code === 'PLAN_LIMIT_REACHED') {
		const feature = body.feature ? ` (${String(body.feature)})` : '';
		return `Your plan does not include this feature${feature}: upgrade the plan in the dashboard, or ask the company owner to.`;
	}
	const specific = SPECIFIC_FIXES.find(([pattern]) => pattern.test(words));
	if (specific) return specific[1];
	if (status >= 500) return 'This is a problem on the API side. Try again later; if it persists, contact the platform\'s support.';
	return HOW_TO_FIX[status] ?? 'Check the request and try again.';
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
	options: { extra?: string; secrets?: string[] } = {},
): NodeApiError {
	// Longest first, so a whole key is masked before its secret part.
	const body = masked(answer, [...(options.secrets ?? [])].sort((a, b) => b.length - a.length));
	const data: IDataObject = body && typeof body === 'object' ? (body as IDataObject) : {};
	const words = apiWords(body);
	const happened = WHAT_HAPPENED[status] ?? (status >= 500 ? 'The API failed with a server error' : 'The API answered with an error');
	return new NodeApiError(node, { ...data, statusCode: status } as JsonObject, {
		message: `${happened} (HTTP ${status})`,
		description: `${words}${options.extra ?? ''} ${howToFix(status, words, data)}`,
		httpCode: String(status),
		itemIndex,
	});
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
	return new NodeOperationError(node, 'Could not get an answer from the API', {
		description: `Network error ${code}. Check the Base URL in the credential and that the API is reachable from n8n, then try again.`,
		itemIndex,
	});
}

/** A redirect that would take the credential to another origin, or from https to plain http: not followed. */
export function redirectError(node: INode, status: number, host: string, baseUrl: string, itemIndex: number, protocol?: string): NodeOperationError {
	const downgrade = protocol === 'http:' && baseUrl.startsWith('https:') ? ' over plain http' : '';
	return new NodeOperationError(node, `The API redirected the request (HTTP ${status}) to ${host}${downgrade}; the redirect was not followed`, {
		description: `Requests carry your credential, so they are only sent to the Base URL's own address (${baseUrl}). Check the Base URL in the credential: it may be an old or wrong address that now redirects elsewhere.`,
		itemIndex,
	});
}
