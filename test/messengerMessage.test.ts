import type { IDataObject } from 'n8n-workflow';

import { conversationOf, conversations, messagesOf } from './harness/messenger';
import { byId, useWorld, wire } from './harness/world';

const world = useWorld();

const MESSAGES = '/v4/messenger/messages';
const TEMPLATES = '/v4/messenger/templates';
const conversationPath = (id: string) => `/v4/messenger/conversations/${id}`;

const send = (parameters: object) => ({ resource: 'message', operation: 'send', ...parameters });
const template = (value: string, ...parameters: string[]) => ({
	template: { __rl: true, mode: 'list', value },
	templateParameters: { parameter: parameters.map((value) => ({ value })) },
});

/** A message as the API answers a send: queued at first. */
const sent = (conversationId: string, fields: object) => ({ id: expect.any(String), conversationId, direction: 'outbound', status: 'queued', createdAt: expect.any(String), ...fields });

describe('Messenger Message → Send', () => {
	test('Text in a conversation whose window is open: the window is read once per conversation per run, then one POST per item', async () => {
		const grace = await conversationOf(world(), 'Grace Hopper');
		const { items, paired, error } = await world().runNode(
			send({ sendTo: 'conversation', conversationId: byId(grace.id), type: 'text', text: '={{ $json.text }}' }),
			world().pat(),
			{ input: [{ text: 'Sure! Tuesday at 10?' }, { text: 'Or Wednesday at 14?' }] },
		);
		expect(error).toBeUndefined();
		expect(items).toEqual([
			sent(grace.id, { type: 'text', text: 'Sure! Tuesday at 10?', template: null }),
			sent(grace.id, { type: 'text', text: 'Or Wednesday at 14?', template: null }),
		]);
		expect(paired).toEqual([0, 1]);
		const log = (await world().requests()).map(wire);
		expect(log[0]).toEqual({ method: 'GET', path: conversationPath(grace.id), query: '', headers: world().patHeaders(), body: null });
		const byText = (a: { body: unknown }, b: { body: unknown }) => JSON.stringify(a.body).localeCompare(JSON.stringify(b.body));
		expect(log.slice(1).sort(byText)).toEqual([
			{ method: 'POST', path: MESSAGES, query: '', headers: world().patHeaders(undefined, true), body: { conversationId: grace.id, type: 'text', text: 'Sure! Tuesday at 10?' } },
			{ method: 'POST', path: MESSAGES, query: '', headers: world().patHeaders(undefined, true), body: { conversationId: grace.id, type: 'text', text: 'Or Wednesday at 14?' } },
		].sort(byText));
		expect(log).toHaveLength(3);
	});

	test('By user ID (the contact withheld the phone) the text goes to the conversation of that user ID; its status moves queued → sent → delivered → read', async () => {
		const katherine = await conversationOf(world(), 'Katherine Johnson');
		const { items } = await world().runNode(send({ sendTo: 'userId', userId: katherine.userId, type: 'text', text: 'Yes, we do!' }), world().ownerKey());
		expect(items).toEqual([sent(katherine.id, { type: 'text', text: 'Yes, we do!', template: null })]);
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'POST', path: MESSAGES, query: '', headers: world().keyHeaders(undefined, true), body: { userId: katherine.userId, type: 'text', text: 'Yes, we do!' } },
		]);
		const statusAfter = async (seconds: number) => {
			await world().control('POST', '/__sandbox/clock/advance', { seconds });
			return (await messagesOf(world(), katherine.id))[0].status;
		};
		expect(await statusAfter(0)).toBe('queued');
		expect(await statusAfter(2)).toBe('sent');
		expect(await statusAfter(8)).toBe('delivered');
		expect(await statusAfter(50)).toBe('read');
	});

	test('A template by phone to a new number: checked against the templates (read once per run), then sent; it opens a conversation with the window closed', async () => {
		const phones = ['+4915100000001', '+4915100000002'];
		const { items, error } = await world().runNode(
			send({ sendTo: 'phone', phone: '={{ $json.phone }}', type: 'template', ...template('lead_welcome:en', '={{ $json.name }}') }),
			world().pat(),
			{ input: [{ phone: phones[0], name: 'Nora' }, { phone: phones[1], name: 'Otto' }] },
		);
		expect(error).toBeUndefined();
		const rendered = (name: string) => `Hi ${name}, thanks for your interest! Reply to this message to book a call with us.`;
		expect(items).toEqual([
			sent(expect.any(String) as unknown as string, { type: 'template', text: rendered('Nora'), template: { name: 'lead_welcome', language: 'en', parameters: ['Nora'] } }),
			sent(expect.any(String) as unknown as string, { type: 'template', text: rendered('Otto'), template: { name: 'lead_welcome', language: 'en', parameters: ['Otto'] } }),
		]);
		const log = (await world().requests()).map(wire);
		expect(log[0]).toEqual({ method: 'GET', path: TEMPLATES, query: '', headers: world().patHeaders(), body: null });
		expect(log.slice(1).map((request) => request.body).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual([
			{ phone: phones[0], type: 'template', template: { name: 'lead_welcome', language: 'en', parameters: ['Nora'] } },
			{ phone: phones[1], type: 'template', template: { name: 'lead_welcome', language: 'en', parameters: ['Otto'] } },
		]);
		expect(log).toHaveLength(3);
		const opened = (await conversations(world(), `&search=${encodeURIComponent(phones[0])}`))[0];
		expect(opened).toMatchObject({ id: items[0].conversationId, phone: phones[0], status: 'open', windowOpen: false, lastMessageDirection: 'outbound' });
	});

	test('Bad input is refused before sending: a phone not in E.164 form, an empty or missing template parameter, a template that is not approved', async () => {
		const refused = async (parameters: object, input?: IDataObject[]) => {
			const { error } = await world().runNode(send(parameters), world().pat(), input && { input });
			return error?.message;
		};
		expect(await refused({ sendTo: 'phone', phone: '={{ $json.phone }}', type: 'text', text: 'Hi' }, [{ phone: '+49 151 1234 5678' }])).toBe(
			'Phone Number must be a phone number in E.164 form: + and country code, digits only, such as +4915112345678',
		);
		expect(await refused({ sendTo: 'phone', phone: '+4915100000003', type: 'template', ...template('appointment_reminder:en', 'Nora') })).toBe(
			'Template Parameters must hold 2 values for the template "appointment_reminder" (en); 1 given',
		);
		expect(await refused({ sendTo: 'phone', phone: '+4915100000003', type: 'template', ...template('lead_welcome:en', '={{ $json.name }}') }, [{ name: '' }])).toBe(
			'Template Parameters: value 1 is empty; every parameter of a template needs a text',
		);
		expect(await refused({ sendTo: 'phone', phone: '+4915100000003', type: 'template', ...template('follow_up:en', 'Nora') })).toBe(
			'The template "follow_up" (en) cannot be sent: its status is pending, not approved',
		);
		expect(await refused({ sendTo: 'phone', phone: '+4915100000003', type: 'template', ...template('lead_welcome:fr', 'Nora') })).toBe('There is no template "lead_welcome" (fr)');
		expect(
			await refused({ sendTo: 'phone', phone: '+4915100000003', type: 'template', template: byId('={{ $json.template }}'), templateParameters: {} }, [{ template: 'lead_welcome' }]),
		).toBe('Template must be the template\'s name and language joined by a colon, such as lead_welcome:en; "lead_welcome" is not');
		const log = (await world().requests()).map(wire);
		expect(log.every((request) => request.method === 'GET' && request.path === TEMPLATES)).toBe(true);

		const { error } = await world().runNode(send({ sendTo: 'phone', phone: '+4915100000003', type: 'template', ...template('appointment_reminder:en', 'Nora') }), world().pat());
		expect(error?.description).toBe(
			'Item 1: Give one value per placeholder ({{1}}, {{2}}, ...) of the template, in order. Its text: "Hi {{1}}, this is a reminder of your appointment on {{2}}. Reply to this message if you need to reschedule.". Then run the node again.',
		);
	});

	test('Exactly one recipient: the fields Send To hides are not sent; the API refuses two recipients, or a template it has not approved, naming the template', async () => {
		const grace = await conversationOf(world(), 'Grace Hopper');
		const { items } = await world().runNode(
			send({ sendTo: 'conversation', conversationId: byId(grace.id), phone: '+4915100000009', userId: 'bsu_0000000000000000', type: 'text', text: 'Only here' }),
			world().pat(),
		);
		expect(items[0]).toMatchObject({ conversationId: grace.id, text: 'Only here' });
		expect((await world().requests()).filter((request) => request.method === 'POST').map((request) => request.body)).toEqual([{ conversationId: grace.id, type: 'text', text: 'Only here' }]);

		const pat = world().seed.credentials.ownerPat;
		const refused = async (body: object) => (await world().api('POST', MESSAGES, pat, { body })).body;
		expect(await refused({ phone: '+4915100000009', conversationId: grace.id, type: 'text', text: 'x' })).toEqual({
			statusCode: 400,
			message: 'Exactly one of phone, userId or conversationId must be provided',
			error: 'Bad Request',
		});
		expect(await refused({ type: 'text', text: 'x' })).toMatchObject({ statusCode: 400, message: 'Exactly one of phone, userId or conversationId must be provided' });
		expect(await refused({ conversationId: grace.id, type: 'template', template: { name: 'summer_sale', language: 'en', parameters: ['20%'] } })).toMatchObject({
			statusCode: 400,
			message: 'Template "summer_sale" (en) is not approved (status rejected); only approved templates can be sent',
		});
		expect(await refused({ conversationId: grace.id, type: 'template', template: { name: 'lead_welcome', language: 'en', parameters: [] } })).toMatchObject({
			statusCode: 400,
			message: 'Template "lead_welcome" (en) expects 1 parameter, got 0',
		});
		expect(await refused({ phone: '12345', type: 'text', text: 'x' })).toMatchObject({ statusCode: 400, message: ['phone must match /^\\+[1-9]\\d{6,14}$/ regular expression'] });
	});
});
