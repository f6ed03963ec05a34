import { randomUUID } from 'node:crypto';
import { tenantRecord, tenantRecords } from '../crm';
import { onParent, ParentKey, singleParent } from '../crmParents';
import { apiError } from '../errors';
import { Call, Group } from '../handler';
import { Communication, CrmParents } from '../store';

type CommunicationFields = Pick<Communication, 'type' | 'direction' | 'body' | 'occurredAt' | 'subject' | 'durationSeconds' | 'outcome' | 'externalId'>;
type NewCommunication = Partial<CrmParents> & Pick<CommunicationFields, 'type' | 'direction' | 'body' | 'occurredAt'> & Partial<CommunicationFields>;

/**
 * Logged calls, emails, SMS and messenger conversations (api-reference §3 Notes and communications), on exactly
 * one contact, deal or CRM company of the tenant. Lists are bare arrays, the latest occurrence first.
 */
export const communications: Group = {
	listCommunications: (call) => {
		const { contactId, crmCompanyId } = call.query as Pick<CrmParents, 'contactId' | 'crmCompanyId'>;
		if (!contactId === !crmCompanyId) throw apiError(400, 'Exactly one of contactId or crmCompanyId must be provided');
		return contactId ? on(call, 'contactId', contactId) : on(call, 'crmCompanyId', crmCompanyId!);
	},

	listContactCommunications: (call) => on(call, 'contactId', call.params.contactId),

	listDealCommunications: (call) => on(call, 'dealId', call.params.id),

	createCommunication: (call) => log(call, call.body as NewCommunication),

	createCompanyCommunication: (call) => log(call, { ...(call.body as NewCommunication), crmCompanyId: call.params.crmCompanyId }),

	updateCommunication: (call) => {
		const entry = visibleCommunication(call);
		return Object.assign(entry, call.body as Partial<CommunicationFields>, { updatedAt: call.store.clock.iso() });
	},

	deleteCommunication: (call) => {
		call.store.communications.delete(visibleCommunication(call).id);
	},
};

function log({ store, actor }: Call, input: NewCommunication): Communication {
	const parents = singleParent(store, actor, input);
	const now = store.clock.iso();
	const entry: Communication = {
		id: randomUUID(),
		companyId: actor.company.id,
		type: input.type,
		direction: input.direction,
		subject: input.subject ?? null,
		body: input.body,
		durationSeconds: input.durationSeconds ?? null,
		outcome: input.outcome ?? null,
		externalId: input.externalId ?? null,
		...parents,
		loggedById: actor.user.id,
		loggedByName: actor.user.fullName,
		occurredAt: input.occurredAt,
		createdAt: now,
		updatedAt: now,
	};
	store.communications.set(entry.id, entry);
	return entry;
}

/** The communications on one parent of the tenant, the latest occurrence first. */
function on({ store, actor }: Call, key: ParentKey, id: string): Communication[] {
	const latestFirst = tenantRecords(store.communications, actor).sort((a, b) => Date.parse(b.occurredAt) - Date.parse(a.occurredAt));
	return onParent(store, actor, latestFirst, key, id);
}

function visibleCommunication({ store, actor, params }: Call): Communication {
	return tenantRecord(store, actor, 'communications', params.id);
}
