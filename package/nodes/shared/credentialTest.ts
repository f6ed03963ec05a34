import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import {
	credentialProblem,
	normaliseBaseUrl,
} from './transport/credentialChecks';
import { apiReasons, howToFix, masked, sentence } from './transport/errors';

/**
 * The credential test of both credential types (the nodes name it in `testedBy`). A test request with
 * `rules` cannot do this: its rules see only the status code of a failed answer, and every wrong secret is a
 * 401. This function sees the API's answer, so it tells an expired credential from an invalid or revoked one
 * (the API answers "Invalid API key" for unknown, revoked and deactivated keys alike), and a wrong Base URL
 * (no connection, a 404 for /v4/user/me, an answer that is not the API's JSON) from a wrong secret.
 * Its messages never contain the secret.
 */

type Answer = { statusCode: number; body: unknown; headers?: IDataObject };

function unreachable(baseUrl: string, detail: string): INodeCredentialTestResult {
	return { status: 'Error', message: `Could not reach the API at ${baseUrl}: check the Base URL (${detail}).` };
}

/** What a 401's words mean for the credential. */
const UNAUTHORIZED: Array<[RegExp, string]> = [
	[/API key has expired/i, 'The API key has expired (API keys live 1 to 90 days): create a new key in the dashboard and paste it into the credential.'],
	[/^Invalid API key$/i, 'The API key is invalid or revoked (the API answers the same for an unknown, revoked or deactivated key): copy the whole key again, or create a new one in the dashboard.'],
	[/Access token has expired/i, 'The Personal Access Token has expired: create a new one in the integrations area of the dashboard and paste it into the credential.'],
	[/^Invalid access token$/i, 'The Personal Access Token is invalid or revoked (the API answers the same for both): copy it again, or create a new one in the integrations area of the dashboard.'],
];

export function credentialTestResult(answer: Answer, baseUrl: string, secrets: string[]): INodeCredentialTestResult {
	const { statusCode: status } = answer;
	const body = masked(answer.body, secrets);
	const isApiJson = body !== null && typeof body === 'object' && !Array.isArray(body);
	if (status >= 300 && status < 400) {
		const location = String(answer.headers?.location ?? '');
		let target = location || 'another address';
		try {
			target = new URL(location, baseUrl).host;
		} catch {
			// keep the raw location
		}
		return unreachable(baseUrl, `it redirects GET /v4/user/me to ${target}; use the address the API answers on itself`);
	}
	if (status >= 200 && status < 300) {
		if (isApiJson && (body as IDataObject).id) return { status: 'OK', message: 'Connection tested successfully' };
		return unreachable(baseUrl, `GET /v4/user/me answered HTTP ${status} without the API's JSON`);
	}
	if (status === 404) return unreachable(baseUrl, 'GET /v4/user/me answered HTTP 404');
	if (!isApiJson) return unreachable(baseUrl, `GET /v4/user/me answered HTTP ${status} without the API's JSON`);
	const words = apiReasons(body).join('; ');
	if (status === 401) {
		const meaning = UNAUTHORIZED.find(([pattern]) => pattern.test(words));
		if (meaning) return { status: 'Error', message: meaning[1] };
		return { status: 'Error', message: `The API did not accept the credential (HTTP 401${words ? `: ${words}` : ''}). Check the token or API key and the Base URL.` };
	}
	if (status === 429) return { status: 'Error', message: 'The API\'s rate limit for this credential is used up right now (HTTP 429): test again in a minute.' };
	const said = words ? `: ${sentence(words)}` : '.';
	return { status: 'Error', message: `The API refused the test request (HTTP ${status})${said} ${howToFix(status, words, body as IDataObject)}` };
}

function networkCode(error: unknown): string {
	const err = error as { cause?: { code?: string }; code?: string };
	return err?.cause?.code ?? err?.code ?? 'no answer';
}

export async function testSchedulingPlatformCredential(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	const isApiKey = credential.type === 'schedulingPlatformApiKeyApi' || (credential.type !== 'schedulingPlatformPatApi' && 'apiKey' in data);
	const secret = String((isApiKey ? data.apiKey : data.token) ?? '').trim();
	const problem = credentialProblem(data, isApiKey);
	if (problem) return { status: 'Error', message: sentence(problem) };

	const baseUrl = normaliseBaseUrl(data.baseUrl);
	const headers: IDataObject = { Authorization: `Bearer ${secret}`, Accept: 'application/json' };
	const actingUser = isApiKey ? String(data.actingUserId ?? '').trim() : '';
	if (actingUser) headers['x-service-api-user-id'] = actingUser;
	// Credential tests get only n8n's `request` helper (ICredentialTestFunctions has no httpRequest). It goes
	// through n8n's HTTP client (proxy and SSRF settings); simple: false returns error answers instead of throwing.
	const { request } = this.helpers;
	let answer: Answer;
	try {
		answer = (await request({
			method: 'GET',
			uri: `${baseUrl}/v4/user/me`,
			headers,
			json: true,
			simple: false,
			resolveWithFullResponse: true,
			followRedirect: false,
		})) as Answer;
	} catch (error) {
		return unreachable(baseUrl, networkCode(error));
	}
	const part = isApiKey ? secret.split(':').slice(2).join(':') : secret.slice(4);
	return credentialTestResult(answer, baseUrl, [secret, ...(part.length >= 8 ? [part] : [])]);
}
