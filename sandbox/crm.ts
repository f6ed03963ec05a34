import { Actor } from './auth';
import { Schema } from './contract';
import { apiError } from './errors';
import { ordered } from './listOrder';
import { CustomFieldSetting, Store } from './store';
import { validateBody } from './validation';
import { companyUser } from './visibility';

/** What the CRM groups share: tenant records, page1 lists, owners, custom fields. */

/** The CRM record kinds (maps of the store), each with the one name its 404 gives. */
const KINDS = { contacts: 'Contact', crmCompanies: 'Company', deals: 'Deal', pipelines: 'Pipeline', tasks: 'Task', notes: 'Note', communications: 'Communication' } as const;

export type CrmKind = keyof typeof KINDS;

type RecordOf<K extends CrmKind> = Store[K] extends Map<string, infer T extends { companyId: string }> ? T : never;

/** 404 "<What> not found" of a record kind. */
export const notFound = (kind: CrmKind) => apiError(404, `${KINDS[kind]} not found`);

/** A CRM record of the caller's tenant; any other does not exist for them (404). */
export function tenantRecord<K extends CrmKind>(store: Store, actor: Actor, kind: K, id: string): RecordOf<K> {
	const record = (store[kind] as Map<string, { companyId: string }>).get(id) as RecordOf<K> | undefined;
	if (!record || record.companyId !== actor.company.id) throw notFound(kind);
	return record;
}

/** The records of the caller's tenant, in creation order. */
export function tenantRecords<T extends { companyId: string }>(records: Map<string, T>, actor: Actor): T[] {
	return [...records.values()].filter((record) => record.companyId === actor.company.id);
}

export interface Page1Query {
	page: number;
	limit: number;
	sortBy?: string;
	sortOrder?: 'ASC' | 'DESC';
}

function compare(a: unknown, b: unknown): number {
	if (a === b) return 0;
	if (a === null || a === undefined) return 1;
	if (b === null || b === undefined) return -1;
	return typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b));
}

/** A page1 list (§1.3) under `key`: sorted by sortBy (default createdAt) in sortOrder (default DESC), empty values last. */
export function page1<T extends object>(key: string, records: T[], query: Page1Query, store?: Store): Record<string, unknown> {
	const { page, limit, sortBy = 'createdAt', sortOrder = 'DESC' } = query;
	const sign = sortOrder === 'ASC' ? 1 : -1;
	const field = (record: T) => (record as Record<string, unknown>)[sortBy];
	const byField = (a: T, b: T) => {
		const [x, y] = [field(a), field(b)];
		return x === null || x === undefined || y === null || y === undefined ? compare(x, y) : sign * compare(x, y);
	};
	// With the store, the list follows its list order (listOrder.ts: a sort ignored, ties shuffled).
	const sorted = store ? ordered(store, records, byField) : [...records].sort(byField);
	return { [key]: sorted.slice((page - 1) * limit, page * limit), page, limit, total: records.length, totalPages: Math.ceil(records.length / limit) };
}

/** An owner must be a user of the caller's company (404 "User not found"); null stays null (nobody). */
export function assertOwner(store: Store, actor: Actor, ownerId: unknown): void {
	if (typeof ownerId === 'string') companyUser(store, actor, ownerId);
}

/** The schema of a custom field's values by its type (designed value types, api-reference §3); null removes the key. */
function valueSchema(setting: CustomFieldSetting): Schema {
	const choice: Schema = setting.options.length ? { type: 'string', enum: setting.options } : { type: 'string' };
	const byType: Record<string, Schema> = {
		number: { type: 'number' },
		currency: { type: 'number' },
		checkbox: { type: 'boolean' },
		date: { type: 'string', format: 'date' },
		select: choice,
		multiselect: { type: 'array', items: choice },
	};
	return { type: 'string', ...byType[setting.type], nullable: true };
}

/**
 * customFields of a company or deal: the values of the record type's settings must have their field's type
 * (400 in class-validator's words, e.g. "customFields.vip must be a boolean"); a key that is not in the settings
 * is stored silently, as the live service does (api-reference §3). On create the required ones must be given; on
 * update they merge and null removes a key.
 */
export function customFieldsOf(
	store: Store,
	actor: Actor,
	recordType: 'company' | 'deal',
	given: Record<string, unknown> | undefined,
	current: Record<string, unknown> | undefined,
): Record<string, unknown> {
	const settings = store.customFieldSettings.get(`${actor.company.id}:${recordType}`) ?? [];
	const properties = Object.fromEntries(settings.map((setting) => [setting.key, valueSchema(setting)]));
	validateBody({ type: 'object', properties: { customFields: { type: 'object', properties } } }, { customFields: given ?? {} });
	const merged: Record<string, unknown> = { ...current, ...given };
	for (const [key, value] of Object.entries(merged)) if (value === null) delete merged[key];
	if (!current) {
		const missing = settings.filter((setting) => setting.required && (merged[setting.key] === undefined || merged[setting.key] === ''));
		if (missing.length) throw apiError(400, missing.map((setting) => `customFields.${setting.key} should not be empty`));
	}
	return merged;
}

/** How many records have each value (`unknown` for none): the `by…` figures of the summaries. */
export function countBy<T>(records: T[], valueOf: (record: T) => unknown): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const record of records) {
		const value = String(valueOf(record) ?? 'unknown');
		counts[value] = (counts[value] ?? 0) + 1;
	}
	return counts;
}
