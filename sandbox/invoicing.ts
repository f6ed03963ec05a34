import { randomUUID } from 'node:crypto';
import { Actor } from './auth';
import { apiError } from './errors';
import { perStore, Store } from './store';

/**
 * What the invoicing groups share (api-reference §6, designed): the state of each tenant, money in integer
 * cents, the gap-free numbering, the seller settings and the status a document shows (overdue and expired are
 * derived from the sandbox clock). Amounts leave the sandbox as decimals with two places (`119.99`).
 */

export type DocumentType = 'offer' | 'invoice';
export type StoredStatus = 'draft' | 'finalised' | 'sent' | 'partially_paid' | 'paid' | 'cancelled' | 'accepted' | 'declined';
export type DocumentStatus = StoredStatus | 'overdue' | 'expired';

/** A line as given: quantity required; description, unit price and tax rate from the product when one is named. */
export interface LineInput {
	productId?: string | null;
	description?: string;
	quantity: number;
	unit?: string | null;
	unitPrice?: number;
	taxRate?: number;
	discountPercent?: number;
}

export interface LineItem {
	productId: string | null;
	description: string;
	quantity: number;
	unit: string | null;
	unitPrice: number;
	taxRate: number;
	discountPercent: number;
	netAmount: number;
	taxAmount: number;
}

/** The tax of one rate: the rate's lines' net amounts summed, then the tax of that sum rounded half up. */
export interface TaxGroup {
	taxRate: number;
	netAmount: number;
	taxAmount: number;
}

export interface Totals {
	netTotal: number;
	taxTotal: number;
	grossTotal: number;
	taxes: TaxGroup[];
}

export interface Settings {
	companyName: string | null;
	addressLine1: string | null;
	addressLine2: string | null;
	zip: string | null;
	city: string | null;
	country: string | null;
	vatId: string | null;
	taxNumber: string | null;
	iban: string | null;
	bic: string | null;
	email: string | null;
	invoiceNumberPrefix: string;
	offerNumberPrefix: string;
	paymentTermsDays: number;
	defaultTaxRate: number;
	currency: string;
	eInvoiceFormat: 'xrechnung' | 'zugferd';
	updatedAt: string | null;
}

/** A party as printed on the document and written into the e-invoice (snapshot taken when finalising). */
export interface Party {
	name: string;
	addressLine1: string | null;
	addressLine2: string | null;
	zip: string | null;
	city: string | null;
	country: string | null;
	vatId: string | null;
	taxNumber: string | null;
	email: string | null;
	iban: string | null;
	bic: string | null;
}

export interface Document extends Totals {
	id: string;
	type: DocumentType;
	status: DocumentStatus;
	number: string | null;
	contactId: string;
	crmCompanyId: string | null;
	dealId: string | null;
	currency: string;
	issueDate: string;
	dueDate: string;
	paymentTermsDays: number | null;
	introText: string | null;
	closingText: string | null;
	lineItems: LineItem[];
	amountPaid: number;
	amountDue: number;
	dunningLevel: number;
	dunningFees: number;
	recurringId: string | null;
	periodStart: string | null;
	periodEnd: string | null;
	offerId: string | null;
	invoiceId: string | null;
	cancelReason: string | null;
	finalisedAt: string | null;
	sentAt: string | null;
	paidAt: string | null;
	createdAt: string;
	updatedAt: string;
}

export interface Payment {
	id: string;
	documentId: string;
	amount: number;
	paidAt: string;
	method: string | null;
	reference: string | null;
	createdAt: string;
}

/** A document as kept: the answer's fields plus what the sandbox needs besides them. */
export interface StoredDocument {
	document: Document;
	companyId: string;
	/** The stored status (the answer's `status` adds overdue and expired). */
	status: StoredStatus;
	/** Whether the issue date was given (else it follows the day of finalising) and how the due date is set. */
	issueDateFixed: boolean;
	dueDateFixed: boolean;
	payments: Payment[];
	/** When the last reminder was sent (not part of the answer: the reference's Document has no such field). */
	lastDunningAt?: string;
	seller?: Party;
	buyer?: Party;
}

export interface Product {
	id: string;
	name: string;
	description: string | null;
	unit: string | null;
	unitPrice: number;
	taxRate: number;
	sku: string | null;
	currency: string;
	archived: boolean;
	createdAt: string;
	updatedAt: string;
}

export type Interval = 'weekly' | 'monthly' | 'quarterly' | 'yearly';

export interface Recurring {
	id: string;
	name: string;
	contactId: string;
	lineItems: LineItem[];
	currency: string;
	paymentTermsDays: number | null;
	interval: Interval;
	intervalCount: number;
	startDate: string;
	endDate: string | null;
	nextRunDate: string;
	autoFinalise: boolean;
	autoSend: boolean;
	status: 'active' | 'paused' | 'ended';
	lastRunAt: string | null;
	createdAt: string;
	updatedAt: string;
}

/** A schedule as kept: the answer plus the index of its next period and the date of the last one billed. */
export interface StoredRecurring {
	recurring: Recurring;
	periodIndex: number;
	lastBilled: string | null;
}

export interface BillingRun {
	id: string;
	runDate: string;
	dryRun: boolean;
	status: 'completed' | 'partial';
	createdDocumentIds: string[];
	plannedDocuments: Array<{ recurringId: string; issueDate: string; periodStart: string; periodEnd: string; grossTotal: number; currency: string }>;
	skipped: Array<{ recurringId: string; reason: string }>;
	errors: Array<{ recurringId: string; message: string }>;
	createdAt: string;
}

/** A mail the sandbox "sent" (documents and reminders), for tests to count: nothing is delivered. */
export interface OutboxMail {
	kind: 'document' | 'dunning';
	documentId: string;
	number: string | null;
	to: string;
	cc: string[];
	subject: string;
	message: string | null;
	attachments: string[];
	sentAt: string;
}

interface Tenant {
	settings: Settings;
	documents: Map<string, StoredDocument>;
	products: Map<string, Product>;
	recurring: Map<string, StoredRecurring>;
	billingRuns: BillingRun[];
	/** The last number given per `<type>:<year>`: the next is one more, so numbers have no gaps and no repeats. */
	sequences: Map<string, number>;
	outbox: OutboxMail[];
}

export const DEFAULT_SETTINGS: Settings = {
	companyName: null,
	addressLine1: null,
	addressLine2: null,
	zip: null,
	city: null,
	country: null,
	vatId: null,
	taxNumber: null,
	iban: null,
	bic: null,
	email: null,
	invoiceNumberPrefix: 'INV-',
	offerNumberPrefix: 'OFF-',
	paymentTermsDays: 14,
	defaultTaxRate: 19,
	currency: 'EUR',
	eInvoiceFormat: 'xrechnung',
	updatedAt: null,
};

const tenantsOf = perStore(() => new Map<string, Tenant>());

/** The invoicing state of a company (a reset makes a new store, and so empty state). */
export function tenantOf(store: Store, companyId: string): Tenant {
	const tenants = tenantsOf(store);
	let tenant = tenants.get(companyId);
	if (!tenant) {
		tenant = { settings: { ...DEFAULT_SETTINGS }, documents: new Map(), products: new Map(), recurring: new Map(), billingRuns: [], sequences: new Map(), outbox: [] };
		tenants.set(companyId, tenant);
	}
	return tenant;
}

export function tenant(store: Store, actor: Actor): Tenant {
	return tenantOf(store, actor.company.id);
}

// ---- money -------------------------------------------------------------------------------------------

/** Half up (away from zero) of numerator / denominator, both integers. */
function halfUp(numerator: bigint, denominator: bigint): bigint {
	const sign = numerator < 0n ? -1n : 1n;
	const magnitude = numerator * sign;
	return (sign * (2n * magnitude + denominator)) / (2n * denominator);
}

/** A decimal with at most `places` decimals as an integer of that scale (exact for the inputs the contract allows). */
function scaled(value: number, places: number): bigint {
	return BigInt(Math.round(value * 10 ** places));
}

export function cents(amount: number): number {
	return Math.round(amount * 100);
}

export function decimal(centsValue: number): number {
	return centsValue / 100;
}

/** The net cents of a line: quantity × unit price × (1 − discount), rounded half up to the cent. */
export function lineNetCents(line: { quantity: number; unitPrice: number; discountPercent: number }): number {
	const quantity = scaled(line.quantity, 3); // thousandths
	const price = scaled(line.unitPrice, 4); // ten-thousandths
	const kept = 10000n - scaled(line.discountPercent, 2); // hundredths of a percent
	return Number(halfUp(quantity * price * kept, 1000n * 10000n * 10000n / 100n));
}

/** The tax cents of a net amount at a rate (two decimals at most), rounded half up. */
export function taxCents(netCents: number, taxRate: number): number {
	return Number(halfUp(BigInt(netCents) * scaled(taxRate, 2), 10000n));
}

/** Each line rounded, then summed; the tax of each rate on the rate's sum (as an e-invoice states it). */
export function totalsOf(lines: LineItem[]): Totals {
	const byRate = new Map<number, number>();
	for (const line of lines) byRate.set(line.taxRate, (byRate.get(line.taxRate) ?? 0) + cents(line.netAmount));
	const taxes = [...byRate.entries()]
		.sort(([a], [b]) => b - a)
		.map(([taxRate, net]) => ({ taxRate, netAmount: decimal(net), taxAmount: decimal(taxCents(net, taxRate)) }));
	const net = taxes.reduce((sum, group) => sum + cents(group.netAmount), 0);
	const tax = taxes.reduce((sum, group) => sum + cents(group.taxAmount), 0);
	return { netTotal: decimal(net), taxTotal: decimal(tax), grossTotal: decimal(net + tax), taxes };
}

/**
 * A line of the answer from a line as given, the product's values filling what it leaves out. A product's price is
 * in its own currency: on a document in another currency the line must give its unit price.
 */
export function lineItemOf(input: LineInput, index: number, products: Map<string, Product>, defaultTaxRate: number, currency: string): LineItem {
	const product = input.productId ? products.get(input.productId) : undefined;
	if (input.productId && !product) throw apiError(404, `Product ${input.productId} not found (lineItems.${index}.productId)`);
	if (product?.archived) throw apiError(400, [`lineItems.${index}.productId names an archived product; archived products cannot be used on new lines`]);
	if (product && input.unitPrice === undefined && product.currency !== currency) {
		throw apiError(400, [`lineItems.${index}.unitPrice should not be empty: the product is priced in ${product.currency}, the document is in ${currency}`]);
	}
	const missing = (['description', 'unitPrice'] as const).filter((key) => input[key] === undefined && product === undefined);
	if (missing.length) throw apiError(400, missing.map((key) => `lineItems.${index}.${key} should not be empty`));
	if (!(input.quantity > 0)) throw apiError(400, [`lineItems.${index}.quantity must be a positive number`]);
	const values = {
		quantity: input.quantity,
		unitPrice: input.unitPrice ?? product!.unitPrice,
		discountPercent: input.discountPercent ?? 0,
	};
	const taxRate = input.taxRate ?? product?.taxRate ?? defaultTaxRate;
	const net = lineNetCents(values);
	return {
		productId: input.productId ?? null,
		description: input.description ?? [product!.name, product!.description].filter(Boolean).join(': '),
		unit: input.unit ?? product?.unit ?? null,
		taxRate,
		...values,
		netAmount: decimal(net),
		taxAmount: decimal(taxCents(net, taxRate)),
	};
}

// ---- dates -------------------------------------------------------------------------------------------

/** The sandbox clock's day (UTC), `YYYY-MM-DD`. */
export function today(store: Store): string {
	return store.clock.iso().slice(0, 10);
}

export function addDays(date: string, days: number): string {
	const moment = new Date(`${date}T00:00:00Z`);
	moment.setUTCDate(moment.getUTCDate() + days);
	return moment.toISOString().slice(0, 10);
}

const MONTHS: Record<Interval, number> = { weekly: 0, monthly: 1, quarterly: 3, yearly: 12 };

/**
 * The run date of period `index` of a schedule: counted from the start date, so a schedule starting on the 31st
 * bills on the last day of shorter months and on the 31st again after them.
 */
export function periodDate({ startDate, interval, intervalCount }: Pick<Recurring, 'startDate' | 'interval' | 'intervalCount'>, index: number): string {
	if (interval === 'weekly') return addDays(startDate, 7 * intervalCount * index);
	const [year, month, day] = startDate.split('-').map(Number);
	const months = month - 1 + MONTHS[interval] * intervalCount * index;
	const targetYear = year + Math.floor(months / 12);
	const targetMonth = months % 12;
	const lastDay = new Date(Date.UTC(targetYear, targetMonth + 1, 0)).getUTCDate();
	return new Date(Date.UTC(targetYear, targetMonth, Math.min(day, lastDay))).toISOString().slice(0, 10);
}

// ---- documents ---------------------------------------------------------------------------------------

/** The status a document shows: an unpaid sent invoice past its due date is overdue, a sent offer past it expired. */
export function shownStatus(store: Store, stored: StoredDocument): DocumentStatus {
	const { document, status } = stored;
	const past = document.dueDate < today(store);
	if (document.type === 'invoice' && (status === 'sent' || status === 'partially_paid') && document.amountDue > 0 && past) return 'overdue';
	if (document.type === 'offer' && (status === 'finalised' || status === 'sent') && past) return 'expired';
	return status;
}

/**
 * The answer of a document as it is now: its derived status. The reference's Document names no moment of a status
 * change (no `statusChangedAt`, no `overdueSince`), so the answer carries none.
 */
export function current(store: Store, stored: StoredDocument): Document {
	const { document } = stored;
	document.status = shownStatus(store, stored);
	return document;
}

export function setStatus(store: Store, stored: StoredDocument, status: StoredStatus): void {
	const now = store.clock.iso();
	stored.status = status;
	stored.document.updatedAt = now;
}

/** The amounts that follow from the lines and the payments. */
export function recompute(stored: StoredDocument): void {
	const { document } = stored;
	Object.assign(document, totalsOf(document.lineItems));
	const paid = stored.payments.reduce((sum, payment) => sum + cents(payment.amount), 0);
	document.amountPaid = decimal(paid);
	document.amountDue = decimal(cents(document.grossTotal) - paid);
}

export function documentOf(store: Store, actor: Actor, id: string): StoredDocument {
	const stored = tenant(store, actor).documents.get(id);
	if (!stored) throw apiError(404, 'Document not found');
	current(store, stored);
	return stored;
}

// ---- numbering ---------------------------------------------------------------------------------------

/**
 * The next number of a type and year, e.g. `INV-2026-0001`. Taken and stored in one synchronous step, so
 * concurrent finalise calls get distinct consecutive numbers; a number once given is never given again.
 */
export function nextNumber(tenantState: Tenant, type: DocumentType, year: string): string {
	const key = `${type}:${year}`;
	const sequence = (tenantState.sequences.get(key) ?? 0) + 1;
	tenantState.sequences.set(key, sequence);
	const prefix = type === 'invoice' ? tenantState.settings.invoiceNumberPrefix : tenantState.settings.offerNumberPrefix;
	return `${prefix}${year}-${String(sequence).padStart(4, '0')}`;
}

// ---- settings ----------------------------------------------------------------------------------------

/** What finalising needs of the seller settings (api-reference §6): each missing one is named. */
export function missingSettings(settings: Settings): string[] {
	const missing: string[] = (['companyName', 'addressLine1', 'zip', 'city', 'country'] as const).filter((key) => !settings[key]);
	if (!settings.vatId && !settings.taxNumber) missing.push('vatId or taxNumber');
	return missing;
}

export function sellerOf(settings: Settings): Party {
	const { companyName, addressLine1, addressLine2, zip, city, country, vatId, taxNumber, email, iban, bic } = settings;
	return { name: companyName ?? '', addressLine1, addressLine2, zip, city, country, vatId, taxNumber, email, iban, bic };
}

// ---- seed --------------------------------------------------------------------------------------------

/** Acme's demo seller settings (complete, so its documents can be finalised) and three products. */
export function seedInvoicing(store: Store, companyId: string): void {
	const state = tenantOf(store, companyId);
	const now = store.clock.iso();
	Object.assign(state.settings, {
		companyName: 'Acme Inc.',
		addressLine1: 'Friedrichstraße 100',
		zip: '10117',
		city: 'Berlin',
		country: 'DE',
		vatId: 'DE123456789',
		iban: 'DE02120300000000202051',
		bic: 'BYLADEM1001',
		email: 'billing@acme.example',
		updatedAt: now,
	});
	const products: Array<[string, string, number, number, string]> = [
		['Consulting hour', 'hour', 120, 19, 'CONS-H'],
		['Workshop day', 'day', 950, 19, 'WS-D'],
		['Handbook', 'piece', 24.9, 7, 'BOOK-1'],
	];
	for (const [name, unit, unitPrice, taxRate, sku] of products) {
		const id = randomUUID();
		state.products.set(id, { id, name, description: null, unit, unitPrice, taxRate, sku, currency: 'EUR', archived: false, createdAt: now, updatedAt: now });
	}
}
