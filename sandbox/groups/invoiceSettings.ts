import { Group } from '../handler';
import { tenant } from '../invoicing';

/** The seller settings (api-reference §6, designed): one per company, with defaults; null clears a field. */
export const invoiceSettings: Group = {
	getInvoicingSettings: ({ store, actor }) => tenant(store, actor).settings,
	updateInvoicingSettings: ({ store, actor, body }) => Object.assign(tenant(store, actor).settings, body, { updatedAt: store.clock.iso() }),
};
