import { testCredential } from '../scripts/engine';
import { assertNoSecret } from './harness/secrets';
import { API_KEY_TYPE, PAT_TYPE, World, useWorld } from './harness/world';

const world = useWorld();

const getMe = { resource: 'user', operation: 'getMe' };
const listMeetingTypes = { resource: 'meetingType', operation: 'getAll', returnAll: true };

describe('credential form is checked before any request', () => {
	const secretLooking = 'abcSECRETxyz1234567890';

	test.each([
		['a PAT without the rgo- prefix', { type: PAT_TYPE, data: { token: secretLooking } }, 'must start with "rgo-"'],
		['an API key of the wrong form', { type: API_KEY_TYPE, data: { apiKey: `ak_live:${secretLooking}` } }, 'ak_live:<uuid>:<secret>'],
		['a Default Acting User ID that is not a UUID', { type: API_KEY_TYPE, data: { actingUserId: 'max' } }, 'Default Acting User ID must be a user ID in UUID form'],
		['a plain-http Base URL that is not loopback', { type: PAT_TYPE, data: { baseUrl: 'http://api.example.com' } }, 'must use https'],
		['a Base URL that is not a URL', { type: PAT_TYPE, data: { baseUrl: 'api example' } }, 'not a valid URL'],
	] as const)('%s', async (_name, change, expected) => {
		const base = change.type === PAT_TYPE ? world().pat() : world().apiKey(world().seed.users.owner.id);
		const { error } = await world().runNode(getMe, { type: change.type, data: { ...base.data, ...change.data } });
		expect(error?.message).toBe('The credential is not in the expected form');
		expect(error?.description).toContain(expected);
		expect(JSON.stringify(error)).not.toContain('SECRET');
		expect(await world().requests()).toEqual([]);
	});

	test.each(['http://localhost:1', 'http://127.0.0.2:1', 'http://[::1]:1', 'https://api.example.com'])('the Base URL %s is accepted', async (baseUrl) => {
		const { error } = await world().runNode(getMe, { type: PAT_TYPE, data: { ...world().pat().data, baseUrl } });
		expect(error?.message).not.toBe('The credential is not in the expected form');
	});
});

describe('credential tests (GET /v4/user/me)', () => {
	test('both credentials pass with valid secrets, the API key sending its default acting user', async () => {
		expect(await testCredential(PAT_TYPE, world().pat().data)).toEqual({ status: 'OK', message: 'Connection tested successfully' });
		expect(await testCredential(API_KEY_TYPE, world().apiKey().data)).toEqual({ status: 'OK', message: 'Connection tested successfully' });
		expect(await testCredential(API_KEY_TYPE, world().apiKey(world().seed.users.member.id).data)).toEqual({ status: 'OK', message: 'Connection tested successfully' });
		const headers = (await world().requests()).map((r) => [r.method, r.path, r.headers.authorization, r.headers['x-service-api-user-id']]);
		expect(headers).toEqual([
			['GET', '/v4/user/me', `Bearer ${world().seed.credentials.ownerPat}`, undefined],
			['GET', '/v4/user/me', `Bearer ${world().seed.credentials.apiKey}`, undefined],
			['GET', '/v4/user/me', `Bearer ${world().seed.credentials.apiKey}`, world().seed.users.member.id],
		]);
	});

	test('a wrong form never reaches the API', async () => {
		const wrongForm = await testCredential(API_KEY_TYPE, { ...world().apiKey().data, apiKey: 'ak_live:nope' });
		expect(wrongForm).toEqual({ status: 'Error', message: 'The API Key has the wrong form: it must look like ak_live:<uuid>:<secret> (copy the whole key shown once when it was created).' });
		expect(await world().requests()).toEqual([]);
	});

	const invalidKey =
		'The API key is invalid or revoked (the API answers the same for an unknown, revoked or deactivated key): copy the whole key again, or create a new one in the dashboard.';
	const invalidToken =
		'The Personal Access Token is invalid or revoked (the API answers the same for both): copy it again, or create a new one in the integrations area of the dashboard.';

	test('an API key: expired, or invalid or revoked (the API does not tell those apart)', async () => {
		const expiring = await world().mintApiKey({ lifetimeDays: 1 });
		const revoked = await world().mintApiKey({ lifetimeDays: 30 });
		await world().control('POST', `/__sandbox/api-keys/${revoked.id}/revoke`);
		await world().control('POST', '/__sandbox/clock/advance', { seconds: 2 * 86_400 });
		const unknown = world().remember('ak_live:00000000-0000-4000-8000-000000000000:not-a-real-secret');
		expect(await testCredential(API_KEY_TYPE, world().apiKey('', expiring.key).data)).toEqual({
			status: 'Error',
			message: 'The API key has expired (API keys live 1 to 90 days): create a new key in the dashboard and paste it into the credential.',
		});
		expect(await testCredential(API_KEY_TYPE, world().apiKey('', revoked.key).data)).toEqual({ status: 'Error', message: invalidKey });
		expect(await testCredential(API_KEY_TYPE, world().apiKey('', unknown).data)).toEqual({ status: 'Error', message: invalidKey });
		expect((await world().requests()).map((r) => [r.method, r.path, r.status, r.headers.authorization])).toEqual([
			['GET', '/v4/user/me', 401, `Bearer ${expiring.key}`],
			['GET', '/v4/user/me', 401, `Bearer ${revoked.key}`],
			['GET', '/v4/user/me', 401, `Bearer ${unknown}`],
		]);
	});

	test('a Personal Access Token: expired, or invalid or revoked', async () => {
		const { owner } = world().seed.users;
		const expiring = await world().mintPat(owner.id, { expiresInSeconds: 60 });
		const revoked = await world().mintPat(owner.id);
		await world().control('POST', `/__sandbox/pats/${revoked.id}/revoke`);
		await world().control('POST', '/__sandbox/clock/advance', { seconds: 120 });
		expect(await testCredential(PAT_TYPE, world().pat(expiring.token).data)).toEqual({
			status: 'Error',
			message: 'The Personal Access Token has expired: create a new one in the integrations area of the dashboard and paste it into the credential.',
		});
		expect(await testCredential(PAT_TYPE, world().pat(revoked.token).data)).toEqual({ status: 'Error', message: invalidToken });
		expect(await testCredential(PAT_TYPE, world().pat(world().remember(`rgo-${'x'.repeat(32)}`)).data)).toEqual({ status: 'Error', message: invalidToken });
	});

	test('a wrong Base URL: nothing listening, a 404 for /v4/user/me, an answer that is not the API\'s JSON, a redirect elsewhere', async () => {
		const fault = (spec: object) => world().control('POST', '/__sandbox/faults', spec);
		expect(await testCredential(PAT_TYPE, { ...world().pat().data, baseUrl: 'http://127.0.0.1:1' })).toEqual({
			status: 'Error',
			message: 'Could not reach the API at http://127.0.0.1:1: check the Base URL (ECONNREFUSED).',
		});
		await fault({ method: 'GET', path: '/v4/user/me', status: 404, body: { statusCode: 404, message: 'Cannot GET /v4/user/me', error: 'Not Found' } });
		expect(await testCredential(PAT_TYPE, world().pat().data)).toEqual({
			status: 'Error',
			message: `Could not reach the API at ${world().url}: check the Base URL (GET /v4/user/me answered HTTP 404).`,
		});
		await fault({ method: 'GET', path: '/v4/user/me', status: 200, body: '<html><body>Welcome</body></html>', headers: { 'Content-Type': 'text/html' } });
		expect(await testCredential(API_KEY_TYPE, world().apiKey().data)).toEqual({
			status: 'Error',
			message: `Could not reach the API at ${world().url}: check the Base URL (GET /v4/user/me answered HTTP 200 without the API's JSON).`,
		});
		await fault({ method: 'GET', path: '/v4/user/me', status: 301, body: '', headers: { Location: 'https://www.example.com/' } });
		expect(await testCredential(PAT_TYPE, world().pat().data)).toEqual({
			status: 'Error',
			message: `Could not reach the API at ${world().url}: check the Base URL (it redirects GET /v4/user/me to www.example.com; use the address the API answers on itself).`,
		});
		expect((await world().requests()).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['GET /v4/user/me 404', 'GET /v4/user/me 200', 'GET /v4/user/me 301']);
	});

	test('other refusals say what the API said and how to fix it, with a secret the API echoes masked', async () => {
		const outsider = world().seed.users.outsider.id;
		expect(await testCredential(API_KEY_TYPE, world().apiKey(outsider).data)).toEqual({
			status: 'Error',
			message:
				'The API refused the test request (HTTP 500): API user does not belong to company. The acting user is not a member of the API key\'s company: ' +
				'pick a user of that company in "Act As User" or in the credential\'s Default Acting User ID.',
		});
		const key = world().seed.credentials.apiKey;
		await world().control('POST', '/__sandbox/faults', { method: 'GET', path: '/v4/user/me', status: 401, body: { statusCode: 401, message: `Key ${key} is not welcome` } });
		const echoed = await testCredential(API_KEY_TYPE, world().apiKey().data);
		expect(echoed).toEqual({ status: 'Error', message: 'The API did not accept the credential (HTTP 401: Key *** is not welcome). Check the token or API key and the Base URL.' });
		assertNoSecret(JSON.stringify(echoed));
	});
});

describe('every row of the authentication error table is a clear node error', () => {
	const expectError = async (run: ReturnType<World['runNode']>, httpCode: string, words: string, fix: string) => {
		const { error } = await run;
		expect(error?.httpCode).toBe(httpCode);
		expect(error?.description).toContain(words);
		expect(error?.description).toContain(fix);
	};

	test('unknown, revoked and deactivated API keys: 401 Invalid API key', async () => {
		const revoked = await world().mintApiKey({ lifetimeDays: 30 });
		const deactivated = await world().mintApiKey({ lifetimeDays: 30 });
		await world().control('POST', `/__sandbox/api-keys/${revoked.id}/revoke`);
		await world().control('POST', `/__sandbox/api-keys/${deactivated.id}/deactivate`);
		const unknown = 'ak_live:00000000-0000-4000-8000-000000000000:not-a-real-secret';
		for (const key of [unknown, revoked.key, deactivated.key]) {
			await expectError(world().runNode(getMe, world().apiKey('', key)), '401', 'Invalid API key', 'The API key is mistyped, revoked or deactivated');
		}
	});

	test('expired API key: 401 API key has expired', async () => {
		const { key } = await world().mintApiKey({ lifetimeDays: 1 });
		await world().control('POST', '/__sandbox/clock/advance', { seconds: 2 * 86_400 });
		await expectError(world().runNode(getMe, world().apiKey('', key)), '401', 'API key has expired', 'API keys live 1 to 90 days');
	});

	test('unknown, revoked and expired PATs: 401 with the API\'s words', async () => {
		const { owner } = world().seed.users;
		const revoked = await world().mintPat(owner.id);
		await world().control('POST', `/__sandbox/pats/${revoked.id}/revoke`);
		const expiring = await world().mintPat(owner.id, { expiresInSeconds: 60 });
		await world().control('POST', '/__sandbox/clock/advance', { seconds: 120 });
		await expectError(world().runNode(getMe, world().pat(`rgo-${'y'.repeat(32)}`)), '401', 'Invalid access token', 'The token is mistyped or revoked');
		await expectError(world().runNode(getMe, world().pat(revoked.token)), '401', 'Invalid access token', 'The token is mistyped or revoked');
		await expectError(world().runNode(getMe, world().pat(expiring.token)), '401', 'Access token has expired', 'Create a new Personal Access Token');
	});

	test('member PAT on a workspace-wide list: 403 Forbidden resource', async () => {
		await expectError(
			world().runNode({ resource: 'user', operation: 'getAll', returnAll: true }, world().pat(world().seed.credentials.memberPat)),
			'403', 'Forbidden resource', 'Only admins may do this',
		);
	});

	test('plan without the feature: 403 with PLAN_LIMIT_REACHED and an upgrade hint', async () => {
		const company = (await world().control('POST', '/__sandbox/companies', { name: 'Basic Co', excludedFeatures: ['meeting-types'] })) as { id: string };
		const user = (await world().control('POST', '/__sandbox/users', { companyId: company.id, email: 'basic@example.com', givenName: 'Basic', familyName: 'User' })) as { id: string };
		const { token } = await world().mintPat(user.id);
		await expectError(world().runNode(listMeetingTypes, world().pat(token)), '403', 'meeting-types', 'Your plan does not include this feature (meeting-types): upgrade the plan');
	});

	test('token scoped away from the feature: 403 naming it', async () => {
		const { token } = await world().mintPat(world().seed.users.owner.id, { scopes: ['users'] });
		await expectError(world().runNode(listMeetingTypes, world().pat(token)), '403', 'meeting-types', 'Create a Personal Access Token that includes this feature\'s scope');
	});

	// The node prevents these requests from being sent (it never sends a PAT with the header, never an
	// API key without an acting user where one is needed, never a non-UUID or an empty header), so the
	// API's exact answers for them are injected to show how they would read if a proxy or the API caused them.
	test.each([
		[401, 'Missing authorization header', 'Unauthorized', 'Check the credential'],
		[401, 'Malformed authorization header', 'Unauthorized', 'Check the credential'],
		[403, 'The x-service-api-user-id header requires a Platform API Key; Personal Access Tokens always act as the token owner', 'Forbidden', 'to act for another user, switch Authentication'],
		[400, 'Missing required header `x-service-api-user-id` for API key authentication', 'Bad Request', 'Set "Act As User" in the node'],
		[400, 'x-service-api-user-id must be a UUID', 'Bad Request', 'must be the UUID of a user of the company'],
	])('%s %s', async (status, message, errorWord, fix) => {
		await world().control('POST', '/__sandbox/faults', { path: '/v4/user/me', status, body: { statusCode: status, message, error: errorWord }, times: 1 });
		await expectError(world().runNode(getMe, world().pat()), String(status), message, fix);
	});
});

test('the leak scan notices a secret (so a clean suite means something)', () => {
	expect(() => assertNoSecret(`oops ${world().seed.credentials.apiKey}`)).toThrow('A credential secret appears');
	expect(() => assertNoSecret(`oops ${world().seed.credentials.ownerPat.slice(4)}`)).toThrow('A credential secret appears');
});
