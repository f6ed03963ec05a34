import { conversationOf, conversations, inbound, messagesOf, read } from './harness/messenger';
import { byId, useWorld, wire } from './harness/world';

const world = useWorld();

const PATH = '/v4/messenger/conversations';

describe('Messenger Conversation', () => {
	test('Get Many: the latest message first in offset pages up to the Limit; filters and sort go on the query', async () => {
		const all = await conversations(world());
		expect(all.map((conversation) => conversation.contactName)).toEqual(['Grace Hopper', 'Katherine Johnson', 'Alan Turing', 'Margaret Hamilton']);
		const { items, error } = await world().runNode({ resource: 'conversation', operation: 'getAll', limit: 3 }, world().pat());
		expect(error).toBeUndefined();
		expect(items).toEqual(all.slice(0, 3));
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: PATH, query: 'sortBy=lastMessageAt&sortOrder=desc&limit=3&offset=0', headers: world().patHeaders(), body: null },
		]);
		await world().clearRequests();

		const filtered = await world().runNode(
			{
				resource: 'conversation',
				operation: 'getAll',
				returnAll: true,
				filters: { status: 'open', label: 'lead', search: 'grace', createdAfter: '2020-01-01T00:00:00Z' },
				sortBy: 'createdAt',
				sortOrder: 'asc',
			},
			world().ownerKey(),
		);
		expect(filtered.items).toEqual([all[0]]);
		expect((await world().requests()).map(wire)).toEqual([
			{
				method: 'GET',
				path: PATH,
				query: 'status=open&label=lead&search=grace&createdAfter=2020-01-01T00%3A00%3A00Z&sortBy=createdAt&sortOrder=asc&limit=100&offset=0',
				headers: world().keyHeaders(),
				body: null,
			},
		]);

		const done = await world().runNode({ resource: 'conversation', operation: 'getAll', returnAll: true, filters: { status: 'done' } }, world().pat());
		expect(done.items.map((conversation) => conversation.contactName)).toEqual(['Margaret Hamilton']);
	});

	test('Get reads one conversation (from the list or by ID), with its window; the withheld phone is null and the user ID given', async () => {
		const grace = await conversationOf(world(), 'Grace Hopper');
		const katherine = await conversationOf(world(), 'Katherine Johnson');
		const alan = await conversationOf(world(), 'Alan Turing');
		const { items } = await world().runNode({ resource: 'conversation', operation: 'get', conversationId: { __rl: true, mode: 'list', value: grace.id } }, world().pat());
		expect(items).toEqual([grace]);
		expect(items[0]).toMatchObject({ phone: '+12025550143', windowOpen: true, windowExpiresAt: expect.any(String), status: 'open', labels: ['lead'] });
		const withheld = await world().runNode({ resource: 'conversation', operation: 'get', conversationId: byId(katherine.id) }, world().pat());
		expect(withheld.items[0]).toMatchObject({ phone: null, username: 'katherine_j', userId: expect.stringMatching(/^bsu_[0-9a-f]{16}$/) });
		expect(alan.windowOpen).toBe(false);
		expect(alan).not.toHaveProperty('windowExpiresAt');
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: `${PATH}/${grace.id}`, query: '', headers: world().patHeaders(), body: null },
			{ method: 'GET', path: `${PATH}/${katherine.id}`, query: '', headers: world().patHeaders(), body: null },
		]);
		await world().clearRequests();

		const missing = await world().runNode({ resource: 'conversation', operation: 'get', conversationId: byId('0b7e6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f') }, world().pat());
		expect(missing.error?.message).toBe('Conversation not found (HTTP 404)');
		const outsider = await world().mintPat(world().seed.users.outsider.id);
		const foreign = await world().runNode({ resource: 'conversation', operation: 'get', conversationId: byId(grace.id) }, world().pat(outsider.token));
		expect(foreign.error?.message).toBe('Conversation not found (HTTP 404)');
		const empty = await world().runNode({ resource: 'conversation', operation: 'get', conversationId: byId('={{ $json.id }}') }, world().pat(), { input: [{ id: '' }] });
		expect(empty.error?.message).toBe('Conversation is required');
	});

	test('The conversation list of the locator: searched by the API, named by contact and phone or username', async () => {
		const katherine = await conversationOf(world(), 'Katherine Johnson');
		const found = await world().listSearch('searchConversations', { resource: 'conversation', operation: 'get' }, world().pat(), 'o');
		expect(found.result?.results.map((option) => option.name)).toEqual(['Grace Hopper (+12025550143)', 'Katherine Johnson (@katherine_j)', 'Alan Turing (+441632960001)', 'Margaret Hamilton (+4915112345678), done']);
		await world().clearRequests();
		const one = await world().listSearch('searchConversations', { resource: 'conversation', operation: 'get' }, world().pat(), 'katherine');
		expect(one.result).toEqual({ results: [{ name: 'Katherine Johnson (@katherine_j)', value: katherine.id }] });
		expect((await world().requests()).map((request) => request.query)).toEqual(['limit=100&offset=0&sortBy=lastMessageAt&sortOrder=desc&search=katherine']);

		// An API key with no acting user anywhere lists as the company owner, as every list of the package does.
		const asOwner = await world().listSearch('searchConversations', { resource: 'conversation', operation: 'get' }, world().apiKey(), 'katherine');
		expect(asOwner.result).toEqual(one.result);
		const templates = await world().listSearch('searchTemplates', { resource: 'message', operation: 'send', type: 'template' }, world().apiKey());
		expect(templates.result?.results).toHaveLength(4);
	});

	test('Update sets the status and replaces the labels; an empty Update is refused before sending', async () => {
		const alan = await conversationOf(world(), 'Alan Turing');
		const { items } = await world().runNode(
			{ resource: 'conversation', operation: 'update', conversationId: byId(alan.id), updateFields: { status: 'done', labels: ['customer', 'won'] } },
			world().pat(),
		);
		expect(items).toEqual([{ ...alan, status: 'done', labels: ['customer', 'won'] }]);
		const reopened = await world().runNode({ resource: 'conversation', operation: 'update', conversationId: byId(alan.id), updateFields: { status: 'open' } }, world().pat());
		expect(reopened.items[0]).toMatchObject({ status: 'open', labels: ['customer', 'won'] });
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'PATCH', path: `${PATH}/${alan.id}`, query: '', headers: world().patHeaders(undefined, true), body: { status: 'done', labels: ['customer', 'won'] } },
			{ method: 'PATCH', path: `${PATH}/${alan.id}`, query: '', headers: world().patHeaders(undefined, true), body: { status: 'open' } },
		]);
		await world().clearRequests();

		const nothing = await world().runNode({ resource: 'conversation', operation: 'update', conversationId: byId(alan.id), updateFields: {} }, world().pat());
		expect(nothing.error?.message).toBe('Add at least one field under Update Fields: Labels or Status');
		expect(await world().requests()).toEqual([]);
	});

	test('Get Messages: newest first, up to the Limit; Return All follows the cursor (before) page by page', async () => {
		const texts = Array.from({ length: 102 }, (_, index) => `Message ${index + 1}`);
		let conversationId = '';
		for (const text of texts) conversationId = (await inbound(world(), '+4930123456701', text, 'Paging Paul')).conversation.id;
		const all = await messagesOf(world(), conversationId);
		const rest = await read(world(), `${PATH}/${conversationId}/messages?limit=100&before=${all[99].id as string}`);
		const every = [...all, ...(rest.messages as object[])];
		expect(every.map((message) => (message as { text: string }).text)).toEqual([...texts].reverse());

		const { items } = await world().runNode({ resource: 'conversation', operation: 'getMessages', conversationId: byId(conversationId), limit: 2 }, world().pat());
		expect(items).toEqual(every.slice(0, 2));
		expect(items[0]).toEqual({ id: expect.any(String), conversationId, direction: 'inbound', type: 'text', text: 'Message 102', template: null, status: 'delivered', createdAt: expect.any(String) });
		await world().clearRequests();

		const whole = await world().runNode({ resource: 'conversation', operation: 'getMessages', conversationId: byId(conversationId), returnAll: true }, world().pat());
		expect(whole.items).toEqual(every);
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: `${PATH}/${conversationId}/messages`, query: 'limit=100', headers: world().patHeaders(), body: null },
			{ method: 'GET', path: `${PATH}/${conversationId}/messages`, query: `limit=100&before=${all[99].id as string}`, headers: world().patHeaders(), body: null },
		]);
	});
});

/**
 * A conversation's ID has no known form (the specification: "All identifiers are strings"; the conversation rows of the
 * reference are designed): By ID takes any non-empty text, sends it as it is, and the API answers for it.
 */
describe('Conversation IDs of any form', () => {
	const fault = async (method: string, path: string, status: number, body: unknown) => await world().control('POST', '/__sandbox/faults', { method, path, status, body });

	test.each(['conv_8f2k1', '12345'])('%s is sent as it is (typed in and from an expression); the API answers for it', async (id) => {
		const typed = await world().runNode({ resource: 'conversation', operation: 'get', conversationId: byId(id) }, world().pat());
		expect(typed.error?.message).toBe('Conversation not found (HTTP 404)');
		const fromExpression = await world().runNode(
			{ resource: 'conversation', operation: 'update', conversationId: byId('={{ $json.id }}'), updateFields: { status: 'done' } },
			world().pat(),
			{ input: [{ id }] },
		);
		expect(fromExpression.error?.message).toBe('Conversation not found (HTTP 404)');
		const messages = await world().runNode({ resource: 'conversation', operation: 'getMessages', conversationId: byId(id), limit: 2 }, world().pat());
		expect(messages.error?.message).toBe('Conversation not found (HTTP 404)');
		const reply = await world().runNode({ resource: 'message', operation: 'send', sendTo: 'conversation', conversationId: byId(id), type: 'text', text: 'Hi' }, world().pat());
		expect(reply.error?.message).toBe('Conversation not found (HTTP 404)');
		expect((await world().requests()).map((request) => [request.method, request.path, request.query, request.status])).toEqual([
			['GET', `${PATH}/${id}`, '', 404],
			['PATCH', `${PATH}/${id}`, '', 404],
			['GET', `${PATH}/${id}/messages`, 'limit=2', 404],
			// Send reads the conversation's window first.
			['GET', `${PATH}/${id}`, '', 404],
		]);
	});

	test('a conversation the API names conv_8f2k1 is read, updated, listed and replied to', async () => {
		const grace = await conversationOf(world(), 'Grace Hopper');
		const id = 'conv_8f2k1';
		const conversation = { ...grace, id };
		const message = { id: 'msg_1', conversationId: id, direction: 'outbound', type: 'text', text: 'Hi', template: null, status: 'queued', createdAt: '2026-11-28T10:00:00.000Z' };
		await fault('GET', `${PATH}/${id}`, 200, conversation);
		await fault('PATCH', `${PATH}/${id}`, 200, { ...conversation, status: 'done' });
		await fault('GET', `${PATH}/${id}/messages`, 200, { messages: [message], nextCursor: null });
		await fault('GET', `${PATH}/${id}`, 200, conversation);
		await fault('POST', '/v4/messenger/messages', 201, message);
		const got = await world().runNode({ resource: 'conversation', operation: 'get', conversationId: byId(id) }, world().pat());
		expect(got.items).toEqual([conversation]);
		const updated = await world().runNode({ resource: 'conversation', operation: 'update', conversationId: byId(id), updateFields: { status: 'done' } }, world().pat());
		expect(updated.items).toEqual([{ ...conversation, status: 'done' }]);
		const listed = await world().runNode({ resource: 'conversation', operation: 'getMessages', conversationId: byId(id), returnAll: true }, world().pat());
		expect(listed.items).toEqual([message]);
		const sent = await world().runNode({ resource: 'message', operation: 'send', sendTo: 'conversation', conversationId: byId(id), type: 'text', text: 'Hi' }, world().pat());
		expect(sent.items).toEqual([message]);
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: `${PATH}/${id}`, query: '', headers: world().patHeaders(), body: null },
			{ method: 'PATCH', path: `${PATH}/${id}`, query: '', headers: world().patHeaders(undefined, true), body: { status: 'done' } },
			{ method: 'GET', path: `${PATH}/${id}/messages`, query: 'limit=100', headers: world().patHeaders(), body: null },
			{ method: 'GET', path: `${PATH}/${id}`, query: '', headers: world().patHeaders(), body: null },
			{ method: 'POST', path: '/v4/messenger/messages', query: '', headers: world().patHeaders(undefined, true), body: { conversationId: id, type: 'text', text: 'Hi' } },
		]);
	});

	test('an empty Conversation ID is refused before sending, naming the field (from an expression by the node, typed in by n8n itself)', async () => {
		for (const [operation, extra] of [['get', {}], ['getMessages', { limit: 2 }], ['update', { updateFields: { status: 'done' } }]] as const) {
			for (const value of ['={{ $json.id }}', '={{ "   " }}']) {
				const { error } = await world().runNode({ resource: 'conversation', operation, conversationId: byId(value), ...extra }, world().pat(), { input: [{ id: '' }] });
				expect({ operation, value, message: error?.message, description: error?.description }).toEqual({
					operation,
					value,
					message: 'Conversation is required',
					description: 'Item 1: fix the value of "Conversation" and run the node again.',
				});
			}
		}
		const reply = await world().runNode({ resource: 'message', operation: 'send', sendTo: 'conversation', conversationId: byId('={{ "" }}'), type: 'text', text: 'Hi' }, world().pat());
		expect(reply.error?.message).toBe('Conversation is required');
		expect(await world().requests()).toEqual([]);
		await expect(world().runNode({ resource: 'conversation', operation: 'get', conversationId: byId('') }, world().pat())).rejects.toThrow(/node has issues/);
		expect(await world().requests()).toEqual([]);
	});
});
