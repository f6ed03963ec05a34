import { byId, useWorld, wire } from './harness/world';

const world = useWorld();


describe('User', () => {
	test('Create sends the user with the API key, no acting user, and returns the create-user result', async () => {
		const { apiKey } = world().seed.credentials;
		const { items, error } = await world().runNode(
			{
				resource: 'user',
				operation: 'create',
				email: 'new.person@example.com',
				givenName: 'New',
				familyName: 'Person',
				timezone: 'Europe/Berlin',
				additionalFields: { meetingTypeName: 'Intro', meetingTypeDuration: 45 },
			},
			world().apiKey(),
		);
		expect(error).toBeUndefined();
		const requests = await world().requests();
		expect(requests.map(wire)).toEqual([
			{
				method: 'POST',
				path: '/v4/user',
				query: '',
				headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
				body: {
					email: 'new.person@example.com',
					givenName: 'New',
					familyName: 'Person',
					timezone: 'Europe/Berlin',
					meetingType: { name: 'Intro', duration: 45 },
				},
			},
		]);
		expect(items).toEqual([
			{
				userId: expect.any(String),
				availabilityId: expect.any(String),
				meetingTypeId: expect.any(String),
				bookingUrl: expect.any(String),
				companyId: world().seed.companies.acme.id,
			},
		]);
		const created = await world().api('GET', `/v4/user/${items[0].userId as string}`, apiKey, { actAs: world().seed.users.owner.id });
		expect(created.body).toMatchObject({ email: 'new.person@example.com', givenName: 'New', timezone: 'Europe/Berlin' });
	});

	test('Create refuses a bad email and a bad time zone before sending anything', async () => {
		const base = { resource: 'user', operation: 'create', givenName: 'A', familyName: 'B' };
		const badEmail = await world().runNode({ ...base, email: 'not-an-email', timezone: 'Europe/Berlin' }, world().apiKey());
		expect(badEmail.error?.message).toBe('Email must be an email address such as jane@example.com; "not-an-email" is not');
		const badZone = await world().runNode({ ...base, email: 'a@example.com', timezone: 'Mars/Olympus' }, world().apiKey());
		expect(badZone.error?.message).toBe('Timezone must be an IANA time zone such as Europe/Berlin or America/New_York; "Mars/Olympus" is not');
		expect(await world().requests()).toEqual([]);
	});

	test('Create with a Personal Access Token surfaces the API 403 with the fix', async () => {
		const { error } = await world().runNode(
			{ resource: 'user', operation: 'create', email: 'x@example.com', givenName: 'X', familyName: 'Y', timezone: 'UTC' },
			world().pat(),
		);
		expect(error?.message).toBe('The API refused the request: the credential is not allowed to do this (HTTP 403)');
		expect(error?.description).toBe(
			'User management requires a Platform API Key Switch the node\'s Authentication to Platform API Key: this operation is not available to Personal Access Tokens.',
		);
		expect((await world().requests()).map((r) => r.status)).toEqual([403]);
	});

	test('Get Me returns the token owner for a PAT and the company owner for an API key without acting user', async () => {
		const { owner } = world().seed.users;
		const member = await world().runNode({ resource: 'user', operation: 'getMe' }, world().pat(world().seed.credentials.memberPat));
		expect(member.items).toEqual([expect.objectContaining({ id: world().seed.users.member.id, email: world().seed.users.member.email })]);
		const viaKey = await world().runNode({ resource: 'user', operation: 'getMe' }, world().apiKey());
		expect(viaKey.items).toEqual([expect.objectContaining({ id: owner.id })]);
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: '/v4/user/me', query: '', headers: { authorization: `Bearer ${world().seed.credentials.memberPat}` }, body: null },
			{ method: 'GET', path: '/v4/user/me', query: '', headers: { authorization: `Bearer ${world().seed.credentials.apiKey}` }, body: null },
		]);
	});

	test('Get reads one user by ID', async () => {
		const { member } = world().seed.users;
		const { items } = await world().runNode({ resource: 'user', operation: 'get', userId: byId(member.id) }, world().pat());
		expect(items).toEqual([expect.objectContaining({ id: member.id, email: member.email, givenName: 'Max' })]);
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: `/v4/user/${member.id}`, query: '', headers: { authorization: `Bearer ${world().seed.credentials.ownerPat}` }, body: null },
		]);
	});

	test('Get Many with Return All reads pages of 100 and returns every user of the company', async () => {
		const expected = await world().api('GET', '/v4/user?limit=100', world().seed.credentials.ownerPat);
		await world().clearRequests();
		const { items } = await world().runNode({ resource: 'user', operation: 'getAll', returnAll: true, filters: {} }, world().pat());
		expect(items).toEqual(expected.body.users);
		expect((await world().requests()).map((r) => `${r.path}?${r.query}`)).toEqual(['/v4/user?limit=100&offset=0']);
	});

	test('Get Many with a limit and a user type filter', async () => {
		const { items } = await world().runNode(
			{ resource: 'user', operation: 'getAll', returnAll: false, limit: 1, filters: { userType: 'standard' } },
			world().apiKey(world().seed.users.owner.id),
		);
		expect(items).toHaveLength(1);
		expect((await world().requests()).map(wire)).toEqual([
			{
				method: 'GET',
				path: '/v4/user',
				query: 'userType=standard&limit=1&offset=0',
				headers: { authorization: `Bearer ${world().seed.credentials.apiKey}`, 'x-service-api-user-id': world().seed.users.owner.id },
				body: null,
			},
		]);
	});

	test('Update sends only the filled fields', async () => {
		const { member, owner } = world().seed.users;
		const { items } = await world().runNode(
			{ resource: 'user', operation: 'update', userId: byId(member.id), updateFields: { title: 'Coach', timezone: 'America/New_York' } },
			world().apiKey(owner.id),
		);
		expect(items).toEqual([expect.objectContaining({ id: member.id, title: 'Coach', timezone: 'America/New_York' })]);
		expect((await world().requests()).map(wire)).toEqual([
			{
				method: 'PATCH',
				path: `/v4/user/${member.id}`,
				query: '',
				headers: {
					authorization: `Bearer ${world().seed.credentials.apiKey}`,
					'x-service-api-user-id': owner.id,
					'content-type': 'application/json',
				},
				body: { title: 'Coach', timezone: 'America/New_York' },
			},
		]);
	});

	test('Delete removes a user and returns { deleted: true }; a second delete is a clear 404', async () => {
		const { owner } = world().seed.users;
		const created = await world().api('POST', '/v4/user', world().seed.credentials.apiKey, {
			body: { email: 'leaving@example.com', givenName: 'Lea', familyName: 'Ving', timezone: 'UTC' },
		});
		const id = created.body.userId as string;
		await world().clearRequests();
		const first = await world().runNode({ resource: 'user', operation: 'delete', userId: byId(id) }, world().apiKey(owner.id));
		expect(first.items).toEqual([{ deleted: true }]);
		const again = await world().runNode({ resource: 'user', operation: 'delete', userId: byId(id) }, world().apiKey(owner.id));
		expect(again.error?.message).toBe('The API could not find the requested resource (HTTP 404)');
		expect(again.error?.description).toContain('User not found');
		expect((await world().requests()).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
			`DELETE /v4/user/${id} 204`,
			`DELETE /v4/user/${id} 404`,
		]);
	});

	test('the user list for the resource locator filters by name and surfaces a member\'s 403', async () => {
		const { result } = await world().listSearch('searchUsers', { resource: 'user', operation: 'get' }, world().pat(), 'max');
		expect(result?.results).toEqual([{ name: expect.stringContaining('Max'), value: world().seed.users.member.id }]);
		const denied = await world().listSearch('searchUsers', { resource: 'user', operation: 'get' }, world().pat(world().seed.credentials.memberPat));
		expect(denied.error?.message).toBe('The API refused the request: the credential is not allowed to do this (HTTP 403)');
	});

	test('the Act As User list reads the users as the company owner when no acting user is set yet', async () => {
		const { owner, member } = world().seed.users;
		const { result } = await world().listSearch('searchActingUsers', {}, world().apiKey());
		expect(result?.results).toEqual(expect.arrayContaining([
			{ name: `Ada Admin (${owner.email})`, value: owner.id },
			{ name: `Max Member (${member.email})`, value: member.id },
		]));
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: '/v4/user/me', query: '', headers: { authorization: `Bearer ${world().seed.credentials.apiKey}` }, body: null },
			{
				method: 'GET',
				path: '/v4/user',
				query: 'limit=100&offset=0',
				headers: { authorization: `Bearer ${world().seed.credentials.apiKey}`, 'x-service-api-user-id': owner.id },
				body: null,
			},
		]);
	});

	test('the Act As User list uses the credential\'s default acting user when set', async () => {
		const { member } = world().seed.users;
		await world().listSearch('searchActingUsers', {}, world().apiKey(member.id), 'ada');
		expect((await world().requests()).map((r) => [r.path, r.headers['x-service-api-user-id']])).toEqual([['/v4/user', member.id]]);
	});
});
