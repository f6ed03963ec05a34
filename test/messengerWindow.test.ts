import { inbound, messagesOf } from './harness/messenger';
import { byId, useWorld, wire } from './harness/world';

const world = useWorld();

const MESSAGES = '/v4/messenger/messages';
const TEMPLATES = '/v4/messenger/templates';
const API_WINDOW_CLOSED = 'The 24-hour customer-service window is closed; only template messages are accepted';

const PHONE = '+4917612345001';
const RESTART = { name: 'conversation_restart', language: 'en', parameters: [] };

const text = (recipient: object, words: string, windowClosed?: string) => ({
	resource: 'message',
	operation: 'send',
	...recipient,
	type: 'text',
	text: words,
	...(windowClosed && {
		windowClosed,
		template: { __rl: true, mode: 'list', value: 'conversation_restart:en' },
		templateParameters: {},
	}),
});

describe('Messenger: the 24-hour customer-service window', () => {
	test('An inbound message opens the window for 24 hours; then text is refused with a clear error, or the template goes out once instead', async () => {
		const { conversation } = await inbound(world(), PHONE, 'Hi, I saw your ad', 'Wanda Window');
		expect(conversation).toMatchObject({ windowOpen: true, windowExpiresAt: expect.any(String) });
		const byConversation = { sendTo: 'conversation', conversationId: byId(conversation.id) };
		const byPhone = { sendTo: 'phone', phone: PHONE };
		const json = world().patHeaders(undefined, true);

		// Window open: text works.
		const open = await world().runNode(text(byConversation, 'Thanks for writing!'), world().pat());
		expect(open.error).toBeUndefined();
		expect(open.items[0]).toMatchObject({ type: 'text', text: 'Thanks for writing!', status: 'queued' });

		await world().control('POST', '/__sandbox/clock/advance', { seconds: 24 * 3600 });
		await world().clearRequests();

		// Window closed, known from the conversation: refused before sending.
		const refused = await world().runNode(text(byConversation, 'Still there?'), world().pat());
		expect(refused.error?.message).toBe('The 24-hour customer-service window of this conversation is closed: only an approved template can be sent');
		expect(refused.error?.description).toBe(
			'Item 1: The contact last wrote more than 24 hours ago, or never. Send an approved template instead: set Type to Template, or set If the Window Is Closed to Send a Template Instead and pick the template. The window opens again for 24 hours when the contact writes.',
		);
		expect((await world().requests()).map(wire)).toEqual([{ method: 'GET', path: `/v4/messenger/conversations/${conversation.id}`, query: '', headers: world().patHeaders(), body: null }]);
		await world().clearRequests();

		// By phone the node does not know the window: the API's 400, with its fix.
		const byApi = await world().runNode(text(byPhone, 'Still there?'), world().pat());
		expect(byApi.error?.message).toBe(`${API_WINDOW_CLOSED} (HTTP 400)`);
		expect(byApi.error?.description).toBe(
			`The API rejected the request as invalid. The API says: ${API_WINDOW_CLOSED}. The contact last wrote more than 24 hours ago, or never: only an approved template can be sent now. Set Type to Template and pick an approved template (Template → Get Many lists them), or set If the Window Is Closed to Send a Template Instead. The window opens again for 24 hours when the contact writes.`,
		);
		expect((await world().requests()).map(wire)).toEqual([{ method: 'POST', path: MESSAGES, query: '', headers: json, body: { phone: PHONE, type: 'text', text: 'Still there?' } }]);
		await world().clearRequests();

		// Send a Template Instead, by conversation: the template, once, and no text.
		const viaConversation = await world().runNode(text(byConversation, 'Still there?', 'sendTemplate'), world().pat());
		expect(viaConversation.error).toBeUndefined();
		expect(viaConversation.items).toEqual([
			{
				id: expect.any(String),
				conversationId: conversation.id,
				direction: 'outbound',
				type: 'template',
				text: 'Hello! We would like to continue our conversation. Reply to this message to chat with us.',
				template: RESTART,
				status: 'queued',
				createdAt: expect.any(String),
			},
		]);
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: TEMPLATES, query: '', headers: world().patHeaders(), body: null },
			{ method: 'GET', path: `/v4/messenger/conversations/${conversation.id}`, query: '', headers: world().patHeaders(), body: null },
			{ method: 'POST', path: MESSAGES, query: '', headers: json, body: { conversationId: conversation.id, type: 'template', template: RESTART } },
		]);
		await world().clearRequests();

		// Send a Template Instead, by phone: the API refuses the text, the template goes out once.
		const viaPhone = await world().runNode(text(byPhone, 'Still there?', 'sendTemplate'), world().pat());
		expect(viaPhone.error).toBeUndefined();
		expect(viaPhone.items).toEqual([expect.objectContaining({ conversationId: conversation.id, type: 'template', template: RESTART })]);
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: TEMPLATES, query: '', headers: world().patHeaders(), body: null },
			{ method: 'POST', path: MESSAGES, query: '', headers: json, body: { phone: PHONE, type: 'text', text: 'Still there?' } },
			{ method: 'POST', path: MESSAGES, query: '', headers: json, body: { phone: PHONE, type: 'template', template: RESTART } },
		]);
		const outbound = (await messagesOf(world(), conversation.id)).filter((message) => message.direction === 'outbound');
		expect(outbound.map((message) => message.type)).toEqual(['template', 'template', 'text']);

		// The contact answers: the window is open again and text works.
		await inbound(world(), PHONE, 'Yes, still interested');
		await world().clearRequests();
		const again = await world().runNode(text(byPhone, 'Great, here is the link', 'sendTemplate'), world().pat());
		expect(again.items[0]).toMatchObject({ type: 'text', text: 'Great, here is the link' });
		expect((await world().requests()).filter((request) => request.method === 'POST').map((request) => request.body)).toEqual([
			{ phone: PHONE, type: 'text', text: 'Great, here is the link' },
		]);
	});

	test('A window just under 24 hours old is still open; the sandbox clock closes it at 24 hours', async () => {
		const { conversation } = await inbound(world(), '+4917612345002', 'Hello');
		await world().control('POST', '/__sandbox/clock/advance', { seconds: 24 * 3600 - 60 });
		const before = await world().api('GET', `/v4/messenger/conversations/${conversation.id}`, world().seed.credentials.ownerPat);
		expect(before.body).toMatchObject({ windowOpen: true, windowExpiresAt: conversation.windowExpiresAt });
		await world().control('POST', '/__sandbox/clock/advance', { seconds: 60 });
		const after = await world().api('GET', `/v4/messenger/conversations/${conversation.id}`, world().seed.credentials.ownerPat);
		expect(after.body.windowOpen).toBe(false);
		expect(after.body).not.toHaveProperty('windowExpiresAt');
	});
});
