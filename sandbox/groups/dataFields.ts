import { Actor } from '../auth';
import { apiError } from '../errors';
import { Call, Group } from '../handler';
import { DataField, Store } from '../store';
import { visible } from '../visibility';

/** Data Fields (api-reference §3): the company's contact data fields, in their order. */

const WITH_OPTIONS = ['select', 'radio', 'checkbox-multi'];

export const dataFields: Group = {
	listDataFields: ({ actor, query, store }) => {
		const all = companyFields(store, actor);
		const offset = (query.offset as number | undefined) ?? 0;
		const page = all.slice(offset, offset + ((query.limit as number | undefined) ?? 50)).map(fieldJson);
		return { dataFields: page, total: all.length, count: page.length, offset };
	},

	createDataField: ({ actor, body, store }) => {
		const name = (body.name as string | undefined) ?? nameFrom(String(body.label));
		if (companyFields(store, actor).some((field) => field.name === name)) throw apiError(409, `A data field named ${name} already exists`);
		assertOptions(String(body.fieldType), body.options);
		const field: DataField = {
			id: store.nextDataFieldId++,
			companyId: actor.company.id,
			name,
			label: String(body.label),
			fieldType: String(body.fieldType),
			required: body.required === true,
			hidden: body.hidden === true,
			options: (body.options as DataField['options'] | undefined) ?? [],
			order: companyFields(store, actor).length,
		};
		store.dataFields.set(field.id, field);
		return fieldJson(field);
	},

	updateDataField: (call) => {
		const field = visibleField(call);
		if (call.body.options !== undefined) assertOptions(field.fieldType, call.body.options);
		Object.assign(field, call.body);
		return fieldJson(field);
	},

	deleteDataField: (call) => {
		call.store.dataFields.delete(visibleField(call).id);
	},

	reorderDataFields: ({ actor, body, store }) => {
		const ids = (body.fieldIds as unknown[]).map(Number);
		const fields = companyFields(store, actor);
		const complete = ids.length === fields.length && new Set(ids).size === ids.length && fields.every((field) => ids.includes(field.id));
		if (!complete) throw apiError(400, ['fieldIds must list every data field of the company once']);
		for (const field of fields) field.order = ids.indexOf(field.id);
		return companyFields(store, actor).map(fieldJson);
	},

	getDataFieldUsage: (call) => {
		const field = visibleField(call);
		const contactCount = [...call.store.contacts.values()].filter((contact) => contact.companyId === field.companyId && field.name in contact.additionalData).length;
		return { id: field.id, contactCount, formCount: 0 };
	},
};

function companyFields(store: Store, actor: Actor): DataField[] {
	return [...store.dataFields.values()].filter((field) => field.companyId === actor.company.id).sort((a, b) => a.order - b.order);
}

function visibleField({ actor, params, store }: Call): DataField {
	return visible(store.dataFields.get(Number(params.id)), (field) => field.companyId === actor.company.id, 'Data field');
}

/** "Favourite Colour" → favouriteColour. */
function nameFrom(label: string): string {
	const words = label.replace(/[^A-Za-z0-9]+/g, ' ').trim().split(' ');
	return words.map((word, index) => (index ? word[0].toUpperCase() + word.slice(1).toLowerCase() : word.toLowerCase())).join('');
}

function assertOptions(fieldType: string, options: unknown): void {
	if (WITH_OPTIONS.includes(fieldType) && !(Array.isArray(options) && options.length)) throw apiError(400, [`options should not be empty for a ${fieldType} field`]);
}

function fieldJson(field: DataField): Record<string, unknown> {
	const { id, name, label, fieldType, required, hidden, options } = field;
	return { id, name, label, fieldType, required, hidden, options, target: 'contact', default: null, mutable: true };
}
