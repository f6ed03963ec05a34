import { PDFDocument, PDFFont, PDFPage, StandardFonts, rgb } from '@cantoo/pdf-lib';
import { Document, LineItem, Party, Payment } from './invoicing';

/**
 * The files of the invoicing group (api-reference §6, designed): the document's PDF (made with the maintained
 * @cantoo/pdf-lib, a devDependency), its e-invoice XML (XRechnung 3.0 UBL or ZUGFeRD / Factur-X EN 16931 CII) and
 * the accounting export (CSV, or a DATEV-style booking batch). The output depends on the document only, so the
 * same document gives the same bytes.
 */

/** Two decimals with a dot: `1234.50`. */
export function formatAmount(value: number): string {
	return value.toFixed(2);
}

const money = (value: number, currency: string) => `${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${currency}`;

/** Latin-1 text for the standard fonts (other characters as "?"). */
const printable = (text: string) => text.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');

// ---- PDF ---------------------------------------------------------------------------------------------

const A4: [number, number] = [595.28, 841.89];
const LEFT = 56;
const RIGHT = A4[0] - 56;

/** A writer of lines down the pages: a new page when the current one is full. */
class PdfWriter {
	page: PDFPage;
	y = 780;

	constructor(
		private readonly pdf: PDFDocument,
		private readonly font: PDFFont,
		private readonly bold: PDFFont,
	) {
		this.page = pdf.addPage(A4);
	}

	room(height: number): void {
		if (this.y - height > 60) return;
		this.page = this.pdf.addPage(A4);
		this.y = 780;
	}

	text(text: string, x: number, options: { size?: number; bold?: boolean; alignRight?: boolean } = {}): void {
		const size = options.size ?? 10;
		const font = options.bold ? this.bold : this.font;
		const shown = printable(text);
		const at = options.alignRight ? x - font.widthOfTextAtSize(shown, size) : x;
		this.page.drawText(shown, { x: at, y: this.y, size, font, color: rgb(0.1, 0.1, 0.1) });
	}

	line(text: string, options: { size?: number; bold?: boolean } = {}): void {
		const size = options.size ?? 10;
		this.room(size + 6);
		this.text(text, LEFT, options);
		this.y -= size + 5;
	}

	/** Label on the left, amount on the right. */
	pair(label: string, value: string, bold = false): void {
		this.room(16);
		this.text(label, 330, { bold });
		this.text(value, RIGHT, { bold, alignRight: true });
		this.y -= 15;
	}

	gap(height = 10): void {
		this.y -= height;
	}
}

function partyLines(party: Party): string[] {
	return [
		party.name,
		party.addressLine1,
		party.addressLine2,
		[party.zip, party.city].filter(Boolean).join(' '),
		party.country,
		party.vatId ? `VAT ID ${party.vatId}` : party.taxNumber ? `Tax number ${party.taxNumber}` : null,
		party.email,
	].filter((text): text is string => Boolean(text));
}

function lineTable(writer: PdfWriter, document: Document): void {
	const columns = [LEFT, 80, 330, 410, 470, RIGHT];
	writer.room(30);
	['#', 'Description', 'Quantity', 'Unit price', 'Tax'].forEach((title, index) => writer.text(title, columns[index], { bold: true, size: 9 }));
	writer.text('Net', RIGHT, { bold: true, size: 9, alignRight: true });
	writer.gap(14);
	document.lineItems.forEach((line: LineItem, index) => {
		writer.room(28);
		const quantity = `${line.quantity}${line.unit ? ` ${line.unit}` : ''}`;
		writer.text(String(index + 1), columns[0], { size: 9 });
		writer.text(line.description.slice(0, 45), columns[1], { size: 9 });
		writer.text(quantity, columns[2], { size: 9 });
		writer.text(line.unitPrice.toFixed(line.unitPrice * 100 === Math.round(line.unitPrice * 100) ? 2 : 4), columns[3], { size: 9 });
		writer.text(`${line.taxRate} %`, columns[4], { size: 9 });
		writer.text(money(line.netAmount, document.currency), RIGHT, { size: 9, alignRight: true });
		writer.gap(12);
		if (line.discountPercent > 0) {
			writer.text(`less ${line.discountPercent} % discount`, columns[1], { size: 8 });
			writer.gap(11);
		}
	});
}

/** The document as an A4 PDF: seller, buyer, number and dates, lines, tax per rate, totals, payments. */
export async function documentPdf(document: Document, seller: Party, buyer: Party): Promise<Buffer> {
	const pdf = await PDFDocument.create();
	const writer = new PdfWriter(pdf, await pdf.embedFont(StandardFonts.Helvetica), await pdf.embedFont(StandardFonts.HelveticaBold));
	const kind = document.type === 'invoice' ? 'Invoice' : 'Offer';
	for (const text of partyLines(seller)) writer.line(text, { size: 8 });
	writer.gap(16);
	for (const text of partyLines(buyer)) writer.line(text, { size: 11 });
	writer.gap(20);
	writer.line(`${kind} ${document.number ?? '(draft)'}`, { size: 18, bold: true });
	writer.line(`Issue date: ${document.issueDate}`);
	writer.line(`${document.type === 'invoice' ? 'Due date' : 'Valid until'}: ${document.dueDate}`);
	if (document.periodStart) writer.line(`Service period: ${document.periodStart} to ${document.periodEnd ?? ''}`);
	writer.gap();
	if (document.introText) writer.line(document.introText);
	writer.gap();
	lineTable(writer, document);
	writer.gap();
	writer.pair('Net total', money(document.netTotal, document.currency));
	for (const group of document.taxes) writer.pair(`VAT ${group.taxRate} % on ${money(group.netAmount, document.currency)}`, money(group.taxAmount, document.currency));
	writer.pair('Total', money(document.grossTotal, document.currency), true);
	if (document.amountPaid > 0) {
		writer.pair('Paid', money(document.amountPaid, document.currency));
		writer.pair('Amount due', money(document.amountDue, document.currency), true);
	}
	writer.gap();
	if (document.closingText) writer.line(document.closingText);
	if (document.type === 'invoice' && seller.iban) writer.line(`Please pay to IBAN ${seller.iban}${seller.bic ? ` (BIC ${seller.bic})` : ''}, reference ${document.number ?? document.id}.`, { size: 9 });
	const moment = new Date(document.finalisedAt ?? document.createdAt);
	pdf.setTitle(`${kind} ${document.number ?? 'draft'}`);
	pdf.setAuthor(seller.name);
	pdf.setCreator('Scheduling Platform sandbox');
	pdf.setProducer('Scheduling Platform sandbox');
	pdf.setCreationDate(moment);
	pdf.setModificationDate(moment);
	return Buffer.from(await pdf.save({ useObjectStreams: false }));
}

// ---- XML ---------------------------------------------------------------------------------------------

function escapeXml(text: string): string {
	return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[char]!);
}

/** An element: `el('cbc:ID', '1')`, with attributes, or with children (arrays of elements, empty ones left out). */
function el(name: string, content: string | number | null | undefined | Array<string | null>, attributes: Record<string, string> = {}): string | null {
	if (content === null || content === undefined || content === '') return null;
	const attrs = Object.entries(attributes).map(([key, value]) => ` ${key}="${escapeXml(value)}"`).join('');
	const inner = Array.isArray(content) ? content.filter((child): child is string => child !== null).join('') : escapeXml(String(content));
	return `<${name}${attrs}>${inner}</${name}>`;
}

const UNIT_CODES: Record<string, string> = { hour: 'HUR', day: 'DAY', month: 'MON', kilogram: 'KGM', piece: 'C62' };
const unitCode = (unit: string | null) => UNIT_CODES[(unit ?? '').toLowerCase()] ?? 'C62';
const taxCategory = (rate: number) => (rate === 0 ? 'Z' : 'S');

/** The line's amount before its discount, rounded to the cent. */
const grossOfLine = (line: LineItem) => Math.round(line.quantity * line.unitPrice * 100) / 100;

function ublParty(party: Party): string {
	return el('cac:Party', [
		el('cbc:EndpointID', party.email, { schemeID: 'EM' }),
		el('cac:PostalAddress', [
			el('cbc:StreetName', party.addressLine1),
			el('cbc:AdditionalStreetName', party.addressLine2),
			el('cbc:CityName', party.city),
			el('cbc:PostalZone', party.zip),
			el('cac:Country', [el('cbc:IdentificationCode', party.country)]),
		]),
		party.vatId ? el('cac:PartyTaxScheme', [el('cbc:CompanyID', party.vatId), el('cac:TaxScheme', [el('cbc:ID', 'VAT')])]) : null,
		party.taxNumber ? el('cac:PartyTaxScheme', [el('cbc:CompanyID', party.taxNumber), el('cac:TaxScheme', [el('cbc:ID', 'FC')])]) : null,
		el('cac:PartyLegalEntity', [el('cbc:RegistrationName', party.name)]),
		party.email ? el('cac:Contact', [el('cbc:ElectronicMail', party.email)]) : null,
	])!;
}

function ublLine(line: LineItem, index: number, currency: string): string {
	const amount = (value: number) => ({ value: formatAmount(value), attrs: { currencyID: currency } });
	const net = amount(line.netAmount);
	const discount = line.discountPercent > 0
		? el('cac:AllowanceCharge', [
				el('cbc:ChargeIndicator', 'false'),
				el('cbc:AllowanceChargeReason', 'Discount'),
				el('cbc:MultiplierFactorNumeric', String(line.discountPercent)),
				el('cbc:Amount', formatAmount(grossOfLine(line) - line.netAmount), { currencyID: currency }),
				el('cbc:BaseAmount', formatAmount(grossOfLine(line)), { currencyID: currency }),
			])
		: null;
	return el('cac:InvoiceLine', [
		el('cbc:ID', String(index + 1)),
		el('cbc:InvoicedQuantity', String(line.quantity), { unitCode: unitCode(line.unit) }),
		el('cbc:LineExtensionAmount', net.value, net.attrs),
		discount,
		el('cac:Item', [
			el('cbc:Description', line.description),
			el('cbc:Name', line.description.slice(0, 100)),
			el('cac:ClassifiedTaxCategory', [el('cbc:ID', taxCategory(line.taxRate)), el('cbc:Percent', String(line.taxRate)), el('cac:TaxScheme', [el('cbc:ID', 'VAT')])]),
		]),
		el('cac:Price', [el('cbc:PriceAmount', String(line.unitPrice), { currencyID: currency })]),
	])!;
}

function xrechnung(document: Document, seller: Party, buyer: Party): string {
	const currency = { currencyID: document.currency };
	const amount = (name: string, value: number) => el(name, formatAmount(value), currency);
	return el(
		'Invoice',
		[
			el('cbc:CustomizationID', 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0'),
			el('cbc:ProfileID', 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0'),
			el('cbc:ID', document.number),
			el('cbc:IssueDate', document.issueDate),
			el('cbc:DueDate', document.dueDate),
			el('cbc:InvoiceTypeCode', '380'),
			el('cbc:Note', document.introText),
			el('cbc:DocumentCurrencyCode', document.currency),
			el('cbc:BuyerReference', document.contactId),
			document.periodStart ? el('cac:InvoicePeriod', [el('cbc:StartDate', document.periodStart), el('cbc:EndDate', document.periodEnd)]) : null,
			el('cac:AccountingSupplierParty', [ublParty(seller)]),
			el('cac:AccountingCustomerParty', [ublParty(buyer)]),
			el('cac:PaymentMeans', [
				el('cbc:PaymentMeansCode', seller.iban ? '58' : '1'),
				el('cbc:PaymentID', document.number),
				seller.iban ? el('cac:PayeeFinancialAccount', [el('cbc:ID', seller.iban), seller.bic ? el('cac:FinancialInstitutionBranch', [el('cbc:ID', seller.bic)]) : null]) : null,
			]),
			el('cac:PaymentTerms', [el('cbc:Note', `Payable by ${document.dueDate}`)]),
			el('cac:TaxTotal', [
				amount('cbc:TaxAmount', document.taxTotal),
				...document.taxes.map((group) =>
					el('cac:TaxSubtotal', [
						amount('cbc:TaxableAmount', group.netAmount),
						amount('cbc:TaxAmount', group.taxAmount),
						el('cac:TaxCategory', [el('cbc:ID', taxCategory(group.taxRate)), el('cbc:Percent', String(group.taxRate)), el('cac:TaxScheme', [el('cbc:ID', 'VAT')])]),
					]),
				),
			]),
			el('cac:LegalMonetaryTotal', [
				amount('cbc:LineExtensionAmount', document.netTotal),
				amount('cbc:TaxExclusiveAmount', document.netTotal),
				amount('cbc:TaxInclusiveAmount', document.grossTotal),
				amount('cbc:PrepaidAmount', document.amountPaid),
				amount('cbc:PayableAmount', document.amountDue),
			]),
			...document.lineItems.map((line, index) => ublLine(line, index, document.currency)),
		],
		{
			xmlns: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
			'xmlns:cac': 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
			'xmlns:cbc': 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
		},
	)!;
}

const day102 = (date: string) => el('udt:DateTimeString', date.replace(/-/g, ''), { format: '102' });

function ciiParty(name: string, party: Party): string {
	return el(name, [
		el('ram:Name', party.name),
		el('ram:PostalTradeAddress', [el('ram:PostcodeCode', party.zip), el('ram:LineOne', party.addressLine1), el('ram:LineTwo', party.addressLine2), el('ram:CityName', party.city), el('ram:CountryID', party.country)]),
		party.email ? el('ram:URIUniversalCommunication', [el('ram:URIID', party.email, { schemeID: 'EM' })]) : null,
		party.vatId ? el('ram:SpecifiedTaxRegistration', [el('ram:ID', party.vatId, { schemeID: 'VA' })]) : null,
		party.taxNumber ? el('ram:SpecifiedTaxRegistration', [el('ram:ID', party.taxNumber, { schemeID: 'FC' })]) : null,
	])!;
}

function ciiLine(line: LineItem, index: number): string {
	const netPrice = line.quantity > 0 ? line.netAmount / line.quantity : 0;
	return el('ram:IncludedSupplyChainTradeLineItem', [
		el('ram:AssociatedDocumentLineDocument', [el('ram:LineID', String(index + 1))]),
		el('ram:SpecifiedTradeProduct', [el('ram:Name', line.description.slice(0, 100))]),
		el('ram:SpecifiedLineTradeAgreement', [el('ram:NetPriceProductTradePrice', [el('ram:ChargeAmount', netPrice.toFixed(4))])]),
		el('ram:SpecifiedLineTradeDelivery', [el('ram:BilledQuantity', String(line.quantity), { unitCode: unitCode(line.unit) })]),
		el('ram:SpecifiedLineTradeSettlement', [
			el('ram:ApplicableTradeTax', [el('ram:TypeCode', 'VAT'), el('ram:CategoryCode', taxCategory(line.taxRate)), el('ram:RateApplicablePercent', String(line.taxRate))]),
			el('ram:SpecifiedTradeSettlementLineMonetarySummation', [el('ram:LineTotalAmount', formatAmount(line.netAmount))]),
		]),
	])!;
}

function zugferd(document: Document, seller: Party, buyer: Party): string {
	const amount = (name: string, value: number, withCurrency = false) => el(name, formatAmount(value), withCurrency ? { currencyID: document.currency } : {});
	return el(
		'rsm:CrossIndustryInvoice',
		[
			el('rsm:ExchangedDocumentContext', [el('ram:GuidelineSpecifiedDocumentContextParameter', [el('ram:ID', 'urn:cen.eu:en16931:2017')])]),
			el('rsm:ExchangedDocument', [el('ram:ID', document.number), el('ram:TypeCode', '380'), el('ram:IssueDateTime', [day102(document.issueDate)]), document.introText ? el('ram:IncludedNote', [el('ram:Content', document.introText)]) : null]),
			el('rsm:SupplyChainTradeTransaction', [
				...document.lineItems.map(ciiLine),
				el('ram:ApplicableHeaderTradeAgreement', [el('ram:BuyerReference', document.contactId), ciiParty('ram:SellerTradeParty', seller), ciiParty('ram:BuyerTradeParty', buyer)]),
				el('ram:ApplicableHeaderTradeDelivery', [el('ram:ActualDeliverySupplyChainEvent', [el('ram:OccurrenceDateTime', [day102(document.periodEnd ?? document.issueDate)])])]),
				el('ram:ApplicableHeaderTradeSettlement', [
					el('ram:PaymentReference', document.number),
					el('ram:InvoiceCurrencyCode', document.currency),
					el('ram:SpecifiedTradeSettlementPaymentMeans', [el('ram:TypeCode', seller.iban ? '58' : '1'), seller.iban ? el('ram:PayeePartyCreditorFinancialAccount', [el('ram:IBANID', seller.iban)]) : null]),
					...document.taxes.map((group) =>
						el('ram:ApplicableTradeTax', [
							amount('ram:CalculatedAmount', group.taxAmount),
							el('ram:TypeCode', 'VAT'),
							amount('ram:BasisAmount', group.netAmount),
							el('ram:CategoryCode', taxCategory(group.taxRate)),
							el('ram:RateApplicablePercent', String(group.taxRate)),
						]),
					),
					document.periodStart ? el('ram:BillingSpecifiedPeriod', [el('ram:StartDateTime', [day102(document.periodStart)]), el('ram:EndDateTime', [day102(document.periodEnd ?? document.periodStart)])]) : null,
					el('ram:SpecifiedTradePaymentTerms', [el('ram:DueDateDateTime', [day102(document.dueDate)])]),
					el('ram:SpecifiedTradeSettlementHeaderMonetarySummation', [
						amount('ram:LineTotalAmount', document.netTotal),
						amount('ram:TaxBasisTotalAmount', document.netTotal),
						amount('ram:TaxTotalAmount', document.taxTotal, true),
						amount('ram:GrandTotalAmount', document.grossTotal),
						amount('ram:TotalPrepaidAmount', document.amountPaid),
						amount('ram:DuePayableAmount', document.amountDue),
					]),
				]),
			]),
		],
		{
			'xmlns:rsm': 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
			'xmlns:ram': 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
			'xmlns:udt': 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
			'xmlns:qdt': 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
		},
	)!;
}

/** The e-invoice of a finalised invoice: XRechnung (UBL 2.1) or ZUGFeRD / Factur-X (CII), EN 16931. */
export function eInvoiceXml(document: Document, seller: Party, buyer: Party, format: 'xrechnung' | 'zugferd'): string {
	return `<?xml version="1.0" encoding="UTF-8"?>\n${format === 'xrechnung' ? xrechnung(document, seller, buyer) : zugferd(document, seller, buyer)}\n`;
}

// ---- accounting export -------------------------------------------------------------------------------

/** A CSV field: quoted when it holds the separator, a quote or a line break (quotes doubled). */
function field(value: string | number | null, separator: string): string {
	const text = value === null ? '' : String(value);
	return new RegExp(`[${separator}"\\r\\n]`).test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const CSV_COLUMNS = ['recordType', 'date', 'documentNumber', 'documentId', 'paymentId', 'contactId', 'currency', 'netAmount', 'taxAmount', 'grossAmount', 'status', 'paymentMethod', 'paymentReference'];

function plainCsv(documents: Document[], payments: Array<{ payment: Payment; document: Document }>): string {
	const rows: Array<Array<string | number | null>> = [
		CSV_COLUMNS,
		...documents.map((document) => ['invoice', document.issueDate, document.number, document.id, null, document.contactId, document.currency, formatAmount(document.netTotal), formatAmount(document.taxTotal), formatAmount(document.grossTotal), document.status, null, null]),
		...payments.map(({ payment, document }) => ['payment', payment.paidAt.slice(0, 10), document.number, document.id, payment.id, document.contactId, document.currency, null, null, formatAmount(payment.amount), null, payment.method, payment.reference]),
	];
	return rows.map((row) => row.map((value) => field(value, ',')).join(',')).join('\r\n') + '\r\n';
}

const REVENUE_ACCOUNTS: Record<number, string> = { 19: '8400', 7: '8300' };
const DEBTORS = '10000';
const BANK = '1200';

/** A DATEV-style booking batch (EXTF): one row per tax group of each invoice, one per payment; decimal commas. */
function datevCsv(documents: Document[], payments: Array<{ payment: Payment; document: Document }>): string {
	const quoted = (text: string) => `"${text.replace(/"/g, '""')}"`;
	const comma = (value: number) => formatAmount(value).replace('.', ',');
	const ddmm = (date: string) => `${date.slice(8, 10)}${date.slice(5, 7)}`;
	const row = (amount: number, side: 'S' | 'H', currency: string, account: string, against: string, date: string, number: string | null, text: string) =>
		[comma(amount), quoted(side), quoted(currency), account, against, ddmm(date), quoted(number ?? ''), quoted(text)].join(';');
	const lines = [
		'"EXTF";700;21;"Buchungsstapel";13;;;;;;;;;;;;;;;;;;;;;',
		'Umsatz (ohne Soll/Haben-Kz);Soll/Haben-Kennzeichen;WKZ Umsatz;Konto;Gegenkonto (ohne BU-Schlüssel);Belegdatum;Belegfeld 1;Buchungstext',
		...documents.flatMap((document) =>
			document.taxes.map((group) =>
				row(group.netAmount + group.taxAmount, 'S', document.currency, DEBTORS, REVENUE_ACCOUNTS[group.taxRate] ?? '8200', document.issueDate, document.number, `Invoice ${document.number ?? ''}`),
			),
		),
		...payments.map(({ payment, document }) => row(payment.amount, 'H', document.currency, BANK, DEBTORS, payment.paidAt.slice(0, 10), document.number, `Payment ${document.number ?? ''}`)),
	];
	return lines.join('\r\n') + '\r\n';
}

/** The accounting export of these invoices and payments: plain CSV (RFC 4180) or DATEV-style. */
export function accountingCsv(documents: Document[], payments: Array<{ payment: Payment; document: Document }>, format: 'csv' | 'datev'): string {
	return format === 'datev' ? datevCsv(documents, payments) : plainCsv(documents, payments);
}
