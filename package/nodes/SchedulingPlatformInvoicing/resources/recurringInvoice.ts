import type { INodeProperties } from 'n8n-workflow';

import { byName } from '../../shared/fields';
import { calendarDay } from '../../shared/dates';
import { declareResource } from '../../shared/declare';
import { returnAllFields } from '../../shared/getMany';
import type { ParamSource } from '../../shared/types';
import { lineItemsProperties, lineItemsSource } from '../lines';
import { currencyField, paymentTermsField } from '../fields';
import { recurringInvoiceLocator } from '../locators';
import { contactOrEmailLocator } from '../../SchedulingPlatformCrm/records';
import { locatorField } from '../../shared/locators';

/**
 * Recurring Invoice (api-reference §6 Recurring, designed): lines billed every interval from the start date by
 * billing runs. Pause and Resume: periods that pass while paused are not billed.
 */

const RECURRING = '/invoicing/recurring';
const ONE = `${RECURRING}/{id}`;
const recurringId = { id: 'recurringInvoiceId' };

function scheduleFields(group: string): Record<string, ParamSource> {
	return {
		intervalCount: `${group}.intervalCount`,
		endDate: { param: `${group}.endDate`, convert: calendarDay },
		currency: { param: `${group}.currency`, check: 'currency' },
		paymentTermsDays: `${group}.paymentTermsDays`,
		autoFinalise: `${group}.autoFinalise`,
		autoSend: `${group}.autoSend`,
	};
}

const INTERVALS = [
	{ name: 'Monthly', value: 'monthly' },
	{ name: 'Quarterly', value: 'quarterly' },
	{ name: 'Weekly', value: 'weekly' },
	{ name: 'Yearly', value: 'yearly' },
];

function scheduleOptions(): INodeProperties[] {
	return [
		{ displayName: 'Auto Finalise', name: 'autoFinalise', type: 'boolean', default: false, description: 'Whether billing runs finalise the invoices they make' },
		{ displayName: 'Auto Send', name: 'autoSend', type: 'boolean', default: false, description: 'Whether billing runs also send them (finalising first)' },
		currencyField('ISO 4217 code (empty: the settings\' currency)'),
		{ displayName: 'End Date', name: 'endDate', type: 'dateTime', default: '', description: 'The last day a period may start; then the schedule ends' },
		{
			displayName: 'Interval Count',
			name: 'intervalCount',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 12, numberPrecision: 0 },
			default: 1,
			description: 'Bill every this many intervals (2 with Monthly: every other month)',
		},
		paymentTermsField('Days to pay each invoice (not set: the settings\' terms)'),
	];
}

const name: INodeProperties = { displayName: 'Name', name: 'name', type: 'string', required: true, default: '', placeholder: 'e.g. Support plan', description: 'What the schedule bills' };

const contactId: INodeProperties = { ...locatorField('Contact', 'contactId', 'The CRM contact who is billed', contactOrEmailLocator), required: true };

const interval: INodeProperties = { displayName: 'Interval', name: 'interval', type: 'options', options: INTERVALS, default: 'monthly', required: true, description: 'How often it bills' };

const startDate: INodeProperties = { displayName: 'Start Date', name: 'startDate', type: 'dateTime', required: true, default: '', description: 'The first period\'s day; the next periods count from it' };

const additionalFields: INodeProperties = { displayName: 'Additional Fields', name: 'additionalFields', type: 'collection', placeholder: 'Add Field', default: {}, options: scheduleOptions() };

const recurringInvoiceId: INodeProperties = { ...locatorField('Recurring Invoice', 'recurringInvoiceId', 'The schedule to use', recurringInvoiceLocator), required: true };

const updateFields: INodeProperties = {
	displayName: 'Update Fields',
	name: 'updateFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: byName([
		...scheduleOptions(),
		{ displayName: 'Interval', name: 'interval', type: 'options', options: INTERVALS, default: 'monthly', description: 'How often it bills' },
		{ displayName: 'Name', name: 'name', type: 'string', default: '', description: 'What the schedule bills' },
		{ displayName: 'Start Date', name: 'startDate', type: 'dateTime', default: '', description: 'The first period\'s day (only before the first billing run)' },
	]),
};

const filters: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options: [
		locatorField('Contact', 'contactId', 'Only the schedules of this CRM contact', contactOrEmailLocator),
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			options: [
				{ name: 'Active', value: 'active' },
				{ name: 'Ended', value: 'ended' },
				{ name: 'Paused', value: 'paused' },
			],
			default: 'active',
			description: 'Only schedules in this status',
		},
	],
};

export const { definitions: recurringInvoiceOperations, properties: recurringInvoiceProperties } = declareResource('recurringInvoice', {
	default: 'create',
	operations: {
		create: {
			option: {
				name: 'Create',
				description: 'Needs Name, Contact, Interval, Start Date and the line items; returns the schedule',
				action: 'Create a recurring invoice',
			},
			method: 'POST',
			path: RECURRING,
			body: {
				name: { param: 'name', check: ['required', { maxLength: 200 }] },
				contactId: { param: 'contactId', check: 'required' },
				interval: 'interval',
				startDate: { param: 'startDate', convert: calendarDay },
				lineItems: lineItemsSource,
				...scheduleFields('additionalFields'),
			},
			fields: [name, contactId, interval, startDate, ...lineItemsProperties(false), additionalFields],
		},
		delete: {
			option: { name: 'Delete', description: 'Needs the schedule (its invoices stay); returns { deleted: true }', action: 'Delete a recurring invoice' },
			method: 'DELETE',
			path: ONE,
			pathParams: recurringId,
			fields: [recurringInvoiceId],
		},
		get: {
			option: { name: 'Get', description: 'Needs the schedule ID; returns the schedule', action: 'Get a recurring invoice by ID' },
			method: 'GET',
			path: ONE,
			pathParams: recurringId,
			fields: [recurringInvoiceId],
		},
		getAll: {
			option: { name: 'Get Many', description: 'Filters by status or contact; returns one item per schedule', action: 'Get many recurring invoices' },
			method: 'GET',
			path: RECURRING,
			query: { status: 'filters.status', contactId: 'filters.contactId' },
			pagination: { style: 'page1', itemsKey: 'recurring' },
			fields: [...returnAllFields(), filters],
		},
		pause: {
			option: { name: 'Pause', description: 'Needs the schedule; returns the schedule, paused', action: 'Pause a recurring invoice' },
			method: 'POST',
			path: `${ONE}/pause`,
			pathParams: recurringId,
			fields: [recurringInvoiceId],
		},
		resume: {
			option: { name: 'Resume', description: 'Needs a paused schedule (periods missed are not billed); returns the schedule', action: 'Resume a recurring invoice' },
			method: 'POST',
			path: `${ONE}/resume`,
			pathParams: recurringId,
			fields: [recurringInvoiceId],
		},
		update: {
			option: { name: 'Update', description: 'Needs the schedule and the fields or lines to change; returns the schedule', action: 'Update a recurring invoice' },
			method: 'PATCH',
			path: ONE,
			pathParams: recurringId,
			body: {
				name: { param: 'updateFields.name', check: { maxLength: 200 } },
				interval: 'updateFields.interval',
				startDate: { param: 'updateFields.startDate', convert: calendarDay },
				lineItems: lineItemsSource,
				...scheduleFields('updateFields'),
			},
			fields: [recurringInvoiceId, ...lineItemsProperties(true), updateFields],
		},
	},
});
