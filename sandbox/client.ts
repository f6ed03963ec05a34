/**
 * How tests and scripts call a running sandbox over HTTP, in one place: its API as a token's user (and acting user),
 * and its control routes (`/__sandbox/...`, no token). Answers are read as JSON (empty: undefined).
 */

export interface SandboxRequest {
	/** A PAT or API key: sent as `Authorization: Bearer`. */
	token?: string;
	/** The acting user (`x-service-api-user-id`), for API keys. */
	actAs?: string;
	body?: unknown;
}

/** The answer's status and body (read as T), whatever the status. */
export async function sandboxRequest<T = unknown>(baseUrl: string, method: string, path: string, request: SandboxRequest = {}): Promise<{ status: number; body: T }> {
	const headers: Record<string, string> = {};
	if (request.token !== undefined) headers.authorization = `Bearer ${request.token}`;
	if (request.actAs) headers['x-service-api-user-id'] = request.actAs;
	if (request.body !== undefined) headers['content-type'] = 'application/json';
	const response = await fetch(`${baseUrl}${path}`, { method, headers, body: request.body === undefined ? undefined : JSON.stringify(request.body) });
	const text = await response.text();
	return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** The answer's body (read as T); an error naming the request and the answer when the status is not 2xx. */
export async function sandboxCall<T = unknown>(baseUrl: string, method: string, path: string, request: SandboxRequest = {}): Promise<T> {
	const answer = await sandboxRequest<T>(baseUrl, method, path, request);
	if (answer.status < 200 || answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
	return answer.body;
}
