import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

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
	429: 'Wait a minute, or lower the number of requests (for example with Batch Size in the node settings).',
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

export function apiErrorFromResponse(
	node: INode,
	status: number,
	body: unknown,
	itemIndex: number,
	extra = '',
): NodeApiError {
	const data: IDataObject = body && typeof body === 'object' ? (body as IDataObject) : {};
	const words = apiWords(body);
	const happened = WHAT_HAPPENED[status] ?? (status >= 500 ? 'The API failed with a server error' : 'The API answered with an error');
	return new NodeApiError(node, { ...data, statusCode: status } as JsonObject, {
		message: `${happened} (HTTP ${status})`,
		description: `${words}${extra} ${howToFix(status, words, data)}`,
		httpCode: String(status),
		itemIndex,
	});
}

export function networkError(node: INode, code: string, mayHaveBeenApplied: boolean, itemIndex: number): NodeApiError {
	const hint = mayHaveBeenApplied
		? 'The request was not retried because it changes data and may already have been applied: check the resource before running it again.'
		: 'Check the Base URL in the credential and that the API is reachable from n8n, then try again.';
	return new NodeApiError(node, { code } as JsonObject, {
		message: `Could not get an answer from the API (${code})`,
		description: hint,
		itemIndex,
	});
}
