import type { IDataObject } from 'n8n-workflow';

import { BOOKING_BASE_URL } from '../sandbox/store';
import { byId, useWorld, wire } from './harness/world';

const world = useWorld();

const ownerPat = () => world().seed.credentials.ownerPat;
const memberPat = () => world().seed.credentials.memberPat;

/** The member's seeded "Quick Call" and the owner's "Product Demo". */
let quick: IDataObject & { id: string };
let demo: IDataObject & { id: string };

beforeAll(async () => {
	quick = await world().meetingType('Quick Call', memberPat());
	demo = await world().meetingType('Product Demo');
});

async function createHandoff(meetingTypeId: string, token = ownerPat()): Promise<string> {
	const created = await world().api('POST', '/v4/handoff', token, { body: { email: 'lead@example.com', meetingTypeId } });
	await world().clearRequests();
	return created.body.id as string;
}

describe('Handoff', () => {
	test('Create hands the lead to the meeting type\'s host with a prefilled booking page link', async () => {
		const { owner, member } = world().seed.users;
		const { items, error } = await world().runNode(
			{
				resource: 'handoff',
				operation: 'create',
				email: 'lead+vip@example.com',
				assignVia: 'meetingType',
				meetingTypeId: byId(quick.id),
				queueId: 'left-over-from-before',
				additionalFields: { firstname: 'Lena', lastname: 'Lead', phone: '+4915112345678', note: 'Asked about pricing' },
			},
			world().apiKey(owner.id),
		);
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{
				method: 'POST',
				path: '/v4/handoff',
				query: '',
				headers: world().keyHeaders(owner.id, true),
				body: { email: 'lead+vip@example.com', firstname: 'Lena', lastname: 'Lead', phone: '+4915112345678', note: 'Asked about pricing', meetingTypeId: quick.id },
			},
		]);
		expect(items).toEqual([
			{
				id: expect.any(String),
				url: `${BOOKING_BASE_URL}/max-member/quick-call?email=lead%2Bvip%40example.com&firstname=Lena&lastname=Lead&phone=%2B4915112345678`,
				assignedUserId: member.id,
				status: 'pending',
				createdAt: expect.any(String),
			},
		]);
		const links = await world().api('GET', '/v4/booking-link', memberPat());
		const quickLink = (links.body.personalLinks as Array<{ meetingTypeId: string; link: string }>).find((link) => link.meetingTypeId === quick.id);
		expect(items[0].url).toBe(`${quickLink?.link}?email=lead%2Bvip%40example.com&firstname=Lena&lastname=Lead&phone=%2B4915112345678`);
	});

	test('Get returns the handoff; the assigned host sees it, another member does not', async () => {
		const forMember = await createHandoff(quick.id);
		const ownersOnly = await createHandoff(demo.id);
		const { items, error } = await world().runNode({ resource: 'handoff', operation: 'get', handoffId: forMember }, world().pat(memberPat()));
		expect(error).toBeUndefined();
		expect(items).toEqual([
			expect.objectContaining({
				id: forMember,
				userId: world().seed.users.owner.id,
				assignedUserId: world().seed.users.member.id,
				status: 'pending',
				email: 'lead@example.com',
				firstname: null,
				meetingTypeId: quick.id,
				queueId: null,
			}),
		]);
		expect(Date.parse(items[0].expiresAt as string) - Date.parse(items[0].createdAt as string)).toBe(7 * 86400 * 1000);
		const hidden = await world().runNode({ resource: 'handoff', operation: 'get', handoffId: ownersOnly }, world().pat(memberPat()));
		expect(hidden.error?.httpCode).toBe('404');
		expect(hidden.error?.description).toContain('Handoff not found');
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: `/v4/handoff/${forMember}`, query: '', headers: { authorization: `Bearer ${memberPat()}` }, body: null },
			{ method: 'GET', path: `/v4/handoff/${ownersOnly}`, query: '', headers: { authorization: `Bearer ${memberPat()}` }, body: null },
		]);
	});

	test('Create via a queue sends queueId only and keeps the API\'s 404 words', async () => {
		const queueId = '0b7e6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f';
		const { error } = await world().runNode(
			{ resource: 'handoff', operation: 'create', email: 'lead@example.com', assignVia: 'queue', queueId, meetingTypeId: byId('left-over') },
			world().pat(),
		);
		expect(error?.message).toBe('The API could not find the requested resource (HTTP 404)');
		expect(error?.description).toBe('Queue not found Check the ID: the resource may have been deleted, or it belongs to a user the credential cannot see.');
		expect((await world().requests()).map((r) => r.body)).toEqual([{ email: 'lead@example.com', queueId }]);
	});

	test('Create refuses a bad email, a bad phone, or no meeting type before sending', async () => {
		const base = { resource: 'handoff', operation: 'create', assignVia: 'meetingType', meetingTypeId: byId(demo.id) };
		const email = await world().runNode({ ...base, email: 'lead.example.com' }, world().pat());
		expect(email.error?.message).toBe('Email must be an email address such as jane@example.com; "lead.example.com" is not');
		const noEmail = await world().runNode({ ...base, email: '={{ $json.email ?? "" }}' }, world().pat());
		expect(noEmail.error?.message).toBe('Email is required');
		const phone = await world().runNode({ ...base, email: 'lead@example.com', additionalFields: { phone: '+49 151 1234' } }, world().pat());
		expect(phone.error?.message).toBe('Phone must be a phone number in E.164 form: + and country code, digits only, such as +4915112345678');
		const noType = await world().runNode({ ...base, email: 'lead@example.com', meetingTypeId: byId('={{ "" }}') }, world().pat());
		expect(noType.error?.message).toBe('Meeting Type is required');
		expect(await world().requests()).toEqual([]);
	});

	test('the API wants a meeting type or a queue in its own words', async () => {
		const answer = await world().api('POST', '/v4/handoff', ownerPat(), { body: { email: 'lead@example.com' } });
		expect(answer).toEqual({ status: 400, body: { statusCode: 400, message: 'Expected meetingTypeId or queueId', error: 'Bad Request' } });
	});

	// Moves the sandbox clock 7 days on: keep it last.
	test('a pending handoff reads as expired once the clock passes its expiry', async () => {
		const id = await createHandoff(demo.id);
		await world().control('POST', '/__sandbox/clock/advance', { seconds: 7 * 86400 - 60 });
		const before = await world().runNode({ resource: 'handoff', operation: 'get', handoffId: id }, world().pat());
		expect(before.items).toEqual([expect.objectContaining({ id, status: 'pending' })]);
		await world().control('POST', '/__sandbox/clock/advance', { seconds: 61 });
		const after = await world().runNode({ resource: 'handoff', operation: 'get', handoffId: id }, world().pat());
		expect(after.items).toEqual([expect.objectContaining({ id, status: 'expired' })]);
	});
});
