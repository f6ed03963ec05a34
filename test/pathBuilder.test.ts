import { freshTenant } from './harness/crm';
import { byId, useWorld } from './harness/world';

/**
 * Every path ID of every node goes through the one path builder (transport/request.ts): an ID that is empty or only
 * dots would call another address once URLs are normalised (`/v4/meeting-type/..` is `/v4/`), so it is refused before
 * anything is sent. Definitions name the field (the executor); IDs that hooks and triggers put into a path themselves
 * are refused by the builder, naming the placeholder.
 */

const world = useWorld();

const ADVICE = 'An ID that is empty or only dots would call another address than the one meant. Check the ID this request took from its input or from an earlier answer.';

describe('the path builder', () => {
	test('a definition\'s path ID of dots is refused naming the field (Availability Exception Delete, Company Get by Domain)', async () => {
		const tenant = await freshTenant(world());
		await world().clearRequests();
		const credential = world().pat(tenant.token);
		const exception = await world().runNode({ resource: 'availabilityException', operation: 'delete', exceptionId: '..' }, credential);
		expect(exception.error?.message).toBe('Exception ID cannot be "..": enter the ID of an existing item');
		const company = await world().runNode({ resource: 'company', operation: 'getByDomain', domain: '={{ "." }}' }, credential);
		expect(company.error?.message).toBe('Domain cannot be ".": enter the ID of an existing item');
		expect(await world().requests()).toEqual([]);
	});

	test('an ID a hook takes from an answer is refused by the builder: Contact Create or Update writing to the contact its search found', async () => {
		const tenant = await freshTenant(world());
		const found = { item: { id: '..', email: 'dots@example.com', firstName: 'Old' }, appointments: [], nextAppointmentIso: null };
		await world().control('POST', '/__sandbox/faults', { method: 'GET', path: '/crm', status: 200, body: { result: [found], page: 1, limit: 100, total: 1, totalPages: 1 } });
		await world().clearRequests();
		const { error } = await world().runNode(
			{ resource: 'contact', operation: 'upsert', contactFields: { mappingMode: 'defineBelow', value: { email: 'dots@example.com', firstName: 'New' } } },
			world().pat(tenant.token),
		);
		expect(error).toMatchObject({ message: 'The id in the path /crm/{id} cannot be ".."', description: ADVICE });
		expect((await world().requests()).map((request) => `${request.method} ${request.path}`)).toEqual(['GET /v4/data-field', 'GET /crm']);
	});

	test('a trigger filter of dots is refused by the builder (the first activation checks the filtered record) before anything is read', async () => {
		const tenant = await freshTenant(world());
		await world().clearRequests();
		const outcome = await world().poll({ event: 'newBooking', bookingFilters: { meetingType: byId('..') } }, world().pat(tenant.token));
		expect(outcome.error?.message).toBe('The id in the path /v4/meeting-type/{id} cannot be ".."');
		expect(await world().requests()).toEqual([]);
		expect(outcome.staticData).toEqual({});
	});
});

/**
 * Most IDs take any non-empty text (docs/checks-and-errors.md, "Which ID fields check which form, and why"): whatever
 * the text, the builder URL-encodes it into its own path segment, so it never adds a segment, a query or a fragment,
 * and never climbs out of the path (a literal `%` is encoded too, so no encoded dot segment can arise).
 */
describe('IDs of any form stay inside their path segment', () => {
	test.each([
		['conv_8f2k1', 'conv_8f2k1'],
		['12345', '12345'],
		['../x', '..%2Fx'],
		['a/b', 'a%2Fb'],
		['?q', '%3Fq'],
		['#top', '%23top'],
		['%2F', '%252F'],
		['%2e%2e', '%252e%252e'],
		['.x', '.x'],
		['two words', 'two%20words'],
		['Grüße', 'Gr%C3%BC%C3%9Fe'],
		['会話', '%E4%BC%9A%E8%A9%B1'],
	])('%s, typed in and from an expression, is the one segment %s', async (id, segment) => {
		for (const value of [id, `={{ ${JSON.stringify(id)} }}`]) {
			const { error } = await world().runNode({ resource: 'conversation', operation: 'get', conversationId: byId(value) }, world().pat());
			expect(error?.message).toBe('Conversation not found (HTTP 404)');
		}
		const expected = ['GET', `/v4/messenger/conversations/${segment}`, ''];
		expect((await world().requests()).map((request) => [request.method, request.path, request.query])).toEqual([expected, expected]);
	});

	test('in a path with more segments after the ID (a deal\'s notes, a conversation\'s messages) too', async () => {
		await world().runNode({ resource: 'deal', operation: 'getNotes', dealId: byId('../../crm') }, world().pat());
		await world().runNode({ resource: 'conversation', operation: 'getMessages', conversationId: byId('a/b?limit=1'), limit: 2 }, world().pat());
		expect((await world().requests()).map((request) => [request.path, request.query, request.status])).toEqual([
			['/crm/deals/..%2F..%2Fcrm/notes', '', 404],
			['/v4/messenger/conversations/a%2Fb%3Flimit%3D1/messages', 'limit=2', 404],
		]);
	});
});
