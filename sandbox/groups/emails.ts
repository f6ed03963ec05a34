import { randomUUID } from 'node:crypto';
import { CrmKind, notFound, tenantRecord } from '../crm';
import { apiError } from '../errors';
import { Call, Group } from '../handler';
import { perStore, Store } from '../store';

/**
 * Synced emails (api-reference §3, FORK): the emails the platform syncs from its users' mailboxes, linked to a
 * contact and a deal. The sandbox has no mailbox: the control API adds the emails a sync would have brought
 * (`addSyncedEmail`), with their bodies. Lists answer headers and previews, `{ data, total }`, newest first;
 * the body is read one email at a time.
 */

export type Provider = 'google' | 'microsoft' | 'imap';

export interface SyncedEmail {
	id: string;
	subject: string;
	snippet: string;
	fromEmail: string;
	toEmails: string[];
	direction: 'inbound' | 'outbound';
	sentAt: string;
	provider: Provider;
	threadId: string;
	externalMessageId: string;
	contactId: string | null;
	dealId: string | null;
	providerUrl: string | null;
	createdAt: string;
}

interface StoredEmail extends SyncedEmail {
	companyId: string;
	body: { html: string; text: string; attachments: Array<Record<string, unknown>> };
}

export type NewSyncedEmail = Pick<SyncedEmail, 'subject' | 'fromEmail' | 'toEmails' | 'direction' | 'sentAt'> &
	Partial<Pick<SyncedEmail, 'provider' | 'threadId' | 'contactId' | 'dealId'>> & { text: string; html?: string; attachments?: Array<Record<string, unknown>> };

const emailsOf = perStore(() => new Map<string, StoredEmail>());

const SNIPPET_LENGTH = 120;

/** Where the provider shows a message (designed; IMAP has no web address). */
function providerUrl(provider: Provider, externalMessageId: string): string | null {
	if (provider === 'google') return `https://mail.google.com/mail/u/0/#search/rfc822msgid:${encodeURIComponent(externalMessageId)}`;
	return provider === 'microsoft' ? `https://outlook.office.com/mail/deeplink/read/${encodeURIComponent(externalMessageId)}` : null;
}

/** A contact or deal of the company (404 otherwise). */
function assertOwn(store: Store, companyId: string, kind: Extract<CrmKind, 'contacts' | 'deals'>, id: string | null | undefined): void {
	if (id && store[kind].get(id)?.companyId !== companyId) throw notFound(kind);
}

/** An email of a company, as a sync would bring it (control API); its contact and deal must be the company's. */
export function addSyncedEmail(store: Store, companyId: string, input: NewSyncedEmail): SyncedEmail {
	assertOwn(store, companyId, 'contacts', input.contactId);
	assertOwn(store, companyId, 'deals', input.dealId);
	const provider = input.provider ?? 'google';
	const id = randomUUID();
	const externalMessageId = `<${id}@mail.sandbox.invalid>`;
	const email: StoredEmail = {
		id,
		companyId,
		subject: input.subject,
		snippet: input.text.replace(/\s+/g, ' ').trim().slice(0, SNIPPET_LENGTH),
		fromEmail: input.fromEmail,
		toEmails: input.toEmails,
		direction: input.direction,
		sentAt: new Date(input.sentAt).toISOString(),
		provider,
		threadId: input.threadId ?? randomUUID(),
		externalMessageId,
		contactId: input.contactId ?? null,
		dealId: input.dealId ?? null,
		providerUrl: providerUrl(provider, externalMessageId),
		createdAt: store.clock.iso(),
		body: { html: input.html ?? `<p>${input.text}</p>`, text: input.text, attachments: input.attachments ?? [] },
	};
	emailsOf(store).set(id, email);
	return header(email);
}

/** An email as the lists show it: without the tenant and the body. */
function header(email: StoredEmail): SyncedEmail {
	const shown: Partial<StoredEmail> = { ...email };
	delete shown.companyId;
	delete shown.body;
	return shown as SyncedEmail;
}

/** The emails on the record, newest first, a page of them. */
function emailPage(call: Call, on: (email: StoredEmail) => boolean): { data: SyncedEmail[]; total: number } {
	const { limit = 20, offset = 0 } = call.query as { limit?: number; offset?: number };
	const found = [...emailsOf(call.store).values()].filter((email) => email.companyId === call.actor.company.id && on(email)).sort((a, b) => b.sentAt.localeCompare(a.sentAt));
	return { data: found.slice(offset, offset + limit).map(header), total: found.length };
}

export const emails: Group = {
	listContactEmails: (call) => {
		const contact = tenantRecord(call.store, call.actor, 'contacts', call.params.id);
		return emailPage(call, (email) => email.contactId === contact.id);
	},

	listDealEmails: (call) => {
		const deal = tenantRecord(call.store, call.actor, 'deals', call.params.id);
		return emailPage(call, (email) => email.dealId === deal.id);
	},

	getEmailBody: ({ actor, params, store }) => {
		const email = emailsOf(store).get(params.emailId);
		if (!email || email.companyId !== actor.company.id) throw apiError(404, 'Email not found');
		return email.body;
	},

	/** The acting user's connected calendar connection stands for the mailbox (designed): Google or Microsoft. */
	getEmailSendCapability: ({ actor, store }) => {
		const connections = [...store.calendarConnections.values()].filter((connection) => connection.userId === actor.user.id && connection.isConnected);
		const mailbox = connections.find((connection) => connection.isPrimary) ?? connections[0];
		if (!mailbox) return { canSend: false, provider: null };
		return { canSend: true, provider: mailbox.provider === 'outlook' ? 'microsoft' : 'google' };
	},
};
