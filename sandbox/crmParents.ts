import { randomUUID } from 'node:crypto';
import { Actor } from './auth';
import { contactForAttendee } from './contacts';
import { CrmKind, tenantRecord } from './crm';
import { apiError } from './errors';
import { CrmParents, Store } from './store';

/**
 * The parents of tasks, notes and communications: a contact, deal or CRM company of the caller's tenant.
 * Every CRM record carries `companyId` (the tenant); another tenant's records do not exist for the caller.
 */

export type ParentKey = keyof CrmParents;

const PARENTS: Record<ParentKey, CrmKind> = { contactId: 'contacts', dealId: 'deals', crmCompanyId: 'crmCompanies' };

export const EXACTLY_ONE_PARENT = 'Exactly one of dealId, contactId, or crmCompanyId must be provided';

/** The parent ids given (absent ones null), each of an existing record of the tenant (404 otherwise). */
export function parentsOf(store: Store, actor: Actor, input: Partial<CrmParents>): CrmParents {
	for (const key of givenParents(input)) tenantRecord(store, actor, PARENTS[key], input[key]!);
	return { contactId: input.contactId ?? null, dealId: input.dealId ?? null, crmCompanyId: input.crmCompanyId ?? null };
}

/** The records (notes, communications) on one parent, which must be of the tenant (404 otherwise). */
export function onParent<T extends CrmParents>(store: Store, actor: Actor, records: T[], key: ParentKey, id: string): T[] {
	tenantRecord(store, actor, PARENTS[key], id);
	return records.filter((record) => record[key] === id);
}

/** Exactly one parent (400 otherwise), of the tenant. */
export function singleParent(store: Store, actor: Actor, input: Partial<CrmParents>): CrmParents {
	if (givenParents(input).length !== 1) throw apiError(400, EXACTLY_ONE_PARENT);
	return parentsOf(store, actor, input);
}

function givenParents(input: Partial<CrmParents>): ParentKey[] {
	return (Object.keys(PARENTS) as ParentKey[]).filter((key) => input[key]);
}

export type ParentKind = 'contact' | 'deal' | 'company';

/**
 * A bare parent record for tests (control API): a contact (`name` is its email), a CRM company, or a deal in a
 * pipeline of its own with one stage.
 */
export function addParent(store: Store, companyId: string, kind: ParentKind, name: string): { id: string } {
	const ownerId = store.companies.get(companyId)?.ownerId ?? null;
	if (kind === 'contact') return contactForAttendee(store, companyId, ownerId ?? '', { email: name });
	const now = store.clock.iso();
	const base = { id: randomUUID(), companyId, name, ownerId, customFields: {}, createdAt: now, updatedAt: now };
	if (kind === 'company') {
		store.crmCompanies.set(base.id, { ...base, domain: null });
		return base;
	}
	const pipelineId = randomUUID();
	const stage = { id: randomUUID(), pipelineId, name: 'New', color: '#3b82f6', order: 0, isWon: false, isLost: false, winProbability: null, rottingDays: null };
	store.pipelines.set(pipelineId, { id: pipelineId, companyId, name: `${name} pipeline`, isDefault: false, stages: [stage], createdAt: now, updatedAt: now });
	store.deals.set(base.id, { ...base, pipelineId, stageId: stage.id, isOpen: true, isWon: false, isLost: false, crmCompanyId: null, contactId: null, wonAt: null, lostAt: null, enteredStageAt: now });
	return store.deals.get(base.id)!;
}

/** Contacts of a company, owned by its owner, each with its createdAt (default: the clock's now); their IDs in order. */
export function addContacts(store: Store, companyId: string, contacts: Array<{ email: string; createdAt?: string }>): string[] {
	const ownerId = store.companies.get(companyId)?.ownerId ?? '';
	return contacts.map(({ email, createdAt }) => {
		const { id } = contactForAttendee(store, companyId, ownerId, { email });
		const contact = store.contacts.get(id)!;
		if (createdAt) Object.assign(contact, { createdAt: new Date(createdAt).toISOString(), updatedAt: new Date(createdAt).toISOString() });
		return id;
	});
}
