import type { IDataObject } from 'n8n-workflow';

import { asTenant, crmParent } from './harness/crm';
import { byId, useWorld, wire } from './harness/world';

/**
 * Synced emails: Contact and Deal → Get Emails (offset pages of `{ data, total }`, newest first), Email → Get Body
 * (one email's text from the mailbox) and Get Send Capability (there is no send route).
 */

const world = useWorld();

let contactId: string;
let dealId: string;
const contactEmails: IDataObject[] = [];

/** A synced email as a mailbox sync would bring it (control API); its header as the lists answer it. */
async function synced(fields: IDataObject): Promise<IDataObject> {
	return (await world().control('POST', '/__sandbox/crm-emails', { fromEmail: 'lena@client.example', toEmails: ['ada@acme.example'], direction: 'inbound', text: 'Hello', ...fields })) as IDataObject;
}

beforeAll(async () => {
	contactId = await crmParent(world(), 'contact', 'lena@client.example');
	dealId = await crmParent(world(), 'deal', 'Lena\'s order');
	for (const [day, subject] of [['02', 'First question'], ['05', 'Offer, please'], ['03', 'Second question']]) {
		contactEmails.push(await synced({ contactId, subject, sentAt: `2026-03-${day}T10:00:00Z`, text: `${subject}: the details.` }));
	}
	for (let index = 0; index < 130; index++) {
		const sentAt = new Date(Date.UTC(2026, 0, 1) + index * 3_600_000).toISOString();
		await synced({ dealId, subject: `Thread ${index}`, sentAt, direction: 'outbound', fromEmail: 'ada@acme.example', toEmails: ['lena@client.example'] });
	}
});

describe('Get Emails', () => {
	test('Contact → Get Emails with a Limit: one page of that size, the headers newest first', async () => {
		const { items, error } = await world().runNode({ resource: 'contact', operation: 'getEmails', contactId: byId(contactId), limit: 2 }, world().pat());
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: `/crm/contacts/${contactId}/emails`, query: 'limit=2&offset=0', headers: world().patHeaders(), body: null },
		]);
		expect(items).toEqual([contactEmails[1], contactEmails[2]]);
		expect(items[0]).toEqual({
			id: expect.any(String),
			subject: 'Offer, please',
			snippet: 'Offer, please: the details.',
			fromEmail: 'lena@client.example',
			toEmails: ['ada@acme.example'],
			direction: 'inbound',
			sentAt: '2026-03-05T10:00:00.000Z',
			provider: 'google',
			threadId: expect.any(String),
			externalMessageId: expect.any(String),
			contactId,
			dealId: null,
			providerUrl: expect.stringMatching(/^https:\/\/mail\.google\.com\//),
			createdAt: expect.any(String),
		});
	});

	test('Deal → Get Emails with Return All: offset pages of 100 until the total', async () => {
		const { items } = await world().runNode({ resource: 'deal', operation: 'getEmails', dealId: byId(dealId), returnAll: true }, world().pat());
		expect((await world().requests()).map((request) => `${request.path}?${request.query}`)).toEqual([
			`/crm/deals/${dealId}/emails?limit=100&offset=0`,
			`/crm/deals/${dealId}/emails?limit=100&offset=100`,
		]);
		expect(items).toHaveLength(130);
		expect([items[0].subject, items[129].subject]).toEqual(['Thread 129', 'Thread 0']);
	});

	test('a list in another form than { data, total } stops the item, naming the keys it had', async () => {
		await world().control('POST', '/__sandbox/faults', { method: 'GET', path: `/crm/contacts/${contactId}/emails`, status: 200, body: { emails: [], count: 0 } });
		const { error } = await world().runNode({ resource: 'contact', operation: 'getEmails', contactId: byId(contactId), returnAll: true }, world().pat());
		expect(error?.message).toBe('The API answered in a form this node does not read: an object with the keys emails, count');
	});
});

describe('Email', () => {
	test('Get Body reads one email\'s body per item and outputs it with the email\'s ID', async () => {
		const [one, two] = contactEmails;
		const { items, paired } = await world().runNode({ resource: 'email', operation: 'getBody', emailId: '={{ $json.id }}' }, world().pat(), { input: [{ id: one.id }, { id: two.id }] });
		expect((await world().requests()).map(wire)).toEqual(
			[one, two].map((email) => ({ method: 'GET', path: `/crm/emails/${String(email.id)}/body`, query: '', headers: world().patHeaders(), body: null })),
		);
		expect(items).toEqual([
			{ emailId: one.id, html: '<p>First question: the details.</p>', text: 'First question: the details.', attachments: [] },
			{ emailId: two.id, html: '<p>Offer, please: the details.</p>', text: 'Offer, please: the details.', attachments: [] },
		]);
		expect(paired).toEqual([0, 1]);
	});

	test('Get Body of an email the company does not have is the API\'s 404; an ID an expression leaves empty is refused before sending', async () => {
		const missing = await world().runNode({ resource: 'email', operation: 'getBody', emailId: '6f1c2a7e-1b2c-4d5e-8f90-123456789abc' }, world().pat());
		expect(missing.error?.message).toContain('Email not found');
		await world().clearRequests();
		const empty = await world().runNode({ resource: 'email', operation: 'getBody', emailId: '={{ $json.missing }}' }, world().pat());
		expect(empty.error?.message).toBe('Email ID is required');
		expect(await world().requests()).toEqual([]);
	});

	test('Get Send Capability: read once for all items; the acting user\'s connected mailbox decides', async () => {
		const before = await world().runNode({ resource: 'email', operation: 'getSendCapability' }, world().pat(), { input: [{}, {}] });
		expect((await world().requests()).map(wire)).toEqual([{ method: 'GET', path: '/crm/emails/send-capability', query: '', headers: world().patHeaders(), body: null }]);
		expect(before.items).toEqual([
			{ canSend: false, provider: null },
			{ canSend: false, provider: null },
		]);
		await world().control('POST', '/__sandbox/calendar-connections', { userId: world().seed.users.owner.id, provider: 'outlook', email: 'ada@acme.example', isPrimary: true });
		const after = await world().runNode({ resource: 'email', operation: 'getSendCapability' }, world().pat());
		expect(after.items).toEqual([{ canSend: true, provider: 'microsoft' }]);
		const other = await asTenant(world(), { token: world().seed.credentials.memberPat }, 'GET', '/crm/emails/send-capability');
		expect(other).toEqual({ canSend: false, provider: null });
	});
});
