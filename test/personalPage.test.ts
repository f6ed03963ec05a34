import { BOOKING_BASE_URL } from '../sandbox/store';
import { useWorld, wire } from './harness/world';

const world = useWorld();

const ownerPat = () => world().seed.credentials.ownerPat;
const memberPat = () => world().seed.credentials.memberPat;

describe('Personal Page', () => {
	test('Get returns the page with its defaults the first time', async () => {
		const member = world().seed.users.member;
		const { items, error } = await world().runNode({ resource: 'personalPage', operation: 'get' }, world().pat(memberPat()));
		expect(error).toBeUndefined();
		expect(items).toEqual([
			{
				userId: member.id,
				url: `${BOOKING_BASE_URL}/max-member`,
				description: '',
				primaryColor: '#1a73e8',
				secondaryColor: '#ffffff',
				useCustomColors: false,
				showAllMeetingTypes: true,
				meetingTypeOrder: [],
				updatedAt: expect.any(String),
			},
		]);
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: '/v4/personal-page/me', query: '', headers: world().patHeaders(memberPat()), body: null },
		]);
	});

	test('Update sends the chosen fields and the page keeps them', async () => {
		const order = (await world().meetingTypes()).map((type) => type.id).reverse();
		const owner = world().seed.users.owner;
		const { items, error } = await world().runNode(
			{
				resource: 'personalPage',
				operation: 'update',
				updateFields: {
					description: 'Book a slot with Ada',
					primaryColor: '#112233',
					secondaryColor: '#FFEEDD',
					useCustomColors: true,
					showAllMeetingTypes: false,
					meetingTypeOrder: order,
				},
			},
			world().apiKey(owner.id),
		);
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{
				method: 'PATCH',
				path: '/v4/personal-page/me',
				query: '',
				headers: world().keyHeaders(owner.id, true),
				body: {
					description: 'Book a slot with Ada',
					primaryColor: '#112233',
					secondaryColor: '#FFEEDD',
					useCustomColors: true,
					showAllMeetingTypes: false,
					meetingTypeOrder: order,
				},
			},
		]);
		const stored = await world().api('GET', '/v4/personal-page/me', ownerPat());
		expect(items).toEqual([stored.body]);
		expect(stored.body).toEqual(
			expect.objectContaining({ url: `${BOOKING_BASE_URL}/ada-admin`, primaryColor: '#112233', useCustomColors: true, meetingTypeOrder: order }),
		);
	});

	test('Update with an empty Description sends it, to clear the text', async () => {
		await world().api('PATCH', '/v4/personal-page/me', memberPat(), { body: { description: 'Old text' } });
		await world().clearRequests();
		const { items } = await world().runNode({ resource: 'personalPage', operation: 'update', updateFields: { description: '' } }, world().pat(memberPat()));
		expect(items).toEqual([expect.objectContaining({ description: '' })]);
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'PATCH', path: '/v4/personal-page/me', query: '', headers: world().patHeaders(memberPat(), true), body: { description: '' } },
		]);
	});

	test('Update refuses a color that is not #rrggbb before sending; the API refuses it in its own words', async () => {
		for (const [fields, message] of [
			[{ primaryColor: 'blue' }, 'Primary Color must be a color in #rrggbb form, such as #1a73e8; "blue" is not'],
			[{ secondaryColor: '={{ "#fff" }}' }, 'Secondary Color must be a color in #rrggbb form, such as #1a73e8; "#fff" is not'],
		] as const) {
			const { error } = await world().runNode({ resource: 'personalPage', operation: 'update', updateFields: fields }, world().pat());
			expect(error?.message).toBe(message);
		}
		expect(await world().requests()).toEqual([]);
		const direct = await world().api('PATCH', '/v4/personal-page/me', world().seed.credentials.ownerPat, { body: { primaryColor: 'blue', secondaryColor: '#fff' } });
		expect(direct.body.message).toEqual(['primaryColor must match /^#[0-9a-fA-F]{6}$/ regular expression', 'secondaryColor must match /^#[0-9a-fA-F]{6}$/ regular expression']);
	});

	test('Update with another user\'s meeting type in the order is refused by the API', async () => {
		const [memberType] = (await world().meetingTypes(memberPat())).map((type) => type.id);
		const { error } = await world().runNode(
			{ resource: 'personalPage', operation: 'update', updateFields: { meetingTypeOrder: [memberType] } },
			world().pat(),
		);
		expect(error?.description).toBe('meetingTypeOrder must contain only your meeting type ids Correct the fields named above and run the node again.');
		expect((await world().requests()).map((r) => `${r.method} ${r.path} ${JSON.stringify(r.body)} ${r.status}`)).toEqual([
			`PATCH /v4/personal-page/me {"meetingTypeOrder":["${memberType}"]} 400`,
		]);
	});
});
