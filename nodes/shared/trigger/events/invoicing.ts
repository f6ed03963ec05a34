import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { TriggerArea } from '../pollingNode';
import type { WatchedEvent } from '../watch';
import { contactLocator, searchContacts } from '../../records/crm';

/**
 * Invoicing events (api-reference §6, designed). The document list names no sort, so each event reads its filtered
 * list whole on every poll (one request per 100 listed documents) and takes the event's moment from the document's
 * own fields: paidAt for a paid invoice; the day after the due date (UTC), or the sending when later, for an overdue
 * one (an invoice that becomes overdue is one event however long it stays so); updatedAt for an accepted offer (an
 * accepted offer changes no more).
 */

const documentPagination = { style: 'page1', itemsKey: 'documents' } as const;
const detail = { path: '/invoicing/documents/{id}' };
const filters = { contactId: 'invoiceFilters.contact' };
const filterRecords = { 'invoiceFilters.contact': { noun: 'contact', path: '/crm/details', qs: (id: string) => ({ contactId: id }) } };
const DAY = 24 * 60 * 60 * 1000;

/** The moment an invoice became overdue: the day after its due date, or its sending when that came later. */
function overdueSince(invoice: IDataObject): string | undefined {
	const due = typeof invoice.dueDate === 'string' ? Date.parse(`${invoice.dueDate.slice(0, 10)}T00:00:00Z`) : NaN;
	if (Number.isNaN(due)) return undefined;
	const sent = typeof invoice.sentAt === 'string' ? Date.parse(invoice.sentAt) : NaN;
	return new Date(Math.max(due + DAY, Number.isNaN(sent) ? -Infinity : sent)).toISOString();
}

const listOf = (qs: IDataObject) => ({ path: '/invoicing/documents', qs, pagination: documentPagination });

const invoicingEvents: Record<string, WatchedEvent> = {
	invoicePaid: {
		noun: 'paid invoice',
		list: listOf({ type: 'invoice', status: 'paid' }),
		unordered: true,
		filters,
		filterRecords,
		happenedAt: (invoice) => invoice.paidAt ?? undefined,
		key: (invoice) => `${String(invoice.id)}:${String(invoice.paidAt)}`,
		detail,
	},
	invoiceOverdue: {
		noun: 'overdue invoice',
		list: listOf({ type: 'invoice', status: 'overdue' }),
		unordered: true,
		filters,
		filterRecords,
		happenedAt: overdueSince,
		key: (invoice) => `${String(invoice.id)}:${String(invoice.dueDate)}`,
		detail,
	},
	offerAccepted: {
		noun: 'accepted offer',
		list: listOf({ type: 'offer', status: 'accepted' }),
		unordered: true,
		filters,
		filterRecords,
		happenedAt: (offer) => offer.updatedAt,
		detail,
	},
};

const invoicingEventOptions = [
	{ name: 'Invoice Paid', value: 'invoicePaid', description: 'An invoice is paid in full' },
	{ name: 'Invoice Overdue', value: 'invoiceOverdue', description: 'A sent invoice is past its due date with an amount due' },
	{ name: 'Offer Accepted', value: 'offerAccepted', description: 'An offer is converted into an invoice' },
];

const invoicingFilterProperties: INodeProperties[] = [
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

/** The Scheduling Platform Invoicing Trigger's events. */
export const invoicingArea: TriggerArea = {
	events: invoicingEvents,
	options: invoicingEventOptions,
	filters: invoicingFilterProperties,
	fullRecord: Object.keys(invoicingEvents),
	listSearch: { searchContacts },
};
