import type { INodeProperties } from 'n8n-workflow';

/** Fields several invoicing resources share: the same name, type and limits everywhere, their own description. */

export const currencyField = (description: string): INodeProperties => ({
	displayName: 'Currency',
	name: 'currency',
	type: 'string',
	default: '',
	placeholder: 'e.g. EUR',
	description,
});

export const paymentTermsField = (description: string): INodeProperties => ({
	displayName: 'Payment Terms (Days)',
	name: 'paymentTermsDays',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 365, numberPrecision: 0 },
	default: 14,
	description,
});

export const taxRateField = (displayName: string, name: string, description: string): INodeProperties => ({
	displayName,
	name,
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 100, numberPrecision: 2 },
	default: 19,
	description,
});

/** "Put Output File in Field" of the operations that download a file. */
export const outputFileField: INodeProperties = {
	displayName: 'Put Output File in Field',
	name: 'outputBinaryPropertyName',
	type: 'string',
	required: true,
	default: 'data',
	hint: 'The name of the output binary field to put the file in',
	description: 'The binary field of the output item that gets the file',
};
