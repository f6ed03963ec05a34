import { randomUUID } from 'node:crypto';
import { Actor } from './auth';
import { contactForAttendee } from './contacts';
import { apiError } from './errors';
import { CrmParents, Store } from './store';
import { visible } from './visibility';

/**
 * The parents of tasks, notes and communications: a contact, deal or CRM company of the caller's tenant.
 * Every CRM record carries `companyId` (the tenant); another tenant's records do not exist for the caller.
 */

type ParentKey = keyof CrmParents;

const PARENTS: Record<ParentKey, { records: (store: Store) => Map<string, { companyId: string }>; what: string }> = {
	contactId: { records: (store) => store.contacts, what: 'Contact' },
	dealId: { records: (store) => store.deals, what: 'Deal' },
	crmCompanyId: { records: (store) => store.crmCompanies, what: 'CRM company' },
};

export const EXACTLY_ONE_PARENT = 'Exactly one of dealId, contactId, or crmCompanyId must be provided';

/** A record of the caller's tenant, else 404 "<What> not found". */
export function inTenant<T extends { companyId: string }>(actor: Actor, record: T | undefined, what: string): T {
	return visible(record, (found) => found.companyId === actor.company.id, what);
}

/** The parent ids given (absent ones null), each of an existing record of the tenant (404 otherwise). */
export function parentsOf(store: Store, actor: Actor, input: Partial<CrmParents>): CrmParents {
	for (const key of givenParents(input)) {
		const { records, what } = PARENTS[key];
		inTenant(actor, records(store).get(input[key]!), what);
	}
	return { contactId: input.contactId ?? null, dealId: input.dealId ?? null, crmCompanyId: input.crmCompanyId ?? null };
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
	store.deals.set(base.id, { ...base, pipelineId, stageId: stage.id, isOpen: true, isWon: false, isLost: false, crmCompanyId: null, contactId: null });
	return store.deals.get(base.id)!;
}
