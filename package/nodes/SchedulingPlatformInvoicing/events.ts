import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { declareArea } from '../shared/trigger/pollingNode';
import { enteringList } from '../shared/trigger/snapshot';
import { contactLocator, searchContacts } from '../SchedulingPlatformCrm/records';

/**
 * Invoicing events (api-reference §6, designed). The document list names no sort and a document names no moment of
 * its status change (no `statusChangedAt`): its `sentAt`, `updatedAt` and even `paidAt` (a payment may be recorded
 * with an earlier date) move or lie in the past. So each event is a document entering its filtered list (the
 * invoices of status paid, overdue; the offers of status accepted), read whole on every poll (one request per 100
 * listed documents) and compared with the IDs the last poll saw (shared/trigger/snapshot.ts, enteringList): each
 * document fires once when it reaches the status, whatever changes it later (sent again, reminders). Invoice Paid
 * is one event per paidAt: its snapshot keys are the invoice's id and paidAt, kept while the invoice is unpaid, so a
 * payment recorded anew with another date fires again and one with the same date does not, whatever the polls saw
 * in between. The fields below only order what is remembered over the bound and the newest for Fetch Test Event:
 * paidAt; the day after the due date (UTC), or the sending when later; updatedAt. The keys are those the earlier
 * release's position was kept by (carried over once).
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

/** One payment in full of an invoice: its id and paidAt (also the key the earlier release kept). */
const paidKey = (invoice: IDataObject) => `${String(invoice.id)}:${String(invoice.paidAt)}`;

const documentList = (qs: IDataObject) => ({ path: '/invoicing/documents', qs, pagination: documentPagination });

const invoiceFilters: INodeProperties = {
	displayName: 'Filters',
	name: 'invoiceFilters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options: [{ displayName: 'Contact', name: 'contact', type: 'resourceLocator', default: { mode: 'list', value: '' }, description: 'Only documents of this CRM contact', ...contactLocator }],
};

const documentsNotice: INodeProperties = {
	displayName:
		'Each document fires once when it reaches the status, however it changes later (sent again, reminders); Invoice Paid fires once for each payment date (paidAt) of an invoice paid in full. Each poll reads every document in the status (one request per 100) and remembers their IDs: 9 bytes of stored state each, at most 2,000 documents (beyond that, see the Triggers page of the manual, docs/triggers.md).',
	name: 'documentsNotice',
	type: 'notice',
	default: '',
};

/** The Scheduling Platform Invoicing Trigger's events. */
export const invoicingArea = declareArea(
	{
		/**
		 * Each paidAt of an invoice is one payment in full: a payment deleted and recorded anew with another date fires
		 * again, whether or not a poll saw the invoice unpaid in between; one recorded anew with the same date does not.
		 */
		invoicePaid: {
			option: { name: 'Invoice Paid', description: 'An invoice is paid in full' },
			read: enteringList({
				noun: 'paid invoice',
				list: documentList({ type: 'invoice', status: 'paid' }),
				filters,
				filterRecords,
				happenedAt: (invoice) => invoice.paidAt ?? undefined,
				key: paidKey,
				keyName: 'paidAt',
				keepLeft: true,
				carryOver: paidKey,
				detail,
			}),
			fields: [invoiceFilters, documentsNotice],
			fullRecord: true,
		},
		invoiceOverdue: {
			option: { name: 'Invoice Overdue', description: 'A sent invoice is past its due date with an amount due' },
			read: enteringList({
				noun: 'overdue invoice',
				list: documentList({ type: 'invoice', status: 'overdue' }),
				filters,
				filterRecords,
				happenedAt: overdueSince,
				carryOver: (invoice) => `${String(invoice.id)}:${String(invoice.dueDate)}`,
				detail,
			}),
			fields: [invoiceFilters, documentsNotice],
			fullRecord: true,
		},
		offerAccepted: {
			option: { name: 'Offer Accepted', description: 'An offer is converted into an invoice' },
			read: enteringList({
				noun: 'accepted offer',
				list: documentList({ type: 'offer', status: 'accepted' }),
				filters,
				filterRecords,
				happenedAt: (offer) => offer.updatedAt,
				carryOver: (offer) => String(offer.id),
				detail,
			}),
			fields: [invoiceFilters, documentsNotice],
			fullRecord: true,
		},
	},
	{ searchContacts },
);
