import type { IDataObject } from 'n8n-workflow';

import { crmParent, freshTenant, FRESH_SELLER } from './harness/crm';
import { byId, useWorld, wire } from './harness/world';
import type { World } from './harness/world';

/**
 * Invoicing node: products, settings, recurring invoices, billing runs, and the monthly run end to end as chained
 * nodes (billing run → finalise → send; payment; the clock passes the due date; overdue → dunning), run twice.
 */

const world = useWorld();
const pat = () => world().seed.credentials.ownerPat;
const api = (method: string, path: string, body?: unknown, token = pat()) => world().api(method, path, token, { body });


describe('Invoicing: Product', () => {
	test('Create (tax rate from the settings when not given), Get, Update, Get Many with search; Delete removes an unused product', async () => {
		const created = await world().runNode({ resource: 'product', operation: 'create', name: 'Onboarding', unitPrice: 450, additionalFields: { sku: 'ONB', unit: 'piece' } }, world().pat());
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'POST', path: '/invoicing/products', query: '', headers: world().patHeaders(pat(), true), body: { name: 'Onboarding', unitPrice: 450, unit: 'piece', sku: 'ONB' } },
		]);
		const product = created.items[0];
		expect(product).toMatchObject({ name: 'Onboarding', unitPrice: 450, taxRate: 19, currency: 'EUR', archived: false });
		const id = product.id as string;
		expect((await world().runNode({ resource: 'product', operation: 'get', productId: byId(id) }, world().pat())).items).toEqual([product]);
		const updated = await world().runNode({ resource: 'product', operation: 'update', productId: byId(id), updateFields: { unitPrice: 475.5 } }, world().pat());
		expect(updated.items[0]).toMatchObject({ unitPrice: 475.5 });
		await world().clearRequests();
		const found = await world().runNode({ resource: 'product', operation: 'getAll', returnAll: true, filters: { search: 'onb' } }, world().pat());
		expect(found.items.map((item) => item.id)).toEqual([id]);
		expect((await world().requests()).map((request) => request.query)).toEqual(['search=onb&page=1&limit=100']);
		await world().clearRequests();
		const deleted = await world().runNode({ resource: 'product', operation: 'delete', productId: byId(id) }, world().pat());
		expect(deleted.items).toEqual([{ deleted: true }]);
		expect((await world().requests()).map((request) => [request.method, request.status])).toEqual([
			['DELETE', 204],
			['GET', 404],
		]);
	});

	test('Delete of a product on a finalised invoice archives it, and the item says so', async () => {
		const contactId = await crmParent(world(), 'contact', 'arch@example.com');
		const product = (await api('POST', '/invoicing/products', { name: 'Licence', unitPrice: 99 })).body;
		const invoice = (await api('POST', '/invoicing/documents', { type: 'invoice', contactId, lineItems: [{ productId: product.id, quantity: 1 }] })).body;
		await api('POST', `/invoicing/documents/${invoice.id as string}/finalise`);
		const { items } = await world().runNode({ resource: 'product', operation: 'delete', productId: byId(product.id as string) }, world().pat());
		expect(items).toEqual([{ deleted: false, archived: true, reason: 'A finalised document uses this product, so it was archived instead', product: { ...product, archived: true, updatedAt: expect.any(String) } }]);
	});
});

describe('Invoicing: Setting', () => {
	test('Get answers the settings; Update sends only the fields given and checks the currency and email before sending', async () => {
		const tenant = await freshTenant(world());
		const credential = world().pat(tenant.token);
		const got = await world().runNode({ resource: 'settings', operation: 'get' }, credential);
		expect(got.items[0]).toMatchObject({ companyName: null, invoiceNumberPrefix: 'INV-', paymentTermsDays: 14, defaultTaxRate: 19, currency: 'EUR', eInvoiceFormat: 'xrechnung' });
		await world().clearRequests();
		const updated = await world().runNode({ resource: 'settings', operation: 'update', updateFields: { companyName: 'Fresh Ltd.', eInvoiceFormat: 'zugferd', paymentTermsDays: 30 } }, credential);
		expect((await world().requests()).map((request) => [request.method, request.path, request.body])).toEqual([
			['PATCH', '/invoicing/settings', { companyName: 'Fresh Ltd.', eInvoiceFormat: 'zugferd', paymentTermsDays: 30 }],
		]);
		expect(updated.items[0]).toMatchObject({ companyName: 'Fresh Ltd.', eInvoiceFormat: 'zugferd', paymentTermsDays: 30 });
		await world().clearRequests();
		const bad = await world().runNode({ resource: 'settings', operation: 'update', updateFields: { currency: 'euro' } }, credential);
		expect(bad.error?.message).toBe('Currency must be an ISO 4217 currency code in capitals, such as EUR, USD or CHF; "euro" is not');
		expect(await world().requests()).toEqual([]);
	});
});

describe('Invoicing: Recurring Invoice and Billing Run', () => {
	test('Create, Get, Get Many, Update, Pause, Resume, Delete of a schedule', async () => {
		const contactId = await crmParent(world(), 'contact', 'plan@example.com');
		const created = await world().runNode(
			{
				resource: 'recurringInvoice',
				operation: 'create',
				name: 'Hosting',
				contactId: byId(contactId),
				interval: 'monthly',
				startDate: '2030-01-31T00:00:00',
				lineItemsMode: 'form',
				lineItemsForm: { line: [{ description: 'Hosting', quantity: 1, unitPrice: '49.90', taxRate: '19', discountPercent: 0 }] },
				additionalFields: { autoFinalise: true, intervalCount: 1 },
			},
			world().pat(),
		);
		expect((await world().requests()).map((request) => request.body)).toEqual([
			{ name: 'Hosting', contactId, interval: 'monthly', startDate: '2030-01-31', lineItems: [{ description: 'Hosting', quantity: 1, unitPrice: 49.9, taxRate: 19, discountPercent: 0 }], intervalCount: 1, autoFinalise: true },
		]);
		const schedule = created.items[0];
		expect(schedule).toMatchObject({ status: 'active', nextRunDate: '2030-01-31', autoFinalise: true, autoSend: false });
		const id = schedule.id as string;
		const locator = { resource: 'recurringInvoice', recurringInvoiceId: byId(id) };
		expect((await world().runNode({ ...locator, operation: 'get' }, world().pat())).items).toEqual([schedule]);
		const listed = await world().runNode({ resource: 'recurringInvoice', operation: 'getAll', returnAll: true, filters: { contactId: byId(contactId), status: 'active' } }, world().pat());
		expect(listed.items.map((item) => item.id)).toEqual([id]);
		const updated = await world().runNode({ ...locator, operation: 'update', updateFields: { endDate: '2030-03-31T00:00:00' } }, world().pat());
		expect(updated.items[0]).toMatchObject({ endDate: '2030-03-31', status: 'active' });
		expect((await world().runNode({ ...locator, operation: 'pause' }, world().pat())).items[0]).toMatchObject({ status: 'paused' });
		const pausedAgain = await world().runNode({ ...locator, operation: 'pause' }, world().pat());
		expect(pausedAgain.error?.message).toBe('Only active recurring invoices can be paused; this one is paused (HTTP 409)');
		expect((await world().runNode({ ...locator, operation: 'resume' }, world().pat())).items[0]).toMatchObject({ status: 'active', nextRunDate: '2030-01-31' });
		expect((await world().runNode({ ...locator, operation: 'delete' }, world().pat())).items).toEqual([{ deleted: true }]);
	});

	test('Billing Run Start (a dry run puts out the run, even with one item per invoice; chosen schedules), Get and Get Many', async () => {
		const tenant = await freshTenant(world());
		await api('PATCH', '/invoicing/settings', FRESH_SELLER, tenant.token);
		const who = await crmParent(world(), 'contact', 'run@example.com', tenant.companyId);
		const today = new Date().toISOString().slice(0, 10);
		const plan = (await api('POST', '/invoicing/recurring', { name: 'Plan', contactId: who, lineItems: [{ description: 'Plan', quantity: 1, unitPrice: 10 }], interval: 'monthly', startDate: today }, tenant.token)).body;
		await world().clearRequests();
		const credential = world().pat(tenant.token);
		const dry = await world().runNode({ resource: 'billingRun', operation: 'start', output: 'documents', runOptions: { dryRun: true, recurringIds: [plan.id] } }, credential);
		expect((await world().requests()).map((request) => request.body)).toEqual([{ recurringIds: [plan.id], dryRun: true }]);
		expect(dry.items).toEqual([
			expect.objectContaining({ dryRun: true, createdDocumentIds: [], plannedDocuments: [{ recurringId: plan.id, issueDate: today, periodStart: today, periodEnd: expect.any(String), grossTotal: 11.9, currency: 'EUR' }] }),
		]);
		const got = await world().runNode({ resource: 'billingRun', operation: 'get', billingRunId: byId(dry.items[0].id as string) }, credential);
		expect(got.items).toEqual(dry.items);
		const many = await world().runNode({ resource: 'billingRun', operation: 'getAll', limit: 5 }, credential);
		expect(many.items.map((item) => item.id)).toEqual([dry.items[0].id]);
		const future = await world().runNode({ resource: 'billingRun', operation: 'start', runOptions: { runDate: '2099-01-01T00:00:00' } }, credential);
		expect(future.error?.message).toBe(`runDate must not be after today (${today}) (HTTP 400)`);
	});
});

/** The monthly billing workflow: Billing Run (one item per created invoice) → Finalise → Send. */
function billingChain(): Array<{ name: string; parameters: IDataObject }> {
	const fromItem = (field: string) => ({ __rl: true, mode: 'id', value: `={{ $json.${field} }}` });
	return [
		{ name: 'Billing Run', parameters: { resource: 'billingRun', operation: 'start', output: 'documents' } },
		{ name: 'Finalise', parameters: { resource: 'document', operation: 'finalise', documentId: fromItem('documentId') } },
		{ name: 'Send', parameters: { resource: 'document', operation: 'send', documentId: fromItem('id'), sendOptions: { attachEInvoice: true } } },
	];
}

/** The dunning sweep: Get Many (overdue invoices, all) → Send Dunning. */
function dunningChain(): Array<{ name: string; parameters: IDataObject }> {
	return [
		{ name: 'Overdue', parameters: { resource: 'document', operation: 'getAll', returnAll: true, filters: { type: 'invoice', status: 'overdue' } } },
		{ name: 'Dunning', parameters: { resource: 'document', operation: 'sendDunning', documentId: { __rl: true, mode: 'id', value: '={{ $json.id }}' }, dunningOptions: { fee: 5 } } },
	];
}

async function outbox(w: World, companyId: string): Promise<IDataObject[]> {
	return (await w.control('GET', `/__sandbox/invoicing/${companyId}/outbox`)) as IDataObject[];
}

describe('Invoicing: the monthly run as chained nodes', () => {
	test('bill → finalise → send; one paid, one not; past the due date the sweep reminds the unpaid one; the whole run again bills and sends nothing', async () => {
		const tenant = await freshTenant(world());
		await api('PATCH', '/invoicing/settings', FRESH_SELLER, tenant.token);
		const today = new Date().toISOString().slice(0, 10);
		const customers = [await crmParent(world(), 'contact', 'alice@example.com', tenant.companyId), await crmParent(world(), 'contact', 'bob@example.com', tenant.companyId)];
		for (const [index, contactId] of customers.entries()) {
			const lineItems = [{ description: `Support plan ${index + 1}`, quantity: 1, unitPrice: 100 * (index + 1), taxRate: 19 }];
			await api('POST', '/invoicing/recurring', { name: `Plan ${index + 1}`, contactId, lineItems, interval: 'monthly', startDate: today, paymentTermsDays: 14 }, tenant.token);
		}
		await world().clearRequests();
		const credential = world().pat(tenant.token);

		const first = await world().runChain(billingChain(), credential);
		expect(first.error).toBeUndefined();
		expect(first.outputs['Billing Run']).toHaveLength(2);
		const year = today.slice(0, 4);
		expect(first.outputs.Finalise.map((invoice) => invoice.number)).toEqual([`INV-${year}-0001`, `INV-${year}-0002`]);
		expect(first.outputs.Send.map((invoice) => [invoice.status, invoice.grossTotal])).toEqual([
			['sent', 119],
			['sent', 238],
		]);
		const [alice, bob] = first.outputs.Send;
		expect((await outbox(world(), tenant.companyId)).map((mail) => [mail.kind, mail.to, mail.attachments])).toEqual([
			['document', 'alice@example.com', [`INV-${year}-0001.pdf`, `INV-${year}-0001.xml`]],
			['document', 'bob@example.com', [`INV-${year}-0002.pdf`, `INV-${year}-0002.xml`]],
		]);
		// Requests: the run, then one finalise and one send per invoice; nothing else.
		expect((await world().requests()).map((request) => `${request.method} ${request.path}`)).toEqual([
			'POST /invoicing/billing-runs',
			`POST /invoicing/documents/${alice.id as string}/finalise`,
			`POST /invoicing/documents/${bob.id as string}/finalise`,
			`POST /invoicing/documents/${alice.id as string}/send`,
			`POST /invoicing/documents/${bob.id as string}/send`,
		]);

		const paid = await world().runNode({ resource: 'document', operation: 'recordPayment', documentId: byId(alice.id as string), amount: 119 }, credential);
		expect(paid.error).toBeUndefined();
		await world().control('POST', '/__sandbox/clock/advance', { seconds: 15 * 86_400 });
		await world().clearRequests();

		const sweep = await world().runChain(dunningChain(), credential);
		expect(sweep.error).toBeUndefined();
		expect(sweep.outputs.Overdue.map((invoice) => invoice.id)).toEqual([bob.id]);
		expect(sweep.outputs.Dunning).toEqual([{ documentId: bob.id, dunningLevel: 1, fee: 5, sentAt: expect.any(String) }]);

		// The same month again: the billing run finds nothing due, so nothing is finalised or sent; the sweep
		// finds the reminder younger than 7 days and sends none.
		await world().clearRequests();
		const again = await world().runChain(billingChain(), credential);
		expect(again.error).toBeUndefined();
		expect(again.outputs['Billing Run']).toEqual([]);
		expect(again.outputs.Finalise).toEqual([]);
		const sweepAgain = await world().runChain(dunningChain(), credential);
		expect(sweepAgain.outputs.Dunning).toEqual([{ documentId: bob.id, number: bob.number, dunningLevel: 1, skipped: true, reason: expect.stringMatching(/^Reminder 1 was sent on or before \d{4}-\d{2}-\d{2}, when the invoice last changed, less than 7 days ago$/) }]);
		expect((await world().requests()).map((request) => `${request.method} ${request.path}`)).toEqual([
			'POST /invoicing/billing-runs',
			'GET /invoicing/documents',
			`GET /invoicing/documents/${bob.id as string}`,
		]);
		expect((await outbox(world(), tenant.companyId)).map((mail) => mail.kind)).toEqual(['document', 'document', 'dunning']);
		expect((await api('GET', '/invoicing/documents?limit=100', undefined, tenant.token)).body.total).toBe(2);
	});
});

describe('Invoicing: lists in the editor', () => {
	test('Document, Product, Recurring Invoice and Billing Run lists, the products of a line and the schedules of a run load with their names', async () => {
		const tenant = await freshTenant(world());
		await api('PATCH', '/invoicing/settings', FRESH_SELLER, tenant.token);
		const who = await crmParent(world(), 'contact', 'lists@example.com', tenant.companyId);
		const product = (await api('POST', '/invoicing/products', { name: 'Audit', unitPrice: 800, unit: 'day' }, tenant.token)).body;
		const draft = (await api('POST', '/invoicing/documents', { type: 'invoice', contactId: who, issueDate: '2026-02-03', lineItems: [{ productId: product.id, quantity: 1 }] }, tenant.token)).body;
		const schedule = (await api('POST', '/invoicing/recurring', { name: 'Audit plan', contactId: who, lineItems: [{ productId: product.id, quantity: 1 }], interval: 'quarterly', startDate: '2030-01-01' }, tenant.token)).body;
		const run = (await api('POST', '/invoicing/billing-runs', { dryRun: true }, tenant.token)).body;
		const credential = world().pat(tenant.token);
		const parameters = { resource: 'document', operation: 'get' };
		const names = async (kind: 'listSearch' | 'loadOptions', method: string, filter?: string) => {
			if (kind === 'loadOptions') {
				const loaded = await world().loadOptions(method, parameters, credential);
				expect(loaded.error).toBeUndefined();
				return (loaded.result ?? []).map((option) => [option.name, option.value]);
			}
			const loaded = await world().listSearch(method, parameters, credential, filter);
			expect(loaded.error).toBeUndefined();
			return (loaded.result?.results ?? []).map((option) => [option.name, option.value]);
		};
		expect(await names('listSearch', 'searchDocuments')).toEqual([['Draft invoice of 2026-02-03 · lists@example.com · 952.00 EUR · draft', draft.id]]);
		expect(await names('listSearch', 'searchProducts', 'aud')).toEqual([['Audit (800.00 EUR per day)', product.id]]);
		expect(await names('loadOptions', 'getProducts')).toEqual([['- None -', ''], ['Audit (800.00 EUR per day)', product.id]]);
		expect(await names('listSearch', 'searchRecurringInvoices')).toEqual([['Audit plan (quarterly, next 2030-01-01, active)', schedule.id]]);
		expect(await names('loadOptions', 'getRecurringInvoices')).toEqual([['Audit plan (quarterly, next 2030-01-01, active)', schedule.id]]);
		expect(await names('listSearch', 'searchBillingRuns')).toEqual([[`${run.runDate as string} (dry run): 0 invoices, completed`, run.id]]);
		expect(await names('listSearch', 'searchContacts')).toEqual([['lists@example.com', who]]);
	});

	test('documents name their contact; two that would still read the same get the start of their ID; each contact is read once per page', async () => {
		const tenant = await freshTenant(world());
		await api('PATCH', '/invoicing/settings', FRESH_SELLER, tenant.token);
		const ada = (await api('POST', '/crm', { email: 'ada@client.example', firstName: 'Ada', lastName: 'Lovelace' }, tenant.token)).body.item as IDataObject;
		const bob = (await api('POST', '/crm', { email: 'bob@client.example', firstName: 'Bob', lastName: 'Byte' }, tenant.token)).body.item as IDataObject;
		const draftOf = async (contactId: unknown) =>
			(await api('POST', '/invoicing/documents', { type: 'invoice', contactId, issueDate: '2026-11-25', lineItems: [{ description: 'Visit', quantity: 1, unitPrice: 120 }] }, tenant.token)).body;
		const [first, second, other] = [await draftOf(ada.id), await draftOf(ada.id), await draftOf(bob.id)];
		const sent = await draftOf(bob.id);
		await api('POST', `/invoicing/documents/${String(sent.id)}/finalise`, undefined, tenant.token);
		await world().clearRequests();
		const loaded = await world().listSearch('searchDocuments', { resource: 'document', operation: 'get' }, world().pat(tenant.token));
		expect(loaded.error).toBeUndefined();
		const byValue = Object.fromEntries((loaded.result?.results ?? []).map((option) => [option.value, option.name]));
		expect(byValue).toEqual({
			[String(first.id)]: `Draft invoice of 2026-11-25 · Ada Lovelace · 142.80 EUR · draft · ID ${String(first.id).slice(0, 8)}`,
			[String(second.id)]: `Draft invoice of 2026-11-25 · Ada Lovelace · 142.80 EUR · draft · ID ${String(second.id).slice(0, 8)}`,
			[String(other.id)]: 'Draft invoice of 2026-11-25 · Bob Byte · 142.80 EUR · draft',
			[String(sent.id)]: 'INV-2026-0001 · Bob Byte · 142.80 EUR · finalised',
		});
		const reads = (await world().requests()).map((request) => `${request.method} ${request.path}?${request.query}`);
		expect(reads.sort()).toEqual(
			['GET /invoicing/documents?page=1&limit=25', `GET /crm/details?contactId=${String(ada.id)}`, `GET /crm/details?contactId=${String(bob.id)}`].sort(),
		);
		// The contact's name is searchable too (the documents list has no search of its own: each page is filtered here).
		const bobs = await world().listSearch('searchDocuments', { resource: 'document', operation: 'get' }, world().pat(tenant.token), 'bob byte');
		expect((bobs.result?.results ?? []).map((option) => option.value).sort()).toEqual([other.id, sent.id].sort());
	});

	test('contacts that read the same (the API does not deduplicate) are told apart by the start of their ID', async () => {
		const tenant = await freshTenant(world());
		const twice = [];
		for (let index = 0; index < 2; index++) twice.push((await api('POST', '/crm', { email: 'twin@client.example', firstName: 'Tom', lastName: 'Twin' }, tenant.token)).body.item as IDataObject);
		await api('POST', '/crm', { email: 'solo@client.example', firstName: 'Sue', lastName: 'Solo' }, tenant.token);
		const loaded = await world().listSearch('searchContacts', { resource: 'document', operation: 'create' }, world().pat(tenant.token));
		expect((loaded.result?.results ?? []).map((option) => option.name).sort()).toEqual(
			['Sue Solo (solo@client.example)', ...twice.map((contact) => `Tom Twin (twin@client.example) · ID ${String(contact.id).slice(0, 8)}`)].sort(),
		);
	});
});
