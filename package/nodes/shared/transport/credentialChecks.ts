import type { INodeProperties } from 'n8n-workflow';

/**
 * Format checks for both credential types, run before any request is sent.
 * Each returns a message stating the expected form, or undefined when the value is fine.
 * Messages never contain the checked value: it may be a secret.
 */

const LOOPBACK_HOSTS = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A loopback host name as a URL gives it (localhost, 127.x.x.x, [::1]): plain http is allowed only there. */
export function isLoopbackHost(hostname: string): boolean {
	return LOOPBACK_HOSTS.test(hostname);
}

export function isUuid(value: string): boolean {
	return UUID.test(value);
}

export function baseUrlProblem(value: unknown): string | undefined {
	let url: URL;
	try {
		url = new URL(String(value ?? '').trim());
	} catch {
		return 'The Base URL is not a valid URL. Expected a host root such as https://api.example.com';
	}
	if (url.search || url.hash || url.username || url.password) {
		return 'The Base URL must be a plain host root without query, fragment or user info, such as https://api.example.com';
	}
	if (url.pathname.replace(/\/+$/, '') !== '') {
		return `The Base URL must be the host root without a path, such as ${url.origin} (not ${url.origin}${url.pathname}): the node adds the API paths such as /v4/... itself`;
	}
	if (url.protocol === 'https:') return undefined;
	if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return undefined;
	return 'The Base URL must use https (plain http is accepted only for localhost, 127.x.x.x and [::1])';
}

export function normaliseBaseUrl(value: unknown): string {
	return String(value).trim().replace(/\/+$/, '');
}

export function personalAccessTokenProblem(value: unknown): string | undefined {
	const token = String(value ?? '').trim();
	if (/^rgo-\S+$/.test(token)) return undefined;
	return 'The Personal Access Token has the wrong form: it must start with "rgo-" followed by the token (create one in the integrations area of the dashboard)';
}

export function apiKeyProblem(value: unknown): string | undefined {
	const parts = String(value ?? '').trim().split(':');
	if (parts.length >= 3 && parts[0] === 'ak_live' && isUuid(parts[1]) && parts.slice(2).join(':') !== '') {
		return undefined;
	}
	return 'The API Key has the wrong form: it must look like ak_live:<uuid>:<secret> (copy the whole key shown once when it was created)';
}

export function actingUserProblem(value: unknown, label: string): string | undefined {
	const id = String(value ?? '').trim();
	if (id === '' || isUuid(id)) return undefined;
	return `${label} must be a user ID in UUID form, such as 6f1c2a7e-1b2c-4d5e-8f90-123456789abc`;
}

/** The Requests per Minute and Burst fields of both credentials (defaults: the API's limit). */
export const rateLimitProperties: INodeProperties[] = [
	{
		displayName: 'Requests per Minute',
		name: 'requestsPerMinute',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: 100,
		description: 'Requests per minute the API allows this credential (100 on every plan today). The nodes keep under it, shared by every workflow in this n8n process; other processes using the same credential are noticed by the API\'s 429 answers.',
	},
	{
		displayName: 'Burst',
		name: 'burst',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: 200,
		description: 'Requests the API allows at once before the per-minute rate applies (200 today)',
	},
];

type RateField = 'requestsPerMinute' | 'burst';

function rateProperty(field: RateField): INodeProperties {
	return rateLimitProperties.find((property) => property.name === field) as INodeProperties;
}

/** A rate field of a credential: empty (a credential saved before the fields existed) takes the default, the API's. */
function rateField(credentials: Record<string, unknown>, field: RateField): number {
	const value = credentials[field];
	return value === undefined || value === null || value === '' ? (rateProperty(field).default as number) : Number(value);
}

/** Both rate fields must be whole numbers from 1. */
export function rateLimitProblem(credentials: Record<string, unknown>): string | undefined {
	const field = (['requestsPerMinute', 'burst'] as RateField[]).find((name) => {
		const value = rateField(credentials, name);
		return !Number.isInteger(value) || value < 1;
	});
	const [perMinute, burst] = [rateProperty('requestsPerMinute').default, rateProperty('burst').default];
	return field && `${rateProperty(field).displayName} must be a whole number of at least 1 (the API allows ${String(perMinute)} requests per minute with bursts of ${String(burst)})`;
}

/**
 * The first problem of a credential's form, field by field as the form shows them (Base URL, the token or API key,
 * the Default Acting User ID of an API key, the rate fields); undefined when the form is fine. The credential
 * classes, the transport and the credential test all check a credential with this.
 */
export function credentialProblem(credentials: Record<string, unknown>, isApiKey: boolean): string | undefined {
	return (
		baseUrlProblem(credentials.baseUrl) ??
		(isApiKey ? apiKeyProblem(credentials.apiKey) : personalAccessTokenProblem(credentials.token)) ??
		(isApiKey ? actingUserProblem(credentials.actingUserId, 'Default Acting User ID') : undefined) ??
		rateLimitProblem(credentials)
	);
}

export function rateLimitOf(credentials: Record<string, unknown>): { perMinute: number; burst: number } {
	return { perMinute: rateField(credentials, 'requestsPerMinute'), burst: rateField(credentials, 'burst') };
}
