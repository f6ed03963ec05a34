import type { INodeProperties } from 'n8n-workflow';

import { calendarDay } from '../../shared/dates';
import { declareResource } from '../../shared/declare';
import { outputFileField } from '../fields';

/**
 * Accounting Export (api-reference §6, designed): the finalised invoices issued and the payments paid in a date
 * range, as CSV or DATEV-style CSV, into a binary field.
 */

const from: INodeProperties = { displayName: 'From', name: 'from', type: 'dateTime', required: true, default: '', description: 'The first day of the range (issue dates of invoices, payment dates)' };

const to: INodeProperties = { displayName: 'To', name: 'to', type: 'dateTime', required: true, default: '', description: 'The last day of the range' };

const format: INodeProperties = {
	displayName: 'Format',
	name: 'format',
	type: 'options',
	options: [
		{ name: 'CSV', value: 'csv', description: 'One row per invoice and per payment' },
		{ name: 'DATEV', value: 'datev', description: 'A DATEV booking batch (EXTF) to import into accounting software' },
	],
	default: 'csv',
	description: 'The file\'s format',
};

export const { definitions: accountingExportOperations, properties: accountingExportProperties } = declareResource('accountingExport', {
	default: 'download',
	operations: {
		download: {
			option: { name: 'Download', description: 'Needs From, To and the format (CSV or DATEV); returns the file in a binary field', action: 'Download an accounting export' },
			method: 'GET',
			path: '/invoicing/accounting-export',
			query: { from: { param: 'from', convert: calendarDay }, to: { param: 'to', convert: calendarDay }, format: 'format' },
			check: ({ qs }) => (String(qs.to) < String(qs.from) ? `To (${String(qs.to)}) must not be before From (${String(qs.from)})` : undefined),
			download: {
				param: 'outputBinaryPropertyName',
				accept: 'text/csv, application/json',
				mimeType: 'text/csv',
				fallbackName: ({ qs }) => `accounting-export-${String(qs.from)}-${String(qs.to)}.csv`,
				json: ({ qs }) => ({ from: qs.from, to: qs.to, format: qs.format }),
			},
			fields: [from, to, format, outputFileField],
		},
	},
});
