import { randomUUID } from 'node:crypto';
import { assertOwner, customFieldsOf, page1, Page1Query, tenantRecord, tenantRecords } from '../crm';
import { attachmentsOn, moveAttachments } from '../crmAttachments';
import { apiError } from '../errors';
import { Call, Group } from '../handler';
import { Contact, Deal, DealContact, perStore, Pipeline, Stage } from '../store';
import { companyUserByEmail, importContactRow } from './contacts';

type DealInput = Record<string, unknown> & { customFields?: Record<string, unknown>; contacts?: Array<Omit<DealContact, 'id' | 'dealId'>> };

function pathDeal({ actor, params, store }: Call): Deal {
	return tenantRecord(store, actor, 'deals', params.id);
}

function pipelineOf(call: Call, id: string): Pipeline {
	return tenantRecord(call.store, call.actor, 'pipelines', id);
}

function contactOf(call: Call, id: string): Contact {
	return tenantRecord(call.store, call.actor, 'contacts', id);
}

/** A stage of the pipeline that passes the test, else 400 with the sentence. */
function stageOf(pipeline: Pipeline, id: unknown, fits: (stage: Stage) => boolean, message: string): Stage {
	const stage = pipeline.stages.find((candidate) => candidate.id === id);
	if (!stage || !fits(stage)) throw apiError(400, message);
	return stage;
}

/** The first stage of the pipeline (by order) that passes the test. */
function firstStage(pipeline: Pipeline, fits: (stage: Stage) => boolean): Stage | undefined {
	return [...pipeline.stages].sort((a, b) => a.order - b.order).find(fits);
}

const isOpenStage = (stage: Stage) => !stage.isWon && !stage.isLost;

function contactsOf(call: Call, deal: Deal): DealContact[] {
	return [...call.store.dealContacts.values()].filter((link) => link.dealId === deal.id);
}

/** A deal as answered: with its contacts; isOpen, isWon and isLost are list filters only, not record fields (api-reference §3). */
const FILTER_ONLY = ['isOpen', 'isWon', 'isLost'];

function view(call: Call, deal: Deal): Record<string, unknown> {
	const fields = Object.fromEntries(Object.entries(deal).filter(([key]) => !FILTER_ONLY.includes(key)));
	return { ...fields, contacts: contactsOf(call, deal) };
}

/** A list row embeds its company, contact, stage and owner. */
function listRow(call: Call, deal: Deal): Record<string, unknown> {
	const owner = deal.ownerId ? call.store.users.get(deal.ownerId) : undefined;
	return {
		...view(call, deal),
		crmCompany: (deal.crmCompanyId && call.store.crmCompanies.get(deal.crmCompanyId)) || null,
		contact: (deal.contactId && call.store.contacts.get(deal.contactId)) || null,
		stage: call.store.pipelines.get(deal.pipelineId)?.stages.find((stage) => stage.id === deal.stageId) ?? null,
		owner: owner ? { id: owner.id, fullName: owner.fullName, email: owner.email } : null,
	};
}

/** Company, contact and owner must exist in the tenant. */
function assertLinks(call: Call, input: DealInput): void {
	if (typeof input.crmCompanyId === 'string') tenantRecord(call.store, call.actor, 'crmCompanies', input.crmCompanyId);
	if (typeof input.contactId === 'string') contactOf(call, input.contactId);
	assertOwner(call.store, call.actor, input.ownerId);
}

/** isPrimary true makes the deal's other contacts non-primary. */
function linkContact(call: Call, deal: Deal, input: Omit<DealContact, 'id' | 'dealId'>): DealContact {
	contactOf(call, input.contactId);
	const links = contactsOf(call, deal);
	if (links.some((link) => link.contactId === input.contactId)) throw apiError(409, 'Contact is already on this deal');
	if (input.isPrimary) for (const link of links) link.isPrimary = false;
	const link: DealContact = { id: randomUUID(), dealId: deal.id, contactId: input.contactId, role: input.role ?? 'other', isPrimary: input.isPrimary ?? false };
	call.store.dealContacts.set(link.id, link);
	return link;
}

function pathLink(call: Call, deal: Deal): DealContact {
	const link = call.store.dealContacts.get(call.params.dealContactId);
	if (!link || link.dealId !== deal.id) throw apiError(404, 'Deal contact not found');
	return link;
}

function assertOpen(deal: Deal): void {
	if (!deal.isOpen) throw apiError(409, 'Deal is not open: reopen it first');
}

/** An entry of a deal's activity log (api-reference §3: entry fields FORK; the types and metadata designed). */
interface DealActivity {
	id: string;
	dealId: string;
	activityType: 'stage_change' | 'field_update';
	fromStageId: string | null;
	fromStageName: string | null;
	toStageId: string | null;
	toStageName: string | null;
	changedById: string | null;
	changedByName: string | null;
	metadata: Record<string, unknown> | null;
	changedAt: string;
}

/** Each deal's activity log, newest first. */
const activityOf = perStore(() => new Map<string, DealActivity[]>());

/** The fields whose change an update logs. */
const LOGGED_FIELDS = ['name', 'value', 'currency', 'expectedCloseDate', 'notes', 'crmCompanyId', 'contactId', 'ownerId', 'customFields'];

function stageName(call: Call, id: unknown): string | null {
	for (const pipeline of call.store.pipelines.values()) {
		const stage = pipeline.stages.find((candidate) => candidate.id === id);
		if (stage) return stage.name;
	}
	return null;
}

/** What a change does to the deal, as the API logs it: a stage change (with the outcome of won, lost, reopen) and the fields updated. */
function logChange(call: Call, deal: Deal, changes: Partial<Deal>): void {
	const by = { dealId: deal.id, changedById: call.actor.user.id, changedByName: call.actor.user.fullName, changedAt: call.store.clock.iso() };
	const noStage = { fromStageId: null, fromStageName: null, toStageId: null, toStageName: null };
	const entries: DealActivity[] = [];
	if (changes.stageId !== undefined && changes.stageId !== deal.stageId) {
		const outcome = changes.isOpen === undefined ? null : { outcome: changes.isWon ? 'won' : changes.isLost ? 'lost' : 'reopened' };
		const stages = { fromStageId: deal.stageId, fromStageName: stageName(call, deal.stageId), toStageId: changes.stageId, toStageName: stageName(call, changes.stageId) };
		entries.push({ id: randomUUID(), ...by, activityType: 'stage_change', ...stages, metadata: outcome });
	}
	const updated = LOGGED_FIELDS.filter((field) => field in changes && JSON.stringify(changes[field] ?? null) !== JSON.stringify(deal[field] ?? null));
	if (updated.length) {
		const fields = Object.fromEntries(updated.map((field) => [field, { from: deal[field] ?? null, to: changes[field] ?? null }]));
		entries.push({ id: randomUUID(), ...by, activityType: 'field_update', ...noStage, metadata: { fields } });
	}
	activityOf(call.store).set(deal.id, [...entries.reverse(), ...(activityOf(call.store).get(deal.id) ?? [])]);
}

/** Deals a plan allows (designed): `free` 10, every other plan no limit (-1). */
const DEAL_LIMITS: Record<string, number> = { free: 10 };

function dealLimits(call: Call): { count: number; limit: number } {
	return { count: tenantRecords(call.store.deals, call.actor).length, limit: DEAL_LIMITS[call.actor.company.plan.name] ?? -1 };
}

function hasRoomForDeal(call: Call): boolean {
	const { count, limit } = dealLimits(call);
	return limit < 0 || count < limit;
}

/** A deal gone for good, with its contacts' places and its activity. */
function removeDeal(call: Call, deal: Deal): void {
	for (const link of contactsOf(call, deal)) call.store.dealContacts.delete(link.id);
	activityOf(call.store).delete(deal.id);
	call.store.deals.delete(deal.id);
}

/** A change of the deal: `enteredStageAt` moves with the stage; winning sets `wonAt`, losing `lostAt`, reopening clears both. */
function settle(call: Call, deal: Deal, changes: Partial<Deal>): Record<string, unknown> {
	logChange(call, deal, changes);
	const now = call.store.clock.iso();
	const moved = changes.stageId !== undefined && changes.stageId !== deal.stageId;
	const outcome = changes.isOpen === undefined ? {} : { wonAt: changes.isWon ? now : null, lostAt: changes.isLost ? now : null };
	Object.assign(deal, changes, outcome, { updatedAt: now }, moved ? { enteredStageAt: now } : {});
	return view(call, deal);
}

/** The lost reason must be a key of the tenant's lost reasons that is not archived; required when the settings say so. */
function assertLostReason(call: Call, reason: unknown): void {
	const settings = call.store.lostReasons.get(call.actor.company.id);
	if (reason === undefined) {
		if (settings?.required) throw apiError(400, ['lostReason should not be empty']);
		return;
	}
	if (!settings?.reasons.some((candidate) => candidate.key === reason && !candidate.archived)) {
		throw apiError(400, ['lostReason must be one of the company\'s lost reasons']);
	}
}

/** Candidates score 0.6 for the same name (case-insensitive), 0.2 each for the same company or contact; from 0.5 on. */
function duplicateScore(deal: Deal, other: Deal): { score: number; reasons: string[] } {
	const reasons = [
		other.name.toLowerCase() === deal.name.toLowerCase() && 'sameName',
		deal.crmCompanyId !== null && other.crmCompanyId === deal.crmCompanyId && 'sameCompany',
		deal.contactId !== null && other.contactId === deal.contactId && 'sameContact',
	].filter((reason): reason is string => Boolean(reason));
	const weights: Record<string, number> = { sameName: 0.6, sameCompany: 0.2, sameContact: 0.2 };
	return { score: Math.round(reasons.reduce((sum, reason) => sum + weights[reason], 0) * 100) / 100, reasons };
}

/** The deal a bulk-import row makes for its contact, in the given stage (owner: dealOwnerEmail's user, else the importing user). */
function importedDeal(call: Call, row: Record<string, unknown>, contact: Contact, stage: { pipelineId: string; stageId: string }): Record<string, unknown> {
	const name = [contact.firstName, contact.lastName].filter(Boolean).join(' ') || contact.email || contact.phoneNumber;
	const owner = row.dealOwnerEmail ? companyUserByEmail(call, row.dealOwnerEmail) : undefined;
	return {
		name: (row.dealName as string | undefined) ?? name,
		...stage,
		value: row.dealValue,
		currency: typeof row.dealCurrency === 'string' ? row.dealCurrency.toUpperCase() : undefined,
		expectedCloseDate: row.dealExpectedCloseDate,
		notes: row.dealNotes,
		contactId: contact.id,
		crmCompanyId: contact.crmCompanyId ?? undefined,
		ownerId: owner?.id,
	};
}

const CONTACT_COUNTS = { created: 'contactsCreated', updated: 'contactsUpdated', skipped: 'contactsSkipped' } as const;

const sum = (values: number[]) => Math.round(values.reduce((total, value) => total + value, 0) * 100) / 100;

/** The deal summary's figures (designed where api-reference §3 names only the keys). */
function dealSummary(call: Call, chosen: Deal[]): Record<string, unknown> {
	const stageOfDeal = (deal: Deal) => call.store.pipelines.get(deal.pipelineId)?.stages.find((stage) => stage.id === deal.stageId);
	const valueOf = (deal: Deal) => Number(deal.value ?? 0);
	const currencies = chosen.map((deal) => String(deal.currency ?? 'EUR'));
	const mostUsed = [...new Set(currencies)].sort((a, b) => currencies.filter((c) => c === b).length - currencies.filter((c) => c === a).length)[0];
	const byStage = [...new Set(chosen.map((deal) => deal.stageId))].map((stageId) => {
		const inStage = chosen.filter((deal) => deal.stageId === stageId);
		return { stageId, stageName: stageOfDeal(inStage[0])?.name ?? null, pipelineId: inStage[0].pipelineId, count: inStage.length, value: sum(inStage.map(valueOf)) };
	});
	return {
		totalDeals: chosen.length,
		totalValue: sum(chosen.map(valueOf)),
		weightedForecast: sum(chosen.filter((deal) => deal.isOpen).map((deal) => (valueOf(deal) * (stageOfDeal(deal)?.winProbability ?? 0)) / 100)),
		openDeals: chosen.filter((deal) => deal.isOpen).length,
		wonDeals: chosen.filter((deal) => deal.isWon).length,
		lostDeals: chosen.filter((deal) => deal.isLost).length,
		currencies: [...new Set(currencies)].sort(),
		displayCurrency: mostUsed ?? 'EUR',
		byStage,
	};
}

/** CRM Deals. */
export const deals: Group = {
	listDeals: (call) => {
		const filters = call.query as Record<string, unknown>;
		const needle = typeof filters.search === 'string' ? filters.search.toLowerCase() : undefined;
		const exact = ['pipelineId', 'stageId', 'ownerId', 'contactId', 'crmCompanyId', 'isOpen', 'isWon', 'isLost'].filter((key) => filters[key] !== undefined);
		const matching = tenantRecords(call.store.deals, call.actor).filter(
			(deal) => (!needle || deal.name.toLowerCase().includes(needle)) && exact.every((key) => deal[key] === filters[key]),
		);
		const page = page1('deals', matching, filters as unknown as Page1Query, call.store);
		return { ...page, deals: (page.deals as Deal[]).map((deal) => listRow(call, deal)) };
	},

	/** Owner left out: the acting user; null: nobody. */
	createDeal: (call) => {
		if (!hasRoomForDeal(call)) throw apiError(403, 'Your plan\'s deal limit is reached', { code: 'PLAN_LIMIT_REACHED', feature: 'deals' });
		const { contacts = [], customFields, ...input } = call.body as DealInput;
		const draft = { pipelineId: String(input.pipelineId), stageId: String(input.stageId) };
		stageOf(pipelineOf(call, draft.pipelineId), draft.stageId, () => true, 'stageId must be a stage of the pipeline');
		assertLinks(call, input);
		if (contacts.filter((link) => link.isPrimary).length > 1) throw apiError(400, ['Only one of contacts can be primary']);
		contacts.forEach((link) => contactOf(call, link.contactId));
		const now = call.store.clock.iso();
		const deal: Deal = {
			id: randomUUID(),
			companyId: call.actor.company.id,
			name: String(input.name),
			...draft,
			value: input.value ?? null,
			currency: input.currency ?? 'EUR',
			expectedCloseDate: input.expectedCloseDate ?? null,
			notes: input.notes ?? null,
			isOpen: true,
			isWon: false,
			isLost: false,
			lostReason: null,
			lostReasonNote: null,
			wonAt: null,
			lostAt: null,
			enteredStageAt: now,
			crmCompanyId: (input.crmCompanyId as string | null | undefined) ?? null,
			contactId: (input.contactId as string | null | undefined) ?? null,
			ownerId: input.ownerId === undefined ? call.actor.user.id : (input.ownerId as string | null),
			customFields: customFieldsOf(call.store, call.actor, 'deal', customFields, undefined),
			createdAt: now,
			updatedAt: now,
		};
		call.store.deals.set(deal.id, deal);
		contacts.forEach((link) => linkContact(call, deal, link));
		return view(call, deal);
	},

	getDeal: (call) => view(call, pathDeal(call)),

	/**
	 * A stage moves within the deal's own pipeline: the update has no pipelineId (the contract drops a sent one), and
	 * a stage of another pipeline is refused. null clears the company, contact, expected close date and owner.
	 */
	updateDeal: (call) => {
		const deal = pathDeal(call);
		const { customFields, ...changes } = call.body as DealInput;
		if (changes.stageId !== undefined) stageOf(pipelineOf(call, deal.pipelineId), changes.stageId, () => true, 'stageId must be a stage of the deal\'s pipeline');
		assertLinks(call, changes);
		const merged = customFields === undefined ? deal.customFields : customFieldsOf(call.store, call.actor, 'deal', customFields, deal.customFields);
		return settle(call, deal, { ...changes, customFields: merged });
	},

	deleteDeal: (call) => removeDeal(call, pathDeal(call)),

	/** wonStageId: a won stage of the pipeline; left out: the pipeline's first won stage, else the stage stays. */
	markDealWon: (call) => {
		const deal = pathDeal(call);
		assertOpen(deal);
		const pipeline = pipelineOf(call, deal.pipelineId);
		const { wonStageId } = call.body as { wonStageId?: string };
		const stage = wonStageId === undefined ? firstStage(pipeline, (candidate) => candidate.isWon) : stageOf(pipeline, wonStageId, (candidate) => candidate.isWon, 'wonStageId must be a won stage of the deal\'s pipeline');
		return settle(call, deal, { isOpen: false, isWon: true, isLost: false, stageId: stage?.id ?? deal.stageId });
	},

	/** lostStageId: a lost stage of the pipeline; left out: the pipeline's first lost stage, else the stage stays. */
	markDealLost: (call) => {
		const deal = pathDeal(call);
		assertOpen(deal);
		const pipeline = pipelineOf(call, deal.pipelineId);
		const { lostReason, lostReasonNote, lostStageId } = call.body as { lostReason?: string; lostReasonNote?: string; lostStageId?: string };
		assertLostReason(call, lostReason);
		const stage = lostStageId === undefined ? firstStage(pipeline, (candidate) => candidate.isLost) : stageOf(pipeline, lostStageId, (candidate) => candidate.isLost, 'lostStageId must be a lost stage of the deal\'s pipeline');
		return settle(call, deal, { isOpen: false, isWon: false, isLost: true, lostReason: lostReason ?? null, lostReasonNote: lostReasonNote ?? null, stageId: stage?.id ?? deal.stageId });
	},

	/** stageId: an open stage of the pipeline; left out: the pipeline's first open stage. The lost reason is cleared. */
	reopenDeal: (call) => {
		const deal = pathDeal(call);
		if (deal.isOpen) throw apiError(409, 'Deal is already open');
		const pipeline = pipelineOf(call, deal.pipelineId);
		const { stageId } = call.body as { stageId?: string };
		const stage = stageId === undefined ? firstStage(pipeline, isOpenStage) : stageOf(pipeline, stageId, isOpenStage, 'stageId must be an open stage of the deal\'s pipeline');
		return settle(call, deal, { isOpen: true, isWon: false, isLost: false, lostReason: null, lostReasonNote: null, stageId: stage?.id ?? deal.stageId });
	},

	addDealContact: (call) => linkContact(call, pathDeal(call), call.body as Omit<DealContact, 'id' | 'dealId'>),

	updateDealContact: (call) => {
		const deal = pathDeal(call);
		const link = pathLink(call, deal);
		const changes = call.body as Partial<Pick<DealContact, 'role' | 'isPrimary'>>;
		if (changes.isPrimary) for (const other of contactsOf(call, deal)) other.isPrimary = false;
		return Object.assign(link, changes);
	},

	removeDealContact: (call) => {
		call.store.dealContacts.delete(pathLink(call, pathDeal(call)).id);
	},

	listDealDuplicateCandidates: (call) => {
		const deal = pathDeal(call);
		return tenantRecords(call.store.deals, call.actor)
			.filter((other) => other.id !== deal.id)
			.map((other) => ({ deal: view(call, other), ...duplicateScore(deal, other) }))
			.filter((candidate) => candidate.score >= 0.5)
			.sort((a, b) => b.score - a.score);
	},

	getDealActivity: (call) => (activityOf(call.store).get(pathDeal(call).id) ?? []).slice(0, (call.query.limit as number | undefined) ?? 50),

	bulkImportDeals: (call) => {
		const { rows, pipelineId, stageId, updateExisting } = call.body as { rows: Array<Record<string, unknown>>; pipelineId: string; stageId: string; updateExisting: boolean };
		stageOf(pipelineOf(call, pipelineId), stageId, () => true, 'stageId must be a stage of the pipeline');
		const counts = { contactsCreated: 0, contactsUpdated: 0, contactsSkipped: 0, dealsCreated: 0, dealsSkipped: 0, failed: 0 };
		const issues: Array<{ index: number; email: string | null; message: string }> = [];
		rows.forEach((row, index) => {
			const imported = importContactRow(call, row, updateExisting);
			if (!('outcome' in imported)) {
				counts.failed++;
				issues.push({ index, email: (row.email as string | undefined) ?? null, message: imported.problem });
				return;
			}
			counts[CONTACT_COUNTS[imported.outcome]]++;
			if (!hasRoomForDeal(call)) counts.dealsSkipped++;
			else {
				deals.createDeal({ ...call, body: importedDeal(call, row, imported.contact, { pipelineId, stageId }) });
				counts.dealsCreated++;
			}
		});
		return { ...counts, issues };
	},

	/** The duplicates' notes, tasks, attachments and activity move to the deal; then the duplicates are deleted. */
	mergeDeals: (call) => {
		const deal = pathDeal(call);
		const ids = [...new Set(call.body.duplicateDealIds as string[])];
		if (ids.includes(deal.id)) throw apiError(400, ['duplicateDealIds must not contain the deal itself']);
		const duplicates = ids.map((id) => tenantRecord(call.store, call.actor, 'deals', id));
		const moved = { notes: 0, tasks: 0, attachments: 0, activity: 0 };
		const log = activityOf(call.store);
		for (const duplicate of duplicates) {
			for (const [kind, records] of [['notes', call.store.notes], ['tasks', call.store.tasks]] as const) {
				for (const record of records.values()) {
					if (record.dealId !== duplicate.id) continue;
					record.dealId = deal.id;
					moved[kind]++;
				}
			}
			moved.attachments += moveAttachments(call.store, duplicate.id, deal.id);
			const entries = (log.get(duplicate.id) ?? []).map((entry) => ({ ...entry, dealId: deal.id }));
			log.set(deal.id, [...(log.get(deal.id) ?? []), ...entries].sort((a, b) => b.changedAt.localeCompare(a.changedAt)));
			moved.activity += entries.length;
			removeDeal(call, duplicate);
		}
		return { dealId: deal.id, mergedCount: duplicates.length, moved };
	},

	getDealSummary: (call) => {
		const { ownerId, pipelineId } = call.query as { ownerId?: string; pipelineId?: string };
		const chosen = tenantRecords(call.store.deals, call.actor).filter((deal) => (!ownerId || deal.ownerId === ownerId) && (!pipelineId || deal.pipelineId === pipelineId));
		return dealSummary(call, chosen);
	},

	getDealLimits: dealLimits,

	listDealAttachments: (call) => attachmentsOn(call.store, pathDeal(call).id),

	/** Appointments with the deal's contacts (its contact and its deal contacts) as attendees, newest first. */
	listDealAppointments: (call) => {
		const deal = pathDeal(call);
		const ids = new Set([deal.contactId, ...contactsOf(call, deal).map((link) => link.contactId)]);
		const emails = new Set([...ids].map((id) => (id && call.store.contacts.get(id)?.email?.toLowerCase()) || undefined).filter(Boolean));
		return [...call.store.appointments.values()]
			.filter((appointment) => appointment.companyId === call.actor.company.id && appointment.attendees.some((attendee) => emails.has(attendee.email.toLowerCase())))
			.sort((a, b) => b.start.localeCompare(a.start));
	},
};
