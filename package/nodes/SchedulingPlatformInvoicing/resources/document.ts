import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { calendarDay, dateTime } from '../../shared/dates';
import { declareResource } from '../../shared/declare';
import { emailList } from '../../shared/inputChecks';
import { returnAllFields } from '../../shared/getMany';
import { simplifyOption } from '../../shared/simplify';
import type { OperationCall, ParamSource } from '../../shared/types';
import { lineItemsProperties, lineItemsSource } from '../lines';
import { currencyField, outputFileField, paymentTermsField } from '../fields';
import { documentLocator } from '../locators';
import { companyLocator, contactOrEmailLocator, dealLocator } from '../../SchedulingPlatformCrm/records';
import { locatorField } from '../../shared/locators';

/**
 * Document (api-reference §6 Documents, designed): offers and invoices from draft to paid. Drafts change;
 * Finalise numbers them; Send, Record Payment, Send Dunning, Cancel and Convert follow the API's status rules
 * (its 409 answers name the status). Download PDF and Download E-Invoice put the file into a binary field.
 * Send Dunning reads the invoice first and sends nothing when its last reminder is younger than the wait the
 * node is given, so a dunning sweep run twice does not remind twice.
 */

const DOCUMENTS = '/invoicing/documents';
const DOCUMENT = `${DOCUMENTS}/{id}`;
const FINALISE = `${DOCUMENT}/finalise`;
const documentId = { id: 'documentId' };

/**
 * What Simplify keeps of an offer or invoice (api-reference §6 Document): its kind, status and number, the contact and
 * deal it belongs to, its dates and the money (gross total, amount still due). The lines: Simplify off.
 */
const SIMPLE_DOCUMENT = ['id', 'type', 'status', 'number', 'contactId', 'dealId', 'currency', 'issueDate', 'dueDate', 'grossTotal', 'amountDue'];

/** The fields Create and Update share, from a collection (additionalFields or updateFields). */
function documentFields(group: string): Record<string, ParamSource> {
	return {
		currency: { param: `${group}.currency`, check: 'currency' },
		issueDate: { param: `${group}.issueDate`, convert: calendarDay },
		dueDate: { param: `${group}.dueDate`, convert: calendarDay },
		paymentTermsDays: `${group}.paymentTermsDays`,
		introText: { param: `${group}.introText`, check: { maxLength: 5000 } },
		closingText: { param: `${group}.closingText`, check: { maxLength: 5000 } },
		dealId: `${group}.dealId`,
		crmCompanyId: `${group}.crmCompanyId`,
	};
}

/** Due Date and Payment Terms say the same thing: one of them. */
function oneDueRule(request: OperationCall['request']): string | undefined {
	const body = request.body!;
	return body.dueDate !== undefined && body.paymentTermsDays !== undefined ? 'Give either Due Date or Payment Terms (Days), not both' : undefined;
}

/** Days between two ISO moments, whole days rounded down. */
const daysSince = (moment: string, now: number) => Math.floor((now - Date.parse(moment)) / 86_400_000);

/**
 * Send Dunning: the invoice is read first; while it has a reminder and changed less than Minimum Days Between
 * Reminders ago, none is sent (the item comes out with `skipped` and why), so a sweep that runs twice sends one
 * reminder. The Document of the reference has no date of its last reminder: its `updatedAt` is the latest that
 * reminder can be (a later change, such as a payment, waits the days out too).
 */
async function dunOnce(call: OperationCall): Promise<IDataObject[]> {
	const id = String(call.request.pathParams!.id);
	const waitDays = Number(call.values.minimumDays ?? 0);
	const document = (await call.send({ method: 'GET', path: `${DOCUMENTS}/{id}`, pathParams: { id } })) as IDataObject;
	const last = Number(document.dunningLevel ?? 0) > 0 && typeof document.updatedAt === 'string' ? document.updatedAt : undefined;
	if (last && waitDays > 0 && daysSince(last, Date.now()) < waitDays) {
		const reason = `Reminder ${String(document.dunningLevel)} was sent on or before ${last.slice(0, 10)}, when the invoice last changed, less than ${waitDays} days ago`;
		return [{ documentId: id, number: document.number ?? null, dunningLevel: document.dunningLevel, skipped: true, reason }];
	}
	return [(await call.send(call.request)) as IDataObject];
}

/**
 * Send: with Finalise Draft First on, the document is read and finalised only while it is a draft (one finalised or
 * sent already is left as it is: a second run finalises nothing), then sent.
 */
async function finaliseAndSend(call: OperationCall): Promise<IDataObject[]> {
	const pathParams = call.request.pathParams!;
	if (call.values.finaliseDraft === true) {
		const document = (await call.send({ method: 'GET', path: DOCUMENT, pathParams })) as IDataObject;
		if (document.status === 'draft') await call.send({ method: 'POST', path: FINALISE, pathParams });
	}
	return [(await call.send(call.request)) as IDataObject];
}

const file = (kind: 'pdf' | 'xml') => ({
	param: 'outputBinaryPropertyName',
	accept: kind === 'pdf' ? 'application/pdf, application/json' : 'application/xml, application/json',
	mimeType: kind === 'pdf' ? 'application/pdf' : 'application/xml',
	fallbackName: ({ pathParams }: { pathParams: Record<string, string> }) => `${pathParams.id}.${kind}`,
	json: ({ pathParams, qs }: { pathParams: Record<string, string>; qs: IDataObject }): IDataObject => ({ documentId: pathParams.id, ...(qs.format ? { format: qs.format } : {}) }),
});

const TYPES = [
	{ name: 'Invoice', value: 'invoice' },
	{ name: 'Offer', value: 'offer' },
];

const STATUSES = [
	{ name: 'Accepted (Offers)', value: 'accepted' },
	{ name: 'Cancelled', value: 'cancelled' },
	{ name: 'Declined (Offers)', value: 'declined' },
	{ name: 'Draft', value: 'draft' },
	{ name: 'Expired (Offers)', value: 'expired' },
	{ name: 'Finalised', value: 'finalised' },
	{ name: 'Overdue (Invoices)', value: 'overdue', description: 'Sent, not fully paid, past the due date' },
	{ name: 'Paid', value: 'paid' },
	{ name: 'Partially Paid', value: 'partially_paid' },
	{ name: 'Sent', value: 'sent' },
];

const PAYMENT_METHODS = [
	{ name: 'Bank Transfer', value: 'bank_transfer' },
	{ name: 'Card', value: 'card' },
	{ name: 'Cash', value: 'cash' },
	{ name: 'Other', value: 'other' },
	{ name: 'PayPal', value: 'paypal' },
];

/** The options of Create's Additional Fields and Update's Update Fields. */
function documentOptions(): INodeProperties[] {
	return [
		locatorField('CRM Company', 'crmCompanyId', 'The CRM company the document is addressed to (its name is printed as the buyer)', companyLocator),
		{ displayName: 'Closing Text', name: 'closingText', type: 'string', typeOptions: { rows: 3 }, default: '', description: 'Text printed below the totals' },
		currencyField('ISO 4217 code (empty: the settings\' currency)'),
		locatorField('Deal', 'dealId', 'The CRM deal the document belongs to', dealLocator),
		{ displayName: 'Due Date', name: 'dueDate', type: 'dateTime', default: '', description: 'When payment is due (an offer: valid until). Or Payment Terms (Days), not both.' },
		{ displayName: 'Intro Text', name: 'introText', type: 'string', typeOptions: { rows: 3 }, default: '', description: 'Text printed above the lines' },
		{ displayName: 'Issue Date', name: 'issueDate', type: 'dateTime', default: '', description: 'The document\'s date (empty: the day it is finalised)' },
		paymentTermsField('Days from the issue date to the due date (without this or Due Date: the settings\' terms)'),
	];
}

const type: INodeProperties = {
	displayName: 'Type',
	name: 'type',
	type: 'options',
	options: TYPES,
	default: 'invoice',
	required: true,
	description: 'Whether the document is an invoice or an offer',
};

const contactId: INodeProperties = { ...locatorField('Contact', 'contactId', 'The CRM contact who gets the document (the buyer)', contactOrEmailLocator), required: true };

const additionalFields: INodeProperties = {
	displayName: 'Additional Fields',
	name: 'additionalFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: documentOptions(),
};

const documentLocatorField: INodeProperties = { ...locatorField('Document', 'documentId', 'The offer or invoice to use', documentLocator), required: true };

const updateFields: INodeProperties = {
	displayName: 'Update Fields',
	name: 'updateFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [locatorField('Contact', 'contactId', 'The CRM contact who gets the document', contactOrEmailLocator), ...documentOptions()],
};

const amount: INodeProperties = {
	displayName: 'Amount',
	name: 'amount',
	type: 'number',
	required: true,
	typeOptions: { minValue: 0.01, numberPrecision: 2 },
	default: 0,
	description: 'The amount paid, at most the amount due (a larger amount is refused by the API)',
};

const paymentFields: INodeProperties = {
	displayName: 'Payment Fields',
	name: 'paymentFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [
		{ displayName: 'Method', name: 'method', type: 'options', options: PAYMENT_METHODS, default: 'bank_transfer', description: 'How it was paid' },
		{ displayName: 'Paid At', name: 'paidAt', type: 'dateTime', default: '', description: 'When it was paid (empty: now). Without an offset, read in the workflow\'s time zone.' },
		{ displayName: 'Reference', name: 'reference', type: 'string', default: '', placeholder: 'e.g. Bank reference 2026-11-0042', description: 'The bank or payment provider\'s reference' },
	],
};

const paymentId: INodeProperties = {
	displayName: 'Payment ID',
	name: 'paymentId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 3b9d6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f',
	description: 'The payment to remove (Get Payments lists them)',
};

const finaliseDraft: INodeProperties = {
	displayName: 'Finalise Draft First',
	name: 'finaliseDraft',
	type: 'boolean',
	default: false,
	description: 'Whether to finalise the document first when it is still a draft (a draft cannot be sent). A document finalised already is sent as it is, so running the node again finalises nothing twice.',
};

const sendOptions: INodeProperties = {
	displayName: 'Send Options',
	name: 'sendOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{ displayName: 'Attach E-Invoice', name: 'attachEInvoice', type: 'boolean', default: false, description: 'Whether to attach the e-invoice XML besides the PDF (invoices only)' },
		{ displayName: 'CC', name: 'cc', type: 'string', default: '', placeholder: 'e.g. accounts@example.com', description: 'Further recipients, separated by commas (at most 10)' },
		{ displayName: 'Message', name: 'message', type: 'string', typeOptions: { rows: 4 }, default: '', description: 'The email\'s text' },
		{ displayName: 'Subject', name: 'subject', type: 'string', default: '', description: 'The email\'s subject (empty: the document type, number and your company)' },
		{ displayName: 'To', name: 'to', type: 'string', default: '', placeholder: 'name@email.com', description: 'The recipient (empty: the contact\'s email)' },
	],
};

const minimumDaysBetweenReminders: INodeProperties = {
	displayName: 'Minimum Days Between Reminders',
	name: 'minimumDaysBetweenReminders',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 365, numberPrecision: 0 },
	default: 7,
	description: 'No reminder is sent while the invoice has one and changed less than this many days ago (the API gives no date of the last reminder; the item says why); 0 always sends. Keeps a sweep that runs twice from reminding twice.',
};

const dunningOptions: INodeProperties = {
	displayName: 'Dunning Options',
	name: 'dunningOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{ displayName: 'Fee', name: 'fee', type: 'number', typeOptions: { minValue: 0, maxValue: 10000, numberPrecision: 2 }, default: 0, description: 'A dunning fee, recorded on the invoice (not added to the amount due)' },
		{ displayName: 'Message', name: 'message', type: 'string', typeOptions: { rows: 4 }, default: '', description: 'The reminder\'s text' },
	],
};

const reason: INodeProperties = {
	displayName: 'Reason',
	name: 'reason',
	type: 'string',
	default: '',
	placeholder: 'e.g. Issued to the wrong customer',
	description: 'Why the document is cancelled',
};

const eInvoiceFormat: INodeProperties = {
	displayName: 'Format',
	name: 'eInvoiceFormat',
	type: 'options',
	options: [
		{ name: 'From Settings', value: '', description: 'The E-Invoice Format of the invoicing settings' },
		{ name: 'XRechnung (UBL)', value: 'xrechnung' },
		{ name: 'ZUGFeRD / Factur-X (CII)', value: 'zugferd' },
	],
	default: '',
	description: 'The XML format of the e-invoice',
};

const filters: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options: [
		locatorField('Contact', 'contactId', 'Only the documents of this CRM contact', contactOrEmailLocator),
		{ displayName: 'Issued From', name: 'from', type: 'dateTime', default: '', description: 'Only documents issued on this day or later' },
		{ displayName: 'Issued To', name: 'to', type: 'dateTime', default: '', description: 'Only documents issued on this day or earlier' },
		{ displayName: 'Status', name: 'status', type: 'options', options: STATUSES, default: 'overdue', description: 'Only documents in this status' },
		{ displayName: 'Type', name: 'type', type: 'options', options: TYPES, default: 'invoice', description: 'Only invoices or only offers' },
	],
};

export const { definitions: documentOperations, properties: documentProperties } = declareResource('document', {
	default: 'create',
	operations: {
		cancel: {
			option: {
				name: 'Cancel',
				description: 'Needs the document (Reason optional); returns the document, cancelled or declined',
				action: 'Cancel an invoice or decline an offer',
			},
			method: 'POST',
			path: `${DOCUMENT}/cancel`,
			pathParams: documentId,
			body: { reason: { param: 'reason', check: { maxLength: 1000 } } },
			fields: [documentLocatorField, reason],
		},
		convert: {
			option: {
				name: 'Convert Offer to Invoice',
				description: 'Needs the offer; returns the new draft invoice (the offer becomes accepted)',
				action: 'Convert an offer to an invoice',
			},
			method: 'POST',
			path: `${DOCUMENT}/convert`,
			pathParams: documentId,
			fields: [documentLocatorField],
		},
		create: {
			option: { name: 'Create', description: 'Needs Type, Contact and the line items; returns the draft', action: 'Create an offer or invoice draft' },
			method: 'POST',
			path: DOCUMENTS,
			body: { type: 'type', contactId: { param: 'contactId', check: 'required' }, lineItems: lineItemsSource, ...documentFields('additionalFields') },
			check: oneDueRule,
			fields: [type, contactId, ...lineItemsProperties(false), additionalFields],
		},
		delete: {
			option: { name: 'Delete', description: 'Needs a draft; returns { deleted: true }', action: 'Delete a draft document' },
			method: 'DELETE',
			path: DOCUMENT,
			pathParams: documentId,
			fields: [documentLocatorField],
		},
		deletePayment: {
			option: {
				name: 'Delete Payment',
				description: 'Needs the invoice and the payment ID; returns { deleted: true }',
				action: 'Delete a payment of an invoice',
			},
			method: 'DELETE',
			path: `${DOCUMENT}/payments/{paymentId}`,
			pathParams: { ...documentId, paymentId: { param: 'paymentId', check: 'required' } },
			fields: [documentLocatorField, paymentId],
		},
		downloadEInvoice: {
			option: {
				name: 'Download E-Invoice',
				description: 'Needs a finalised invoice (Format optional); returns the XML in a binary field',
				action: 'Download the electronic invoice XML of an invoice',
			},
			method: 'GET',
			path: `${DOCUMENT}/e-invoice`,
			pathParams: documentId,
			query: { format: 'eInvoiceFormat' },
			download: file('xml'),
			fields: [documentLocatorField, eInvoiceFormat, outputFileField],
		},
		downloadPdf: {
			option: { name: 'Download PDF', description: 'Needs the document; returns the PDF in a binary field', action: 'Download the PDF of a document' },
			method: 'GET',
			path: `${DOCUMENT}/pdf`,
			pathParams: documentId,
			download: file('pdf'),
			fields: [documentLocatorField, outputFileField],
		},
		finalise: {
			option: {
				name: 'Finalise',
				description: 'Needs a draft and complete seller settings; returns the document numbered, ready for Send and Record Payment',
				action: 'Finalise a draft document before sending it',
			},
			method: 'POST',
			path: FINALISE,
			pathParams: documentId,
			fields: [documentLocatorField],
		},
		get: {
			option: { name: 'Get', description: 'Needs the document ID; returns the offer or invoice', action: 'Get a document by ID' },
			method: 'GET',
			path: DOCUMENT,
			pathParams: documentId,
			simplify: SIMPLE_DOCUMENT,
			fields: [documentLocatorField, simplifyOption],
		},
		getAll: {
			option: {
				name: 'Get Many',
				description: 'Filters by type, status, contact or issue dates; returns one item per offer or invoice',
				action: 'Get many documents',
			},
			method: 'GET',
			path: DOCUMENTS,
			query: {
				type: 'filters.type',
				status: 'filters.status',
				contactId: 'filters.contactId',
				from: { param: 'filters.from', convert: calendarDay },
				to: { param: 'filters.to', convert: calendarDay },
			},
			pagination: { style: 'page1', itemsKey: 'documents' },
			simplify: SIMPLE_DOCUMENT,
			fields: [...returnAllFields(), simplifyOption, filters],
		},
		getPayments: {
			option: { name: 'Get Payments', description: 'Needs the invoice; returns one item per payment', action: 'Get the payments of an invoice' },
			method: 'GET',
			path: `${DOCUMENT}/payments`,
			pathParams: documentId,
			fields: [documentLocatorField],
		},
		recordPayment: {
			option: { name: 'Record Payment', description: 'Needs a finalised invoice and Amount; returns the payment', action: 'Record a payment on an invoice' },
			method: 'POST',
			path: `${DOCUMENT}/payments`,
			pathParams: documentId,
			body: {
				amount: 'amount',
				paidAt: { param: 'paymentFields.paidAt', convert: dateTime() },
				method: 'paymentFields.method',
				reference: { param: 'paymentFields.reference', check: { maxLength: 200 } },
			},
			fields: [documentLocatorField, amount, paymentFields],
		},
		send: {
			option: {
				name: 'Send',
				description: 'Needs a finalised document, or a draft with Finalise Draft First on (To optional: the contact\'s email); returns it, sent',
				action: 'Send a finalised document by email',
			},
			method: 'POST',
			path: `${DOCUMENT}/send`,
			pathParams: documentId,
			body: {
				to: { param: 'sendOptions.to', check: 'email' },
				cc: { param: 'sendOptions.cc', convert: emailList(10) },
				subject: { param: 'sendOptions.subject', check: { maxLength: 200 } },
				message: { param: 'sendOptions.message', check: { maxLength: 5000 } },
				attachEInvoice: 'sendOptions.attachEInvoice',
			},
			values: { finaliseDraft: 'finaliseDraft' },
			perform: finaliseAndSend,
			fields: [documentLocatorField, finaliseDraft, sendOptions],
		},
		sendDunning: {
			option: {
				name: 'Send Dunning',
				description: 'Needs an overdue invoice; returns the reminder, or skipped with why when the last one is recent',
				action: 'Send a dunning reminder for an invoice',
			},
			method: 'POST',
			path: `${DOCUMENT}/dunning`,
			pathParams: documentId,
			body: { message: { param: 'dunningOptions.message', check: { maxLength: 5000 } }, fee: 'dunningOptions.fee' },
			values: { minimumDays: 'minimumDaysBetweenReminders' },
			perform: dunOnce,
			fields: [documentLocatorField, minimumDaysBetweenReminders, dunningOptions],
		},
		update: {
			option: { name: 'Update', description: 'Needs a draft and the fields or lines to change; returns the draft', action: 'Update a draft document' },
			method: 'PATCH',
			path: DOCUMENT,
			pathParams: documentId,
			body: { contactId: 'updateFields.contactId', lineItems: lineItemsSource, ...documentFields('updateFields') },
			check: oneDueRule,
			fields: [documentLocatorField, ...lineItemsProperties(true), updateFields],
		},
	},
});
