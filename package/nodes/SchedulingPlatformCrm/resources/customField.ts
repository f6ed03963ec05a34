import { randomUUID } from 'crypto';
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { declareResource } from '../../shared/declare';
import { returnAllFields } from '../../shared/getMany';
import { readItems } from '../../shared/transport/answers';
import type { OperationCall } from '../../shared/types';
import { rewriteSettings } from '../settings';

/**
 * Custom Field (api-reference §3): the custom-field settings of companies or deals, whose keys are the keys of a
 * record's `customFields`. The API replaces the whole list on each write, so Create or Update and Delete change one
 * field and write the list back only when it changes (settings.ts). A field is known by its key; its ID is kept on
 * an update, and a new field gets a new one (as the API asks).
 */

/** The settings of a record type: read (GET) and replaced whole (PUT); the Custom Fields mapper reads them too. */
export const CUSTOM_FIELD_SETTINGS = '/crm/settings/custom-fields';
const path = CUSTOM_FIELD_SETTINGS;
const query = { recordType: 'recordType' };

/** Types whose `options` are the choices. */
const CHOICE_TYPES = ['select', 'multiselect'];

const fieldsOf = (settings: IDataObject, call: OperationCall) => readItems(settings, 'fields', call.fail);

/** The parts of the field the node's inputs set: key, label and type, and Required and Choices when given. */
function wantedField(values: IDataObject): IDataObject {
	const { key, label, type, required, options } = values;
	return { key, label, type, ...(required !== undefined && { required }), ...(options !== undefined && { options }) };
}

/** Whether the stored field already is as wanted (the parts the node sets). */
const isAsWanted = (stored: IDataObject, wanted: IDataObject) => Object.keys(wanted).every((part) => JSON.stringify(stored[part] ?? null) === JSON.stringify(wanted[part]));

/** After the others: one more than the highest order. */
const nextOrder = (fields: IDataObject[]) => Math.max(-1, ...fields.map((field) => Number(field.order ?? 0))) + 1;

/**
 * Create or Update: the field of the key gets the label, type and (when given) Required and Choices, its other parts
 * kept; a new key is added at the end. A field already so is not written.
 */
async function upsertField(call: OperationCall): Promise<IDataObject[]> {
	const wanted = wantedField(call.values);
	let outcome = 'unchanged';
	const { before, after } = await rewriteSettings(call, (settings) => {
		const fields = fieldsOf(settings, call);
		const stored = fields.find((field) => field.key === wanted.key);
		if (stored && isAsWanted(stored, wanted)) return undefined;
		outcome = stored ? 'updated' : 'created';
		const changed = stored ? fields.map((field) => (field === stored ? { ...field, ...wanted } : field)) : [...fields, { id: randomUUID(), ...wanted, order: nextOrder(fields) }];
		return { fields: changed };
	});
	const saved = fieldsOf(after ?? before, call).find((field) => field.key === wanted.key);
	return [{ ...(saved ?? wanted), outcome }];
}

/** Delete: the list without the field of the key; a key not in the list writes nothing. */
async function deleteField(call: OperationCall): Promise<IDataObject[]> {
	const key = call.values.key;
	const { after } = await rewriteSettings(call, (settings) => {
		const fields = fieldsOf(settings, call);
		const kept = fields.filter((field) => field.key !== key);
		return kept.length === fields.length ? undefined : { fields: kept };
	});
	return [{ key, deleted: after !== undefined }];
}

const TYPES = [
	{ name: 'Checkbox', value: 'checkbox', description: 'Yes or no' },
	{ name: 'Currency', value: 'currency', description: 'An amount of money' },
	{ name: 'Date', value: 'date' },
	{ name: 'Multi Select', value: 'multiselect', description: 'Any of the options' },
	{ name: 'Number', value: 'number' },
	{ name: 'Select', value: 'select', description: 'One of the options' },
	{ name: 'Text', value: 'text', description: 'One line of text' },
	{ name: 'Text Area', value: 'textarea', description: 'Several lines of text' },
];

const recordType: INodeProperties = {
	displayName: 'Record Type',
	name: 'recordType',
	type: 'options',
	options: [
		{ name: 'Company', value: 'company' },
		{ name: 'Deal', value: 'deal' },
	],
	default: 'deal',
	description: 'Whose custom fields: those of CRM companies or those of deals',
};

const key: INodeProperties = {
	displayName: 'Key',
	name: 'key',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. source',
	description: 'The key of the field in the records\' custom fields (exact case). A field with this key is updated, else one is added.',
};

const existingKey: INodeProperties = {
	displayName: 'Custom Field Name or ID',
	name: 'existingKey',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getCustomFieldKeys', loadOptionsDependsOn: ['recordType'] },
	required: true,
	default: '',
	description: 'The field to remove, by its key. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

const label: INodeProperties = {
	displayName: 'Label',
	name: 'label',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. Lead Source',
	description: 'The name users see',
};

const fieldType: INodeProperties = { displayName: 'Field Type', name: 'fieldType', type: 'options', options: TYPES, default: 'text', description: 'The kind of value the field holds' };

const options: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Choices',
			name: 'choices',
			type: 'string',
			typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Choice' },
			default: [],
			description: 'The values a Select or Multi Select field offers, in order (other types have none); given, they replace the field\'s choices',
		},
		{
			displayName: 'Required',
			name: 'required',
			type: 'boolean',
			default: false,
			description: 'Whether a record must have a value for the field when it is created (left out: a new field is optional, an existing one stays as it is)',
		},
	],
};

export const { definitions: customFieldOperations, properties: customFieldProperties } = declareResource('customField', {
	default: 'getAll',
	operations: {
		getAll: {
			option: {
				name: 'Get Many',
				description: 'Needs Record Type (company or deal); returns one item per custom field, in their order',
				action: 'Get many custom fields',
			},
			method: 'GET',
			path,
			query,
			pagination: { style: 'none', itemsKey: 'fields' },
			fields: [recordType, ...returnAllFields()],
		},
		upsert: {
			option: {
				name: 'Create or Update',
				description: 'Create a new custom field (found by key), or update the current one if it already exists (upsert)',
				action: 'Create or update a custom field by key',
			},
			method: 'PUT',
			path,
			query,
			values: { key: 'key', label: 'label', type: 'fieldType', required: 'options.required', options: 'options.choices' },
			check: (_request, call) =>
				call.values.options !== undefined && !CHOICE_TYPES.includes(String(call.values.type))
					? `${call.label('options.choices')} belong to Select and Multi Select fields only: remove them, or change ${call.label('fieldType')}`
					: undefined,
			perform: upsertField,
			fields: [recordType, key, label, fieldType, options],
		},
		delete: {
			option: {
				name: 'Delete',
				description: 'Needs Record Type and the field (values on records stay); returns the key and whether it was deleted',
				action: 'Delete a custom field',
			},
			method: 'PUT',
			path,
			query,
			values: { key: 'existingKey' },
			perform: deleteField,
			fields: [recordType, existingKey],
		},
	},
});
