import type { INodeProperties } from 'n8n-workflow';

import { calendarDay } from '../../shared/dates';
import type { ResourceDefinitions } from '../../shared/types';
import { outputFileField } from '../fields';

/**
 * Accounting Export (api-reference §6, designed): the finalised invoices issued and the payments paid in a date
 * range, as CSV or DATEV-style CSV, into a binary field.
 */

export const accountingExportOperations: ResourceDefinitions = {
	download: {
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
	},
};

const show = { show: { resource: ['accountingExport'], operation: ['download'] } };

export const accountingExportProperties: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['accountingExport'] } },
		options: [{ name: 'Download', value: 'download', description: 'Needs From, To and the format (CSV or DATEV); returns the file in a binary field', action: 'Download an accounting export' }],
		default: 'download',
	},
	{ displayName: 'From', name: 'from', type: 'dateTime', required: true, default: '', displayOptions: show, description: 'The first day of the range (issue dates of invoices, payment dates)' },
	{ displayName: 'To', name: 'to', type: 'dateTime', required: true, default: '', displayOptions: show, description: 'The last day of the range' },
	{
		displayName: 'Format',
		name: 'format',
		type: 'options',
		options: [
			{ name: 'CSV', value: 'csv', description: 'One row per invoice and per payment' },
			{ name: 'DATEV', value: 'datev', description: 'A DATEV booking batch (EXTF) to import into accounting software' },
		],
		default: 'csv',
		displayOptions: show,
		description: 'The file\'s format',
	},
	outputFileField(show),
];
