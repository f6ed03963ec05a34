import { randomUUID } from 'node:crypto';
import { Actor } from '../auth';
import { page1, Page1Query, tenantRecord } from '../crm';
import { apiError } from '../errors';
import { Call, FileReply, Group } from '../handler';
import {
	addDays,
	cents,
	current,
	decimal,
	Document,
	documentOf,
	DocumentType,
	LineInput,
	lineItemOf,
	missingSettings,
	nextNumber,
	Payment,
	recompute,
	sellerOf,
	setStatus,
	StoredDocument,
	tenant,
	today,
} from '../invoicing';
import { documentPdf, eInvoiceXml } from '../invoicingFiles';
import { Store } from '../store';

/**
 * Invoicing documents (api-reference §6, designed): offers and invoices from draft to paid. Drafts are editable;
 * finalising numbers a document and freezes it; payments, reminders, cancelling and converting follow the
 * status machine below. Amounts are kept in cents (invoicing.ts).
 */

type Fields = Record<string, unknown>;

/** The fields create and update share, checked against the tenant (contact, deal, company: 404 as the CRM says). */
function applyFields(call: Call, stored: StoredDocument, fields: Fields): void {
	const { store, actor } = call;
	const { document } = stored;
	const state = tenant(store, actor);
	if (fields.dueDate !== undefined && fields.paymentTermsDays !== undefined) throw apiError(400, ['Give either dueDate or paymentTermsDays, not both']);
	if (typeof fields.contactId === 'string') tenantRecord(store, actor, 'contacts', fields.contactId);
	if (typeof fields.dealId === 'string') tenantRecord(store, actor, 'deals', fields.dealId);
	if (typeof fields.crmCompanyId === 'string') tenantRecord(store, actor, 'crmCompanies', fields.crmCompanyId);
	for (const key of ['contactId', 'dealId', 'crmCompanyId', 'currency', 'introText', 'closingText'] as const) {
		if (fields[key] !== undefined) (document as unknown as Fields)[key] = fields[key];
	}
	if (fields.lineItems) {
		document.lineItems = (fields.lineItems as LineInput[]).map((line, index) => lineItemOf(line, index, state.products, state.settings.defaultTaxRate, document.currency));
	}
	if (fields.issueDate !== undefined) {
		document.issueDate = fields.issueDate as string;
		stored.issueDateFixed = true;
	}
	if (fields.dueDate !== undefined) {
		document.dueDate = fields.dueDate as string;
		document.paymentTermsDays = null;
		stored.dueDateFixed = true;
	}
	if (fields.paymentTermsDays !== undefined) {
		document.paymentTermsDays = fields.paymentTermsDays as number;
		stored.dueDateFixed = false;
	}
	datesOf(store, stored, state.settings.paymentTermsDays);
	recompute(stored);
}

/** An issue date not given follows today (until finalising fixes it); a due date not given follows the terms. */
function datesOf(store: Store, stored: StoredDocument, defaultTerms: number): void {
	const { document } = stored;
	if (!stored.issueDateFixed) document.issueDate = today(store);
	if (!stored.dueDateFixed) document.dueDate = addDays(document.issueDate, document.paymentTermsDays ?? defaultTerms);
	if (document.dueDate < document.issueDate) throw apiError(400, [`dueDate must not be before issueDate (${document.issueDate})`]);
}

function emptyDocument(store: Store, type: DocumentType, currency: string): Document {
	const now = store.clock.iso();
	const day = today(store);
	return {
		id: randomUUID(),
		type,
		status: 'draft',
		number: null,
		contactId: '',
		crmCompanyId: null,
		dealId: null,
		currency,
		issueDate: day,
		dueDate: day,
		paymentTermsDays: null,
		introText: null,
		closingText: null,
		lineItems: [],
		netTotal: 0,
		taxTotal: 0,
		grossTotal: 0,
		taxes: [],
		amountPaid: 0,
		amountDue: 0,
		dunningLevel: 0,
		dunningFees: 0,
		recurringId: null,
		periodStart: null,
		periodEnd: null,
		offerId: null,
		invoiceId: null,
		cancelReason: null,
		finalisedAt: null,
		sentAt: null,
		paidAt: null,
		createdAt: now,
		updatedAt: now,
	};
}

/** A new draft from create fields (also used by billing runs and convert). */
export function createDraft(call: Call, type: DocumentType, fields: Fields, extra: Partial<Document> = {}): StoredDocument {
	const state = tenant(call.store, call.actor);
	const document = Object.assign(emptyDocument(call.store, type, state.settings.currency), extra);
	const stored: StoredDocument = { document, companyId: call.actor.company.id, status: 'draft', issueDateFixed: false, dueDateFixed: false, payments: [] };
	applyFields(call, stored, fields);
	state.documents.set(document.id, stored);
	return stored;
}

function tenantDocument({ store, actor, params }: Call): StoredDocument {
	return documentOf(store, actor, params.id);
}

function draftOnly(stored: StoredDocument): void {
	if (stored.status !== 'draft') throw apiError(409, 'Only draft documents can be changed');
}

/** The buyer as the document shows them: the contact's name, address and email. */
function buyerOf(store: Store, actor: Actor, document: Document) {
	const contact = tenantRecord(store, actor, 'contacts', document.contactId);
	const crmCompany = document.crmCompanyId ? store.crmCompanies.get(document.crmCompanyId) : undefined;
	const person = [contact.firstName, contact.lastName].filter(Boolean).join(' ');
	const address = contact.address ?? {};
	return {
		name: crmCompany?.name ?? contact.employer ?? (person || contact.email || contact.id),
		addressLine1: address.line1 ?? null,
		addressLine2: address.line2 ?? null,
		zip: address.zip ?? null,
		city: address.city ?? null,
		country: address.country ?? null,
		vatId: typeof contact.additionalData.vatId === 'string' ? contact.additionalData.vatId : null,
		taxNumber: null,
		email: contact.email,
		iban: null,
		bic: null,
	};
}

/** Numbers the draft (synchronously: concurrent calls get consecutive numbers) and freezes seller and buyer. */
export function finalise(call: Call, stored: StoredDocument): Document {
	const { store, actor } = call;
	const state = tenant(store, actor);
	if (stored.status !== 'draft') throw apiError(409, `Only draft documents can be finalised; this one is ${current(store, stored).status}`);
	const missing = missingSettings(state.settings);
	if (missing.length) {
		throw apiError(400, `The seller settings lack ${missing.join(', ')}; set them with PATCH /invoicing/settings before finalising`);
	}
	datesOf(store, stored, state.settings.paymentTermsDays);
	const { document } = stored;
	stored.issueDateFixed = stored.dueDateFixed = true;
	stored.seller = sellerOf(state.settings);
	stored.buyer = buyerOf(store, actor, document);
	document.number = nextNumber(state, document.type, document.issueDate.slice(0, 4));
	document.finalisedAt = store.clock.iso();
	setStatus(store, stored, 'finalised');
	return current(store, stored);
}

interface SendInput {
	to?: string;
	cc?: string[];
	subject?: string;
	message?: string;
	attachEInvoice: boolean;
}

/** Records the mail in the outbox; a finalised document becomes sent. */
export function send(call: Call, stored: StoredDocument, input: SendInput): Document {
	const { store, actor } = call;
	const { document } = stored;
	if (stored.status === 'draft') throw apiError(409, 'Drafts cannot be sent; finalise the document first');
	if (stored.status === 'cancelled' || stored.status === 'declined') throw apiError(409, `${label(document)} is ${stored.status} and cannot be sent`);
	if (input.attachEInvoice && document.type !== 'invoice') throw apiError(400, ['attachEInvoice is for invoices only']);
	const to = input.to ?? tenantRecord(store, actor, 'contacts', document.contactId).email;
	if (!to) throw apiError(400, ['to should not be empty: the contact has no email address']);
	const now = store.clock.iso();
	tenant(store, actor).outbox.push({
		kind: 'document',
		documentId: document.id,
		number: document.number,
		to,
		cc: input.cc ?? [],
		subject: input.subject ?? `${label(document)} from ${stored.seller?.name ?? ''}`.trim(),
		message: input.message ?? null,
		attachments: [`${document.number}.pdf`, ...(input.attachEInvoice ? [`${document.number}.xml`] : [])],
		sentAt: now,
	});
	document.sentAt = now;
	if (stored.status === 'finalised') setStatus(store, stored, 'sent');
	document.updatedAt = now;
	return current(store, stored);
}

function label(document: Document): string {
	return `${document.type === 'invoice' ? 'Invoice' : 'Offer'} ${document.number ?? document.id}`;
}

function payable(store: Store, stored: StoredDocument): void {
	if (stored.document.type !== 'invoice') throw apiError(409, 'Payments are recorded on invoices only; this document is an offer');
	if (stored.status === 'draft') throw apiError(409, 'Finalise the invoice before recording payments');
	if (stored.status === 'cancelled') throw apiError(409, `${label(stored.document)} is cancelled; payments cannot be recorded`);
	current(store, stored);
}

/** The status the payments leave: paid, partially paid, or back to sent / finalised when none is left. */
function afterPayments(store: Store, stored: StoredDocument): void {
	recompute(stored);
	const { document } = stored;
	const status = document.amountDue <= 0 ? 'paid' : stored.payments.length ? 'partially_paid' : document.sentAt ? 'sent' : 'finalised';
	const last = stored.payments[stored.payments.length - 1];
	document.paidAt = status === 'paid' ? last.paidAt : null;
	if (status !== stored.status) setStatus(store, stored, status);
	document.updatedAt = store.clock.iso();
}

function recordPayment(call: Call): Payment {
	const { store, body } = call;
	const stored = tenantDocument(call);
	payable(store, stored);
	const amount = cents(body.amount as number);
	if (amount > cents(stored.document.amountDue)) {
		throw apiError(400, [`amount must not be greater than the amount due (${stored.document.amountDue.toFixed(2)})`]);
	}
	const now = store.clock.iso();
	const payment: Payment = {
		id: randomUUID(),
		documentId: stored.document.id,
		amount: decimal(amount),
		paidAt: body.paidAt ? new Date(body.paidAt as string).toISOString() : now,
		method: (body.method as string | undefined) ?? null,
		reference: (body.reference as string | undefined) ?? null,
		createdAt: now,
	};
	stored.payments.push(payment);
	afterPayments(store, stored);
	return payment;
}

function deletePayment(call: Call): void {
	const stored = tenantDocument(call);
	const index = stored.payments.findIndex((payment) => payment.id === call.params.paymentId);
	if (index < 0) throw apiError(404, 'Payment not found');
	stored.payments.splice(index, 1);
	afterPayments(call.store, stored);
}

/** The next reminder (level 1-3) of an overdue invoice; the fee is recorded, not added to the amount due. */
export function dun(call: Call, stored: StoredDocument, input: { message?: string; fee?: number }) {
	const { store, actor } = call;
	const document = current(store, stored);
	if (document.type !== 'invoice' || document.status !== 'overdue') {
		throw apiError(409, `Only overdue invoices can be dunned; this one is ${document.type === 'invoice' ? document.status : 'an offer'}`);
	}
	if (document.dunningLevel >= 3) {
		throw apiError(409, `The third and last reminder was sent on ${stored.lastDunningAt?.slice(0, 10)}; no further dunning level exists`);
	}
	const sentAt = store.clock.iso();
	const fee = decimal(cents(input.fee ?? 0));
	document.dunningLevel += 1;
	document.dunningFees = decimal(cents(document.dunningFees) + cents(fee));
	stored.lastDunningAt = document.updatedAt = sentAt;
	const to = tenantRecord(store, actor, 'contacts', document.contactId).email ?? '';
	tenant(store, actor).outbox.push({
		kind: 'dunning',
		documentId: document.id,
		number: document.number,
		to,
		cc: [],
		subject: `Reminder ${document.dunningLevel}: ${label(document)}`,
		message: input.message ?? null,
		attachments: [`${document.number}.pdf`],
		sentAt,
	});
	return { documentId: document.id, dunningLevel: document.dunningLevel, fee, sentAt };
}

function cancel(call: Call): Document {
	const { store, body } = call;
	const stored = tenantDocument(call);
	const { document } = stored;
	if (stored.status === 'draft') throw apiError(409, 'Drafts are deleted, not cancelled');
	if (document.type === 'invoice') {
		if (stored.status === 'cancelled') throw apiError(409, `${label(document)} is already cancelled`);
		if (stored.payments.length) throw apiError(409, 'Invoices with payments cannot be cancelled; delete the payments first');
	} else if (stored.status !== 'finalised' && stored.status !== 'sent') {
		throw apiError(409, `Only finalised or sent offers can be cancelled; this one is ${current(store, stored).status}`);
	}
	document.cancelReason = (body.reason as string | undefined) ?? null;
	setStatus(store, stored, document.type === 'invoice' ? 'cancelled' : 'declined');
	return current(store, stored);
}

function convert(call: Call): Document {
	const { store } = call;
	const offer = tenantDocument(call);
	const { document } = offer;
	if (document.type !== 'offer') throw apiError(409, 'Only offers can be converted; this document is an invoice');
	if (offer.status === 'accepted') throw apiError(409, `This offer was already converted into invoice ${document.invoiceId}`);
	const status = current(store, offer).status;
	if (status !== 'finalised' && status !== 'sent') throw apiError(409, `Only finalised or sent offers can be converted; this one is ${status}`);
	const { contactId, dealId, crmCompanyId, currency, introText, closingText } = document;
	const invoice = createDraft(call, 'invoice', { contactId, dealId, crmCompanyId, currency, introText, closingText }, { offerId: document.id });
	invoice.document.lineItems = document.lineItems.map((line) => ({ ...line }));
	recompute(invoice);
	document.invoiceId = invoice.document.id;
	setStatus(store, offer, 'accepted');
	return invoice.document;
}

async function pdf(call: Call): Promise<FileReply> {
	const stored = tenantDocument(call);
	const { document } = stored;
	const seller = stored.seller ?? sellerOf(tenant(call.store, call.actor).settings);
	const buyer = stored.buyer ?? buyerOf(call.store, call.actor, document);
	const bytes = await documentPdf(document, seller, buyer);
	return new FileReply(bytes, 'application/pdf', document.number ? `${document.number}.pdf` : `draft-${document.id}.pdf`);
}

function eInvoice(call: Call): FileReply {
	const stored = tenantDocument(call);
	const { document } = stored;
	if (document.type !== 'invoice') throw apiError(409, 'E-invoices exist for invoices only; this document is an offer');
	if (!stored.seller || !stored.buyer) throw apiError(409, 'Drafts have no e-invoice; finalise the invoice first');
	const format = (call.query.format as 'xrechnung' | 'zugferd' | undefined) ?? tenant(call.store, call.actor).settings.eInvoiceFormat;
	return new FileReply(Buffer.from(eInvoiceXml(document, stored.seller, stored.buyer, format), 'utf8'), 'application/xml', `${document.number}.xml`);
}

/** page1, newest created first (the reference names no sort: a client must not rely on this order). */
function list({ store, actor, query }: Call) {
	const { type, status, contactId, from, to } = query as Record<string, string | undefined>;
	const documents = [...tenant(store, actor).documents.values()]
		.map((stored) => current(store, stored))
		.filter((document) => (!type || document.type === type) && (!status || document.status === status) && (!contactId || document.contactId === contactId))
		.filter((document) => (!from || document.issueDate >= from) && (!to || document.issueDate <= to));
	return page1('documents', documents.reverse(), query as unknown as Page1Query, store);
}

export const invoiceDocuments: Group = {
	listDocuments: list,
	createDocument: (call) => createDraft(call, call.body.type as DocumentType, call.body).document,
	getDocument: (call) => tenantDocument(call).document,
	updateDocument: (call) => {
		const stored = tenantDocument(call);
		draftOnly(stored);
		applyFields(call, stored, call.body);
		stored.document.updatedAt = call.store.clock.iso();
		return stored.document;
	},
	deleteDocument: (call) => {
		const stored = tenantDocument(call);
		draftOnly(stored);
		tenant(call.store, call.actor).documents.delete(stored.document.id);
	},
	finaliseDocument: (call) => finalise(call, tenantDocument(call)),
	sendDocument: (call) => send(call, tenantDocument(call), call.body as unknown as SendInput),
	listPayments: (call) => tenantDocument(call).payments,
	recordPayment,
	deletePayment,
	sendDunning: (call) => dun(call, tenantDocument(call), call.body),
	cancelDocument: cancel,
	convertDocument: convert,
	downloadDocumentPdf: pdf,
	downloadEInvoice: eInvoice,
};
