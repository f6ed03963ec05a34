import { randomUUID } from 'node:crypto';
import { apiError } from '../errors';
import { Call, Group } from '../handler';
import { CustomFieldSetting, LostReasons } from '../store';

const settingsKey = ({ actor, query }: Call) => `${actor.company.id}:${String(query.recordType)}`;

/** Keys must be unique within a list (designed sentence). */
function assertUniqueKeys(keys: string[], list: string): void {
	const twice = keys.filter((key, index) => keys.indexOf(key) !== index);
	if (twice.length) throw apiError(400, `${list} keys must be unique; "${twice[0]}" appears twice`);
}

/** CRM settings: custom fields of companies and deals, lost reasons of deals. */
export const crmSettings: Group = {
	getCustomFieldSettings: (call) => ({ fields: call.store.customFieldSettings.get(settingsKey(call)) ?? [] }),

	/** Replaces the whole list; a field sent with an id keeps it (else the id of its key's field, else a new one); order follows the list. */
	putCustomFieldSettings: (call) => {
		const given = (call.body as { fields: Array<Partial<CustomFieldSetting>> }).fields;
		assertUniqueKeys(given.map((field) => String(field.key)), 'Custom field');
		const before = call.store.customFieldSettings.get(settingsKey(call)) ?? [];
		const fields = given.map((field, order): CustomFieldSetting => ({
			id: field.id ?? before.find((old) => old.key === field.key)?.id ?? randomUUID(),
			key: String(field.key),
			label: String(field.label),
			type: String(field.type),
			required: field.required ?? false,
			options: field.options ?? [],
			order,
		}));
		call.store.customFieldSettings.set(settingsKey(call), fields);
		return { fields };
	},

	getLostReasons: ({ actor, store }) => store.lostReasons.get(actor.company.id) ?? { reasons: [], required: false },

	putLostReasons: ({ actor, body, store }) => {
		const given = body as { reasons: Array<{ key: string; label: string; archived?: boolean }>; required?: boolean };
		assertUniqueKeys(given.reasons.map((reason) => reason.key), 'Lost reason');
		const settings: LostReasons = {
			reasons: given.reasons.map(({ key, label, archived = false }) => ({ key, label, archived })),
			required: given.required ?? false,
		};
		store.lostReasons.set(actor.company.id, settings);
		return settings;
	},
};
