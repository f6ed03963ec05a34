import type { ErrorHints } from '../shared/transport/errors';

/**
 * How to fix the CRM API's own error sentences (first match wins), more precise than the fix for the HTTP status:
 * the executor puts the first that matches the API's words into the error's description and hint (shared/transport/errors.ts).
 */
export const crmErrorHints: ErrorHints = [
	[/data field named .* already exists/i, 'Data field names are unique: choose another Name (or Label, from which the name is made), or change the existing field with Data Field → Update.'],
	[/Contact is already on this deal/i, 'Nothing to add: change the contact\'s role with Deal → Update Contact Role instead.'],
	[/Deal is not open/i, 'Open the deal again with Deal → Reopen first.'],
	[/Deal is already open/i, 'Nothing to do: only a won or lost deal can be reopened.'],
	[/Pipeline has deals/i, 'Move its deals to another pipeline with Deal → Update, or delete them, then delete the pipeline.'],
	[/Too many bulk requests/i, 'The bulk endpoints allow 3 calls per minute per credential, and another workflow or n8n instance used them: run the bulk operations one at a time, or wait a minute.'],
	[/Exactly one of .*(contactId|crmCompanyId)/i, 'Choose one Parent Type and pick exactly one record of it.'],
];
