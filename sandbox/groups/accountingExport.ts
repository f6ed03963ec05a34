import { apiError } from '../errors';
import { Call, FileReply, Group } from '../handler';
import { current, tenant } from '../invoicing';
import { accountingCsv } from '../invoicingFiles';

/**
 * The accounting export (api-reference §6, designed): every numbered invoice issued in the range (cancelled ones
 * with their status) and every payment paid in it, as CSV or DATEV-style CSV.
 */
function exportFile({ store, actor, query }: Call): FileReply {
	const { from, to, format } = query as { from: string; to: string; format: 'csv' | 'datev' };
	if (to < from) throw apiError(400, [`to must not be before from (${from})`]);
	const inRange = (day: string) => day >= from && day <= to;
	const invoices = [...tenant(store, actor).documents.values()].filter((stored) => stored.document.type === 'invoice' && stored.status !== 'draft');
	const documents = invoices.map((stored) => current(store, stored)).filter((document) => inRange(document.issueDate));
	documents.sort((a, b) => String(a.number).localeCompare(String(b.number)));
	const payments = invoices
		.flatMap((stored) => stored.payments.map((payment) => ({ payment, document: stored.document })))
		.filter(({ payment }) => inRange(payment.paidAt.slice(0, 10)))
		.sort((a, b) => a.payment.paidAt.localeCompare(b.payment.paidAt));
	const fileName = format === 'datev' ? `EXTF_Buchungsstapel_${from}_${to}.csv` : `accounting-export-${from}-${to}.csv`;
	return new FileReply(Buffer.from(accountingCsv(documents, payments, format), 'utf8'), 'text/csv', fileName);
}

export const accountingExport: Group = { accountingExport: exportFile };
