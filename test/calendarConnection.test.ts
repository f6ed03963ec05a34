import type { IDataObject } from 'n8n-workflow';

import { byId, useWorld, wire } from './harness/world';

const world = useWorld();

const ownerPat = () => world().seed.credentials.ownerPat;
const memberPat = () => world().seed.credentials.memberPat;

/** A connection as the OAuth flow would leave it (the only way connections are made). */
async function connect(userId: string, email: string, provider = 'google'): Promise<IDataObject & { id: string }> {
	const connection = (await world().control('POST', '/__sandbox/calendar-connections', { userId, provider, email })) as IDataObject & { id: string };
	return connection;
}

async function connectionsOf(userId: string): Promise<IDataObject[]> {
	const answer = await world().api('GET', `/v4/calendar-connections/connections?userId=${userId}`, ownerPat());
	return answer.body.connections as IDataObject[];
}

describe('Calendar Connection', () => {
	test('Get Many returns the acting user\'s connections from { connections, total }; Limit cuts the list', async () => {
		const owner = world().seed.users.owner;
		await connect(owner.id, 'ada@acme.example');
		await connect(owner.id, 'ada@outlook.example', 'outlook');
		const expected = await world().api('GET', '/v4/calendar-connections/connections', ownerPat());
		expect(expected.body.total).toBe(2);
		await world().clearRequests();

		const all = await world().runNode({ resource: 'calendarConnection', operation: 'getAll', returnAll: true }, world().pat());
		expect(all.error).toBeUndefined();
		expect(all.items).toEqual(expected.body.connections);
		expect(all.items).toEqual([
			expect.objectContaining({ userId: owner.id, provider: 'google', email: 'ada@acme.example', isPrimary: true, selectedCalendars: ['ada@acme.example'] }),
			expect.objectContaining({ userId: owner.id, provider: 'outlook', email: 'ada@outlook.example', isPrimary: false }),
		]);
		const one = await world().runNode({ resource: 'calendarConnection', operation: 'getAll', returnAll: false, limit: 1 }, world().pat());
		expect(one.items).toEqual([(expected.body.connections as IDataObject[])[0]]);
		const get = { method: 'GET', path: '/v4/calendar-connections/connections', query: '', headers: world().patHeaders(), body: null };
		expect((await world().requests()).map(wire)).toEqual([get, get]);
	});

	test('Get Many for another user: an admin names them with the User filter; a member gets the API\'s 403', async () => {
		const { owner, member } = world().seed.users;
		const memberConnection = await connect(member.id, 'max@acme.example', 'outlook');
		const asAdmin = await world().runNode(
			{ resource: 'calendarConnection', operation: 'getAll', returnAll: true, filters: { userId: byId(member.id) } },
			world().apiKey(owner.id),
		);
		expect(asAdmin.error).toBeUndefined();
		expect(asAdmin.items).toEqual([memberConnection]);

		const asMember = await world().runNode(
			{ resource: 'calendarConnection', operation: 'getAll', returnAll: true, filters: { userId: byId(owner.id) } },
			world().pat(memberPat()),
		);
		expect(asMember.error?.message).toBe('Forbidden resource (HTTP 403)');
		expect(asMember.error?.description).toBe("The API refused the request: the credential is not allowed to do this. The API says: Forbidden resource. Only admins may do this: use an admin's token, or a Platform API key.");
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: '/v4/calendar-connections/connections', query: `userId=${member.id}`, headers: world().keyHeaders(owner.id), body: null },
			{ method: 'GET', path: '/v4/calendar-connections/connections', query: `userId=${owner.id}`, headers: world().patHeaders(memberPat()), body: null },
		]);
	});

	test('Get Many refuses a User filter that is not an ID before sending', async () => {
		const { error } = await world().runNode(
			{ resource: 'calendarConnection', operation: 'getAll', returnAll: true, filters: { userId: byId('={{ "max@acme.example" }}') } },
			world().pat(),
		);
		expect(error?.message).toBe('User ID must be in UUID form, such as 6f1c2a7e-1b2c-4d5e-8f90-123456789abc; "max@acme.example" is not');
		expect(await world().requests()).toEqual([]);
	});

	test('Update sends the chosen calendars and sync options and returns the connection', async () => {
		const owner = world().seed.users.owner;
		const connection = await connect(owner.id, 'ada.update@acme.example');
		const { items, error } = await world().runNode(
			{
				resource: 'calendarConnection',
				operation: 'update',
				connectionId: connection.id,
				updateFields: {
					selectedCalendars: ['ada.update@acme.example', 'team@acme.example'],
					primaryCalendar: 'team@acme.example',
					validateAvailability: false,
					cancelIfDeclinedOrDeleted: true,
					disableAttendeeNotification: true,
					syncBuffersToCalendar: true,
				},
			},
			world().pat(),
		);
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{
				method: 'PATCH',
				path: `/v4/calendar-connections/connections/${connection.id}`,
				query: '',
				headers: world().patHeaders(ownerPat(), true),
				body: {
					primaryCalendar: 'team@acme.example',
					selectedCalendars: ['ada.update@acme.example', 'team@acme.example'],
					validateAvailability: false,
					cancelIfDeclinedOrDeleted: true,
					disableAttendeeNotification: true,
					syncBuffersToCalendar: true,
				},
			},
		]);
		const stored = (await connectionsOf(owner.id)).find((candidate) => candidate.id === connection.id);
		expect(items).toEqual([stored]);
		expect(stored).toEqual(
			expect.objectContaining({
				primaryCalendar: 'team@acme.example',
				selectedCalendars: ['ada.update@acme.example', 'team@acme.example'],
				validateAvailability: false,
				cancelIfDeclinedOrDeleted: true,
				disableAttendeeNotification: true,
				syncBuffersToCalendar: true,
			}),
		);
	});

	test('Update with a primary calendar that is not selected keeps the API\'s words', async () => {
		const connection = await connect(world().seed.users.owner.id, 'ada.primary@acme.example');
		const { error } = await world().runNode(
			{ resource: 'calendarConnection', operation: 'update', connectionId: connection.id, updateFields: { primaryCalendar: 'other@acme.example' } },
			world().pat(),
		);
		expect(error?.message).toBe('primaryCalendar must be one of selectedCalendars (HTTP 400)');
		expect(error?.description).toBe('The API rejected the request as invalid. The API says: primaryCalendar must be one of selectedCalendars. Correct the fields the API names and run the node again.');
		expect((await world().requests()).map((r) => `${r.method} ${r.path} ${JSON.stringify(r.body)} ${r.status}`)).toEqual([
			`PATCH /v4/calendar-connections/connections/${connection.id} {"primaryCalendar":"other@acme.example"} 400`,
		]);
	});

	test('Delete disconnects the calendar; a member cannot delete the owner\'s (404)', async () => {
		const owner = world().seed.users.owner;
		const connection = await connect(owner.id, 'ada.delete@acme.example');
		const denied = await world().runNode({ resource: 'calendarConnection', operation: 'delete', connectionId: connection.id }, world().pat(memberPat()));
		expect(denied.error?.httpCode).toBe('404');
		expect(denied.error?.description).toContain('Calendar connection not found');
		const { items } = await world().runNode({ resource: 'calendarConnection', operation: 'delete', connectionId: connection.id }, world().pat());
		expect(items).toEqual([{ deleted: true }]);
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'DELETE', path: `/v4/calendar-connections/connections/${connection.id}`, query: '', headers: world().patHeaders(memberPat()), body: null },
			{ method: 'DELETE', path: `/v4/calendar-connections/connections/${connection.id}`, query: '', headers: world().patHeaders(), body: null },
		]);
		expect((await connectionsOf(owner.id)).map((candidate) => candidate.id)).not.toContain(connection.id);
	});

	test('Delete with an empty Connection ID fails before sending', async () => {
		const { error } = await world().runNode({ resource: 'calendarConnection', operation: 'delete', connectionId: '={{ "" }}' }, world().pat());
		expect(error?.message).toBe('Connection ID is required');
		expect(await world().requests()).toEqual([]);
	});

	test('Get Connect URL returns the Google consent address with the redirect URL and a state', async () => {
		const owner = world().seed.users.owner;
		const redirectUrl = 'https://app.example.com/connected?step=2';
		const { items, error } = await world().runNode(
			{ resource: 'calendarConnection', operation: 'getAuthUrl', provider: 'google', redirectUrl, setAsCalendarSync: true },
			world().apiKey(owner.id),
		);
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{
				method: 'GET',
				path: '/v4/calendar-connections/auth/google/url',
				query: `redirectUrl=${encodeURIComponent(redirectUrl)}&setAsCalendarSync=true`,
				headers: world().keyHeaders(owner.id),
				body: null,
			},
		]);
		expect(items).toHaveLength(1);
		const authUrl = new URL(items[0].authUrl as string);
		expect(`${authUrl.origin}${authUrl.pathname}`).toBe('https://accounts.google.com/o/oauth2/v2/auth');
		expect(authUrl.searchParams.get('redirect_uri')).toBe(redirectUrl);
		const state = JSON.parse(Buffer.from(authUrl.searchParams.get('state') ?? '', 'base64url').toString());
		expect(state).toEqual({ userId: owner.id, setAsCalendarSync: true, nonce: expect.any(String) });
	});

	test('Get Connect URL for Outlook points to Microsoft; an unknown provider gets the API\'s 400', async () => {
		const outlook = await world().runNode(
			{ resource: 'calendarConnection', operation: 'getAuthUrl', provider: 'outlook', redirectUrl: 'https://app.example.com/back' },
			world().pat(),
		);
		const authUrl = new URL(outlook.items[0].authUrl as string);
		expect(`${authUrl.origin}${authUrl.pathname}`).toBe('https://login.microsoftonline.com/common/oauth2/v2.0/authorize');
		expect(authUrl.searchParams.get('redirect_uri')).toBe('https://app.example.com/back');

		const unknown = await world().runNode(
			{ resource: 'calendarConnection', operation: 'getAuthUrl', provider: '={{ "yahoo" }}', redirectUrl: 'https://app.example.com/back' },
			world().pat(),
		);
		expect(unknown.error?.message).toBe('Provider must be one of "google", "outlook"; "yahoo" is not');
		expect((await world().requests()).map((r) => `${r.method} ${r.path}?${r.query} ${r.status}`)).toEqual([
			'GET /v4/calendar-connections/auth/outlook/url?redirectUrl=https%3A%2F%2Fapp.example.com%2Fback 200',
		]);
		const direct = await world().api('GET', '/v4/calendar-connections/auth/yahoo/url?redirectUrl=https%3A%2F%2Fapp.example.com%2Fback', world().seed.credentials.ownerPat);
		expect(direct.body.message).toEqual(['provider must be one of the following values: google, outlook']);
	});

	test('Get Connect URL sends Set as Calendar Sync only when on: off, the state says false', async () => {
		const { items } = await world().runNode(
			{ resource: 'calendarConnection', operation: 'getAuthUrl', provider: 'google', redirectUrl: 'https://app.example.com/back', setAsCalendarSync: false },
			world().pat(),
		);
		expect((await world().requests()).map((r) => r.query)).toEqual(['redirectUrl=https%3A%2F%2Fapp.example.com%2Fback']);
		const state = JSON.parse(Buffer.from(new URL(items[0].authUrl as string).searchParams.get('state') ?? '', 'base64url').toString());
		expect(state).toEqual(expect.objectContaining({ userId: world().seed.users.owner.id, setAsCalendarSync: false }));
	});

	test('Get Connect URL for another user: an admin names them with User (sent as userId); a member gets the API\'s 403', async () => {
		const { owner, member } = world().seed.users;
		const redirectUrl = 'https://app.example.com/back';
		const asAdmin = await world().runNode(
			{ resource: 'calendarConnection', operation: 'getAuthUrl', provider: 'google', redirectUrl, userId: byId(member.id) },
			world().apiKey(owner.id),
		);
		expect(asAdmin.error).toBeUndefined();
		const state = JSON.parse(Buffer.from(new URL(asAdmin.items[0].authUrl as string).searchParams.get('state') ?? '', 'base64url').toString());
		expect(state).toEqual({ userId: member.id, setAsCalendarSync: false, nonce: expect.any(String) });

		const asMember = await world().runNode(
			{ resource: 'calendarConnection', operation: 'getAuthUrl', provider: 'google', redirectUrl, userId: byId(owner.id) },
			world().pat(memberPat()),
		);
		expect(asMember.error?.description).toBe("The API refused the request: the credential is not allowed to do this. The API says: Forbidden resource. Only admins may do this: use an admin's token, or a Platform API key.");
		const query = (userId: string) => `redirectUrl=${encodeURIComponent(redirectUrl)}&userId=${userId}`;
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: '/v4/calendar-connections/auth/google/url', query: query(member.id), headers: world().keyHeaders(owner.id), body: null },
			{ method: 'GET', path: '/v4/calendar-connections/auth/google/url', query: query(owner.id), headers: world().patHeaders(memberPat()), body: null },
		]);
	});

	test('Update for another user: User is sent as userId; a connection that is not that user\'s is not found', async () => {
		const { owner, member } = world().seed.users;
		const connection = await connect(member.id, 'max.update@acme.example');
		const updateFields = { syncBuffersToCalendar: true };
		const asAdmin = await world().runNode(
			{ resource: 'calendarConnection', operation: 'update', connectionId: connection.id, userId: byId(member.id), updateFields },
			world().apiKey(owner.id),
		);
		expect(asAdmin.error).toBeUndefined();
		expect(asAdmin.items).toEqual([expect.objectContaining({ id: connection.id, userId: member.id, syncBuffersToCalendar: true })]);
		const wrongUser = await world().runNode(
			{ resource: 'calendarConnection', operation: 'update', connectionId: connection.id, userId: byId(owner.id), updateFields },
			world().apiKey(owner.id),
		);
		expect(wrongUser.error?.httpCode).toBe('404');
		expect(wrongUser.error?.description).toContain('Calendar connection not found');
		const patch = (userId: string) => ({
			method: 'PATCH',
			path: `/v4/calendar-connections/connections/${connection.id}`,
			query: `userId=${userId}`,
			headers: world().keyHeaders(owner.id, true),
			body: updateFields,
		});
		expect((await world().requests()).map(wire)).toEqual([patch(member.id), patch(owner.id)]);
	});

	test('Get Connect URL and Update refuse a User that is not an ID before sending', async () => {
		const userId = byId('={{ "max@acme.example" }}');
		const authUrl = await world().runNode({ resource: 'calendarConnection', operation: 'getAuthUrl', provider: 'google', redirectUrl: 'https://app.example.com', userId }, world().pat());
		const update = await world().runNode({ resource: 'calendarConnection', operation: 'update', connectionId: 'abc', userId }, world().pat());
		for (const { error } of [authUrl, update]) {
			expect(error?.message).toBe('User ID must be in UUID form, such as 6f1c2a7e-1b2c-4d5e-8f90-123456789abc; "max@acme.example" is not');
		}
		expect(await world().requests()).toEqual([]);
	});

	test('Get Connect URL refuses a missing or malformed Redirect URL before sending', async () => {
		const bad = await world().runNode(
			{ resource: 'calendarConnection', operation: 'getAuthUrl', provider: 'google', redirectUrl: 'app.example.com/back' },
			world().pat(),
		);
		expect(bad.error?.message).toBe('Redirect URL must be a web address starting with https:// or http://');
		const missing = await world().runNode({ resource: 'calendarConnection', operation: 'getAuthUrl', provider: 'google', redirectUrl: '={{ $json.missing ?? "" }}' }, world().pat());
		expect(missing.error?.message).toBe('Redirect URL is required');
		expect(await world().requests()).toEqual([]);
	});

	test('the API refuses a redirect URL that is not an address in its own words', async () => {
		const answer = await world().api('GET', '/v4/calendar-connections/auth/google/url?redirectUrl=not-a-url', ownerPat());
		expect(answer).toEqual({ status: 400, body: { statusCode: 400, message: ['redirectUrl must be a URL address'], error: 'Bad Request' } });
	});
});
