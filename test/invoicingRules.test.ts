import type { IDataObject } from 'n8n-workflow';

import { crmParent, freshTenant, FRESH_SELLER } from './harness/crm';
import { useWorld } from './harness/world';

/**
 * The sandbox's invoicing rules over HTTP (api-reference §6, designed): money, numbering, the status machine and
 * billing runs. The node tests (invoicing*.test.ts) run the same rules through the Invoicing node.
 */

const world = useWorld();
const pat = () => world().seed.credentials.ownerPat;
const api = (method: string, path: string, body?: unknown, token = pat()) => world().api(method, path, token, { body });


async function draft(contactId: string, lineItems: IDataObject[], extra: IDataObject = {}, token = pat()): Promise<IDataObject> {
	const created = await api('POST', '/invoicing/documents', { type: 'invoice', contactId, lineItems, ...extra }, token);
	expect(created.status).toBe(201);
	return created.body;
}

async function finalised(contactId: string, gross: number, extra: IDataObject = {}): Promise<IDataObject> {
	const document = await draft(contactId, [{ description: 'Service', quantity: 1, unitPrice: gross, taxRate: 0 }], extra);
	return (await api('POST', `/invoicing/documents/${document.id as string}/finalise`)).body;
}

let contactId: string;
beforeAll(async () => {
	contactId = await crmParent(world(), 'contact', 'bill@example.com');
});

describe('Invoicing rules: money', () => {
	test('each line is rounded half up to the cent, lines are summed per tax rate and each rate\'s tax is rounded half up', async () => {
		const document = await draft(contactId, [
			{ description: 'A: 3 × 0.335 = 1.005', quantity: 3, unitPrice: 0.335, taxRate: 19 },
			{ description: 'B: 10.00 less 10 %', quantity: 1, unitPrice: 10, taxRate: 19, discountPercent: 10 },
			{ description: 'C: 1.5 × 0.33 = 0.495', quantity: 1.5, unitPrice: 0.33, taxRate: 7 },
			{ description: 'D: 2 × 4.995 = 9.99', quantity: 2, unitPrice: 4.995, taxRate: 7 },
			{ description: 'E: 0.05', quantity: 1, unitPrice: 0.05, taxRate: 19 },
			{ description: 'F: 0.15 less 10 % = 0.135', quantity: 1, unitPrice: 0.15, taxRate: 0, discountPercent: 10 },
		]);
		const lines = (document.lineItems as IDataObject[]).map((line) => [line.netAmount, line.taxAmount]);
		// By hand: 1.005 → 1.01 (a float sum gives 1.00499…), 0.495 → 0.50, 0.135 → 0.14; line taxes 0.1919 → 0.19, 0.035 → 0.04.
		expect(lines).toEqual([
			[1.01, 0.19],
			[9, 1.71],
			[0.5, 0.04],
			[9.99, 0.7],
			[0.05, 0.01],
			[0.14, 0],
		]);
		// 19 %: 10.06 → 1.9114 → 1.91; 7 %: 10.49 → 0.7343 → 0.73 (the lines' own taxes add up to 0.74); 0 %: 0.14.
		expect(document.taxes).toEqual([
			{ taxRate: 19, netAmount: 10.06, taxAmount: 1.91 },
			{ taxRate: 7, netAmount: 10.49, taxAmount: 0.73 },
			{ taxRate: 0, netAmount: 0.14, taxAmount: 0 },
		]);
		expect(document).toMatchObject({ netTotal: 20.69, taxTotal: 2.64, grossTotal: 23.33, amountPaid: 0, amountDue: 23.33, status: 'draft', number: null });
	});

	test('large amounts keep their decimals: 12,345,678.1234 is a price with 4 places', async () => {
		const document = await draft(contactId, [{ description: 'Plant', quantity: 1.5, unitPrice: 12345678.1234, taxRate: 19 }]);
		expect(document).toMatchObject({ netTotal: 18518517.19, taxTotal: 3518518.27, grossTotal: 22037035.46 });
	});

	test('a product fills description, unit, unit price and tax rate a line leaves out; the line\'s own values win', async () => {
		const products = (await api('GET', '/invoicing/products?search=handbook')).body.products as IDataObject[];
		const handbook = products[0];
		const document = await draft(contactId, [{ productId: handbook.id, quantity: 3 }, { productId: handbook.id, quantity: 1, unitPrice: 20, description: 'Signed copy' }]);
		expect(document.lineItems).toEqual([
			{ productId: handbook.id, description: 'Handbook', quantity: 3, unit: 'piece', unitPrice: 24.9, taxRate: 7, discountPercent: 0, netAmount: 74.7, taxAmount: 5.23 },
			{ productId: handbook.id, description: 'Signed copy', quantity: 1, unit: 'piece', unitPrice: 20, taxRate: 7, discountPercent: 0, netAmount: 20, taxAmount: 1.4 },
		]);
		expect(document).toMatchObject({ netTotal: 94.7, taxTotal: 6.63, grossTotal: 101.33 });
		// Its price is in EUR: on a USD invoice the line must give its own price.
		const usd = await api('POST', '/invoicing/documents', { type: 'invoice', contactId, currency: 'USD', lineItems: [{ productId: handbook.id, quantity: 1 }] });
		expect(usd).toEqual({ status: 400, body: { statusCode: 400, message: ['lineItems.0.unitPrice should not be empty: the product is priced in EUR, the document is in USD'], error: 'Bad Request' } });
		expect((await api('POST', '/invoicing/documents', { type: 'invoice', contactId, currency: 'USD', lineItems: [{ productId: handbook.id, quantity: 1, unitPrice: 27 }] })).status).toBe(201);
	});

	test.each([
		['a line without quantity', [{ description: 'x', unitPrice: 1 }], {}, ['lineItems.0.quantity should not be empty', 'lineItems.0.quantity must be a number', 'lineItems.0.quantity must not be greater than 1000000']],
		['a line without price or product', [{ description: 'x', quantity: 1 }], {}, ['lineItems.0.unitPrice should not be empty']],
		['a negative quantity', [{ description: 'x', quantity: -2, unitPrice: 1 }], {}, ['lineItems.0.quantity must be a positive number']],
		['a tax rate above 100', [{ description: 'x', quantity: 1, unitPrice: 1, taxRate: 120 }], {}, ['lineItems.0.taxRate must not be greater than 100']],
		['three decimals of money', [{ description: 'x', quantity: 1, unitPrice: 1.23456 }], {}, ['lineItems.0.unitPrice must have no more than 4 decimal places']],
		['five decimals of a large price', [{ description: 'x', quantity: 1, unitPrice: 1234567.12345 }], {}, ['lineItems.0.unitPrice must have no more than 4 decimal places']],
		['an unknown currency', [{ description: 'x', quantity: 1, unitPrice: 1 }], { currency: 'EUX' }, ['currency must be a valid ISO 4217 currency code']],
		['no lines', [], {}, ['lineItems must contain at least 1 elements']],
		['both due date and terms', [{ description: 'x', quantity: 1, unitPrice: 1 }], { dueDate: '2030-01-01', paymentTermsDays: 10 }, ['Give either dueDate or paymentTermsDays, not both']],
		['a due date before the issue date', [{ description: 'x', quantity: 1, unitPrice: 1 }], { issueDate: '2030-02-01', dueDate: '2030-01-31' }, ['dueDate must not be before issueDate (2030-02-01)']],
		['a date that does not exist', [{ description: 'x', quantity: 1, unitPrice: 1 }], { issueDate: '2030-02-30' }, ['issueDate must be a valid ISO 8601 date string (YYYY-MM-DD)']],
	])('%s is refused with 400 naming the property', async (_case, lineItems, extra, message) => {
		const answer = await api('POST', '/invoicing/documents', { type: 'invoice', contactId, lineItems, ...extra });
		expect(answer).toEqual({ status: 400, body: { statusCode: 400, message, error: 'Bad Request' } });
	});
});

describe('Invoicing rules: numbering', () => {
	test('50 concurrent finalise calls get 50 distinct consecutive numbers; offers count apart; the next call continues', async () => {
		const tenant = await freshTenant(world());
		await api('PATCH', '/invoicing/settings', FRESH_SELLER, tenant.token);
		const freshContact = await crmParent(world(), 'contact', 'fin@example.com', tenant.companyId);
		const line = [{ description: 'Service', quantity: 1, unitPrice: 10 }];
		const drafts = await Promise.all(Array.from({ length: 50 }, () => draft(freshContact, line, {}, tenant.token)));
		const answers = await Promise.all(drafts.map((document) => api('POST', `/invoicing/documents/${document.id as string}/finalise`, undefined, tenant.token)));
		const year = new Date().getUTCFullYear();
		const numbers = answers.map((answer) => answer.body.number as string).sort();
		expect(numbers).toEqual(Array.from({ length: 50 }, (_, index) => `INV-${year}-${String(index + 1).padStart(4, '0')}`));
		const offer = await draft(freshContact, line, { type: 'offer' }, tenant.token);
		expect((await api('POST', `/invoicing/documents/${offer.id as string}/finalise`, undefined, tenant.token)).body.number).toBe(`OFF-${year}-0001`);
		// A deleted draft never had a number: no gap. A finalised one cannot be deleted.
		const extra = await draft(freshContact, line, {}, tenant.token);
		expect((await api('DELETE', `/invoicing/documents/${extra.id as string}`, undefined, tenant.token)).status).toBe(204);
		const next = await draft(freshContact, line, { issueDate: `${year}-01-02` }, tenant.token);
		expect((await api('POST', `/invoicing/documents/${next.id as string}/finalise`, undefined, tenant.token)).body).toMatchObject({ number: `INV-${year}-0051`, issueDate: `${year}-01-02`, status: 'finalised' });
		expect(await api('DELETE', `/invoicing/documents/${next.id as string}`, undefined, tenant.token)).toEqual({ status: 409, body: { statusCode: 409, message: 'Only draft documents can be changed', error: 'Conflict' } });
	});

	test('finalising without the seller settings is 400 naming each missing one', async () => {
		const tenant = await freshTenant(world());
		const freshContact = await crmParent(world(), 'contact', 'nos@example.com', tenant.companyId);
		const document = await draft(freshContact, [{ description: 'x', quantity: 1, unitPrice: 1 }], {}, tenant.token);
		await api('PATCH', '/invoicing/settings', { companyName: 'Fresh Ltd.', city: 'Berlin' }, tenant.token);
		expect(await api('POST', `/invoicing/documents/${document.id as string}/finalise`, undefined, tenant.token)).toEqual({
			status: 400,
			body: { statusCode: 400, message: 'The seller settings lack addressLine1, zip, country, vatId or taxNumber; set them with PATCH /invoicing/settings before finalising', error: 'Bad Request' },
		});
	});
});

describe('Invoicing rules: status machine', () => {
	test('finalised documents are immutable; drafts cannot be sent or paid; offers take no payment', async () => {
		const invoice = await draft(contactId, [{ description: 'x', quantity: 1, unitPrice: 50 }]);
		const id = invoice.id as string;
		expect((await api('POST', `/invoicing/documents/${id}/send`)).body).toMatchObject({ statusCode: 409, message: 'Drafts cannot be sent; finalise the document first' });
		expect((await api('POST', `/invoicing/documents/${id}/payments`, { amount: 1 })).body).toMatchObject({ statusCode: 409, message: 'Finalise the invoice before recording payments' });
		await api('POST', `/invoicing/documents/${id}/finalise`);
		expect(await api('PATCH', `/invoicing/documents/${id}`, { introText: 'changed' })).toEqual({ status: 409, body: { statusCode: 409, message: 'Only draft documents can be changed', error: 'Conflict' } });
		expect((await api('POST', `/invoicing/documents/${id}/finalise`)).body).toMatchObject({ statusCode: 409, message: 'Only draft documents can be finalised; this one is finalised' });
		const offer = await draft(contactId, [{ description: 'x', quantity: 1, unitPrice: 50 }], { type: 'offer' });
		await api('POST', `/invoicing/documents/${offer.id as string}/finalise`);
		expect((await api('POST', `/invoicing/documents/${offer.id as string}/payments`, { amount: 1 })).body).toMatchObject({ statusCode: 409, message: 'Payments are recorded on invoices only; this document is an offer' });
	});

	test('payments: partially paid, then paid; more than due is 400; deleting one reopens; cancel refused while payments exist', async () => {
		const invoice = await finalised(contactId, 100);
		const id = invoice.id as string;
		await api('POST', `/invoicing/documents/${id}/send`);
		const first = await api('POST', `/invoicing/documents/${id}/payments`, { amount: 40.5, method: 'bank_transfer', reference: 'TX-1' });
		expect(first.status).toBe(201);
		expect((await api('GET', `/invoicing/documents/${id}`)).body).toMatchObject({ status: 'partially_paid', amountPaid: 40.5, amountDue: 59.5, paidAt: null });
		expect(await api('POST', `/invoicing/documents/${id}/payments`, { amount: 59.51 })).toEqual({ status: 400, body: { statusCode: 400, message: ['amount must not be greater than the amount due (59.50)'], error: 'Bad Request' } });
		expect((await api('POST', `/invoicing/documents/${id}/cancel`)).body).toMatchObject({ statusCode: 409, message: 'Invoices with payments cannot be cancelled; delete the payments first' });
		await api('POST', `/invoicing/documents/${id}/payments`, { amount: 59.5, paidAt: '2026-01-15T09:00:00Z' });
		expect((await api('GET', `/invoicing/documents/${id}`)).body).toMatchObject({ status: 'paid', amountDue: 0, paidAt: '2026-01-15T09:00:00.000Z' });
		expect((await api('GET', `/invoicing/documents/${id}/payments`)).body.map((payment: IDataObject) => payment.amount)).toEqual([40.5, 59.5]);
		expect((await api('DELETE', `/invoicing/documents/${id}/payments/${first.body.id as string}`)).status).toBe(204);
		expect((await api('GET', `/invoicing/documents/${id}`)).body).toMatchObject({ status: 'partially_paid', amountPaid: 59.5, amountDue: 40.5, paidAt: null });
	});

	test('cancel: an unpaid invoice keeps its number; a draft is deleted instead; an offer is declined', async () => {
		const invoice = await finalised(contactId, 10);
		const cancelled = (await api('POST', `/invoicing/documents/${invoice.id as string}/cancel`, { reason: 'Wrong customer' })).body;
		expect(cancelled).toMatchObject({ status: 'cancelled', number: invoice.number, cancelReason: 'Wrong customer' });
		const fresh = await draft(contactId, [{ description: 'x', quantity: 1, unitPrice: 1 }]);
		expect((await api('POST', `/invoicing/documents/${fresh.id as string}/cancel`)).body).toMatchObject({ statusCode: 409, message: 'Drafts are deleted, not cancelled' });
	});

	test('convert: a finalised offer becomes accepted and a new invoice draft carries its lines; a second convert is 409', async () => {
		const offer = await draft(contactId, [{ description: 'Workshop', quantity: 2, unitPrice: 950, taxRate: 19 }], { type: 'offer', introText: 'As discussed' });
		expect((await api('POST', `/invoicing/documents/${offer.id as string}/convert`)).body).toMatchObject({ statusCode: 409, message: 'Only finalised or sent offers can be converted; this one is draft' });
		await api('POST', `/invoicing/documents/${offer.id as string}/finalise`);
		const converted = await api('POST', `/invoicing/documents/${offer.id as string}/convert`);
		expect(converted.status).toBe(201);
		expect(converted.body).toMatchObject({ type: 'invoice', status: 'draft', number: null, offerId: offer.id, introText: 'As discussed', lineItems: offer.lineItems, grossTotal: 2261 });
		expect((await api('GET', `/invoicing/documents/${offer.id as string}`)).body).toMatchObject({ status: 'accepted', invoiceId: converted.body.id });
		expect((await api('POST', `/invoicing/documents/${offer.id as string}/convert`)).body).toMatchObject({ statusCode: 409, message: `This offer was already converted into invoice ${converted.body.id as string}` });
	});
});

describe('Invoicing rules: billing runs', () => {
	test('each active schedule is billed once per period; the same run date again bills nothing; paused and ended ones are reported', async () => {
		const tenant = await freshTenant(world());
		await api('PATCH', '/invoicing/settings', FRESH_SELLER, tenant.token);
		const who = await crmParent(world(), 'contact', 'sub@example.com', tenant.companyId);
		const today = new Date().toISOString().slice(0, 10);
		const monthAgo = new Date(Date.now() - 40 * 86_400_000).toISOString().slice(0, 10);
		const schedule = (name: string, extra: IDataObject = {}) =>
			api('POST', '/invoicing/recurring', { name, contactId: who, lineItems: [{ description: name, quantity: 1, unitPrice: 99 }], interval: 'monthly', startDate: monthAgo, ...extra }, tenant.token);
		const monthly = (await schedule('Support plan', { autoFinalise: true })).body;
		const paused = (await schedule('Paused plan')).body;
		await api('POST', `/invoicing/recurring/${paused.id as string}/pause`, undefined, tenant.token);
		const ended = (await schedule('Ended plan', { startDate: '2025-01-01', endDate: '2025-01-31' })).body;
		expect(ended.status).toBe('active');

		const dry = (await api('POST', '/invoicing/billing-runs', { dryRun: true }, tenant.token)).body;
		expect(dry).toMatchObject({ dryRun: true, createdDocumentIds: [], status: 'completed' });
		expect((dry.plannedDocuments as IDataObject[]).map((planned) => planned.recurringId)).toEqual([monthly.id, monthly.id, ended.id]);
		expect((await api('GET', `/invoicing/recurring/${monthly.id as string}`, undefined, tenant.token)).body.nextRunDate).toBe(monthAgo);

		const run = (await api('POST', '/invoicing/billing-runs', {}, tenant.token)).body;
		expect(run).toMatchObject({ runDate: today, dryRun: false, status: 'completed', errors: [] });
		expect(run.skipped).toEqual([{ recurringId: paused.id, reason: 'paused' }]);
		expect(run.createdDocumentIds).toHaveLength(3); // two monthly periods (the missed one too) and the ended plan's only period
		const invoices = await Promise.all((run.createdDocumentIds as string[]).map(async (id) => (await api('GET', `/invoicing/documents/${id}`, undefined, tenant.token)).body));
		const secondPeriod = new Date(`${monthAgo}T00:00:00Z`);
		secondPeriod.setUTCMonth(secondPeriod.getUTCMonth() + 1);
		expect(invoices.map((invoice) => [invoice.recurringId, invoice.status, invoice.issueDate, invoice.grossTotal])).toEqual([
			[monthly.id, 'finalised', monthAgo, 117.81],
			[monthly.id, 'finalised', invoices[1].issueDate, 117.81],
			[ended.id, 'draft', '2025-01-01', 117.81],
		]);
		// The second period starts a month after the first (the last day of a shorter month when the day does not exist).
		expect(String(invoices[1].issueDate) <= secondPeriod.toISOString().slice(0, 10)).toBe(true);
		expect(String(invoices[1].issueDate).slice(0, 7)).toBe(new Date(Date.UTC(Number(monthAgo.slice(0, 4)), Number(monthAgo.slice(5, 7)), 1)).toISOString().slice(0, 7));
		expect(invoices[0].periodEnd).toBe(new Date(Date.parse(`${invoices[1].periodStart as string}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10));

		const again = (await api('POST', '/invoicing/billing-runs', { runDate: today }, tenant.token)).body;
		expect(again.createdDocumentIds).toEqual([]);
		expect(again.skipped).toEqual([{ recurringId: paused.id, reason: 'paused' }, { recurringId: ended.id, reason: 'ended' }]);
		expect((await api('GET', '/invoicing/documents?limit=100', undefined, tenant.token)).body.total).toBe(3);
		expect((await api('GET', '/invoicing/billing-runs', undefined, tenant.token)).body).toMatchObject({ total: 3, billingRuns: [{ id: again.id }, { id: run.id }, { id: dry.id }] });
		expect(await api('POST', '/invoicing/billing-runs', { runDate: '2099-01-01' }, tenant.token)).toMatchObject({ status: 400, body: { message: [`runDate must not be after today (${today})`] } });
	});
});

describe('Invoicing rules: overdue and dunning (the clock moves)', () => {
	test('a sent invoice past its due date is overdue; reminders go up to level 3, then 409; paying clears it', async () => {
		const invoice = await finalised(contactId, 80, { paymentTermsDays: 7 });
		const id = invoice.id as string;
		expect((await api('POST', `/invoicing/documents/${id}/dunning`)).body).toMatchObject({ statusCode: 409, message: 'Only overdue invoices can be dunned; this one is finalised' });
		await api('POST', `/invoicing/documents/${id}/send`);
		await world().control('POST', '/__sandbox/clock/advance', { seconds: 8 * 86_400 });
		const overdue = (await api('GET', `/invoicing/documents?status=overdue&limit=100`)).body.documents as IDataObject[];
		expect(overdue.map((document) => document.id)).toContain(id);
		const shown = overdue.find((document) => document.id === id)!;
		expect(shown.status).toBe('overdue');
		// The reference's Document names no moment of a status change: no overdueSince, no statusChangedAt.
		expect(shown).not.toHaveProperty('overdueSince');
		expect(shown).not.toHaveProperty('statusChangedAt');
		// Sending it again (a copy) keeps it overdue.
		await api('POST', `/invoicing/documents/${id}/send`, {});
		expect((await api('GET', `/invoicing/documents/${id}`)).body.status).toBe('overdue');
		for (const level of [1, 2, 3]) {
			const dunning = await api('POST', `/invoicing/documents/${id}/dunning`, { fee: 5, message: 'Please pay' });
			expect(dunning).toMatchObject({ status: 201, body: { documentId: id, dunningLevel: level, fee: 5 } });
		}
		expect((await api('POST', `/invoicing/documents/${id}/dunning`)).body).toMatchObject({ statusCode: 409, message: expect.stringMatching(/^The third and last reminder was sent on \d{4}-\d{2}-\d{2}; no further dunning level exists$/) });
		await api('POST', `/invoicing/documents/${id}/payments`, { amount: 80 });
		expect((await api('GET', `/invoicing/documents/${id}`)).body).toMatchObject({ status: 'paid', dunningLevel: 3, dunningFees: 15, amountDue: 0 });
	});
});

describe('Invoicing rules: periods', () => {
	test('a monthly schedule from the 31st bills on the last day of shorter months and on the 31st after them', async () => {
		const tenant = await freshTenant(world());
		const who = await crmParent(world(), 'contact', 'month@example.com', tenant.companyId);
		const schedule = (await api('POST', '/invoicing/recurring', { name: 'End of month', contactId: who, lineItems: [{ description: 'x', quantity: 1, unitPrice: 1 }], interval: 'monthly', startDate: '2025-01-31' }, tenant.token)).body;
		const dry = (await api('POST', '/invoicing/billing-runs', { runDate: '2025-04-15', dryRun: true, recurringIds: [schedule.id] }, tenant.token)).body;
		expect((dry.plannedDocuments as IDataObject[]).map((planned) => [planned.periodStart, planned.periodEnd])).toEqual([
			['2025-01-31', '2025-02-27'],
			['2025-02-28', '2025-03-30'],
			['2025-03-31', '2025-04-29'],
		]);
	});
});
