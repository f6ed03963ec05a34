import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { declareResource } from '../../shared/declare';
import { byName } from '../../shared/fields';
import { returnAllFields } from '../../shared/getMany';
import type { OperationCall, ParamSource } from '../../shared/types';
import { locatorField } from '../../shared/locators';
import { currencyField, taxRateField } from '../fields';
import { productLocator } from '../locators';

/**
 * Product (api-reference §6 Products, designed): what a line can be filled from. Delete removes a product, or
 * archives it when a finalised document uses it (the API answers 204 either way): the node reads it back and
 * says which happened.
 */

const PRODUCTS = '/invoicing/products';
const PRODUCT = `${PRODUCTS}/{id}`;
const productId = { id: 'productId' };

function productFields(group: string): Record<string, ParamSource> {
	return {
		description: { param: `${group}.description`, check: { maxLength: 1000 } },
		unit: { param: `${group}.unit`, check: { maxLength: 20 } },
		taxRate: `${group}.taxRate`,
		sku: { param: `${group}.sku`, check: { maxLength: 64 } },
		currency: { param: `${group}.currency`, check: 'currency' },
	};
}

/** Delete, then read: 404 means deleted; a product still there was archived (a finalised document uses it). */
async function deleteOrArchive(call: OperationCall): Promise<IDataObject[]> {
	await call.send(call.request);
	const gone = (error: { httpCode?: string }) => (error.httpCode === '404' ? undefined : Promise.reject(error));
	const product = (await call.send({ method: 'GET', path: PRODUCT, pathParams: call.request.pathParams }).catch(gone)) as IDataObject | undefined;
	if (!product) return [{ deleted: true }];
	return [{ deleted: false, archived: true, reason: 'A finalised document uses this product, so it was archived instead', product }];
}

const unitPrice = (required: boolean): INodeProperties => ({
	displayName: 'Unit Price',
	name: 'unitPrice',
	type: 'number',
	required,
	typeOptions: { minValue: 0, numberPrecision: 4 },
	default: 0,
	description: 'The net price of one unit (up to 4 decimals)',
});

function productOptions(): INodeProperties[] {
	return [
		currencyField('ISO 4217 code (empty: the settings\' currency)'),
		{ displayName: 'Description', name: 'description', type: 'string', typeOptions: { rows: 2 }, default: '', description: 'Printed after the name on a line' },
		{ displayName: 'SKU', name: 'sku', type: 'string', default: '', placeholder: 'e.g. CONS-H', description: 'Your article number' },
		taxRateField('Tax Rate (%)', 'taxRate', 'The VAT rate of the product (not set: the settings\' Default Tax Rate)'),
		{ displayName: 'Unit', name: 'unit', type: 'string', default: '', placeholder: 'e.g. hour', description: 'The unit a quantity counts' },
	];
}

const name: INodeProperties = { displayName: 'Name', name: 'name', type: 'string', required: true, default: '', placeholder: 'e.g. Consulting hour', description: 'The product\'s name, printed on lines' };

const additionalFields: INodeProperties = { displayName: 'Additional Fields', name: 'additionalFields', type: 'collection', placeholder: 'Add Field', default: {}, options: productOptions() };

const productLocatorField: INodeProperties = { ...locatorField('Product', 'productId', 'The product to use', productLocator), required: true };

const updateFields: INodeProperties = {
	displayName: 'Update Fields',
	name: 'updateFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: byName([
		{ displayName: 'Archived', name: 'archived', type: 'boolean', default: false, description: 'Whether the product is archived (archived products cannot go on new lines)' },
		{ displayName: 'Name', name: 'name', type: 'string', default: '', description: 'The product\'s name' },
		...productOptions(),
		unitPrice(false),
	]),
};

const filters: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options: [
		{ displayName: 'Archived', name: 'archived', type: 'boolean', default: true, description: 'Whether to list the archived products instead of the others' },
		{ displayName: 'Search', name: 'search', type: 'string', default: '', description: 'Text in the name, SKU or description' },
	],
};

export const { definitions: productOperations, properties: productProperties } = declareResource('product', {
	default: 'create',
	operations: {
		create: {
			option: { name: 'Create', description: 'Needs Name and Unit Price; returns the product', action: 'Create a product' },
			method: 'POST',
			path: PRODUCTS,
			body: { name: { param: 'name', check: ['required', { maxLength: 200 }] }, unitPrice: 'unitPrice', ...productFields('additionalFields') },
			fields: [name, unitPrice(true), additionalFields],
		},
		delete: {
			option: { name: 'Delete', description: 'Needs the product; returns deleted, or archived when a finalised document uses it', action: 'Delete a product' },
			method: 'DELETE',
			path: PRODUCT,
			pathParams: productId,
			perform: deleteOrArchive,
			fields: [productLocatorField],
		},
		get: {
			option: { name: 'Get', description: 'Needs the product ID; returns the product', action: 'Get a product by ID' },
			method: 'GET',
			path: PRODUCT,
			pathParams: productId,
			fields: [productLocatorField],
		},
		getAll: {
			option: { name: 'Get Many', description: 'Filters by search or archived; returns one item per product', action: 'Get many products' },
			method: 'GET',
			path: PRODUCTS,
			query: { search: 'filters.search', archived: 'filters.archived' },
			pagination: { style: 'page1', itemsKey: 'products' },
			fields: [...returnAllFields(), filters],
		},
		update: {
			option: { name: 'Update', description: 'Needs the product and the fields to change; returns the product', action: 'Update a product' },
			method: 'PATCH',
			path: PRODUCT,
			pathParams: productId,
			body: { name: { param: 'updateFields.name', check: { maxLength: 200 } }, unitPrice: 'updateFields.unitPrice', archived: 'updateFields.archived', ...productFields('updateFields') },
			fields: [productLocatorField, updateFields],
		},
	},
});
