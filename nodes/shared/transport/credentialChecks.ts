/**
 * Format checks for both credential types, run before any request is sent.
 * Each returns a message stating the expected form, or undefined when the value is fine.
 * Messages never contain the checked value: it may be a secret.
 */

const LOOPBACK_HOSTS = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
	if (url.protocol === 'http:' && LOOPBACK_HOSTS.test(url.hostname)) return undefined;
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

/** Requests per Minute and Burst of a credential: whole numbers from 1; empty (a credential saved before they existed) takes the API's. */
const RATE_FIELDS = { requestsPerMinute: 'Requests per Minute', burst: 'Burst' } as const;
const DEFAULT_RATE = { requestsPerMinute: 100, burst: 200 };

function rateField(credentials: Record<string, unknown>, field: keyof typeof RATE_FIELDS): number {
	const value = credentials[field];
	return value === undefined || value === null || value === '' ? DEFAULT_RATE[field] : Number(value);
}

export function rateLimitProblem(credentials: Record<string, unknown>): string | undefined {
	const field = (Object.keys(RATE_FIELDS) as Array<keyof typeof RATE_FIELDS>).find((name) => {
		const value = rateField(credentials, name);
		return !Number.isInteger(value) || value < 1;
	});
	return field && `${RATE_FIELDS[field]} must be a whole number of at least 1 (the API allows ${DEFAULT_RATE.requestsPerMinute} requests per minute with bursts of ${DEFAULT_RATE.burst})`;
}

export function rateLimitOf(credentials: Record<string, unknown>): { perMinute: number; burst: number } {
	return { perMinute: rateField(credentials, 'requestsPerMinute'), burst: rateField(credentials, 'burst') };
}
