import type { INodeProperties } from 'n8n-workflow';

import { declareResource } from '../../shared/declare';
import { byName } from '../../shared/fields';
import type { ParamSource } from '../../shared/types';
import { currencyField, paymentTermsField, taxRateField } from '../fields';

/**
 * Settings (api-reference §6 Settings, designed): the seller on every document, number prefixes, defaults and
 * the e-invoice format. Finalising needs Company Name, Address Line 1, ZIP, City, Country and a VAT ID or Tax
 * Number; the API names what is missing.
 */

const SETTINGS = '/invoicing/settings';

interface TextSetting {
	name: string;
	label: string;
	max: number;
	description: string;
	placeholder?: string;
}

const TEXT_SETTINGS: TextSetting[] = [
	{ name: 'addressLine1', label: 'Address Line 1', max: 200, description: 'Street and number', placeholder: 'e.g. Friedrichstraße 100' },
	{ name: 'addressLine2', label: 'Address Line 2', max: 200, description: 'Further address line' },
	{ name: 'bic', label: 'BIC', max: 11, description: 'The bank\'s BIC, printed with the IBAN', placeholder: 'e.g. BYLADEM1001' },
	{ name: 'city', label: 'City', max: 100, description: 'The seller\'s city' },
	{ name: 'companyName', label: 'Company Name', max: 200, description: 'The seller\'s legal name', placeholder: 'e.g. Acme Inc.' },
	{ name: 'country', label: 'Country', max: 2, description: 'ISO 3166 two-letter code', placeholder: 'e.g. DE' },
	{ name: 'email', label: 'Email', max: 254, description: 'Where customers answer; the e-invoice\'s electronic address', placeholder: 'name@email.com' },
	{ name: 'iban', label: 'IBAN', max: 34, description: 'The account customers pay to (printed, and in the e-invoice)', placeholder: 'e.g. DE02120300000000202051' },
	{ name: 'invoiceNumberPrefix', label: 'Invoice Number Prefix', max: 10, description: 'Invoice numbers are the prefix, the year and four digits: INV-2026-0001', placeholder: 'e.g. INV-' },
	{ name: 'offerNumberPrefix', label: 'Offer Number Prefix', max: 10, description: 'Offer numbers are the prefix, the year and four digits: OFF-2026-0001', placeholder: 'e.g. OFF-' },
	{ name: 'taxNumber', label: 'Tax Number', max: 30, description: 'The seller\'s tax number (a VAT ID or this is needed)' },
	{ name: 'vatId', label: 'VAT ID', max: 14, description: 'The seller\'s VAT identification number', placeholder: 'e.g. DE123456789' },
	{ name: 'zip', label: 'ZIP', max: 20, description: 'The seller\'s postal code' },
];

function bodyOf(): Record<string, ParamSource> {
	const body: Record<string, ParamSource> = {
		currency: { param: 'updateFields.currency', check: 'currency' },
		defaultTaxRate: 'updateFields.defaultTaxRate',
		eInvoiceFormat: 'updateFields.eInvoiceFormat',
		paymentTermsDays: 'updateFields.paymentTermsDays',
	};
	for (const setting of TEXT_SETTINGS) {
		body[setting.name] = { param: `updateFields.${setting.name}`, check: setting.name === 'email' ? ['email', { maxLength: setting.max }] : { maxLength: setting.max } };
	}
	return body;
}

const textOptions: INodeProperties[] = TEXT_SETTINGS.map((setting) => ({
	displayName: setting.label,
	name: setting.name,
	type: 'string',
	default: '',
	description: setting.description,
	...(setting.placeholder ? { placeholder: setting.placeholder } : {}),
}));

const updateFields: INodeProperties = {
	displayName: 'Update Fields',
	name: 'updateFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: byName([
		...textOptions,
		{ ...currencyField('ISO 4217 code of new documents and products'), default: 'EUR' },
		taxRateField('Default Tax Rate (%)', 'defaultTaxRate', 'The VAT rate of lines that name none (and no product)'),
		{
			displayName: 'E-Invoice Format',
			name: 'eInvoiceFormat',
			type: 'options',
			options: [
				{ name: 'XRechnung (UBL)', value: 'xrechnung' },
				{ name: 'ZUGFeRD / Factur-X (CII)', value: 'zugferd' },
			],
			default: 'xrechnung',
			description: 'The XML format of e-invoices',
		},
		paymentTermsField('Days from issue to due date when a document names none'),
	]),
};

export const { definitions: settingsOperations, properties: settingsProperties } = declareResource('settings', {
	default: 'get',
	operations: {
		get: {
			option: { name: 'Get', description: 'Needs nothing; returns the seller, numbering, terms, tax and e-invoice settings', action: 'Get the invoicing settings' },
			method: 'GET',
			path: SETTINGS,
		},
		update: {
			option: { name: 'Update', description: 'Needs the settings to change; returns the settings', action: 'Update the invoicing settings' },
			method: 'PATCH',
			path: SETTINGS,
			body: bodyOf(),
			fields: [updateFields],
		},
	},
});
