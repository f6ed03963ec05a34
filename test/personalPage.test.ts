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
				headerImage: null,
				onlineProfiles: {},
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
		expect(error?.description).toBe('The API rejected the request as invalid. The API says: meetingTypeOrder must contain only your meeting type ids. Correct the fields the API names and run the node again.');
		expect((await world().requests()).map((r) => `${r.method} ${r.path} ${JSON.stringify(r.body)} ${r.status}`)).toEqual([
			`PATCH /v4/personal-page/me {"meetingTypeOrder":["${memberType}"]} 400`,
		]);
	});

	test('Update sends a header image and the online profiles as an object; the page keeps them, a new set replaces the old', async () => {
		const onlineProfiles = {
			profiles: [
				{ name: 'linkedin', url: 'https://www.linkedin.com/in/max-member' },
				{ name: 'website', url: 'https://max.example.com' },
			],
		};
		const { items, error } = await world().runNode(
			{ resource: 'personalPage', operation: 'update', updateFields: { headerImage: 'https://cdn.example.com/header.png', onlineProfiles } },
			world().pat(memberPat()),
		);
		expect(error).toBeUndefined();
		const body = {
			headerImage: 'https://cdn.example.com/header.png',
			onlineProfiles: { linkedin: 'https://www.linkedin.com/in/max-member', website: 'https://max.example.com' },
		};
		expect(items).toEqual([expect.objectContaining(body)]);
		const replaced = await world().runNode(
			{ resource: 'personalPage', operation: 'update', updateFields: { onlineProfiles: { profiles: [{ name: 'twitter', url: 'https://x.com/max' }] } } },
			world().pat(memberPat()),
		);
		expect(replaced.items).toEqual([expect.objectContaining({ headerImage: body.headerImage, onlineProfiles: { twitter: 'https://x.com/max' } })]);
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'PATCH', path: '/v4/personal-page/me', query: '', headers: world().patHeaders(memberPat(), true), body },
			{ method: 'PATCH', path: '/v4/personal-page/me', query: '', headers: world().patHeaders(memberPat(), true), body: { onlineProfiles: { twitter: 'https://x.com/max' } } },
		]);
		const stored = await world().api('GET', '/v4/personal-page/me', memberPat());
		expect(stored.body).toEqual(replaced.items[0]);
	});

	test('Update with Remove Header Image sends headerImage null, which removes it; Online Profiles without a profile removes them all', async () => {
		await world().api('PATCH', '/v4/personal-page/me', memberPat(), { body: { headerImage: 'https://cdn.example.com/old.png', onlineProfiles: { linkedin: 'https://www.linkedin.com/in/max' } } });
		await world().clearRequests();
		const { items } = await world().runNode(
			{ resource: 'personalPage', operation: 'update', updateFields: { removeHeaderImage: true, onlineProfiles: {} } },
			world().pat(memberPat()),
		);
		expect(items).toEqual([expect.objectContaining({ headerImage: null, onlineProfiles: {} })]);
		expect((await world().requests()).map((r) => r.body)).toEqual([{ onlineProfiles: {}, headerImage: null }]);
		const off = await world().runNode({ resource: 'personalPage', operation: 'update', updateFields: { removeHeaderImage: false, description: 'x' } }, world().pat(memberPat()));
		expect(off.error).toBeUndefined();
		expect((await world().requests()).map((r) => r.body)[1]).toEqual({ description: 'x' });
	});

	test('Update refuses, before sending, a header image together with Remove Header Image, and addresses that are no URL', async () => {
		for (const [updateFields, message] of [
			[
				{ headerImage: 'https://cdn.example.com/a.png', removeHeaderImage: true },
				'Header Image and Remove Header Image contradict each other: remove the Header Image text or turn Remove Header Image off',
			],
			[{ headerImage: 'cdn.example.com/a.png' }, 'Header Image must be a web address starting with https:// or http://'],
			[{ onlineProfiles: { profiles: [{ name: 'linkedin', url: 'linkedin.com/in/ada' }] } }, 'Online Profiles entry "linkedin" must be a web address starting with https:// or http://'],
			[{ onlineProfiles: { profiles: [{ name: 'linkedin', url: '' }] } }, 'Online Profiles entry "linkedin" needs a URL'],
			[{ onlineProfiles: { profiles: [{ name: ' ', url: 'https://a.example' }] } }, 'Online Profiles entry 1 needs a name, such as linkedin'],
			[
				{ onlineProfiles: { profiles: [{ name: 'website', url: 'https://a.example' }, { name: 'website', url: 'https://b.example' }] } },
				'Online Profiles has "website" twice: give each profile once',
			],
		] as const) {
			const { error } = await world().runNode({ resource: 'personalPage', operation: 'update', updateFields }, world().pat());
			expect(error?.message).toBe(message);
		}
		expect(await world().requests()).toEqual([]);
	});

	test('the API refuses a header image or profile that is not a URL, in its own words', async () => {
		const answer = await world().api('PATCH', '/v4/personal-page/me', ownerPat(), {
			body: { headerImage: 'header.png', onlineProfiles: { linkedin: 'https://www.linkedin.com/in/ada', twitter: 'ada' } },
		});
		expect(answer).toEqual({
			status: 400,
			body: { statusCode: 400, message: ['headerImage must be a URL address', 'onlineProfiles.twitter must be a URL address'], error: 'Bad Request' },
		});
		expect((await world().api('GET', '/v4/personal-page/me', ownerPat())).body).toEqual(expect.objectContaining({ headerImage: null }));
	});
});
