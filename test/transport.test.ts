import { API_KEY_TYPE, byId, useWorld } from './harness/world';
import { NODE_TYPE, getEngine } from '../scripts/engine';

const world = useWorld();

const getMe = { resource: 'user', operation: 'getMe' };
const listMeetingTypes = { resource: 'meetingType', operation: 'getAll', returnAll: true };
const fault = (spec: object) => world().control('POST', '/__sandbox/faults', spec);
const statuses = async () => (await world().requests()).map((r) => `${r.method} ${r.path} ${r.status}`);

describe('acting user', () => {
	test('the node\'s Act As User wins over the credential default', async () => {
		const { owner, member } = world().seed.users;
		const { items } = await world().runNode({ ...getMe, actAsUser: byId(member.id) }, world().apiKey(owner.id));
		expect(items).toEqual([expect.objectContaining({ id: member.id })]);
		expect((await world().requests())[0].headers['x-service-api-user-id']).toBe(member.id);
	});

	test('the credential default is used when the node leaves it empty', async () => {
		const { member } = world().seed.users;
		await world().runNode({ ...listMeetingTypes, actAsUser: byId('') }, world().apiKey(member.id));
		expect((await world().requests())[0].headers['x-service-api-user-id']).toBe(member.id);
	});

	test('a Personal Access Token never sends the header, even with a leftover Act As User', async () => {
		const { items } = await world().runNode({ ...getMe, actAsUser: byId(world().seed.users.member.id) }, world().pat());
		expect(items).toEqual([expect.objectContaining({ id: world().seed.users.owner.id })]);
		expect((await world().requests())[0].headers).not.toHaveProperty('x-service-api-user-id');
	});

	test('Act As User says it is optional and what empty means, in its description and inside the empty field; so does the credential\'s default', async () => {
		const { nodeTypes, loader } = await getEngine();
		const field = nodeTypes.getByNameAndVersion(NODE_TYPE).description.properties.find((property) => property.name === 'actAsUser')!;
		expect(field.required).toBeUndefined();
		expect(field.description).toMatch(/^Optional\. .* Empty: the credential's Default Acting User ID\. When that is empty too, an operation that acts for a user stops before sending/);
		expect(field.modes!.map((mode) => [mode.name, mode.placeholder])).toEqual([
			['list', 'Optional: empty acts as the credential\'s Default Acting User'],
			['id', 'Optional: empty acts as the credential\'s Default Acting User'],
		]);
		const credential = loader.getCredential(API_KEY_TYPE).type.properties.find((property) => property.name === 'actingUserId')!;
		expect(credential.description).toMatch(/^Optional\. UUID of the user to act for when a node leaves "Act As User" empty\. When both are empty/);
	});

	test('an Act As User that is not a UUID fails before sending', async () => {
		const { error } = await world().runNode({ ...listMeetingTypes, actAsUser: byId('={{ "max" }}') }, world().apiKey());
		expect(error?.message).toBe('Act As User is not a valid user ID');
		expect(await world().requests()).toEqual([]);
	});

	test('an acting user outside the key\'s company surfaces the API 500 with the fix', async () => {
		const { error } = await world().runNode({ ...listMeetingTypes, actAsUser: byId(world().seed.users.outsider.id) }, world().apiKey());
		expect(error?.message).toBe('API user does not belong to company (HTTP 500)');
		expect(error?.description).toContain('API user does not belong to company');
		expect(error?.description).toContain('pick a user of that company');
		expect(await statuses()).toEqual(['GET /v4/meeting-type 500']);
	});
});

describe('path parameters', () => {
	test.each([
		['../x', '/crm/companies/by-domain/..%2Fx'],
		['a/b', '/crm/companies/by-domain/a%2Fb'],
		['?q', '/crm/companies/by-domain/%3Fq'],
		['%2e%2e', '/crm/companies/by-domain/%252e%252e'],
	])('the path value %s stays inside the path', async (domain, path) => {
		await world().runNode({ resource: 'company', operation: 'getByDomain', domain }, world().pat());
		const [request] = await world().requests();
		expect([request.method, request.path, request.query]).toEqual(['GET', path, '']);
	});

	test.each(['.', '..', '={{ "..." }}'])('an id of only dots (%s) is refused before sending, naming the field', async (id) => {
		const { error } = await world().runNode({ resource: 'availabilityException', operation: 'delete', exceptionId: id }, world().pat());
		expect(error?.message).toMatch(/^Exception ID cannot be "\.+": enter the ID of an existing item$/);
		expect(await world().requests()).toEqual([]);
	});

	test('a user ID that is not a UUID is refused before sending: typed in by n8n itself, from an expression by the node', async () => {
		await expect(world().runNode({ resource: 'user', operation: 'get', userId: byId('max') }, world().pat())).rejects.toThrow(
			/node has issues:\n- User ID must be in UUID form, such as 6f1c2a7e-1b2c-4d5e-8f90-123456789abc/,
		);
		for (const id of ['={{ "max" }}', '={{ "../x" }}']) {
			const { error } = await world().runNode({ resource: 'user', operation: 'get', userId: byId(id) }, world().pat());
			expect(error?.message).toBe(`User ID must be in UUID form, such as 6f1c2a7e-1b2c-4d5e-8f90-123456789abc; "${id.slice(5, -4)}" is not`);
		}
		expect(await world().requests()).toEqual([]);
	});
});

describe('pagination', () => {
	beforeAll(async () => {
		const { acme } = world().seed.companies;
		for (let i = 0; i < 130; i++) {
			await world().control('POST', '/__sandbox/users', { companyId: acme.id, email: `bulk${i}@example.com`, givenName: 'Bulk', familyName: `User ${i}` });
		}
	});

	const users = (extra: object) => world().runNode({ resource: 'user', operation: 'getAll', ...extra }, world().pat());
	const queries = async () => (await world().requests()).map((r) => r.query);

	test('Return All asks for pages of 100 until the total is reached', async () => {
		const total = (await world().api('GET', '/v4/user?limit=1', world().seed.credentials.ownerPat)).body.total as number;
		await world().clearRequests();
		const { items } = await users({ returnAll: true });
		expect(items).toHaveLength(total);
		expect(new Set(items.map((u) => u.id)).size).toBe(total);
		expect(await queries()).toEqual(['limit=100&offset=0', 'limit=100&offset=100']);
	});

	test('a limit of 120 sends exactly two requests and returns 120 items', async () => {
		const { items } = await users({ returnAll: false, limit: 120 });
		expect(items).toHaveLength(120);
		expect(await queries()).toEqual(['limit=100&offset=0', 'limit=20&offset=100']);
	});

	test('a limit of 50 sends one request', async () => {
		const { items } = await users({ returnAll: false, limit: 50 });
		expect(items).toHaveLength(50);
		expect(await queries()).toEqual(['limit=50&offset=0']);
	});

	test('a server that repeats a page ends the loop with an error', async () => {
		const page = await world().api('GET', '/v4/user?limit=100&offset=0', world().seed.credentials.ownerPat);
		await world().clearRequests();
		await fault({ method: 'GET', path: '/v4/user', status: 200, body: page.body, times: 5 });
		const { error } = await users({ returnAll: true });
		expect(error?.message).toBe('The API returned the same page twice, so listing stopped to avoid an endless loop');
		expect(await queries()).toEqual(['limit=100&offset=0', 'limit=100&offset=100']);
	});
});

describe('retries', () => {
	test('a 429 with Retry-After in seconds is waited out and no item fails', async () => {
		await fault({ method: 'GET', path: '/v4/user/me', status: 429, retryAfter: '1', times: 1 });
		const started = Date.now();
		const { items, error } = await world().runNode(getMe, world().pat(), { input: [{}, {}, {}] });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(3);
		expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
		expect(await statuses()).toEqual(['GET /v4/user/me 429', 'GET /v4/user/me 200', 'GET /v4/user/me 200', 'GET /v4/user/me 200']);
	});

	test('a 429 with Retry-After as an HTTP date is honoured', async () => {
		await fault({ method: 'GET', path: '/v4/user/me', status: 429, retryAfter: new Date(Date.now() + 2000).toUTCString(), times: 1 });
		const { items } = await world().runNode(getMe, world().pat());
		expect(items).toHaveLength(1);
		expect(await statuses()).toEqual(['GET /v4/user/me 429', 'GET /v4/user/me 200']);
	});

	test('a 429 on a write is retried (the API did not process it), with back-off when Retry-After is missing', async () => {
		await fault({ method: 'PATCH', path: '/v4/user/*', status: 429, times: 1 });
		const { items, error } = await world().runNode(
			{ resource: 'user', operation: 'update', userId: byId(world().seed.users.member.id), updateFields: { givenName: 'Retried' } },
			world().apiKey(world().seed.users.owner.id),
		);
		expect(error).toBeUndefined();
		expect(items).toEqual([expect.objectContaining({ givenName: 'Retried' })]);
		expect(await statuses()).toEqual([`PATCH /v4/user/${world().seed.users.member.id} 429`, `PATCH /v4/user/${world().seed.users.member.id} 200`]);
	});

	test('429s are retried for as long as the API asks within 60 s, not a number of tries', async () => {
		await fault({ method: 'GET', path: '/v4/user/me', status: 429, retryAfter: '0', times: 7 });
		const { items, error } = await world().runNode(getMe, world().pat());
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(await statuses()).toEqual([...Array(7).fill('GET /v4/user/me 429'), 'GET /v4/user/me 200']);
	});

	test('a 429 asking for a wait past 60 s in all ends in a clear error saying how long the node waited', async () => {
		await fault({ method: 'GET', path: '/v4/user/me', status: 429, retryAfter: '2', times: 1 });
		await fault({ method: 'GET', path: '/v4/user/me', status: 429, retryAfter: '59', times: 1 });
		const { error } = await world().runNode(getMe, world().pat());
		expect(error?.message).toBe('The API rate limit was exceeded (HTTP 429)');
		expect(error?.description).toBe(
			"The API rate limit was exceeded (waited 2 s over 2 tries; the API asked to wait 59 s more, past the 60 s the node waits). The API says: Too Many Requests. The API's limit for this credential (100 requests per minute by default) is shared by every workflow and n8n process that uses it, and others kept it busy for a minute. Run fewer workflows with this credential at the same time, or give them their own credentials; if your plan allows other numbers, set Requests per Minute and Burst in the credential.",
		);
		expect(await statuses()).toEqual(['GET /v4/user/me 429', 'GET /v4/user/me 429']);
	});

	test('a 503 on GET is retried', async () => {
		await fault({ method: 'GET', path: '/v4/meeting-type', status: 503, times: 1 });
		const { items, error } = await world().runNode(listMeetingTypes, world().pat());
		expect(error).toBeUndefined();
		expect(items.length).toBeGreaterThan(0);
		expect(await statuses()).toEqual(['GET /v4/meeting-type 503', 'GET /v4/meeting-type 200']);
	});

	test('a 503 on POST is not retried', async () => {
		await fault({ method: 'POST', path: '/v4/meeting-type', status: 503, times: 1 });
		const { error } = await world().runNode({ resource: 'meetingType', operation: 'create', name: 'Once', duration: 30 }, world().pat());
		expect(error?.message).toBe('The API failed with a server error (HTTP 503)');
		expect(await statuses()).toEqual(['POST /v4/meeting-type 503']);
	});

	test('a dropped connection on GET is retried; on POST it is reported as possibly applied', async () => {
		await fault({ method: 'GET', path: '/v4/meeting-type', drop: true, times: 1 });
		const read = await world().runNode(listMeetingTypes, world().pat());
		expect(read.error).toBeUndefined();
		await world().clearRequests();
		await fault({ method: 'POST', path: '/v4/meeting-type', drop: true, times: 1 });
		const write = await world().runNode({ resource: 'meetingType', operation: 'create', name: 'Dropped', duration: 30 }, world().pat());
		expect(write.error?.message).toBe('The connection broke before the API answered: the change may have been applied');
		expect(write.error?.description).toBe(
			'Network error ECONNRESET. It was not sent again, because it changes data. Check the resource in the platform before running the node again, so nothing is done twice.',
		);
		expect(JSON.stringify(write.run.data)).not.toContain('retry the request immediately');
		expect((await world().requests()).map((r) => r.method)).toEqual(['POST']);
	});
});

describe('items', () => {
	const threeUsers = () => {
		const { member } = world().seed.users;
		return [{ id: member.id }, { id: '0b7e6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f' }, { id: member.id }];
	};
	const failed = {
		error: 'User not found (HTTP 404)',
		message: 'The API could not find the requested resource. The API says: User not found. Check the ID: the resource may have been deleted, or it belongs to a user the credential cannot see.',
	};

	test('Continue (using regular output) keeps the other items, each paired with its input', async () => {
		const { items, paired, errorItems } = await world().runNode(
			{ resource: 'user', operation: 'get', userId: byId('={{ $json.id }}') },
			world().pat(),
			{ input: threeUsers(), continueOnFail: true },
		);
		expect(paired).toEqual([0, 1, 2]);
		expect(items[0]).toEqual(expect.objectContaining({ id: world().seed.users.member.id }));
		expect(items[1]).toEqual(failed);
		expect(items[2]).toEqual(expect.objectContaining({ id: world().seed.users.member.id }));
		expect(errorItems).toEqual([]);
	});

	test('Continue (using error output) sends the failed item to the error output, paired with its input', async () => {
		const input = threeUsers();
		const { items, paired, errorItems, errorPaired } = await world().runNode(
			{ resource: 'user', operation: 'get', userId: byId('={{ $json.id }}') },
			world().pat(),
			{ input, continueOnFail: 'errorOutput' },
		);
		expect(items.map((item) => item.id)).toEqual([input[0].id, input[2].id]);
		expect(paired).toEqual([0, 2]);
		expect(errorItems).toEqual([{ ...input[1], ...failed }]);
		expect(errorPaired).toEqual([1]);
	});

	test('a value refused before sending is a failed item too, in both Continue modes', async () => {
		for (const mode of [true, 'errorOutput'] as const) {
			const run = await world().runNode({ resource: 'user', operation: 'get', userId: byId('={{ $json.id }}') }, world().pat(), {
				input: [{ id: 'not-a-uuid' }],
				continueOnFail: mode,
			});
			const [item] = mode === true ? run.items : run.errorItems;
			expect(item).toEqual(expect.objectContaining({ error: expect.stringContaining('User ID must be in UUID form'), message: 'Item 1: fix the value of "User" and run the node again.' }));
		}
		expect(await world().requests()).toEqual([]);
	});

	test('without Continue On Fail the error names the failing item', async () => {
		const { error } = await world().runNode(
			{ resource: 'user', operation: 'get', userId: byId('={{ $json.id }}') },
			world().pat(),
			{ input: [{ id: world().seed.users.member.id }, { id: '0b7e6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f' }] },
		);
		expect(error?.itemIndex).toBe(1);
		expect(error?.httpCode).toBe('404');
	});
});

describe('error messages', () => {
	test('a long validation list shows its first reasons in the message and every reason in the description', async () => {
		const reasons = ['limit must not be greater than 100', 'email must be an email', 'meetingTypeId should not be empty', 'start must be a date'];
		await fault({ method: 'GET', path: '/v4/user/me', status: 400, body: { statusCode: 400, message: reasons, error: 'Bad Request' } });
		const { error, items } = await world().runNode(getMe, world().pat(), { continueOnFail: true });
		expect(error).toBeUndefined();
		expect(items).toEqual([
			{
				error: 'limit must not be greater than 100; email must be an email (and 2 more) (HTTP 400)',
				message:
					'The API rejected the request as invalid. The API says: limit must not be greater than 100; email must be an email; meetingTypeId should not be empty; start must be a date. ' +
					'Correct the fields the API names and run the node again.',
			},
		]);
	});

	test('the errors variant names each field; an answer without words keeps what happened', async () => {
		await fault({ method: 'GET', path: '/v4/user/me', status: 400, body: { message: 'Validation failed', errors: [{ field: 'email', message: 'must be an email' }] } });
		const listed = await world().runNode(getMe, world().pat());
		expect(listed.error?.message).toBe('email: must be an email (HTTP 400)');
		await fault({ method: 'GET', path: '/v4/user/me', status: 404, body: { statusCode: 404, error: 'Not Found' } });
		const bare = await world().runNode(getMe, world().pat());
		expect(bare.error?.message).toBe('The API could not find the requested resource (HTTP 404)');
		expect(bare.error?.description).toBe(
			'The API could not find the requested resource. The API gave no further details. Check the ID: the resource may have been deleted, or it belongs to a user the credential cannot see.',
		);
	});

	test('an HTML page instead of JSON is not quoted in the message and points at the Base URL', async () => {
		await fault({ method: 'GET', path: '/v4/user/me', status: 404, body: '<html><body>Not here</body></html>', headers: { 'Content-Type': 'text/html' } });
		const { error } = await world().runNode(getMe, world().pat());
		expect(error?.message).toBe('The API could not find the requested resource (HTTP 404)');
		expect(error?.description).toBe(
			'The API could not find the requested resource. The answer was not JSON (an HTML page or plain text): the Base URL may not point at the API. ' +
				'Check the ID: the resource may have been deleted, or it belongs to a user the credential cannot see.',
		);
	});
});
