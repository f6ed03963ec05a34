import { apiError } from './errors';
import { perStore, Store } from './store';

/**
 * Files attached to CRM contacts, deals and companies (api-reference §3: listed, entry fields unconfirmed, never
 * seen filled, no upload route). The sandbox keeps the entries the control API adds, exactly as given, by the
 * record's id; a deal merge moves them to the deal that survives.
 */

type Attachment = Record<string, unknown>;

const attachmentsOf = perStore(() => new Map<string, Attachment[]>());

export function attachmentsOn(store: Store, recordId: string): Attachment[] {
	return attachmentsOf(store).get(recordId) ?? [];
}

/** An entry on a contact, deal or CRM company (control API); 404 when no record has the id. */
export function attach(store: Store, recordId: string, entry: Attachment): Attachment {
	if (!store.contacts.has(recordId) && !store.deals.has(recordId) && !store.crmCompanies.has(recordId)) throw apiError(404, 'Record not found');
	attachmentsOf(store).set(recordId, [...attachmentsOn(store, recordId), entry]);
	return entry;
}

/** Moves a record's attachments to another record (a deal merge); how many moved. */
export function moveAttachments(store: Store, from: string, to: string): number {
	const moving = attachmentsOn(store, from);
	attachmentsOf(store).delete(from);
	if (moving.length) attachmentsOf(store).set(to, [...attachmentsOn(store, to), ...moving]);
	return moving.length;
}
