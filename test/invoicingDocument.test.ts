import type { IDataObject, INodeProperties, INodePropertyCollection } from 'n8n-workflow';

import { crmParent } from './harness/crm';
import { getEngine, INVOICING_NODE_TYPE } from '../scripts/engine';
import { byId, useWorld, wire } from './harness/world';

/**
 * Invoicing node, Document (api-reference §6): every operation through n8n's engine against the sandbox, with
 * the exact requests and the items that come out; bad input refused before sending; the API's errors.
 */

const world = useWorld();
const pat = () => world().seed.credentials.ownerPat;
const api = (method: string, path: string, body?: unknown) => world().api(method, path, pat(), { body });
const ownerId = () => world().seed.users.owner.id;

let contactId: string;
let handbookId: string;

beforeAll(async () => {
	contactId = await crmParent(world(), 'contact', 'buyer@example.com');
	handbookId = ((await api('GET', '/invoicing/products?search=Handbook')).body.products as IDataObject[])[0].id as string;
	await world().clearRequests();
});

async function made(body: IDataObject): Promise<IDataObject> {
	const created = await api('POST', '/invoicing/documents', { type: 'invoice', contactId, lineItems: [{ description: 'Service', quantity: 1, unitPrice: 100, taxRate: 19 }], ...body });
	expect(created.status).toBe(201);
	await world().clearRequests();
	return created.body;
}

async function finalised(body: IDataObject = {}, sent = false): Promise<IDataObject> {
	const document = await made(body);
	const done = (await api('POST', `/invoicing/documents/${document.id as string}/finalise`)).body;
	if (sent) await api('POST', `/invoicing/documents/${document.id as string}/send`, {});
	const current = sent ? (await api('GET', `/invoicing/documents/${document.id as string}`)).body : done;
	await world().clearRequests();
	return current;
}

const doc = (operation: string, id: string, extra: IDataObject = {}) => ({ resource: 'document', operation, documentId: byId(id), ...extra });

describe('Invoicing: Document', () => {
	test('Create with lines as rows (one from a product), dates, texts and terms: the exact body, the draft as the API answers it', async () => {
		const dealId = await crmParent(world(), 'deal', 'Website relaunch');
		const { items, error } = await world().runNode(
			{
				resource: 'document',
				operation: 'create',
				type: 'invoice',
				contactId: byId(contactId),
				lineItemsMode: 'form',
				lineItemsForm: {
					line: [
						{ description: 'Consulting, March', quantity: 2.5, unit: 'hour', unitPrice: '120', taxRate: '19', discountPercent: 10 },
						{ productId: handbookId, quantity: 3, discountPercent: 0, description: '', unit: '', unitPrice: '', taxRate: '' },
					],
				},
				additionalFields: { issueDate: '2026-03-31T00:00:00', paymentTermsDays: 30, introText: 'Thank you for your order.', currency: 'EUR', dealId: byId(dealId) },
			},
			world().ownerKey(),
		);
		expect(error).toBeUndefined();
		const body = {
			type: 'invoice',
			contactId,
			lineItems: [
				{ description: 'Consulting, March', quantity: 2.5, unit: 'hour', unitPrice: 120, taxRate: 19, discountPercent: 10 },
				{ productId: handbookId, quantity: 3, discountPercent: 0 },
			],
			currency: 'EUR',
			issueDate: '2026-03-31',
			paymentTermsDays: 30,
			introText: 'Thank you for your order.',
			dealId,
		};
		expect((await world().requests()).map(wire)).toEqual([{ method: 'POST', path: '/invoicing/documents', query: '', headers: world().keyHeaders(ownerId(), true), body }]);
		expect(items).toHaveLength(1);
		expect(items[0]).toMatchObject({
			type: 'invoice',
			status: 'draft',
			number: null,
			issueDate: '2026-03-31',
			dueDate: '2026-04-30',
			lineItems: [
				{ productId: null, description: 'Consulting, March', netAmount: 270, taxAmount: 51.3 },
				{ productId: handbookId, description: 'Handbook', unit: 'piece', unitPrice: 24.9, taxRate: 7, netAmount: 74.7, taxAmount: 5.23 },
			],
			taxes: [
				{ taxRate: 19, netAmount: 270, taxAmount: 51.3 },
				{ taxRate: 7, netAmount: 74.7, taxAmount: 5.23 },
			],
			netTotal: 344.7,
			taxTotal: 56.53,
			grossTotal: 401.23,
			amountDue: 401.23,
			dealId,
		});
	});

	test('Create with lines as JSON (an offer, with a PAT): the array goes as it is, numbers from text converted', async () => {
		const { items, error } = await world().runNode(
			{
				resource: 'document',
				operation: 'create',
				type: 'offer',
				contactId: byId(contactId),
				lineItemsMode: 'json',
				lineItemsJson: JSON.stringify([{ description: 'Workshop day', quantity: '2', unitPrice: 950, taxRate: 19 }]),
			},
			world().pat(),
		);
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'POST', path: '/invoicing/documents', query: '', headers: world().patHeaders(pat(), true), body: { type: 'offer', contactId, lineItems: [{ description: 'Workshop day', quantity: 2, unitPrice: 950, taxRate: 19 }] } },
		]);
		expect(items[0]).toMatchObject({ type: 'offer', status: 'draft', grossTotal: 2261 });
	});

	test.each([
		['a line without quantity', { lineItemsMode: 'json', lineItemsJson: '[{"description": "x", "unitPrice": 1}]' }, 'Line Items need a Quantity in line 1 (x)'],
		['a line without price or product', { lineItemsMode: 'form', lineItemsForm: { line: [{ description: 'Consulting', quantity: 1, unitPrice: '' }] } }, 'Line Items need a Unit Price in line 1 (Consulting): give one, or pick a product'],
		['a negative quantity', { lineItemsMode: 'json', lineItemsJson: '[{"description": "x", "quantity": -2, "unitPrice": 1}]' }, 'Line Items need a Quantity above 0 and at most 1000000 in line 1 (x), not -2'],
		['a tax rate out of range', { lineItemsMode: 'form', lineItemsForm: { line: [{ description: 'x', quantity: 1, unitPrice: '5', taxRate: '121' }] } }, 'Line Items need a Tax Rate (%) from 0 to 100 in line 1 (x), not "121"'],
		['a price with 5 decimals', { lineItemsMode: 'json', lineItemsJson: '[{"description": "x", "quantity": 1, "unitPrice": 1.23456}]' }, 'Line Items need a Unit Price with at most 4 decimal places in line 1 (x), not 1.23456'],
		['a large price with 5 decimals', { lineItemsMode: 'json', lineItemsJson: '[{"description": "x", "quantity": 1, "unitPrice": 12345678.12345}]' }, 'Line Items need a Unit Price with at most 4 decimal places in line 1 (x), not 12345678.12345'],
		['no line', { lineItemsMode: 'form', lineItemsForm: {} }, 'Line Items need at least one line'],
		['a misspelt line field', { lineItemsMode: 'json', lineItemsJson: '[{"description": "x", "quantity": 1, "unitPrice": 10, "discount": 10}]' }, 'Line Items know no field "discount" (in line 1 (x)); a line has productId, description, quantity, unit, unitPrice, taxRate, discountPercent'],
		['JSON that is not JSON', { lineItemsMode: 'json', lineItemsJson: '[{description: x}]' }, 'Line Items need JSON in Lines (JSON): an array of lines such as [{"description": "Consulting", "quantity": 2, "unitPrice": 120}]'],
		['an unknown currency', { additionalFields: { currency: 'EUX' } }, 'Currency must be an ISO 4217 currency code in capitals, such as EUR, USD or CHF; "EUX" is not'],
		['both due date and terms', { additionalFields: { dueDate: '2030-01-01T00:00:00', paymentTermsDays: 10 } }, 'Give either Due Date or Payment Terms (Days), not both'],
		['a day that does not exist', { additionalFields: { issueDate: '2030-02-30T00:00:00' } }, 'Issue Date must be a real date; 2030-02-30 does not exist'],
	])('Create refuses %s before sending, naming the field', async (_case, parameters, message) => {
		const lines = { lineItemsMode: 'json', lineItemsJson: '[{"description": "Service", "quantity": 1, "unitPrice": 10}]' };
		const { error } = await world().runNode({ resource: 'document', operation: 'create', type: 'invoice', contactId: byId(contactId), ...lines, ...parameters }, world().pat());
		expect(error?.message).toBe(message);
		expect(await world().requests()).toEqual([]);
	});

	test('Get and Get Many (type, status, contact and issue dates; Limit pages with 100 at most, Return All reads every page)', async () => {
		const buyer = await crmParent(world(), 'contact', 'many@example.com');
		const ids: string[] = [];
		for (const day of ['2026-02-01', '2026-02-10', '2026-02-20']) ids.push((await made({ contactId: buyer, issueDate: day })).id as string);
		const got = await world().runNode(doc('get', ids[0], { simple: false }), world().pat());
		expect(got.items).toEqual([(await api('GET', `/invoicing/documents/${ids[0]}`)).body]);
		await world().clearRequests();

		const limited = await world().runNode(
			{ resource: 'document', operation: 'getAll', limit: 2, filters: { type: 'invoice', status: 'draft', contactId: byId(buyer), from: '2026-02-05T00:00:00', to: '2026-02-28T00:00:00' } },
			world().pat(),
		);
		expect(limited.items.map((item) => item.id)).toEqual([ids[2], ids[1]]);
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: '/invoicing/documents', query: `type=invoice&status=draft&contactId=${buyer}&from=2026-02-05&to=2026-02-28&page=1&limit=2`, headers: world().patHeaders(), body: null },
		]);
		await world().clearRequests();
		const all = await world().runNode({ resource: 'document', operation: 'getAll', returnAll: true, filters: { contactId: byId(buyer) } }, world().pat());
		expect(all.items.map((item) => item.id)).toEqual([...ids].reverse());
		expect((await world().requests()).map((request) => request.query)).toEqual([`contactId=${buyer}&page=1&limit=100`]);
	});

	test('Update keeps the lines unless asked, replaces them from JSON; a finalised document is the API\'s 409 with what to do', async () => {
		const draft = await made({});
		const id = draft.id as string;
		const kept = await world().runNode(doc('update', id, { updateFields: { introText: 'Updated' } }), world().pat());
		expect(kept.error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([{ method: 'PATCH', path: `/invoicing/documents/${id}`, query: '', headers: world().patHeaders(pat(), true), body: { introText: 'Updated' } }]);
		expect(kept.items[0]).toMatchObject({ introText: 'Updated', lineItems: draft.lineItems });
		await world().clearRequests();

		const replaced = await world().runNode(doc('update', id, { lineItemsMode: 'json', lineItemsJson: [{ description: 'New', quantity: 1, unitPrice: 5, taxRate: 0 }] }), world().pat());
		expect((await world().requests()).map((request) => request.body)).toEqual([{ lineItems: [{ description: 'New', quantity: 1, unitPrice: 5, taxRate: 0 }] }]);
		expect(replaced.items[0]).toMatchObject({ grossTotal: 5, lineItems: [{ description: 'New', netAmount: 5 }] });

		await api('POST', `/invoicing/documents/${id}/finalise`);
		const refused = await world().runNode(doc('update', id, { updateFields: { introText: 'Too late' } }), world().pat());
		expect(refused.error).toMatchObject({ message: 'Only draft documents can be changed (HTTP 409)', httpCode: '409' });
		expect(refused.error?.description).toContain('Finalised documents never change: cancel the invoice (Document → Cancel) and create a corrected one');
	});

	test('Delete removes a draft ({ deleted: true }); Finalise numbers a draft; finalising again is a clear 409', async () => {
		const draft = await made({});
		const deleted = await world().runNode(doc('delete', draft.id as string), world().pat());
		expect(deleted.items).toEqual([{ deleted: true }]);
		expect((await world().requests()).map(wire)).toEqual([{ method: 'DELETE', path: `/invoicing/documents/${draft.id as string}`, query: '', headers: world().patHeaders(), body: null }]);

		const next = await made({});
		const done = await world().runNode(doc('finalise', next.id as string), world().ownerKey());
		expect(done.items[0]).toMatchObject({ status: 'finalised', number: expect.stringMatching(/^INV-\d{4}-\d{4}$/), finalisedAt: expect.any(String) });
		const again = await world().runNode(doc('finalise', next.id as string), world().ownerKey());
		expect(again.error).toMatchObject({ message: 'Only draft documents can be finalised; this one is finalised (HTTP 409)' });
	});

	test('Send: by default to the contact, without a body; with options, the exact body; CC addresses are checked', async () => {
		const invoice = await finalised();
		const id = invoice.id as string;
		const plain = await world().runNode(doc('send', id), world().pat());
		expect(plain.items[0]).toMatchObject({ status: 'sent', sentAt: expect.any(String) });
		expect((await world().requests()).map(wire)).toEqual([{ method: 'POST', path: `/invoicing/documents/${id}/send`, query: '', headers: world().patHeaders(), body: null }]);
		await world().clearRequests();

		const options = { to: 'ap@example.com', cc: 'boss@example.com, audit@example.com', subject: 'Your invoice', message: 'Hello', attachEInvoice: true };
		await world().runNode(doc('send', id, { sendOptions: options }), world().pat());
		expect((await world().requests()).map((request) => request.body)).toEqual([{ ...options, cc: ['boss@example.com', 'audit@example.com'] }]);
		await world().clearRequests();

		const bad = await world().runNode(doc('send', id, { sendOptions: { cc: 'boss@example.com, nobody' } }), world().pat());
		expect(bad.error?.message).toBe('CC must hold email addresses separated by commas; each must be an email address such as jane@example.com; "nobody" is not');
		expect(await world().requests()).toEqual([]);

		const draft = await made({});
		const early = await world().runNode(doc('send', draft.id as string), world().pat());
		expect(early.error).toMatchObject({ message: 'Drafts cannot be sent; finalise the document first (HTTP 409)' });
	});

	test('Send with Finalise Draft First: a draft is read, finalised and sent; run again it finalises nothing (one number); off, a draft is the API\'s 409 with the fix', async () => {
		const draft = await made({});
		const id = draft.id as string;
		const path = `/invoicing/documents/${id}`;
		const first = await world().runNode(doc('send', id, { finaliseDraft: true }), world().pat());
		expect(first.error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path, query: '', headers: world().patHeaders(), body: null },
			{ method: 'POST', path: `${path}/finalise`, query: '', headers: world().patHeaders(), body: null },
			{ method: 'POST', path: `${path}/send`, query: '', headers: world().patHeaders(), body: null },
		]);
		expect(first.items).toEqual([(await api('GET', path)).body]);
		expect(first.items[0]).toMatchObject({ status: 'sent', number: expect.stringMatching(/^INV-\d{4}-\d{4}$/), finalisedAt: expect.any(String) });
		await world().clearRequests();

		const again = await world().runNode(doc('send', id, { finaliseDraft: true, sendOptions: { subject: 'Reminder: your invoice' } }), world().pat());
		expect(again.error).toBeUndefined();
		expect((await world().requests()).map((request) => `${request.method} ${request.path}`)).toEqual([`GET ${path}`, `POST ${path}/send`]);
		expect(again.items[0]).toMatchObject({ status: 'sent', number: first.items[0].number, finalisedAt: first.items[0].finalisedAt });
		await world().clearRequests();

		const other = await made({});
		const off = await world().runNode(doc('send', other.id as string), world().pat());
		expect(off.error).toMatchObject({ message: 'Drafts cannot be sent; finalise the document first (HTTP 409)' });
		expect(off.error?.description).toContain('Finalise the document first (Document → Finalise), then send it; or turn on Finalise Draft First in Document → Send.');
		expect((await api('GET', `/invoicing/documents/${other.id as string}`)).body).toMatchObject({ status: 'draft', number: null });
	});

	test('Record Payment, Get Payments, Delete Payment; more than due is the API\'s 400 with its reason', async () => {
		const invoice = await finalised({}, true);
		const id = invoice.id as string;
		const paid = await world().runNode(doc('recordPayment', id, { amount: 19, paymentFields: { method: 'card', reference: 'R-1', paidAt: '2026-05-02T10:00:00' } }), world().pat(), { timezone: 'Europe/Berlin' });
		expect(paid.error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'POST', path: `/invoicing/documents/${id}/payments`, query: '', headers: world().patHeaders(pat(), true), body: { amount: 19, paidAt: '2026-05-02T10:00:00+02:00', method: 'card', reference: 'R-1' } },
		]);
		expect(paid.items[0]).toMatchObject({ documentId: id, amount: 19, method: 'card', paidAt: '2026-05-02T08:00:00.000Z' });

		const over = await world().runNode(doc('recordPayment', id, { amount: 500 }), world().pat());
		expect(over.error).toMatchObject({ message: 'amount must not be greater than the amount due (100.00) (HTTP 400)', httpCode: '400' });
		expect(over.error?.description).toContain('Record at most the amount due');

		const listed = await world().runNode(doc('getPayments', id), world().pat());
		expect(listed.items).toEqual([paid.items[0]]);
		const removed = await world().runNode(doc('deletePayment', id, { paymentId: paid.items[0].id }), world().pat());
		expect(removed.items).toEqual([{ deleted: true }]);
		expect((await api('GET', `/invoicing/documents/${id}`)).body).toMatchObject({ status: 'sent', amountDue: 119 });
	});

	test('Send Dunning reads the invoice, then sends the reminder; again within the wait it only reads and says why; 0 days always sends', async () => {
		const invoice = await made({ issueDate: '2026-01-05', dueDate: '2026-01-19' });
		const id = invoice.id as string;
		await api('POST', `/invoicing/documents/${id}/finalise`);
		await api('POST', `/invoicing/documents/${id}/send`, {});
		await world().clearRequests();
		const first = await world().runNode(doc('sendDunning', id, { dunningOptions: { fee: 5, message: 'Please pay' } }), world().pat());
		expect(first.error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: `/invoicing/documents/${id}`, query: '', headers: world().patHeaders(), body: null },
			{ method: 'POST', path: `/invoicing/documents/${id}/dunning`, query: '', headers: world().patHeaders(pat(), true), body: { message: 'Please pay', fee: 5 } },
		]);
		expect(first.items).toEqual([{ documentId: id, dunningLevel: 1, fee: 5, sentAt: expect.any(String) }]);
		await world().clearRequests();

		const again = await world().runNode(doc('sendDunning', id), world().pat());
		expect(again.items).toEqual([{ documentId: id, number: expect.any(String), dunningLevel: 1, skipped: true, reason: expect.stringMatching(/^Reminder 1 was sent on or before \d{4}-\d{2}-\d{2}, when the invoice last changed, less than 7 days ago$/) }]);
		expect((await world().requests()).map((request) => request.method)).toEqual(['GET']);

		const always = await world().runNode(doc('sendDunning', id, { minimumDaysBetweenReminders: 0 }), world().pat());
		expect(always.items[0]).toMatchObject({ dunningLevel: 2 });
		const notOverdue = await finalised();
		const refused = await world().runNode(doc('sendDunning', notOverdue.id as string), world().pat());
		expect(refused.error).toMatchObject({ message: 'Only overdue invoices can be dunned; this one is finalised (HTTP 409)' });
		expect(refused.error?.description).toContain('Document → Get Many with Status Overdue lists them');
	});

	test('Record Payment refuses an amount with more than 2 decimals before sending', async () => {
		const invoice = await finalised({}, true);
		const { error } = await world().runNode(doc('recordPayment', invoice.id as string, { amount: 19.999 }), world().pat());
		expect(error?.message).toBe('Amount must be a number with at most 2 decimal places, not 19.999');
		expect(await world().requests()).toEqual([]);
	});

	test('Cancel an unpaid invoice (number kept); Convert Offer to Invoice; a second convert says where the invoice is', async () => {
		const invoice = await finalised();
		const cancelled = await world().runNode(doc('cancel', invoice.id as string, { reason: 'Wrong customer' }), world().pat());
		expect((await world().requests()).map((request) => request.body)).toEqual([{ reason: 'Wrong customer' }]);
		expect(cancelled.items[0]).toMatchObject({ status: 'cancelled', number: invoice.number });

		const offer = await finalised({ type: 'offer' });
		const converted = await world().runNode(doc('convert', offer.id as string), world().pat());
		expect(converted.items[0]).toMatchObject({ type: 'invoice', status: 'draft', offerId: offer.id, grossTotal: offer.grossTotal });
		const twice = await world().runNode(doc('convert', offer.id as string), world().pat());
		expect(twice.error?.message).toBe(`This offer was already converted into invoice ${converted.items[0].id as string} (HTTP 409)`);
	});
});

test('a line row shows Product first (it fills the others), then what is billed, how many and the price, in Create, Update and recurring invoices', async () => {
	const { properties } = (await getEngine()).nodeTypes.getByNameAndVersion(INVOICING_NODE_TYPE).description;
	const rows = properties.filter((property: INodeProperties) => property.name === 'lineItemsForm');
	expect(rows.length).toBeGreaterThanOrEqual(2);
	for (const row of rows) {
		const [line] = row.options as INodePropertyCollection[];
		expect(line.values.map((field) => field.displayName)).toEqual(['Product Name or ID', 'Description', 'Quantity', 'Unit', 'Unit Price', 'Tax Rate (%)', 'Discount (%)']);
	}
});

test('the panel says the order: Finalise comes before sending, Send takes a finalised document (or finalises a draft first when asked)', async () => {
	const { properties } = (await getEngine()).nodeTypes.getByNameAndVersion(INVOICING_NODE_TYPE).description;
	const operations = properties.find((property: INodeProperties) => property.name === 'operation' && property.displayOptions?.show?.resource?.includes('document'))!;
	const option = (value: string) => (operations.options as Array<{ value: string; action: string; description: string }>).find((candidate) => candidate.value === value)!;
	expect(option('finalise')).toMatchObject({ action: 'Finalise a draft document before sending it', description: expect.stringContaining('ready for Send and Record Payment') });
	expect(option('send')).toMatchObject({ action: 'Send a finalised document by email', description: expect.stringMatching(/^Needs a finalised document, or a draft with Finalise Draft First on/) });
	expect(properties.find((property: INodeProperties) => property.name === 'finaliseDraft')).toMatchObject({ type: 'boolean', default: false, displayOptions: { show: { resource: ['document'], operation: ['send'] } } });
});
