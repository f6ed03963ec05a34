import { randomUUID } from 'node:crypto';
import type { Seed } from '../sandbox/seed';
import type { LoggedRequest } from '../sandbox/state';
import type { Company, MeetingType, User } from '../sandbox/store';
import type { Schema } from '../sandbox/contract';
import { Sandbox, startSandbox } from '../sandbox/server';
import { validateBody } from '../sandbox/validation';

interface Options {
	token?: string;
	actingUser?: string;
	body?: unknown;
	headers?: Record<string, string>;
	base?: string;
}

type Fields = Record<string, unknown>;

/** Every meetingInfo.channel value of the reference, in its order. */
const CHANNELS = 'local, local-attendee, google, zoom, phone, phone-incoming, messenger, connect, webex, teamsForBusiness2, teams2ForExchange, custom, resource, whereby, kmeet, jitsi, nextcloudTalk, openTalk, alfaview';

interface Result<T = Fields> {
	status: number;
	body: T;
	headers: Headers;
}

let sandbox: Sandbox;
let seed: Seed;

beforeAll(async () => {
	sandbox = await startSandbox();
});

afterAll(() => sandbox.close());

beforeEach(async () => {
	seed = (await control<Seed>('POST', '/seed')).body;
});

async function request<T = Fields>(method: string, path: string, options: Options = {}): Promise<Result<T>> {
	const headers: Record<string, string> = { ...options.headers };
	if (options.token) headers.authorization = `Bearer ${options.token}`;
	if (options.actingUser) headers['x-service-api-user-id'] = options.actingUser;
	if (options.body !== undefined) headers['content-type'] = 'application/json';
	const body = options.body === undefined ? undefined : JSON.stringify(options.body);
	const response = await fetch(`${options.base ?? sandbox.url}${path}`, { method, headers, body });
	const text = await response.text();
	return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T, headers: response.headers };
}

function control<T = Fields>(method: string, path: string, body?: unknown, base?: string): Promise<Result<T>> {
	return request<T>(method, `/__sandbox${path}`, { body, base });
}

function expectError(result: Result<unknown>, status: number, message: string | string[], error: string): void {
	expect({ status: result.status, body: result.body }).toEqual({ status, body: { statusCode: status, message, error } });
}

const owner = () => ({ token: seed.credentials.ownerPat });
const member = () => ({ token: seed.credentials.memberPat });
const apiKey = (actingUser?: string) => ({ token: seed.credentials.apiKey, actingUser });

async function mintPat(body: { userId: string; expiresInSeconds?: number; scopes?: string[] }): Promise<{ id: string; token: string }> {
	return (await control<{ id: string; token: string }>('POST', '/pats', body)).body;
}

async function newApiKey(lifetimeDays = 30): Promise<{ id: string; key: string }> {
	return (await control<{ id: string; key: string }>('POST', '/api-keys', { companyId: seed.companies.acme.id, lifetimeDays })).body;
}

describe('authentication and acting user', () => {
	test('no Authorization header: 401', async () => {
		expectError(await request('GET', '/v4/user/me'), 401, 'Missing authorization header', 'Unauthorized');
	});

	test.each(['Basic abc', 'Bearer', 'Bearer a b', 'rgo-abc'])('Authorization %p: 401 malformed', async (value) => {
		const result = await request('GET', '/v4/user/me', { headers: { authorization: value } });
		expectError(result, 401, 'Malformed authorization header', 'Unauthorized');
	});

	test('unknown, revoked and deactivated API keys: 401 Invalid API key; reactivated works again', async () => {
		expectError(await request('GET', '/v4/user/me', { token: `ak_live:${randomUUID()}:nope` }), 401, 'Invalid API key', 'Unauthorized');
		const revoked = await newApiKey();
		await control('POST', `/api-keys/${revoked.id}/revoke`);
		expectError(await request('GET', '/v4/user/me', { token: revoked.key }), 401, 'Invalid API key', 'Unauthorized');
		const paused = await newApiKey();
		expect((await control('POST', `/api-keys/${paused.id}/deactivate`)).body).toEqual({ id: paused.id, status: 'deactivated' });
		expectError(await request('GET', '/v4/user/me', { token: paused.key }), 401, 'Invalid API key', 'Unauthorized');
		await control('POST', `/api-keys/${paused.id}/activate`);
		expect((await request('GET', '/v4/user/me', { token: paused.key })).status).toBe(200);
		expectError(await control('POST', `/api-keys/${revoked.id}/activate`), 409, 'A revoked API key cannot be changed', 'Conflict');
	});

	test('unknown, non-rgo and revoked PATs: 401 Invalid access token', async () => {
		for (const token of [`rgo-${'0'.repeat(32)}`, 'abc123']) {
			expectError(await request('GET', '/v4/user/me', { token }), 401, 'Invalid access token', 'Unauthorized');
		}
		const { id, token } = await mintPat({ userId: seed.users.member.id });
		expect(token).toMatch(/^rgo-[0-9a-f]{32}$/);
		await control('POST', `/pats/${id}/revoke`);
		expectError(await request('GET', '/v4/user/me', { token }), 401, 'Invalid access token', 'Unauthorized');
	});

	test('acting-user header that is not a UUID: 400', async () => {
		for (const options of [apiKey('abc'), { ...owner(), actingUser: 'abc' }]) {
			const result = await request('GET', '/v4/user/me', options);
			expectError(result, 400, 'x-service-api-user-id must be a UUID', 'Bad Request');
		}
	});

	test('PAT naming another user: 403; naming its owner: allowed', async () => {
		const other = await request('GET', '/v4/user/me', { ...owner(), actingUser: seed.users.member.id });
		const message =
			'The x-service-api-user-id header requires a Platform API Key; Personal Access Tokens always act as the token owner';
		expectError(other, 403, message, 'Forbidden');
		const self = await request('GET', '/v4/user/me', { ...owner(), actingUser: seed.users.owner.id });
		expect(self.body.id).toBe(seed.users.owner.id);
	});

	test('API key acting as a user outside its company, or unknown: 500', async () => {
		for (const id of [seed.users.outsider.id, randomUUID()]) {
			const result = await request('GET', '/v4/meeting-type', apiKey(id));
			expectError(result, 500, 'API user does not belong to company', 'Internal Server Error');
		}
	});

	test('API key without the header where it is needed: 400', async () => {
		const message = 'Missing required header `x-service-api-user-id` for API key authentication';
		expectError(await request('GET', '/v4/meeting-type', apiKey()), 400, message, 'Bad Request');
		expectError(await request('GET', '/v4/user', apiKey()), 400, message, 'Bad Request');
	});

	test('API key without the header on an optional endpoint acts as the company owner', async () => {
		expect((await request('GET', '/v4/user/me', apiKey())).body).toEqual(seed.users.owner);
		expect((await request('GET', '/v4/user/me', apiKey(seed.users.member.id))).body.id).toBe(seed.users.member.id);
		expect((await request('GET', '/v4/user/me', member())).body.id).toBe(seed.users.member.id);
	});

	test('PAT on user management: 403', async () => {
		const calls: Array<[string, string, unknown]> = [
			['POST', '/v4/user', { email: 'x@acme.example', givenName: 'X', familyName: 'Y', timezone: 'UTC' }],
			['PATCH', `/v4/user/${seed.users.member.id}`, { title: 'Boss' }],
			['DELETE', `/v4/user/${seed.users.member.id}`, undefined],
		];
		for (const [method, path, body] of calls) {
			const result = await request(method, path, { ...owner(), body });
			expectError(result, 403, 'User management requires a Platform API Key', 'Forbidden');
		}
	});

	test('member PAT on the workspace-wide user list: 403; admin PAT and API key: allowed', async () => {
		expectError(await request('GET', '/v4/user', member()), 403, 'Forbidden resource', 'Forbidden');
		expect((await request('GET', '/v4/user', owner())).status).toBe(200);
		expect((await request('GET', '/v4/user', apiKey(seed.users.member.id))).status).toBe(200);
	});

	test('plan without the feature: 403 with code PLAN_LIMIT_REACHED', async () => {
		const company = (await control<Company>('POST', '/companies', { name: 'Lite', plan: 'essentials', excludedFeatures: ['meeting-types'] })).body;
		expect(company.plan).toEqual({ name: 'essentials', excludedFeatures: ['meeting-types'] });
		const user = (await control<User>('POST', '/users', { companyId: company.id, email: 'l@lite.example', givenName: 'L', familyName: 'T' })).body;
		expect(user).toMatchObject({ isAdmin: true, timezone: 'UTC' });
		const { token } = await mintPat({ userId: user.id });
		expect((await request('GET', '/v4/meeting-type', { token })).body).toEqual({
			statusCode: 403,
			message: 'Your plan does not include the meeting-types feature',
			error: 'Forbidden',
			code: 'PLAN_LIMIT_REACHED',
			feature: 'meeting-types',
		});
		expect((await request('GET', '/v4/user/me', { token })).status).toBe(200);
	});

	test('PAT scoped away from a feature: 403 naming it, without a code', async () => {
		const { token } = await mintPat({ userId: seed.users.owner.id, scopes: ['users'] });
		const result = await request('GET', '/v4/meeting-type', { token });
		expectError(result, 403, 'This access token is not scoped for the meeting-types feature', 'Forbidden');
		expect((await request('GET', '/v4/user', { token })).status).toBe(200);
	});

	test('authentication runs before validation; unknown routes answer 404 without it', async () => {
		expectError(await request('GET', '/v4/user?limit=500'), 401, 'Missing authorization header', 'Unauthorized');
		expectError(await request('GET', '/x'), 404, 'Cannot GET /x', 'Not Found');
		expectError(await request('DELETE', '/v4/user?a=1', owner()), 404, 'Cannot DELETE /v4/user?a=1', 'Not Found');
	});

	test('responses are JSON', async () => {
		const result = await request('GET', '/v4/user/me', owner());
		expect(result.headers.get('content-type')).toBe('application/json; charset=utf-8');
	});
});

describe('validation', () => {
	test('query constraints, every one listed', async () => {
		const result = await request('GET', '/v4/user?limit=500&offset=-1&userType=robot', owner());
		expectError(
			result,
			400,
			[
				'limit must not be greater than 100',
				'offset must not be less than 0',
				'userType must be one of the following values: standard, resource, api-platform, partner',
			],
			'Bad Request',
		);
	});

	test('query strings are converted; a repeated key is an array', async () => {
		const messages = ['limit must be an integer number', 'limit must not be greater than 100', 'limit must not be less than 1'];
		expectError(await request('GET', '/v4/user?limit=abc', owner()), 400, messages, 'Bad Request');
		expectError(await request('GET', '/v4/user?limit=5&limit=6', owner()), 400, messages, 'Bad Request');
		expect((await request('GET', '/v4/user?limit=1&unknown=1', owner())).body.count).toBe(1);
	});

	test('missing and malformed body fields', async () => {
		const missing = await request('POST', '/v4/user', { ...apiKey(), body: {} });
		expectError(
			missing,
			400,
			[
				'email should not be empty',
				'email must be an email',
				'givenName should not be empty',
				'givenName must be a string',
				'familyName should not be empty',
				'familyName must be a string',
				'timezone should not be empty',
				'timezone must be a valid IANA time zone',
			],
			'Bad Request',
		);
		const body = { email: 'nope', givenName: '', familyName: 3, timezone: 'Mars/Olympus' };
		expectError(
			await request('POST', '/v4/user', { ...apiKey(), body }),
			400,
			[
				'email must be an email',
				'givenName should not be empty',
				'familyName must be a string',
				'timezone must be a valid IANA time zone',
			],
			'Bad Request',
		);
	});

	test('nested properties are named with dots', async () => {
		const body = { meetingInfo: { name: 'Call', description: '', duration: 2, channel: 'fax', bufferBefore: 121 }, spots: 101 };
		expectError(
			await request('POST', '/v4/meeting-type', { ...owner(), body }),
			400,
			[
				'meetingInfo.duration must not be less than 5',
				`meetingInfo.channel must be one of the following values: ${CHANNELS}`,
				'meetingInfo.bufferBefore must not be greater than 120',
				'spots must not be greater than 100',
			],
			'Bad Request',
		);
		const notObject = await request('POST', '/v4/meeting-type', { ...owner(), body: { meetingInfo: 'x' } });
		expectError(notObject, 400, ['meetingInfo must be an object'], 'Bad Request');
	});

	test('arrays of objects are checked item by item', async () => {
		const schedule = { monday: { hours: [{ start: '9am' }] } };
		const body = { email: 'n@acme.example', givenName: 'N', familyName: 'U', timezone: 'UTC', availability: { schedule } };
		const hours = 'availability.schedule.monday.hours.0';
		const pattern = '/^([01][0-9]|2[0-3]):[0-5][0-9]$/';
		expectError(
			await request('POST', '/v4/user', { ...apiKey(), body }),
			400,
			[
				'availability.schedule.monday.enabled should not be empty',
				'availability.schedule.monday.enabled must be a boolean',
				`${hours}.start must match ${pattern} regular expression`,
				`${hours}.end should not be empty`,
				`${hours}.end must be a string`,
				`${hours}.end must match ${pattern} regular expression`,
			],
			'Bad Request',
		);
	});

	test('unknown body fields are dropped silently, at every depth', async () => {
		const patch = await request('PATCH', `/v4/user/${seed.users.member.id}`, {
			...apiKey(seed.users.owner.id),
			body: { title: 'Engineer', isAdmin: true, companyId: seed.companies.other.id },
		});
		expect(patch.body).toMatchObject({ title: 'Engineer', isAdmin: false, companyId: seed.companies.acme.id });
		const created = await request('POST', '/v4/meeting-type', {
			...owner(),
			body: { meetingInfo: { name: 'Chat', description: '', duration: 20, channel: 'phone', extra: 1 }, foo: 'bar' },
		});
		expect(created.status).toBe(201);
		expect(created.body).not.toHaveProperty('foo');
		expect(created.body.meetingInfo).not.toHaveProperty('extra');
	});

	test('generic constraints for later groups: numbers, booleans, arrays, formats, nullable, defaults', () => {
		const schema: Schema = {
			type: 'object',
			required: ['items'],
			properties: {
				amount: { type: 'number' },
				paid: { type: 'boolean' },
				tags: { type: 'array', items: { type: 'string' } },
				at: { type: 'string', format: 'date-time' },
				contactId: { type: 'string', format: 'uuid', nullable: true },
				page: { type: 'integer', default: 1 },
				items: { type: 'array', items: { type: 'object', required: ['qty'], properties: { qty: { type: 'integer', minimum: 1 } } } },
			},
		};
		const valid = { amount: 1.5, paid: false, tags: ['a'], at: '2026-01-02T10:00:00+01:00', contactId: null, items: [{ qty: 2, x: 1 }] };
		expect(validateBody(schema, valid)).toEqual({ ...valid, page: 1, items: [{ qty: 2 }] });
		const invalid = { amount: '1', paid: 'yes', tags: ['a', 2], at: 'tomorrow', contactId: 'abc', items: [{ qty: 0 }, 'x'] };
		expect(() => validateBody(schema, invalid)).toThrow(
			expect.objectContaining({
				body: {
					statusCode: 400,
					error: 'Bad Request',
					message: [
						'amount must be a number',
						'paid must be a boolean',
						'each value in tags must be a string',
						'at must be a valid ISO 8601 date string',
						'contactId must be a UUID',
						'items.0.qty must not be less than 1',
						'items.1 must be an object',
					],
				},
			}),
		);
	});

	test('malformed JSON: 400', async () => {
		const response = await fetch(`${sandbox.url}/v4/meeting-type`, {
			method: 'POST',
			headers: { authorization: `Bearer ${seed.credentials.ownerPat}`, 'content-type': 'application/json' },
			body: '{bad',
		});
		expect(response.status).toBe(400);
		expect(await response.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
	});
});

describe('rate limit', () => {
	test('burst, then 429 with Retry-After; the clock refills; buckets are per credential', async () => {
		const small = await startSandbox({ rateLimit: { perMinute: 60, burst: 3 } });
		try {
			const { credentials } = (await control<Seed>('POST', '/seed', undefined, small.url)).body;
			const me = (token: string) => request('GET', '/v4/user/me', { token, base: small.url });
			for (let i = 0; i < 3; i++) expect((await me(credentials.ownerPat)).status).toBe(200);
			const limited = await me(credentials.ownerPat);
			expectError(limited, 429, 'Too Many Requests', 'Too Many Requests');
			expect(limited.headers.get('retry-after')).toBe('1');
			expect((await me(credentials.memberPat)).status).toBe(200);
			await control('POST', '/clock/advance', { seconds: 1 }, small.url);
			expect((await me(credentials.ownerPat)).status).toBe(200);
			expect((await me(credentials.ownerPat)).status).toBe(429);
		} finally {
			await small.close();
		}
	});

	test('numbers set through the control API', async () => {
		try {
			expect((await control('POST', '/rate-limit', { perMinute: 6, burst: 1 })).body).toEqual({ perMinute: 6, burst: 1 });
			expect((await request('GET', '/v4/user/me', apiKey())).status).toBe(200);
			const limited = await request('GET', '/v4/user/me', apiKey());
			expect(limited.status).toBe(429);
			expect(limited.headers.get('retry-after')).toBe('10');
		} finally {
			await control('POST', '/rate-limit', { perMinute: 100, burst: 200 });
		}
	});
});

describe('faults', () => {
	afterEach(() => control('DELETE', '/faults'));

	test('429 with and without Retry-After, once each', async () => {
		await control('POST', '/faults', { path: '/v4/user/me', status: 429, retryAfter: '7' });
		const first = await request('GET', '/v4/user/me', owner());
		expectError(first, 429, 'Too Many Requests', 'Too Many Requests');
		expect(first.headers.get('retry-after')).toBe('7');
		expect((await request('GET', '/v4/user/me', owner())).status).toBe(200);
		await control('POST', '/faults', { method: 'get', path: '/v4/user/me', status: 429 });
		const second = await request('GET', '/v4/user/me', owner());
		expect(second.status).toBe(429);
		expect(second.headers.get('retry-after')).toBeNull();
	});

	test('503 on a path prefix, for a method, a given number of times, before authentication', async () => {
		const fault = { method: 'GET', path: '/v4/meeting-type*', status: 503, body: { message: 'down' }, times: 2 };
		expect((await control('POST', '/faults', fault)).status).toBe(201);
		expect((await request('POST', '/v4/meeting-type', owner())).status).toBe(400);
		expect(await request('GET', '/v4/meeting-type')).toMatchObject({ status: 503, body: { message: 'down' } });
		expect((await request('GET', `/v4/meeting-type/${randomUUID()}`)).status).toBe(503);
		expect((await request('GET', '/v4/meeting-type', owner())).status).toBe(200);
		await control('POST', '/faults', { path: '/v4/user/me', status: 503 });
		expectError(await request('GET', '/v4/user/me'), 503, 'Service Unavailable', 'Service Unavailable');
	});

	test('delay, then the normal answer', async () => {
		await control('POST', '/faults', { path: '/v4/user/me', delayMs: 300 });
		const started = Date.now();
		expect((await request('GET', '/v4/user/me', owner())).status).toBe(200);
		expect(Date.now() - started).toBeGreaterThanOrEqual(290);
	});

	test('drop closes the connection without an answer', async () => {
		await control('POST', '/faults', { path: '/v4/user/me', drop: true });
		await expect(fetch(`${sandbox.url}/v4/user/me`)).rejects.toThrow();
		const log = (await control<LoggedRequest[]>('GET', '/requests')).body;
		expect(log[log.length - 1]).toMatchObject({ path: '/v4/user/me', status: null });
		expect((await request('GET', '/v4/user/me', owner())).status).toBe(200);
	});

	test('DELETE clears every fault', async () => {
		await control('POST', '/faults', { path: '*', status: 500, times: 5 });
		await control('DELETE', '/faults');
		expect((await request('GET', '/v4/user/me', owner())).status).toBe(200);
	});
});

describe('request log', () => {
	test('records API requests in order, not control requests; DELETE clears it', async () => {
		await control('DELETE', '/requests');
		await request('GET', '/v4/user?limit=1&limit=2', { ...owner(), headers: { 'X-Trace': 'abc' } });
		await request('POST', '/v4/meeting-type', { ...owner(), body: { meetingInfo: { name: 'Log', description: '', duration: 10, channel: 'phone' } } });
		const log = (await control<LoggedRequest[]>('GET', '/requests')).body;
		expect(log).toHaveLength(2);
		expect(log[0]).toMatchObject({ method: 'GET', path: '/v4/user', query: 'limit=1&limit=2', body: null, status: 400 });
		expect(log[0].headers).toMatchObject({ authorization: `Bearer ${seed.credentials.ownerPat}`, 'x-trace': 'abc' });
		expect(log[1]).toMatchObject({ method: 'POST', path: '/v4/meeting-type', query: '', status: 201 });
		expect(log[1].body).toEqual({ meetingInfo: { name: 'Log', description: '', duration: 10, channel: 'phone' } });
		await control('DELETE', '/requests');
		expect((await control('GET', '/requests')).body).toEqual([]);
	});
});

describe('clock', () => {
	test('advancing expires a PAT and an API key', async () => {
		const { token } = await mintPat({ userId: seed.users.member.id, expiresInSeconds: 60 });
		const { key } = await newApiKey(1);
		expect((await request('GET', '/v4/user/me', { token })).status).toBe(200);
		expect((await request('GET', '/v4/user/me', { token: key })).status).toBe(200);
		await control('POST', '/clock/advance', { seconds: 61 });
		expectError(await request('GET', '/v4/user/me', { token }), 401, 'Access token has expired', 'Unauthorized');
		expect((await request('GET', '/v4/user/me', { token: key })).status).toBe(200);
		await control('POST', '/clock/advance', { seconds: 86400 });
		expectError(await request('GET', '/v4/user/me', { token: key }), 401, 'API key has expired', 'Unauthorized');
	});

	test('API key lifetime is 1 to 90 days', async () => {
		const tooLong = await control('POST', '/api-keys', { companyId: seed.companies.acme.id, lifetimeDays: 91 });
		expectError(tooLong, 400, ['lifetimeDays must not be greater than 90'], 'Bad Request');
		const missing = await control('POST', '/api-keys', { companyId: seed.companies.acme.id });
		expect(missing.status).toBe(400);
	});
});

describe('control API', () => {
	test('seed shape; reset empties the store', async () => {
		expect(seed.url).toBe(sandbox.url);
		expect(seed.companies.acme).toMatchObject({ name: 'Acme Inc.', plan: { name: 'enterprise' }, ownerId: seed.users.owner.id });
		expect(seed.users.owner).toMatchObject({ fullName: 'Ada Admin', isAdmin: true });
		expect(seed.users.member).toMatchObject({ fullName: 'Max Member', isAdmin: false });
		expect(seed.users.outsider.companyId).toBe(seed.companies.other.id);
		expect(seed.credentials.apiKey).toMatch(/^ak_live:[0-9a-f-]{36}:\w+$/);
		expect(await control('POST', '/reset')).toMatchObject({ status: 200, body: { reset: true } });
		expectError(await request('GET', '/v4/user/me', owner()), 401, 'Invalid access token', 'Unauthorized');
	});

	test('unknown control route: 404; unknown ids: 404', async () => {
		expectError(await control('GET', '/nothing'), 404, 'Cannot GET /__sandbox/nothing', 'Not Found');
		expectError(await control('POST', `/pats/${randomUUID()}/revoke`), 404, 'Access token not found', 'Not Found');
		const user = await control('POST', '/users', { companyId: randomUUID(), email: 'a@b.example', givenName: 'A', familyName: 'B' });
		expectError(user, 404, 'Company not found', 'Not Found');
	});
});

describe('User V4', () => {
	const newUser = { email: 'nina@acme.example', givenName: 'Nina', familyName: 'New', timezone: 'Europe/Paris' };

	test('create: 201 with the create-user result; the user is bookable at once', async () => {
		const created = await request<Record<'userId' | 'availabilityId' | 'meetingTypeId', string>>('POST', '/v4/user', { ...apiKey(), body: newUser });
		expect(created.status).toBe(201);
		expect(created.body).toEqual({
			userId: expect.any(String),
			availabilityId: expect.any(String),
			meetingTypeId: expect.any(String),
			bookingUrl: 'https://book.sandbox.invalid/nina-new',
			companyId: seed.companies.acme.id,
		});
		const user = await request('GET', `/v4/user/${created.body.userId}`, owner());
		expect(user.body).toMatchObject({ ...newUser, fullName: 'Nina New', isAdmin: false, userType: 'standard' });
		const types = await request<MeetingType[]>('GET', '/v4/meeting-type', apiKey(created.body.userId));
		expect(types.body).toEqual([
			expect.objectContaining({ id: created.body.meetingTypeId, availabilityId: created.body.availabilityId, slug: '30-minute-meeting-3' }),
		]);
		expect(types.body[0].meetingInfo).toMatchObject({ name: '30 Minute Meeting', duration: 30 });
	});

	test('duplicate email in the company: 409', async () => {
		const body = { ...newUser, email: 'MAX@acme.example' };
		const duplicate = await request('POST', '/v4/user', { ...apiKey(), body });
		expectError(duplicate, 409, 'A user with this email already exists', 'Conflict');
	});

	test('get, update and delete within the company', async () => {
		const path = `/v4/user/${seed.users.member.id}`;
		const updated = await request('PATCH', path, { ...apiKey(seed.users.owner.id), body: { givenName: 'Maxi', timezone: 'Asia/Tokyo', title: null } });
		expect(updated.body).toMatchObject({ givenName: 'Maxi', fullName: 'Maxi Member', timezone: 'Asia/Tokyo', title: null });
		expect((await request('GET', path, member())).body.fullName).toBe('Maxi Member');
		const deleted = await request('DELETE', path, apiKey(seed.users.owner.id));
		expect([deleted.status, deleted.body, deleted.headers.get('content-type')]).toEqual([204, undefined, null]);
		expectError(await request('GET', path, owner()), 404, 'User not found', 'Not Found');
		expectError(await request('GET', '/v4/user/me', member()), 401, 'Invalid access token', 'Unauthorized');
	});

	test('the company owner cannot be deleted; other companies and odd ids are not found', async () => {
		const owned = await request('DELETE', `/v4/user/${seed.users.owner.id}`, apiKey(seed.users.member.id));
		expectError(owned, 409, 'The company owner cannot be deleted', 'Conflict');
		expectError(await request('GET', `/v4/user/${seed.users.outsider.id}`, owner()), 404, 'User not found', 'Not Found');
		expectError(await request('GET', '/v4/user/a%2Fb', owner()), 404, 'User not found', 'Not Found');
	});

	test('offset pagination in creation order, with a userType filter', async () => {
		for (let i = 0; i < 25; i++) {
			const body = { ...newUser, email: `user${i}@acme.example`, givenName: `User${i}` };
			expect((await request('POST', '/v4/user', { ...apiKey(), body })).status).toBe(201);
		}
		const first = await request<{ users: User[] }>('GET', '/v4/user', owner());
		expect(first.body).toMatchObject({ total: 27, count: 20, offset: 0 });
		expect(first.body.users.slice(0, 3).map((user) => user.email)).toEqual([
			'ada@acme.example',
			'max@acme.example',
			'user0@acme.example',
		]);
		const last = await request<{ users: User[] }>('GET', '/v4/user?limit=10&offset=20', owner());
		expect(last.body).toMatchObject({ total: 27, count: 7, offset: 20 });
		expect(last.body.users[0].email).toBe('user18@acme.example');
		const room = { companyId: seed.companies.acme.id, email: 'room@acme.example', givenName: 'Room', familyName: 'One', userType: 'resource' };
		await control('POST', '/users', room);
		const resources = await request('GET', '/v4/user?userType=resource', owner());
		expect(resources.body).toMatchObject({ total: 1, count: 1, offset: 0, users: [{ email: 'room@acme.example' }] });
	});
});

describe('Meeting Type V4', () => {
	async function typesOf(options: Options): Promise<MeetingType[]> {
		return (await request<MeetingType[]>('GET', '/v4/meeting-type', options)).body;
	}

	test('the list is the acting user’s own meeting types', async () => {
		const mine = await typesOf(member());
		expect(mine.map((type) => type.slug)).toEqual(['30-minute-meeting-2', 'quick-call']);
		expect(mine.every((type) => type.userId === seed.users.member.id)).toBe(true);
		expect(await typesOf(apiKey(seed.users.member.id))).toEqual(mine);
		expect((await typesOf(owner())).map((type) => type.slug)).toEqual(['30-minute-meeting', 'product-demo', 'strategy-workshop']);
	});

	test('members see only their own; admins any in the company; others are not found', async () => {
		const [ownerType] = await typesOf(owner());
		const [memberType] = await typesOf(member());
		expectError(await request('GET', `/v4/meeting-type/${ownerType.id}`, member()), 404, 'Meeting type not found', 'Not Found');
		expectError(await request('DELETE', `/v4/meeting-type/${ownerType.id}`, member()), 404, 'Meeting type not found', 'Not Found');
		expect((await request('GET', `/v4/meeting-type/${memberType.id}`, owner())).body.id).toBe(memberType.id);
		const patched = await request('PATCH', `/v4/meeting-type/${memberType.id}`, { ...owner(), body: { spots: 3 } });
		expect(patched.body).toMatchObject({ spots: 3, userId: seed.users.member.id });
		const { token } = await mintPat({ userId: seed.users.outsider.id });
		const [outsiderType] = await typesOf({ token });
		expectError(await request('GET', `/v4/meeting-type/${outsiderType.id}`, owner()), 404, 'Meeting type not found', 'Not Found');
	});

	test('create with defaults; an empty description is allowed', async () => {
		const body = { meetingInfo: { name: 'Coffee Chat', description: '', duration: 25, channel: 'local' } };
		const created = await request('POST', '/v4/meeting-type', { ...member(), body });
		expect(created.status).toBe(201);
		const [defaultType] = await typesOf(member());
		expect(created.body).toMatchObject({
			slug: 'coffee-chat',
			userId: seed.users.member.id,
			companyId: seed.companies.acme.id,
			availabilityId: defaultType.availabilityId,
			spots: 1,
			enabled: true,
			queueId: null,
		});
		expect(created.body.meetingInfo).toEqual({
			name: 'Coffee Chat',
			description: '',
			duration: 25,
			channel: 'local',
			bufferBefore: 0,
			bufferAfter: 0,
			color: '#3b82f6',
			bufferMustStayWithinWorkingHours: false,
			showAvailableSlots: true,
			enableRedirect: false,
			redirect: null,
			passEventDetailsToRedirect: false,
			customChannelLink: null,
		});
		const unknown = await request('POST', '/v4/meeting-type', { ...member(), body: { ...body, availabilityId: randomUUID() } });
		expectError(unknown, 404, 'Availability not found', 'Not Found');
	});

	test('update merges meetingInfo; a slug taken in the company: 409', async () => {
		const [, quickCall] = await typesOf(member());
		const path = `/v4/meeting-type/${quickCall.id}`;
		const updated = await request('PATCH', path, { ...member(), body: { meetingInfo: { duration: 45 }, enabled: false, slug: 'quick-call' } });
		expect(updated.body).toMatchObject({ enabled: false, slug: 'quick-call', meetingInfo: { name: 'Quick Call', duration: 45, channel: 'phone' } });
		const taken = await request('PATCH', path, { ...member(), body: { slug: 'product-demo' } });
		expectError(taken, 409, 'A meeting type with this slug already exists', 'Conflict');
		const invalid = await request('PATCH', path, { ...member(), body: { slug: 'Not A Slug' } });
		expectError(invalid, 400, ['slug must match /^[a-z0-9]+(-[a-z0-9]+)*$/ regular expression'], 'Bad Request');
	});

	test('a channel is required: a missing one gets the list of values alone', async () => {
		const missing = await request('POST', '/v4/meeting-type', { ...member(), body: { meetingInfo: { name: 'No Channel', description: '', duration: 30 } } });
		expectError(missing, 400, [`meetingInfo.channel must be one of the following values: ${CHANNELS}`], 'Bad Request');
	});

	test('custom needs a link and redirect an address, on create and after an update merge; the new fields are stored', async () => {
		const create = (meetingInfo: Fields) =>
			request<MeetingType>('POST', '/v4/meeting-type', { ...member(), body: { meetingInfo: { name: 'Rules', description: '', duration: 30, ...meetingInfo } } });
		expectError(await create({ channel: 'custom' }), 400, ['meetingInfo.customChannelLink should not be empty'], 'Bad Request');
		expectError(await create({ channel: 'custom', customChannelLink: 'meet.example.com' }), 400, ['meetingInfo.customChannelLink must be a URL address'], 'Bad Request');
		expectError(await create({ channel: 'zoom', enableRedirect: true }), 400, ['meetingInfo.redirect should not be empty'], 'Bad Request');
		const info = {
			channel: 'custom',
			customChannelLink: 'https://meet.example.com/room',
			bufferMustStayWithinWorkingHours: true,
			showAvailableSlots: false,
			enableRedirect: true,
			redirect: 'https://example.com/thanks',
			passEventDetailsToRedirect: true,
		};
		const created = await create(info);
		expect(created.status).toBe(201);
		expect(created.body.meetingInfo).toMatchObject(info);
		const path = `/v4/meeting-type/${created.body.id}`;
		expect((await request<MeetingType>('GET', path, member())).body.meetingInfo).toMatchObject(info);
		const [, quickCall] = await typesOf(member());
		const toCustom = await request('PATCH', `/v4/meeting-type/${quickCall.id}`, { ...member(), body: { meetingInfo: { channel: 'custom' } } });
		expectError(toCustom, 400, ['meetingInfo.customChannelLink should not be empty'], 'Bad Request');
		const kept = await request<MeetingType>('PATCH', path, { ...member(), body: { meetingInfo: { channel: 'custom', enableRedirect: false } } });
		expect(kept.body.meetingInfo).toMatchObject({ ...info, enableRedirect: false });
	});

	test('delete: 204 without a body, then not found', async () => {
		const [, quickCall] = await typesOf(member());
		const deleted = await request('DELETE', `/v4/meeting-type/${quickCall.id}`, member());
		expect([deleted.status, deleted.body]).toEqual([204, undefined]);
		expectError(await request('GET', `/v4/meeting-type/${quickCall.id}`, member()), 404, 'Meeting type not found', 'Not Found');
	});
});
