import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult, INodePropertyOptions } from 'n8n-workflow';

import { searchPage } from '../SchedulingPlatformCrm/listSearch';
import { fetchMany } from '../shared/transport/pagination';

/**
 * "From List" loaders of the invoicing records (page1 lists, one page per call, as the CRM's) and the dropdowns
 * of line rows (products) and billing runs (recurring invoices), which read every page.
 */

const money = (value: unknown, currency: unknown) => `${Number(value ?? 0).toFixed(2)} ${String(currency ?? '')}`.trim();

function documentOption(document: IDataObject): INodePropertyOptions {
	const kind = document.type === 'offer' ? 'Offer' : 'Invoice';
	const title = document.number ? String(document.number) : `Draft ${kind.toLowerCase()} of ${String(document.issueDate)}`;
	return { name: `${title} · ${money(document.grossTotal, document.currency)} · ${String(document.status)}`, value: String(document.id) };
}

export async function searchDocuments(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	return await searchPage(this, { path: '/invoicing/documents', itemsKey: 'documents', option: documentOption }, filter, paginationToken);
}

const productOption = (product: IDataObject): INodePropertyOptions => ({
	name: `${String(product.name)} (${money(product.unitPrice, product.currency)}${product.unit ? ` per ${String(product.unit)}` : ''})`,
	value: String(product.id),
});

export async function searchProducts(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	return await searchPage(this, { path: '/invoicing/products', itemsKey: 'products', searchParam: 'search', option: productOption }, filter, paginationToken);
}

const recurringOption = (recurring: IDataObject): INodePropertyOptions => ({
	name: `${String(recurring.name)} (${String(recurring.interval)}, next ${String(recurring.nextRunDate)}, ${String(recurring.status)})`,
	value: String(recurring.id),
});

export async function searchRecurringInvoices(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	return await searchPage(this, { path: '/invoicing/recurring', itemsKey: 'recurring', option: recurringOption }, filter, paginationToken);
}

export async function searchBillingRuns(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const option = (run: IDataObject) => ({
		name: `${String(run.runDate)}${run.dryRun ? ' (dry run)' : ''}: ${(run.createdDocumentIds as unknown[]).length} invoices, ${String(run.status)}`,
		value: String(run.id),
	});
	return await searchPage(this, { path: '/invoicing/billing-runs', itemsKey: 'billingRuns', option }, filter, paginationToken);
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
