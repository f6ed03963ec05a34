import type { ErrorHints } from '../shared/transport/errors';

/**
 * How to fix the Invoicing API's own error sentences (first match wins), more precise than the fix for the HTTP status:
 * the executor puts the first that matches the API's words into the error's description and hint (shared/transport/errors.ts).
 */
export const invoicingErrorHints: ErrorHints = [
	[/Only draft documents can be changed/i, 'Finalised documents never change: cancel the invoice (Document → Cancel) and create a corrected one; only drafts can be updated or deleted.'],
	[/Only draft documents can be finalised/i, 'Nothing to do: the document already has its number (Document → Get shows it).'],
	[/seller settings lack/i, 'Fill the named settings with Setting → Update of this node (a VAT ID or a Tax Number is enough), then finalise again.'],
	[/Drafts cannot be sent/i, 'Finalise the document first (Document → Finalise), then send it; or turn on Finalise Draft First in Document → Send.'],
	[/amount must not be greater than the amount due/i, 'Record at most the amount due (Document → Get shows amountDue). An overpayment is not booked: record the part that settles this invoice and refund or reassign the rest.'],
	[/Payments are recorded on invoices only/i, 'Convert the offer into an invoice (Document → Convert Offer to Invoice), finalise it, then record the payment there.'],
	[/Finalise the invoice before recording payments/i, 'Finalise the invoice (Document → Finalise) first.'],
	[/cancelled; payments cannot be recorded/i, 'The invoice was cancelled: record the payment on the invoice that replaced it.'],
	[/Invoices with payments cannot be cancelled/i, 'Delete its payments first (Document → Get Payments, then Delete Payment), or keep the invoice and settle the difference with a new document.'],
	[/Only overdue invoices can be dunned/i, 'Reminders go to sent invoices past their due date with an amount due: Document → Get Many with Status Overdue lists them.'],
	[/third and last reminder/i, 'Three reminders are the most the API sends: contact the customer or hand the claim to collection.'],
	[/already converted into invoice/i, 'Nothing to do: continue with the invoice the offer became (its ID is in the message).'],
	[/Only finalised or sent offers can be converted/i, 'Finalise a draft offer first; a declined or expired offer cannot be converted: create a new offer.'],
	[/Drafts are deleted, not cancelled/i, 'Delete the draft with Document → Delete instead.'],
	[/E-invoices exist for invoices only|Drafts have no e-invoice/i, 'Offers have a PDF only (Download PDF); finalise an invoice before downloading its e-invoice.'],
	[/Only finalised or sent offers can be cancelled/i, 'Delete a draft offer instead; an accepted offer stays with its invoice.'],
	[/is (cancelled|declined) and cannot be sent/i, 'A cancelled invoice or declined offer is not sent again: send the document that replaced it.'],
	[/archived product/i, 'Restore the product with Product → Update (Archived off), or pick another product.'],
	[/runDate must not be after today/i, 'Leave Run Date empty for today, or pick a day that has begun (the API counts days in UTC).'],
	[/startDate can only change before the first billing run/i, 'Create a new recurring invoice with the new start date, then delete or pause this one.'],
	[/Only (active|paused) recurring invoices can be/i, 'Nothing to do, or not possible now: Recurring Invoice → Get shows its status (an ended schedule needs a later End Date).'],
];
