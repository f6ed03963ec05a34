import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult, INodePropertyOptions } from 'n8n-workflow';

import { readContact } from '../SchedulingPlatformCrm/records';
import { failWith } from '../shared/transport/answers';
import { fetchMany } from '../shared/transport/pagination';
import { apiRequest } from '../shared/transport/request';
import { each, searchPage } from '../shared/listSearch';

/**
 * "From List" loaders of the invoicing records (page1 lists, one page per call, as the CRM's) and the dropdowns
 * of line rows (products) and billing runs (recurring invoices), which read every page.
 */

const money = (value: unknown, currency: unknown) => `${Number(value ?? 0).toFixed(2)} ${String(currency ?? '')}`.trim();

/** Documents per page of the list: each page reads the names of its documents' contacts (one request per contact). */
const DOCUMENTS_PER_PAGE = 25;

function documentOption(document: IDataObject, contact: string | undefined): INodePropertyOptions {
	const kind = document.type === 'offer' ? 'Offer' : 'Invoice';
	const title = document.number ? String(document.number) : `Draft ${kind.toLowerCase()} of ${String(document.issueDate)}`;
	const parts = [title, contact, money(document.grossTotal, document.currency), String(document.status)].filter(Boolean);
	return { name: parts.join(' · '), value: String(document.id) };
}

/** The name of a CRM contact (else its email or phone), or undefined when it cannot be read (deleted, no access). */
async function contactName(ctx: ILoadOptionsFunctions, contactId: string): Promise<string | undefined> {
	try {
		const contact = readContact(await apiRequest(ctx, 0, { method: 'GET', path: '/crm/details', qs: { contactId } }), failWith(ctx.getNode()));
		const name = [contact.firstName, contact.lastName].filter(Boolean).join(' ');
		return name || String(contact.email ?? contact.phoneNumber ?? '') || undefined;
	} catch {
		return undefined;
	}
}

/** Documents with the name of their contact, so that two drafts of the same day and amount are told apart by whom they bill. */
function documentOptions(ctx: ILoadOptionsFunctions) {
	return async (documents: IDataObject[]): Promise<INodePropertyOptions[]> => {
		const contactIds = [...new Set(documents.map((document) => String(document.contactId ?? '')).filter(Boolean))];
		const names = new Map(await Promise.all(contactIds.map(async (id) => [id, await contactName(ctx, id)] as const)));
		return documents.map((document) => documentOption(document, names.get(String(document.contactId ?? ''))));
	};
}

export async function searchDocuments(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const list = { path: '/invoicing/documents', itemsKey: 'documents', pageSize: DOCUMENTS_PER_PAGE, options: documentOptions(this) };
	return await searchPage(this, list, filter, paginationToken);
}

const productOption = (product: IDataObject): INodePropertyOptions => ({
	name: `${String(product.name)} (${money(product.unitPrice, product.currency)}${product.unit ? ` per ${String(product.unit)}` : ''})`,
	value: String(product.id),
});

export async function searchProducts(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	return await searchPage(this, { path: '/invoicing/products', itemsKey: 'products', searchParam: 'search', options: each(productOption) }, filter, paginationToken);
}

const recurringOption = (recurring: IDataObject): INodePropertyOptions => ({
	name: `${String(recurring.name)} (${String(recurring.interval)}, next ${String(recurring.nextRunDate)}, ${String(recurring.status)})`,
	value: String(recurring.id),
});

export async function searchRecurringInvoices(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	return await searchPage(this, { path: '/invoicing/recurring', itemsKey: 'recurring', options: each(recurringOption) }, filter, paginationToken);
}

export async function searchBillingRuns(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const option = (run: IDataObject) => ({
		name: `${String(run.runDate)}${run.dryRun ? ' (dry run)' : ''}: ${(run.createdDocumentIds as unknown[]).length} invoices, ${String(run.status)}`,
		value: String(run.id),
	});
	return await searchPage(this, { path: '/invoicing/billing-runs', itemsKey: 'billingRuns', options: each(option) }, filter, paginationToken);
}

/** Every product that is not archived, for the Product of a line row (a dropdown: all pages are read). */
export async function getProducts(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const products = await fetchMany(this, 0, { method: 'GET', path: '/invoicing/products' }, { style: 'page1', itemsKey: 'products' });
	return [{ name: '- None -', value: '' }, ...products.map(productOption)];
}

/** Every recurring invoice, for the schedules a billing run is limited to. */
export async function getRecurringInvoices(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const recurring = await fetchMany(this, 0, { method: 'GET', path: '/invoicing/recurring' }, { style: 'page1', itemsKey: 'recurring' });
	return recurring.map(recurringOption);
}
