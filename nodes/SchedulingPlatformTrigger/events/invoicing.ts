import type { INodeProperties } from 'n8n-workflow';

import type { WatchedEvent } from '../../shared/trigger/watch';
import { contactLocator } from '../../SchedulingPlatformCrm/locators';

/**
 * Invoicing events (api-reference §6, designed sorts): documents newest first by the moment of their state.
 * Paid and accepted are status changes (`statusChangedAt`: paid again after a deleted payment is a new event);
 * overdue is derived by the API from the due date, `overdueSince` being the day after it (or the sending, when
 * later): an invoice that becomes overdue is one event, however long it stays so.
 */

const documentPagination = { style: 'page1', itemsKey: 'documents' } as const;
const detail = { path: '/invoicing/documents/{id}' };
const filters = { contactId: 'invoiceFilters.contact' };

export const invoicingEvents: Record<string, WatchedEvent> = {
	invoicePaid: {
		noun: 'paid invoice',
		list: { path: '/invoicing/documents', qs: { type: 'invoice', status: 'paid', sortBy: 'statusChangedAt', sortOrder: 'DESC' }, pagination: documentPagination },
		filters,
		happenedAt: (invoice) => (invoice.status === 'paid' ? invoice.statusChangedAt : undefined),
		key: (invoice) => `${String(invoice.id)}:${String(invoice.statusChangedAt)}`,
		detail,
	},
	invoiceOverdue: {
		noun: 'overdue invoice',
		list: { path: '/invoicing/documents', qs: { type: 'invoice', status: 'overdue', sortBy: 'overdueSince', sortOrder: 'DESC' }, pagination: documentPagination },
		filters,
		happenedAt: (invoice) => invoice.overdueSince,
		key: (invoice) => `${String(invoice.id)}:${String(invoice.dueDate)}`,
		detail,
	},
	offerAccepted: {
		noun: 'accepted offer',
		list: { path: '/invoicing/documents', qs: { type: 'offer', status: 'accepted', sortBy: 'statusChangedAt', sortOrder: 'DESC' }, pagination: documentPagination },
		filters,
		happenedAt: (offer) => (offer.status === 'accepted' ? offer.statusChangedAt : undefined),
		detail,
	},
};

export const invoicingEventOptions = [
	{ name: 'Invoice Paid', value: 'invoicePaid', description: 'An invoice is paid in full' },
	{ name: 'Invoice Overdue', value: 'invoiceOverdue', description: 'A sent invoice is past its due date with an amount due' },
	{ name: 'Offer Accepted', value: 'offerAccepted', description: 'An offer is converted into an invoice' },
];

export const invoicingFilterProperties: INodeProperties[] = [
	{
		displayName: 'Filters',
		name: 'invoiceFilters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show: { event: ['invoicePaid', 'invoiceOverdue', 'offerAccepted'] } },
		options: [{ displayName: 'Contact', name: 'contact', type: 'resourceLocator', default: { mode: 'list', value: '' }, description: 'Only documents of this CRM contact', ...contactLocator }],
	},
];
