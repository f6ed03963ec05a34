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

	test('Create sends the weekly hours (form), their time zone and name, and the meeting type\'s channel; the user is set up with them', async () => {
		const { owner } = world().seed.users;
		const { items, error } = await world().runNode(
			{
				resource: 'user',
				operation: 'create',
				email: 'weekly.hours@example.com',
				givenName: 'Weekly',
				familyName: 'Hours',
				timezone: 'Europe/Berlin',
				setWeeklyHours: true,
				scheduleInput: 'form',
				weeklyHours: { ranges: [{ days: ['tuesday', 'thursday'], start: '10:00', end: '14:00' }] },
				additionalFields: { availabilityName: 'Shop Hours', availabilityTimezone: 'Europe/Vienna', meetingTypeChannel: 'zoom' },
			},
			world().apiKey(),
		);
		expect(error).toBeUndefined();
		const closed = { enabled: false, hours: [] };
		const open = { enabled: true, hours: [{ start: '10:00', end: '14:00' }] };
		const schedule = { monday: closed, tuesday: open, wednesday: closed, thursday: open, friday: closed, saturday: closed, sunday: closed };
		expect((await world().requests()).map(wire)).toEqual([
			{
				method: 'POST',
				path: '/v4/user',
				query: '',
				headers: { authorization: `Bearer ${world().seed.credentials.apiKey}`, 'content-type': 'application/json' },
				body: {
					email: 'weekly.hours@example.com',
					givenName: 'Weekly',
					familyName: 'Hours',
					timezone: 'Europe/Berlin',
					availability: { name: 'Shop Hours', timezone: 'Europe/Vienna', schedule },
					meetingType: { channel: 'zoom' },
				},
			},
		]);
		const { availabilityId, meetingTypeId } = items[0] as { availabilityId: string; meetingTypeId: string };
		const availability = await world().api('GET', `/availability/${availabilityId}`, world().seed.credentials.apiKey, { actAs: owner.id });
		expect(availability.body).toMatchObject({ name: 'Shop Hours', timezone: 'Europe/Vienna', schedule, isDefault: true });
		const meetingType = await world().api('GET', `/v4/meeting-type/${meetingTypeId}`, world().seed.credentials.apiKey, { actAs: owner.id });
		expect(meetingType.body).toMatchObject({ meetingInfo: expect.objectContaining({ channel: 'zoom', duration: 30 }) });
	});

	test('Create without a channel: the new meeting type\'s channel is phone, as the reference says', async () => {
		const created = await world().runNode(
			{ resource: 'user', operation: 'create', email: 'phone.default@example.com', givenName: 'Phone', familyName: 'Default', timezone: 'UTC' },
			world().apiKey(),
		);
		const meetingTypeId = created.items[0].meetingTypeId as string;
		const meetingType = await world().api('GET', `/v4/meeting-type/${meetingTypeId}`, world().seed.credentials.apiKey, { actAs: world().seed.users.owner.id });
		expect(meetingType.body).toMatchObject({ meetingInfo: expect.objectContaining({ channel: 'phone' }) });
	});

	test('Create refuses weekly hours as Availability does: a time range with no days (an expression giving []) names the row', async () => {
		const base = { resource: 'user', operation: 'create', email: 'a@example.com', givenName: 'A', familyName: 'B', timezone: 'UTC', setWeeklyHours: true };
		const emptyRow = await world().runNode(
			{
				...base,
				scheduleInput: 'form',
				weeklyHours: { ranges: [{ days: ['monday'], start: '09:00', end: '12:00' }, { days: '={{ [] }}', start: '13:00', end: '17:00' }] },
			},
			world().apiKey(),
		);
		expect(emptyRow.error?.message).toBe('Weekly Hours → row 2 → Days is required');
		const overlap = await world().runNode(
			{ ...base, scheduleInput: 'json', scheduleJson: '{"monday": {"hours": [{"start": "08:00", "end": "10:00"}, {"start": "09:00", "end": "11:00"}]}}' },
			world().apiKey(),
		);
		expect(overlap.error?.message).toBe('Weekly Hours, Monday: 08:00–10:00 and 09:00–11:00 overlap');
		const zone = await world().runNode({ ...base, setWeeklyHours: false, additionalFields: { availabilityTimezone: 'Vienna' } }, world().apiKey());
		expect(zone.error?.message).toBe('Availability Timezone must be an IANA time zone such as Europe/Berlin or America/New_York; "Vienna" is not');
		expect(await world().requests()).toEqual([]);
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
		expect(error?.message).toBe('User management requires a Platform API Key (HTTP 403)');
		expect(error?.description).toBe(
			"The API refused the request: the credential is not allowed to do this. The API says: User management requires a Platform API Key. Switch the node's Authentication to Platform API Key: this operation is not available to Personal Access Tokens.",
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

	test('Update sends only First Name, Last Name and Slug, the filled ones', async () => {
		const { owner } = world().seed.users;
		const created = await world().api('POST', '/v4/user', world().seed.credentials.apiKey, {
			body: { email: 'renamed@example.com', givenName: 'Rene', familyName: 'Named', timezone: 'UTC' },
		});
		const id = created.body.userId as string;
		await world().clearRequests();
		const { items, error } = await world().runNode(
			{ resource: 'user', operation: 'update', userId: byId(id), updateFields: { givenName: 'Renate', slug: 'renate-named' } },
			world().apiKey(owner.id),
		);
		expect(error).toBeUndefined();
		expect(items).toEqual([expect.objectContaining({ id, givenName: 'Renate', fullName: 'Renate Named', slug: 'renate-named', timezone: 'UTC' })]);
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'PATCH', path: `/v4/user/${id}`, query: '', headers: world().keyHeaders(owner.id, true), body: { givenName: 'Renate', slug: 'renate-named' } },
		]);
	});

	test('Update with no field is refused before sending', async () => {
		const { member, owner } = world().seed.users;
		const { error } = await world().runNode({ resource: 'user', operation: 'update', userId: byId(member.id), updateFields: {} }, world().apiKey(owner.id));
		expect(error?.message).toBe('Add at least one field under Update Fields: First Name, Last Name or Slug');
		expect(error?.description).toBe('Item 1: fix the values named above and run the node again.');
		expect(await world().requests()).toEqual([]);
	});

	test('Update: a slug another user has is the API\'s 409', async () => {
		const { member, owner } = world().seed.users;
		const ownerSlug = (await world().api('GET', `/v4/user/${owner.id}`, world().seed.credentials.ownerPat)).body.slug as string;
		await world().clearRequests();
		const { error } = await world().runNode(
			{ resource: 'user', operation: 'update', userId: byId(member.id), updateFields: { slug: ownerSlug } },
			world().apiKey(owner.id),
		);
		expect(error?.message).toBe('A user with this slug already exists (HTTP 409)');
		expect(error?.description).toBe('The request conflicts with the current state of the resource. The API says: A user with this slug already exists. Slugs are unique within the company: choose another Slug for this user.');
		expect((await world().requests()).map((r) => [r.method, r.status, r.body])).toEqual([['PATCH', 409, { slug: ownerSlug }]]);
	});

	test('the API takes only givenName, familyName and slug on a user PATCH, and refuses an empty body', async () => {
		const { member, owner } = world().seed.users;
		const patch = (body: unknown) => world().api('PATCH', `/v4/user/${member.id}`, world().seed.credentials.apiKey, { actAs: owner.id, body });
		expect(await patch({ timezone: 'UTC', title: 'Coach', familyName: 'Member' })).toEqual({
			status: 400,
			body: { statusCode: 400, message: ['property timezone should not exist', 'property title should not exist'], error: 'Bad Request' },
		});
		expect(await patch({})).toEqual({ status: 400, body: { statusCode: 400, message: 'Empty Body', error: 'Bad Request' } });
		const unchanged = await world().api('GET', `/v4/user/${member.id}`, world().seed.credentials.apiKey, { actAs: owner.id });
		expect(unchanged.body).toMatchObject({ timezone: member.timezone, title: null });
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
		expect(again.error?.message).toBe('User not found (HTTP 404)');
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
		expect(denied.error?.message).toBe("Forbidden resource (HTTP 403). Only admins may do this: use an admin's token, or a Platform API key.");
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
