import { randomUUID } from 'node:crypto';
import { Actor } from '../auth';
import { notFound, tenantRecord, tenantRecords } from '../crm';
import { apiError } from '../errors';
import { Call, Group } from '../handler';
import { ordered } from '../listOrder';
import { attachmentsOn } from '../crmAttachments';
import { Contact, CrmCompany, Store, User } from '../store';
import { companyUser } from '../visibility';

/** CRM Contacts (api-reference §3): every user of the company sees its contacts. */

const BULK_LIMIT = 3;
const BULK_WINDOW_MS = 60_000;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const SCALARS = ['firstName', 'lastName', 'email', 'phoneNumber', 'language', 'title', 'employer', 'seniority', 'function', 'location', 'notes'] as const;

type Fields = Record<string, unknown>;

export const contacts: Group = {
	listContacts: ({ actor, query, store }) => {
		const { searchTerm, ownerId, sortBy = 'createdAt', sortOrder = 'DESC' } = query as Record<string, string | undefined>;
		const tags = (query.tags as string[] | undefined) ?? [];
		const needle = searchTerm?.toLowerCase();
		const matching = tenantRecords(store.contacts, actor)
			.filter((contact) => !needle || searchable(contact).some((text) => text.toLowerCase().includes(needle)))
			.filter((contact) => tags.every((tag) => contact.tags.includes(tag)))
			.filter((contact) => !ownerId || contact.accountOwnerId === ownerId);
		const direction = sortOrder === 'ASC' ? 1 : -1;
		const found = ordered(store, matching, (a, b) => direction * String(a[sortBy as keyof Contact] ?? '').localeCompare(String(b[sortBy as keyof Contact] ?? '')));
		const page = (query.page as number | undefined) ?? 1;
		const limit = (query.limit as number | undefined) ?? 20;
		const rows = found.slice((page - 1) * limit, page * limit).map((contact) => ({ item: contactJson(contact), ...meetings(store, contact) }));
		return { result: rows, page, limit, total: found.length, totalPages: Math.ceil(found.length / limit) };
	},

	getContactDetails: ({ actor, query, store }) => {
		if (!query.contactId && !query.attendeeId) throw apiError(400, ['contactId or attendeeId must be provided']);
		const contactId = query.contactId ? String(query.contactId) : attendeeContactId(store, String(query.attendeeId));
		const contact = visibleContact(store, actor, contactId);
		const { appointments } = meetings(store, contact);
		return { item: contactJson(contact), appointments };
	},

	createContact: ({ actor, body, store }) => {
		if (!body.email && !body.phoneNumber) throw apiError(400, ['email or phoneNumber must be provided']);
		const now = store.clock.iso();
		const contact: Contact = {
			id: randomUUID(),
			companyId: actor.company.id,
			...(Object.fromEntries(SCALARS.map((key) => [key, (body[key] as string | undefined) ?? null])) as Pick<Contact, (typeof SCALARS)[number]>),
			tags: (body.tags as string[] | undefined) ?? [],
			crmCompanyId: null,
			accountOwnerId: actor.user.id,
			additionalData: {},
			address: null,
			noShowCount: 0,
			createdAt: now,
			updatedAt: now,
		};
		applyLinks(store, actor, contact, body);
		mergeAdditionalData(contact, body.additionalData as Fields | undefined);
		if (body.address) contact.address = body.address as Contact['address'];
		store.contacts.set(contact.id, contact);
		return { item: contactJson(contact), appointments: [], nextAppointmentIso: null };
	},

	updateContact: ({ actor, params, body, store }) => {
		const contact = visibleContact(store, actor, params.id);
		for (const key of SCALARS) if (body[key] !== undefined) contact[key] = body[key] as string | null;
		if (body.tags !== undefined) contact.tags = body.tags as string[];
		if (body.address !== undefined) contact.address = body.address as Contact['address'];
		applyLinks(store, actor, contact, body);
		mergeAdditionalData(contact, body.additionalData as Fields | undefined);
		contact.updatedAt = store.clock.iso();
		return { item: contactJson(contact) };
	},

	deleteContact: ({ actor, params, store }) => {
		store.contacts.delete(visibleContact(store, actor, params.id).id);
	},

	/**
	 * Newest first; the cursor is the position of the next item. The sandbox keeps meetings, notes, tasks and
	 * communications (the other kinds are not kept: a filter on them finds nothing).
	 */
	getContactActivity: ({ actor, params, query, store }) => {
		const contact = visibleContact(store, actor, params.id);
		const types = (query.types as string[] | undefined) ?? [];
		const all = activities(store, actor, contact)
			.filter((activity) => !types.length || types.includes(activity.type))
			.sort((a, b) => Date.parse(b.occurredAt) - Date.parse(a.occurredAt));
		const from = query.cursor === undefined ? 0 : Number(Buffer.from(String(query.cursor), 'base64url').toString());
		if (!Number.isInteger(from) || from < 0) throw apiError(400, ['cursor is not valid']);
		const end = from + ((query.limit as number | undefined) ?? 30);
		const hasMore = end < all.length;
		return { items: all.slice(from, end), nextCursor: hasMore ? Buffer.from(String(end)).toString('base64url') : null, hasMore };
	},

	bulkImportContacts: (call) => {
		takeBulkCall(call, 'import');
		const rows = call.body.contacts as Fields[];
		if (!rows.length) throw apiError(400, ['contacts should not be empty']);
		const result = { created: 0, updated: 0, skipped: 0, failed: 0, issues: [] as Array<{ index: number; email: string | null; message: string }> };
		rows.forEach((row, index) => {
			const imported = importContactRow(call, row, call.body.updateExisting === true);
			if ('outcome' in imported) result[imported.outcome]++;
			else {
				result.failed++;
				result.issues.push({ index, email: (row.email as string | undefined) ?? null, message: imported.problem });
			}
		});
		return result;
	},

	listContactAttachments: ({ actor, params, store }) => attachmentsOn(store, visibleContact(store, actor, params.id).id),

	bulkDeleteContacts: (call) => {
		takeBulkCall(call, 'delete');
		const ids = call.body.contactIds as string[];
		if (!ids.length) throw apiError(400, ['contactIds should not be empty']);
		const mine = ids.filter((id) => call.store.contacts.get(id)?.companyId === call.actor.company.id);
		for (const id of mine) call.store.contacts.delete(id);
		return { requested: ids.length, deleted: mine.length, skipped: ids.length - mine.length };
	},
};

function searchable(contact: Contact): string[] {
	return [contact.firstName, contact.lastName, `${contact.firstName ?? ''} ${contact.lastName ?? ''}`, contact.email, contact.phoneNumber].filter((text): text is string => !!text);
}

export function visibleContact(store: Store, actor: Actor, id: string): Contact {
	return tenantRecord(store, actor, 'contacts', id);
}

/** The contact as the API shows it: without the tenant. */
function contactJson(contact: Contact): Fields {
	const shown: Fields = { ...contact };
	delete shown.companyId;
	return shown;
}

/** The contact's appointments (where it is an attendee), by start, and the next one's start. */
function meetings(store: Store, contact: Contact): { appointments: Fields[]; nextAppointmentIso: string | null } {
	const appointments = [...store.appointments.values()]
		.filter((appointment) => appointment.attendees.some((attendee) => attendee.contactId === contact.id))
		.sort((a, b) => a.start.localeCompare(b.start))
		.map(({ id, start, end, isCancelled, meetingTypeId }) => ({ id, start, end, isCancelled, meetingTypeId }));
	const now = store.clock.iso();
	const next = appointments.find((appointment) => !appointment.isCancelled && appointment.start > now);
	return { appointments, nextAppointmentIso: next?.start ?? null };
}

/** The contact's activity, each with its type and when it occurred (designed: a note or task when it was created). */
function activities(store: Store, actor: Actor, contact: Contact): Array<Fields & { type: string; occurredAt: string }> {
	const on = <T extends { companyId: string; contactId: string | null }>(records: Map<string, T>) => tenantRecords(records, actor).filter((record) => record.contactId === contact.id);
	return [
		...meetings(store, contact).appointments.map(({ id, start, isCancelled, meetingTypeId }) => ({ type: 'meeting', occurredAt: String(start), appointmentId: id, meetingTypeId, isCancelled })),
		...on(store.notes).map(({ id, content, isPinned, authorId, createdAt }) => ({ type: 'note', occurredAt: createdAt, noteId: id, content, isPinned, authorId })),
		...on(store.tasks).map(({ id, title, type, dueDate, completedAt, createdAt }) => ({ type: 'task', occurredAt: createdAt, taskId: id, title, taskType: type, dueDate, completedAt })),
		...on(store.communications).map(({ id, type, direction, subject, occurredAt }) => ({ type: 'communication', occurredAt, communicationId: id, communicationType: type, direction, subject })),
	];
}

function attendeeContactId(store: Store, attendeeId: string): string {
	for (const appointment of store.appointments.values()) {
		const attendee = appointment.attendees.find((candidate) => candidate.id === attendeeId);
		if (attendee?.contactId) return attendee.contactId;
	}
	throw notFound('contacts');
}

/** accountOwnerId (a user of the company) and crmCompanyId (a CRM company of the company; null unlinks). */
function applyLinks(store: Store, actor: Actor, contact: Contact, body: Fields): void {
	if (body.accountOwnerId !== undefined) contact.accountOwnerId = body.accountOwnerId === null ? null : companyUser(store, actor, String(body.accountOwnerId)).id;
	if (body.crmCompanyId === null) contact.crmCompanyId = null;
	else if (body.crmCompanyId !== undefined) {
		contact.crmCompanyId = tenantRecord(store, actor, 'crmCompanies', String(body.crmCompanyId)).id;
	}
}

/** additionalData merges key by key; a null value removes the key. Unknown keys are stored as they are. */
function mergeAdditionalData(contact: Contact, data: Fields | undefined): void {
	for (const [key, value] of Object.entries(data ?? {})) {
		if (value === null) delete contact.additionalData[key];
		else contact.additionalData[key] = value;
	}
}

/** 3 calls per minute per credential for each bulk endpoint; the 429 says when the next one is accepted. */
function takeBulkCall({ actor, store }: Call, kind: string): void {
	const key = `${actor.credentialId} ${kind}`;
	const now = store.clock.now();
	const recent = (store.bulkCalls.get(key) ?? []).filter((at) => now - at < BULK_WINDOW_MS);
	store.bulkCalls.set(key, recent);
	if (recent.length >= BULK_LIMIT) {
		const retryAfter = Math.ceil((recent[0] + BULK_WINDOW_MS - now) / 1000);
		throw apiError(429, `Too many bulk requests: ${BULK_LIMIT} per minute`, {}, { 'Retry-After': String(retryAfter) });
	}
	recent.push(now);
}

/** A user of the company by email (any case): bulk rows name owners so. */
export function companyUserByEmail({ actor, store }: Call, email: unknown): User | undefined {
	return store.companyUsers(actor.company.id).find((user) => user.email.toLowerCase() === String(email).toLowerCase());
}

export type ImportedRow = { outcome: 'created' | 'updated' | 'skipped'; contact: Contact } | { problem: string };

/** One imported row (contacts and deals bulk imports): its contact created, updated or left as it is (skipped), or the row's problem. */
export function importContactRow(call: Call, row: Fields, updateExisting: boolean): ImportedRow {
	const { actor, store } = call;
	const email = row.email as string | undefined;
	if (!email && !row.phoneNumber) return { problem: 'email or phoneNumber must be provided' };
	if (email && !EMAIL.test(email)) return { problem: 'email must be an email' };
	const owner = row.accountOwnerEmail ? companyUserByEmail(call, row.accountOwnerEmail) : undefined;
	if (row.accountOwnerEmail && !owner) return { problem: `accountOwnerEmail ${String(row.accountOwnerEmail)} is not a user of the company` };
	const existing = email ? tenantRecords(store.contacts, actor).find((contact) => contact.email?.toLowerCase() === email.toLowerCase()) : undefined;
	if (existing && !updateExisting) return { outcome: 'skipped', contact: existing };
	const fields: Fields = { ...row, accountOwnerId: owner?.id, crmCompanyId: row.crmCompanyRef ? crmCompanyFor(store, actor, String(row.crmCompanyRef)).id : undefined };
	if (existing) {
		contacts.updateContact({ actor, store, params: { id: existing.id }, query: {}, body: fields });
		return { outcome: 'updated', contact: existing };
	}
	const created = contacts.createContact({ actor, store, params: {}, query: {}, body: fields }) as { item: { id: string } };
	return { outcome: 'created', contact: store.contacts.get(created.item.id)! };
}

/**
 * A CRM company by id, else by name (case-insensitive); an unknown name creates it. An id has no form of its own (the
 * reference names none): whatever matches a company's id is that company.
 */
function crmCompanyFor(store: Store, actor: Actor, ref: string): CrmCompany {
	const companies = tenantRecords(store.crmCompanies, actor);
	const found = companies.find((company) => company.id === ref) ?? companies.find((company) => company.name.toLowerCase() === ref.toLowerCase());
	if (found) return found;
	const now = store.clock.iso();
	const company: CrmCompany = { id: randomUUID(), companyId: actor.company.id, name: ref, domain: null, ownerId: actor.user.id, customFields: {}, createdAt: now, updatedAt: now };
	store.crmCompanies.set(company.id, company);
	return company;
}
