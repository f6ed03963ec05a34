import { randomUUID } from 'node:crypto';
import { page1 } from '../crm';
import { apiError } from '../errors';
import { Call, Group } from '../handler';
import { Product, tenant } from '../invoicing';

/** Invoicing products (api-reference §6, designed): what a line can be filled from. */

function tenantProduct({ store, actor, params }: Call): Product {
	const product = tenant(store, actor).products.get(params.id);
	if (!product) throw apiError(404, 'Product not found');
	return product;
}

function create({ store, actor, body }: Call): Product {
	const { settings, products } = tenant(store, actor);
	const now = store.clock.iso();
	const product: Product = {
		id: randomUUID(),
		name: body.name as string,
		description: (body.description as string | undefined) ?? null,
		unit: (body.unit as string | undefined) ?? null,
		unitPrice: body.unitPrice as number,
		taxRate: (body.taxRate as number | undefined) ?? settings.defaultTaxRate,
		sku: (body.sku as string | undefined) ?? null,
		currency: (body.currency as string | undefined) ?? settings.currency,
		archived: false,
		createdAt: now,
		updatedAt: now,
	};
	products.set(product.id, product);
	return product;
}

function list({ store, actor, query }: Call) {
	const { search, archived, page, limit } = query as { search?: string; archived: boolean; page: number; limit: number };
	const needle = search?.toLowerCase();
	const found = [...tenant(store, actor).products.values()]
		.filter((product) => product.archived === archived)
		.filter((product) => !needle || [product.name, product.sku, product.description].some((text) => text?.toLowerCase().includes(needle)));
	return page1('products', found, { page, limit, sortBy: 'name', sortOrder: 'ASC' });
}

/** A product on a finalised document is archived (the document keeps its copy of the values); else removed. */
function remove(call: Call): void {
	const product = tenantProduct(call);
	const state = tenant(call.store, call.actor);
	const used = [...state.documents.values()].some(
		(stored) => stored.status !== 'draft' && stored.document.lineItems.some((line) => line.productId === product.id),
	);
	if (!used) state.products.delete(product.id);
	else Object.assign(product, { archived: true, updatedAt: call.store.clock.iso() });
}

export const invoiceProducts: Group = {
	listProducts: list,
	createProduct: create,
	getProduct: tenantProduct,
	updateProduct: (call) => Object.assign(tenantProduct(call), call.body, { updatedAt: call.store.clock.iso() }),
	deleteProduct: remove,
};
