import type { IDataObject } from 'n8n-workflow';

import { BOOKING_BASE_URL } from '../sandbox/store';
import { byId, useWorld, wire } from './harness/world';

const world = useWorld();

const ownerPat = () => world().seed.credentials.ownerPat;

/** The owner's seeded "Product Demo", as the API shows it. */
let demo: IDataObject & { id: string };

beforeAll(async () => {
	demo = await world().meetingType('Product Demo');
});

/** The acting user's own link of a meeting type, as Get Many gives it (workspaceId null). The request log is cleared after. */
async function personalLink(meetingTypeId: string, token = ownerPat()): Promise<IDataObject> {
	const answer = await world().api('GET', '/v4/booking-link', token);
	await world().clearRequests();
	const link = (answer.body.personalLinks as IDataObject[]).find((candidate) => candidate.meetingTypeId === meetingTypeId);
	return { ...link, workspaceId: null };
}

async function oneTimeLinks(): Promise<IDataObject[]> {
	const answer = await world().api('GET', '/v4/one-time-booking-link', ownerPat());
	await world().clearRequests();
	return answer.body;
}

describe('Booking Link', () => {
	test('Create One-Time Link sends the expiry with its offset and returns the unused link', async () => {
		const { items, error } = await world().runNode(
			{ resource: 'bookingLink', operation: 'createOneTime', meetingTypeId: byId(demo.id), additionalFields: { expiresAt: '2099-05-01T10:00:00' } },
			world().pat(),
			{ timezone: 'Europe/Berlin' },
		);
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{
				method: 'POST',
				path: `/v4/one-time-booking-link/create/${demo.id}`,
				query: '',
				headers: world().patHeaders(ownerPat(), true),
				body: { expiresAt: '2099-05-01T10:00:00+02:00' },
			},
		]);
		expect(items).toEqual([
			{
				id: expect.any(String),
				url: expect.stringMatching(new RegExp(`^${BOOKING_BASE_URL.replace(/\./g, '\\.')}/d/[0-9a-f]{24}$`)),
				meetingTypeId: demo.id,
				used: false,
				expiresAt: '2099-05-01T08:00:00.000Z',
				createdAt: expect.any(String),
			},
		]);
		expect(await oneTimeLinks()).toContainEqual(items[0]);
	});

	test('Create One-Time Link without an expiry sends no body; the link has expiresAt null', async () => {
		const workshop = await world().meetingType('Strategy Workshop');
		const { items } = await world().runNode({ resource: 'bookingLink', operation: 'createOneTime', meetingTypeId: byId(workshop.id) }, world().pat());
		expect(items).toEqual([expect.objectContaining({ meetingTypeId: workshop.id, used: false, expiresAt: null })]);
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'POST', path: `/v4/one-time-booking-link/create/${workshop.id}`, query: '', headers: world().patHeaders(), body: null },
		]);
	});

	test('Create One-Time Link: a past expiry gets the API\'s words, a text that is no date is refused before sending', async () => {
		const past = await world().runNode(
			{ resource: 'bookingLink', operation: 'createOneTime', meetingTypeId: byId(demo.id), additionalFields: { expiresAt: '2020-01-01T09:00:00Z' } },
			world().pat(),
		);
		expect(past.error?.message).toBe('expiresAt must be in the future (HTTP 400)');
		expect(past.error?.description).toBe('The API rejected the request as invalid. The API says: expiresAt must be in the future. Correct the fields the API names and run the node again.');
		expect((await world().requests()).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([`POST /v4/one-time-booking-link/create/${demo.id} 400`]);
		await world().clearRequests();

		const garbage = await world().runNode(
			{ resource: 'bookingLink', operation: 'createOneTime', meetingTypeId: byId(demo.id), additionalFields: { expiresAt: '={{ "next friday" }}' } },
			world().pat(),
		);
		expect(garbage.error?.message).toBe('Expires At must be a date and time such as 2026-03-09T10:00:00+01:00, not "next friday"');
		expect(await world().requests()).toEqual([]);
	});

	test('Create One-Time Link for a meeting type the member cannot see: 404 in the API\'s words', async () => {
		const { error } = await world().runNode(
			{ resource: 'bookingLink', operation: 'createOneTime', meetingTypeId: byId(demo.id) },
			world().pat(world().seed.credentials.memberPat),
		);
		expect(error?.httpCode).toBe('404');
		expect(error?.description).toBe(
			'The API could not find the requested resource. The API says: Meeting type not found. Check the ID: the resource may have been deleted, or it belongs to a user the credential cannot see.',
		);
	});

	test('Get Many One-Time Links returns the bare list, filtered by meeting type; Limit cuts it', async () => {
		const workshop = await world().meetingType('Strategy Workshop');
		for (const type of [demo, workshop, demo]) {
			await world().api('POST', `/v4/one-time-booking-link/create/${type.id}`, ownerPat(), { body: {} });
		}
		const all = await oneTimeLinks();
		const expected = all.filter((link) => link.meetingTypeId === demo.id);
		expect(expected.length).toBeGreaterThanOrEqual(2);
		expect(expected.length).toBeLessThan(all.length);

		const filtered = await world().runNode(
			{ resource: 'bookingLink', operation: 'getAllOneTime', returnAll: true, filters: { meetingTypeId: byId(demo.id) } },
			world().pat(),
		);
		expect(filtered.items).toEqual(expected);
		const one = await world().runNode({ resource: 'bookingLink', operation: 'getAllOneTime', returnAll: false, limit: 1 }, world().pat());
		expect(one.items).toEqual([all[0]]);
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: '/v4/one-time-booking-link', query: `meetingTypeId=${demo.id}`, headers: world().patHeaders(), body: null },
			{ method: 'GET', path: '/v4/one-time-booking-link', query: '', headers: world().patHeaders(), body: null },
		]);
	});

	test('Delete One-Time Link removes it; deleting it again is a 404', async () => {
		const created = await world().api('POST', `/v4/one-time-booking-link/create/${demo.id}`, ownerPat(), { body: {} });
		await world().clearRequests();
		const linkId = created.body.id as string;
		const { items } = await world().runNode({ resource: 'bookingLink', operation: 'deleteOneTime', linkId }, world().pat());
		expect(items).toEqual([{ deleted: true }]);
		const again = await world().runNode({ resource: 'bookingLink', operation: 'deleteOneTime', linkId }, world().pat());
		expect(again.error?.description).toContain('One-time booking link not found');
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'DELETE', path: `/v4/one-time-booking-link/${linkId}`, query: '', headers: world().patHeaders(), body: null },
			{ method: 'DELETE', path: `/v4/one-time-booking-link/${linkId}`, query: '', headers: world().patHeaders(), body: null },
		]);
		expect((await oneTimeLinks()).map((link) => link.id)).not.toContain(linkId);
	});

	test('Get Booking Page Link reads GET /v4/booking-link (nothing else sent), gives the link with the prefill URL-encoded in order', async () => {
		const owner = world().seed.users.owner;
		const { items, error } = await world().runNode(
			{
				resource: 'bookingLink',
				operation: 'getPageLink',
				meetingTypeId: byId(demo.id),
				prefill: { phone: '+4915112345678', lastname: "O'Neil & Sons", firstname: 'Jane Marie', email: 'jane.doe+vip@example.com' },
			},
			world().apiKey(owner.id),
		);
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: '/v4/booking-link', query: '', headers: world().keyHeaders(owner.id), body: null },
		]);
		const link = await personalLink(demo.id);
		expect(link).toEqual({
			id: expect.any(String),
			meetingTypeId: demo.id,
			link: `${BOOKING_BASE_URL}/ada-admin/product-demo`,
			title: 'Product Demo',
			slug: 'product-demo',
			fullName: 'Ada Admin',
			email: 'ada@acme.example',
			picture: null,
			workspaceId: null,
		});
		expect(items).toEqual([
			{
				...link,
				url: `${BOOKING_BASE_URL}/ada-admin/product-demo?email=jane.doe%2Bvip%40example.com&firstname=Jane%20Marie&lastname=O'Neil%20%26%20Sons&phone=%2B4915112345678`,
			},
		]);
	});

	test('Get Booking Page Link without a prefill is the bare link', async () => {
		const quick = await world().meetingType('Quick Call', world().seed.credentials.memberPat);
		const { items } = await world().runNode(
			{ resource: 'bookingLink', operation: 'getPageLink', meetingTypeId: byId(quick.id) },
			world().pat(world().seed.credentials.memberPat),
		);
		expect(items).toEqual([{ ...(await personalLink(quick.id, world().seed.credentials.memberPat)), url: `${BOOKING_BASE_URL}/max-member/quick-call` }]);
	});

	test('Get Booking Page Link for several items reads the links once and prefills each item\'s own lead', async () => {
		const workshop = await world().meetingType('Strategy Workshop');
		const input = [
			{ id: demo.id, email: 'a@example.com' },
			{ id: workshop.id, email: 'b@example.com' },
			{ id: demo.id, email: 'c@example.com' },
		];
		const { items, paired } = await world().runNode(
			{ resource: 'bookingLink', operation: 'getPageLink', meetingTypeId: byId('={{ $json.id }}'), prefill: { email: '={{ $json.email }}' } },
			world().pat(),
			{ input },
		);
		expect(items.map((item) => [item.meetingTypeId, item.url])).toEqual([
			[demo.id, `${BOOKING_BASE_URL}/ada-admin/product-demo?email=a%40example.com`],
			[workshop.id, `${BOOKING_BASE_URL}/ada-admin/strategy-workshop?email=b%40example.com`],
			[demo.id, `${BOOKING_BASE_URL}/ada-admin/product-demo?email=c%40example.com`],
		]);
		expect(paired).toEqual([0, 1, 2]);
		expect((await world().requests()).map((r) => `${r.method} ${r.path}?${r.query}`)).toEqual(['GET /v4/booking-link?']);
	});

	test('Get Booking Page Link: a link that has a query already gets the prefill after &', async () => {
		const link = { id: 'l-1', meetingTypeId: demo.id, link: 'https://book.example.com/ada/demo?lang=de', title: 'Product Demo', slug: 'demo', fullName: 'Ada Admin', email: 'ada@acme.example', picture: null };
		await world().control('POST', '/__sandbox/faults', { method: 'GET', path: '/v4/booking-link', status: 200, body: { personalLinks: [link], workspaceLinks: [] } });
		const { items } = await world().runNode(
			{ resource: 'bookingLink', operation: 'getPageLink', meetingTypeId: byId(demo.id), prefill: { firstname: 'Jane', lastname: 'Doe' } },
			world().pat(),
		);
		expect(items).toEqual([{ ...link, workspaceId: null, url: 'https://book.example.com/ada/demo?lang=de&firstname=Jane&lastname=Doe' }]);
	});

	test('Get Booking Page Link for a meeting type without a link (disabled, or another user\'s) names it and says what to do', async () => {
		const disabledId = await world().createMeetingType('Paused Call');
		await world().api('PATCH', `/v4/meeting-type/${disabledId}`, ownerPat(), { body: { enabled: false } });
		const quick = await world().meetingType('Quick Call', world().seed.credentials.memberPat);
		await world().clearRequests();
		const advice =
			'the acting user\'s links (their own and their workspaces\') do not include this meeting type: it is disabled, or another user\'s. Enable it, act as its host, or pick a meeting type from Booking Link\'s Get Many.';
		for (const [index, id] of [disabledId, quick.id].entries()) {
			const { error } = await world().runNode({ resource: 'bookingLink', operation: 'getPageLink', meetingTypeId: byId(id) }, world().pat());
			expect(error?.message).toBe(`Meeting type ${id} has no booking page link`);
			expect(error?.description).toBe(`Item 1: ${advice}`);
			expect(await world().requests()).toHaveLength(index + 1);
		}
	});

	test('Get Booking Page Link refuses a bad email or phone, or no meeting type, before sending', async () => {
		const base = { resource: 'bookingLink', operation: 'getPageLink', meetingTypeId: byId(demo.id) };
		const email = await world().runNode({ ...base, prefill: { email: 'jane.example.com' } }, world().pat());
		expect(email.error?.message).toBe('Email must be an email address such as jane@example.com; "jane.example.com" is not');
		const phone = await world().runNode({ ...base, prefill: { phone: '0151 1234567' } }, world().pat());
		expect(phone.error?.message).toBe('Phone must be a phone number in E.164 form: + and country code, digits only, such as +4915112345678');
		const noType = await world().runNode({ ...base, meetingTypeId: byId('={{ $json.id ?? "" }}') }, world().pat());
		expect(noType.error?.message).toBe('Meeting Type is required');
		expect(await world().requests()).toEqual([]);
	});

	test('workspace links: a meeting type in a workspace is listed there for everyone of the company, and its link prefilled', async () => {
		const owner = world().seed.users.owner;
		const teamId = await world().createMeetingType('Team Intro');
		await world().control('POST', `/__sandbox/meeting-types/${teamId}/workspace`, { workspaceId: 'ws-sales' });
		const expectedLink = {
			id: expect.any(String),
			meetingTypeId: teamId,
			link: `${BOOKING_BASE_URL}/ada-admin/team-intro`,
			title: 'Team Intro',
			slug: 'team-intro',
			fullName: owner.fullName,
			email: owner.email,
			picture: null,
		};
		const asMember = await world().api('GET', '/v4/booking-link', world().seed.credentials.memberPat);
		expect(asMember.body.workspaceLinks).toEqual([{ workspaceId: 'ws-sales', meetingTypesLinks: [{ meetingTypeId: teamId, links: [expectedLink] }] }]);
		expect((asMember.body.personalLinks as IDataObject[]).map((link) => link.title)).toEqual(['30 Minute Meeting', 'Quick Call']);
		const asOwner = await world().api('GET', '/v4/booking-link', ownerPat());
		expect((asOwner.body.personalLinks as IDataObject[]).map((link) => link.meetingTypeId)).not.toContain(teamId);
		await world().clearRequests();

		const { items } = await world().runNode(
			{ resource: 'bookingLink', operation: 'getPageLink', meetingTypeId: byId(teamId), prefill: { email: 'lead@example.com' } },
			world().pat(world().seed.credentials.memberPat),
		);
		expect(items).toEqual([{ ...expectedLink, workspaceId: 'ws-sales', url: `${BOOKING_BASE_URL}/ada-admin/team-intro?email=lead%40example.com` }]);
	});

	test('Get Many gives one item per link, personal then workspace ones, each with its workspaceId; Limit cuts, Workspace ID filters', async () => {
		const teamId = await world().createMeetingType('Partner Intro');
		await world().control('POST', `/__sandbox/meeting-types/${teamId}/workspace`, { workspaceId: 'ws-partners' });
		const answer = (await world().api('GET', '/v4/booking-link', ownerPat())).body;
		await world().clearRequests();
		const personal = (answer.personalLinks as IDataObject[]).map((link): IDataObject => ({ ...link, workspaceId: null }));
		const inWorkspaces = (answer.workspaceLinks as Array<{ workspaceId: string; meetingTypesLinks: Array<{ links: IDataObject[] }> }>).flatMap(
			({ workspaceId, meetingTypesLinks }) => meetingTypesLinks.flatMap(({ links }) => links.map((link) => ({ ...link, workspaceId }))),
		);
		expect(personal.map((link) => link.title)).toEqual(expect.arrayContaining(['Product Demo', 'Strategy Workshop']));
		expect(inWorkspaces).toContainEqual(expect.objectContaining({ meetingTypeId: teamId, workspaceId: 'ws-partners' }));

		const all = await world().runNode({ resource: 'bookingLink', operation: 'getAll', returnAll: true }, world().pat());
		expect(all.error).toBeUndefined();
		expect(all.items).toEqual([...personal, ...inWorkspaces]);
		const one = await world().runNode({ resource: 'bookingLink', operation: 'getAll', returnAll: false, limit: 1 }, world().pat());
		expect(one.items).toEqual([personal[0]]);
		const filtered = await world().runNode({ resource: 'bookingLink', operation: 'getAll', returnAll: true, filters: { workspaceId: 'ws-partners' } }, world().pat());
		expect(filtered.items).toEqual([...personal, ...inWorkspaces.filter((link) => link.workspaceId === 'ws-partners')]);
		const get = (query: string) => ({ method: 'GET', path: '/v4/booking-link', query, headers: world().patHeaders(), body: null });
		expect((await world().requests()).map(wire)).toEqual([get(''), get(''), get('workspaceId=ws-partners')]);
	});

	test('the API accepts only workspaceId on GET /v4/booking-link, in its own words', async () => {
		const answer = await world().api('GET', `/v4/booking-link?meetingTypeId=${demo.id}&email=a%40example.com`, ownerPat());
		expect(answer).toEqual({
			status: 400,
			body: { statusCode: 400, message: ['property meetingTypeId should not exist', 'property email should not exist'], error: 'Bad Request' },
		});
	});

	test('the meeting type list for the picker is the acting user\'s', async () => {
		const { result } = await world().listSearch('searchMeetingTypes', { resource: 'bookingLink', operation: 'getPageLink' }, world().pat(), 'demo');
		expect(result?.results).toEqual([{ name: 'Product Demo', value: demo.id }]);
	});
});
