import { inflateSync } from 'node:zlib';

import { PDFDocument } from '@cantoo/pdf-lib';
import { XMLParser } from 'fast-xml-parser';
import type { IBinaryData, IDataObject } from 'n8n-workflow';

import { crmParent } from './harness/crm';
import { byId, useWorld, wire } from './harness/world';

/**
 * Invoicing node, files: Download PDF and Download E-Invoice (XRechnung UBL and ZUGFeRD CII) of a document, and the
 * accounting export (CSV and DATEV), through n8n's binary helpers. The files are parsed back and compared with the
 * documents and payments they come from.
 */

const world = useWorld();
const pat = () => world().seed.credentials.ownerPat;
const api = (method: string, path: string, body?: unknown) => world().api(method, path, pat(), { body });
const bytesOf = (binary: IBinaryData) => Buffer.from(binary.data, 'base64');
const parser = new XMLParser({ ignoreAttributes: false, removeNSPrefix: true, parseTagValue: false });

let invoice: IDataObject;

beforeAll(async () => {
	await world().control('POST', '/__sandbox/clock/set', { now: '2026-06-10T09:00:00Z' });
	const contactId = await crmParent(world(), 'contact', 'files@example.com');
	const lineItems = [
		{ description: 'Consulting & <review>', quantity: 3, unit: 'hour', unitPrice: 0.335, taxRate: 19 },
		{ description: 'Handbook', quantity: 1.5, unitPrice: 0.33, taxRate: 7 },
		{ description: 'Workshop', quantity: 1, unitPrice: 950, taxRate: 19, discountPercent: 10 },
	];
	const draft = (await api('POST', '/invoicing/documents', { type: 'invoice', contactId, lineItems, issueDate: '2026-06-10' })).body;
	await api('POST', `/invoicing/documents/${draft.id as string}/finalise`);
	await api('POST', `/invoicing/documents/${draft.id as string}/payments`, { amount: 100, paidAt: '2026-06-11T10:00:00Z', reference: 'Part, "first"' });
	invoice = (await api('GET', `/invoicing/documents/${draft.id as string}`)).body;
	await world().clearRequests();
});

/**
 * The text a PDF draws, line by line: its content streams inflated, the hex strings of the Tj operators decoded
 * (pdf-lib writes standard-font text that way).
 */
function pdfText(bytes: Buffer): string[] {
	const streams = bytes.toString('latin1').matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g);
	return [...streams].flatMap(([, raw]) => {
		const data = Buffer.from(raw, 'latin1');
		let content: string;
		try {
			content = inflateSync(data).toString('latin1');
		} catch {
			content = data.toString('latin1');
		}
		return [...content.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)].map(([, hex]) => Buffer.from(hex, 'hex').toString('latin1'));
	});
}

/** Amounts as the e-invoices write them: two decimals. */
const two = (value: unknown) => Number(value).toFixed(2);

/** The fields of a CSV text (RFC 4180: quoted fields may hold commas, quotes doubled, CRLF line ends). */
function csvRows(text: string, separator = ','): string[][] {
	const rows: string[][] = [];
	let row: string[] = [];
	let field = '';
	let quoted = false;
	for (let index = 0; index < text.length; index++) {
		const char = text[index];
		if (quoted) {
			if (char === '"' && text[index + 1] === '"') field += text[index++];
			else if (char === '"') quoted = false;
			else field += char;
		} else if (char === '"') quoted = true;
		else if (char === separator) {
			row.push(field);
			field = '';
		} else if (char === '\r' && text[index + 1] === '\n') {
			rows.push([...row, field]);
			row = [];
			field = '';
			index++;
		} else field += char;
	}
	if (field || row.length) rows.push([...row, field]);
	return rows;
}

describe('Invoicing: files', () => {
	test('Download PDF: a PDF named after the number in the chosen binary field, showing number, seller, buyer, every line and the totals', async () => {
		const { items, binaries, error } = await world().runNode(
			{ resource: 'document', operation: 'downloadPdf', documentId: byId(invoice.id as string), outputBinaryPropertyName: 'invoicePdf' },
			world().pat(),
		);
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: `/invoicing/documents/${invoice.id as string}/pdf`, query: '', headers: world().patHeaders(), body: null },
		]);
		const file = binaries[0].invoicePdf;
		const bytes = bytesOf(file);
		expect(items).toEqual([{ documentId: invoice.id, fileName: `${invoice.number as string}.pdf`, mimeType: 'application/pdf', fileSize: bytes.length }]);
		expect(file).toMatchObject({ fileName: `${invoice.number as string}.pdf`, mimeType: 'application/pdf', fileExtension: 'pdf' });
		const pdf = await PDFDocument.load(bytes);
		expect(pdf.getPageCount()).toBeGreaterThanOrEqual(1);
		expect(pdf.getTitle()).toBe(`Invoice ${invoice.number as string}`);
		expect(pdf.getAuthor()).toBe('Acme Inc.');
		const text = pdfText(bytes);
		expect(text).toEqual(expect.arrayContaining([`Invoice ${invoice.number as string}`, 'Acme Inc.', 'VAT ID DE123456789', 'files@example.com', 'Issue date: 2026-06-10']));
		for (const line of invoice.lineItems as IDataObject[]) expect(text).toContain(String(line.description));
		const money = (value: unknown) => `${Number(value).toLocaleString('en-US', { minimumFractionDigits: 2 })} EUR`;
		expect(text).toEqual(expect.arrayContaining(['Net total', money(invoice.netTotal), 'Total', money(invoice.grossTotal), 'Paid', money(invoice.amountPaid), 'Amount due', money(invoice.amountDue)]));
	});

	test('Download E-Invoice as XRechnung: UBL whose number, dates, parties, VAT ids, lines, tax groups and totals equal the document', async () => {
		const { items, binaries, error } = await world().runNode(
			{ resource: 'document', operation: 'downloadEInvoice', documentId: byId(invoice.id as string), eInvoiceFormat: 'xrechnung' },
			world().pat(),
		);
		expect(error).toBeUndefined();
		expect((await world().requests()).map((request) => request.query)).toEqual(['format=xrechnung']);
		const xml = bytesOf(binaries[0].data).toString('utf8');
		expect(items[0]).toMatchObject({ documentId: invoice.id, format: 'xrechnung', fileName: `${invoice.number as string}.xml`, mimeType: 'application/xml' });
		const ubl = parser.parse(xml).Invoice;
		expect(ubl.CustomizationID).toBe('urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0');
		expect([ubl.ID, ubl.IssueDate, ubl.DueDate, ubl.DocumentCurrencyCode]).toEqual([invoice.number, invoice.issueDate, invoice.dueDate, 'EUR']);
		expect(ubl.AccountingSupplierParty.Party.PartyTaxScheme.CompanyID ?? ubl.AccountingSupplierParty.Party.PartyTaxScheme[0].CompanyID).toBe('DE123456789');
		expect([ubl.AccountingSupplierParty.Party.PartyLegalEntity.RegistrationName, ubl.AccountingCustomerParty.Party.PartyLegalEntity.RegistrationName]).toEqual(['Acme Inc.', 'files@example.com']);
		expect(ubl.AccountingSupplierParty.Party.PostalAddress).toMatchObject({ StreetName: 'Friedrichstraße 100', CityName: 'Berlin', PostalZone: '10117', Country: { IdentificationCode: 'DE' } });
		const lines = [ubl.InvoiceLine].flat();
		expect(lines.map((line: IDataObject) => [(line.Item as IDataObject).Name, (line.LineExtensionAmount as IDataObject)['#text']])).toEqual(
			(invoice.lineItems as IDataObject[]).map((line) => [String(line.description).slice(0, 100), two(line.netAmount)]),
		);
		const subtotals = [ubl.TaxTotal.TaxSubtotal].flat().map((group: IDataObject) => [(group.TaxCategory as IDataObject).Percent, (group.TaxableAmount as IDataObject)['#text'], (group.TaxAmount as IDataObject)['#text']]);
		expect(subtotals.map(([rate, net, tax]) => [Number(rate), net, tax])).toEqual((invoice.taxes as IDataObject[]).map((group) => [group.taxRate, two(group.netAmount), two(group.taxAmount)]));
		const total = ubl.LegalMonetaryTotal;
		expect([total.LineExtensionAmount, total.TaxExclusiveAmount, total.TaxInclusiveAmount, total.PrepaidAmount, total.PayableAmount].map((amount: IDataObject) => amount['#text'])).toEqual(
			[invoice.netTotal, invoice.netTotal, invoice.grossTotal, invoice.amountPaid, invoice.amountDue].map(two),
		);
		expect(xml).toContain('Consulting &amp; &lt;review&gt;');
	});

	test('Download E-Invoice as ZUGFeRD: CII whose totals equal the document; a draft has none (the API\'s 409)', async () => {
		const { binaries } = await world().runNode({ resource: 'document', operation: 'downloadEInvoice', documentId: byId(invoice.id as string), eInvoiceFormat: 'zugferd' }, world().pat());
		const cii = parser.parse(bytesOf(binaries[0].data).toString('utf8')).CrossIndustryInvoice;
		expect(cii.ExchangedDocument.ID).toBe(invoice.number);
		const agreement = cii.SupplyChainTradeTransaction.ApplicableHeaderTradeAgreement;
		expect([agreement.SellerTradeParty.Name, agreement.SellerTradeParty.SpecifiedTaxRegistration.ID['#text'], agreement.BuyerTradeParty.Name]).toEqual(['Acme Inc.', 'DE123456789', 'files@example.com']);
		expect(cii.ExchangedDocument.IssueDateTime.DateTimeString['#text']).toBe(String(invoice.issueDate).replace(/-/g, ''));
		const settlement = cii.SupplyChainTradeTransaction.ApplicableHeaderTradeSettlement;
		const sums = settlement.SpecifiedTradeSettlementHeaderMonetarySummation;
		const amount = (value: unknown) => (typeof value === 'object' ? (value as IDataObject)['#text'] : value);
		expect([sums.LineTotalAmount, sums.TaxBasisTotalAmount, sums.TaxTotalAmount, sums.GrandTotalAmount, sums.TotalPrepaidAmount, sums.DuePayableAmount].map(amount)).toEqual(
			[invoice.netTotal, invoice.netTotal, invoice.taxTotal, invoice.grossTotal, invoice.amountPaid, invoice.amountDue].map(two),
		);
		expect([settlement.ApplicableTradeTax].flat().map((tax: IDataObject) => [Number(tax.RateApplicablePercent), tax.BasisAmount, tax.CalculatedAmount].map(amount))).toEqual(
			(invoice.taxes as IDataObject[]).map((group) => [group.taxRate, two(group.netAmount), two(group.taxAmount)]),
		);
		expect([cii.SupplyChainTradeTransaction.IncludedSupplyChainTradeLineItem].flat()).toHaveLength(3);

		const contactId = String(invoice.contactId);
		const draft = (await api('POST', '/invoicing/documents', { type: 'invoice', contactId, lineItems: [{ description: 'x', quantity: 1, unitPrice: 1 }] })).body;
		const refused = await world().runNode({ resource: 'document', operation: 'downloadEInvoice', documentId: byId(draft.id as string) }, world().pat());
		expect(refused.error?.message).toBe('Drafts have no e-invoice; finalise the invoice first (HTTP 409)');
	});

	test('Accounting Export as CSV parses back into the range\'s invoices and payments; DATEV has its header and decimal commas', async () => {
		const { items, binaries, error } = await world().runNode(
			{ resource: 'accountingExport', operation: 'download', from: '2026-06-01T00:00:00', to: '2026-06-30T00:00:00', format: 'csv' },
			world().pat(),
		);
		expect(error).toBeUndefined();
		expect((await world().requests()).map((request) => [request.path, request.query])).toEqual([['/invoicing/accounting-export', 'from=2026-06-01&to=2026-06-30&format=csv']]);
		expect(items[0]).toMatchObject({ from: '2026-06-01', to: '2026-06-30', format: 'csv', fileName: 'accounting-export-2026-06-01-2026-06-30.csv', mimeType: 'text/csv' });
		const [header, ...rows] = csvRows(bytesOf(binaries[0].data).toString('utf8'));
		const records = rows.map((row) => Object.fromEntries(header.map((key, index) => [key, row[index]])));
		expect(records.filter((record) => record.recordType === 'invoice').map((record) => [record.documentNumber, record.netAmount, record.taxAmount, record.grossAmount])).toEqual([
			[invoice.number, two(invoice.netTotal), two(invoice.taxTotal), two(invoice.grossTotal)],
		]);
		expect(records.filter((record) => record.recordType === 'payment').map((record) => [record.documentNumber, record.date, record.grossAmount, record.paymentReference])).toEqual([
			[invoice.number, '2026-06-11', '100.00', 'Part, "first"'],
		]);

		const datev = await world().runNode({ resource: 'accountingExport', operation: 'download', from: '2026-06-01T00:00:00', to: '2026-06-30T00:00:00', format: 'datev' }, world().pat());
		const text = bytesOf(datev.binaries[0].data).toString('utf8');
		expect(text.startsWith('"EXTF";700;21;"Buchungsstapel"')).toBe(true);
		expect(text).toContain(`${two(100).replace('.', ',')};"H"`);

		const backwards = await world().runNode({ resource: 'accountingExport', operation: 'download', from: '2026-06-30T00:00:00', to: '2026-06-01T00:00:00' }, world().pat());
		expect(backwards.error?.message).toBe('To (2026-06-01) must not be before From (2026-06-30)');
	});
});
