import { byId, useWorld, wire } from './harness/world';

/**
 * Lists of the editor (resource locator "From List", dropdowns) with a Platform API key: with no acting user set
 * anywhere they read as the company owner, and every error they throw carries its fix in the message, the only
 * part n8n's list popup and dropdowns show.
 */

const world = useWorld();

const key = () => world().seed.credentials.apiKey;
const meGet = () => ({ method: 'GET', path: '/v4/user/me', query: '', headers: { authorization: `Bearer ${key()}` }, body: null });

describe('an API key with no acting user', () => {
	test('From List reads as the company owner: GET /v4/user/me first, then the list acting as the owner', async () => {
		const { owner } = world().seed.users;
		const names = (await world().meetingTypes()).map((type) => ({ id: type.id, name: (type.meetingInfo as { name: string }).name }));
		const { result, error } = await world().listSearch('searchMeetingTypes', { resource: 'meetingType', operation: 'get' }, world().apiKey());
		expect(error).toBeUndefined();
		expect(result).toEqual({ results: names.map(({ id, name }) => ({ name, value: id })) });
		expect((await world().requests()).map(wire)).toEqual([
			meGet(),
			{ method: 'GET', path: '/v4/meeting-type', query: '', headers: { authorization: `Bearer ${key()}`, 'x-service-api-user-id': owner.id }, body: null },
		]);
	});

	test('a dropdown (loadOptions) does the same, the owner read once for every page', async () => {
		const { owner, member } = world().seed.users;
		const { result, error } = await world().loadOptions('getUsers', { resource: 'booking', operation: 'getSlots' }, world().apiKey());
		expect(error).toBeUndefined();
		expect(result).toEqual(expect.arrayContaining([
			{ name: `Ada Admin (${owner.email})`, value: owner.id },
			{ name: `Max Member (${member.email})`, value: member.id },
		]));
		expect((await world().requests()).map(wire)).toEqual([
			meGet(),
			{ method: 'GET', path: '/v4/user', query: 'limit=100&offset=0', headers: { authorization: `Bearer ${key()}`, 'x-service-api-user-id': owner.id }, body: null },
		]);
	});

	test('the CRM node\'s lists too', async () => {
		const { owner } = world().seed.users;
		const { error } = await world().loadOptions('getLostReasons', { resource: 'deal', operation: 'markLost' }, world().apiKey());
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			meGet(),
			{ method: 'GET', path: '/crm/settings/lost-reasons', query: '', headers: { authorization: `Bearer ${key()}`, 'x-service-api-user-id': owner.id }, body: null },
		]);
	});

	test('the node\'s Act As User, or else the credential\'s default, is used as it is, without reading the owner', async () => {
		const { owner, member } = world().seed.users;
		await world().listSearch('searchMeetingTypes', { resource: 'meetingType', operation: 'get', actAsUser: byId(member.id) }, world().apiKey());
		await world().listSearch('searchMeetingTypes', { resource: 'meetingType', operation: 'get' }, world().apiKey(owner.id));
		expect((await world().requests()).map((request) => [request.method, request.path, request.headers['x-service-api-user-id']])).toEqual([
			['GET', '/v4/meeting-type', member.id],
			['GET', '/v4/meeting-type', owner.id],
		]);
	});

	test('a run of the node never falls back to the owner: it fails before sending', async () => {
		const { error } = await world().runNode({ resource: 'meetingType', operation: 'getAll', returnAll: true }, world().apiKey());
		expect(error?.message).toBe('This operation needs a user to act for');
		expect(await world().requests()).toEqual([]);
	});
});

describe('errors of a list carry their fix in the message', () => {
	test('an API error: the API\'s reason, the status and the fix', async () => {
		const { error } = await world().listSearch('searchMeetingTypes', { resource: 'meetingType', operation: 'get', actAsUser: byId(world().seed.users.outsider.id) }, world().apiKey());
		expect(error?.message).toBe(
			'API user does not belong to company (HTTP 500). The acting user is not a member of the API key\'s company: pick a user of that company in "Act As User" or in the credential\'s Default Acting User ID.',
		);
	});

	test('the owner read failing (an expired key) says so in the message', async () => {
		const { key: expiring } = await world().mintApiKey({ lifetimeDays: 1 });
		await world().control('POST', '/__sandbox/clock/advance', { seconds: 2 * 86_400 });
		const { error } = await world().listSearch('searchMeetingTypes', { resource: 'meetingType', operation: 'get' }, world().apiKey('', expiring));
		expect(error?.message).toBe('API key has expired (HTTP 401). API keys live 1 to 90 days: create a new key in the dashboard and update the credential.');
		expect((await world().requests()).map((request) => `${request.method} ${request.path} ${request.status}`)).toEqual(['GET /v4/user/me 401']);
	});

	test('errors found before sending: an Act As User that is not a UUID, a credential of the wrong form', async () => {
		const notUuid = await world().listSearch('searchMeetingTypes', { resource: 'meetingType', operation: 'get', actAsUser: byId('max') }, world().apiKey());
		expect(notUuid.error?.message).toBe('Act As User is not a valid user ID. Act As User must be a user ID in UUID form, such as 6f1c2a7e-1b2c-4d5e-8f90-123456789abc.');
		const plainHttp = await world().listSearch('searchUsers', { resource: 'user', operation: 'get' }, { ...world().pat(), data: { ...world().pat().data, baseUrl: 'http://api.example.com' } });
		expect(plainHttp.error?.message).toBe(
			'The credential is not in the expected form. The Base URL must use https (plain http is accepted only for localhost, 127.x.x.x and [::1]).',
		);
		expect(await world().requests()).toEqual([]);
	});
});
