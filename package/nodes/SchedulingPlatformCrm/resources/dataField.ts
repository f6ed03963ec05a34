import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { declareResource } from '../../shared/declare';
import { returnAllFields } from '../../shared/getMany';
import { InputProblem } from '../../shared/inputChecks';
import { locator, locatorField } from '../../shared/locators';
import type { Converter } from '../../shared/types';

/** Data Field (api-reference §3): the company's contact data fields; ids are numbers, the usage path has no /v4. */

/** Data field ids are numbers (api-reference §3: `/v4/data-field/{id}` "(numeric id)", "`id` (number)"). */
const dataFieldLocator = locator('searchDataFields', 'Data Field ID', 'number');

const FIELD_TYPES = [
	'checkbox-multi',
	'checkbox-single',
	'date',
	'date-of-birth',
	'email',
	'file',
	'number',
	'phone',
	'radio',
	'rating',
	'scale',
	'select',
	'signature',
	'slide',
	'text-multi',
	'text-single',
	'time',
	'url',
	'yes-no',
];

/** Options of a choice field, from the fixed collection: [{ label, value }]. */
const choiceOptions: Converter = (value) => ((value as IDataObject).option as IDataObject[] | undefined) ?? [];

/** IDs in the new order: every data field once, numbers as numbers. */
const fieldIds: Converter = (value) => {
	const ids = value as string[];
	const wrong = ids.find((id) => !/^\d+$/.test(id));
	if (wrong !== undefined) throw new InputProblem(`must be data field IDs (numbers); "${wrong}" is not`);
	return ids.map(Number);
};

/** Where a data-field list holds its items: `dataFields` is unconfirmed (§3), so `items`, `data` or a bare list too. */
export const DATA_FIELD_ITEMS = ['dataFields', 'items', 'data'];

const optionsField: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	default: {},
	placeholder: 'Add Option',
	description: 'The choices of a Select, Radio or Checkbox Multi field (required for them)',
	options: [
		{
			displayName: 'Option',
			name: 'option',
			values: [
				{ displayName: 'Label', name: 'label', type: 'string', default: '', description: 'What the form shows' },
				{ displayName: 'Value', name: 'value', type: 'string', default: '', description: 'What is stored in the contact' },
			],
		},
	],
};

const flags: INodeProperties[] = [
	{ displayName: 'Hidden', name: 'hidden', type: 'boolean', default: false, description: 'Whether the field is hidden on booking forms' },
	{ displayName: 'Required', name: 'required', type: 'boolean', default: false, description: 'Whether booking forms require the field' },
];

const dataFieldId: INodeProperties = { ...locatorField('Data Field', 'dataFieldId', 'The data field to work on', dataFieldLocator), required: true };

const label: INodeProperties = {
	displayName: 'Label',
	name: 'label',
	type: 'string',
	required: true,
	default: '',
	description: 'What forms and the CRM show, up to 100 characters',
};

const fieldType: INodeProperties = {
	displayName: 'Field Type',
	name: 'fieldType',
	type: 'options',
	required: true,
	options: FIELD_TYPES.map((value) => ({ name: value.replace(/(^|-)(\w)/g, (_, dash: string, letter: string) => `${dash ? ' ' : ''}${letter.toUpperCase()}`), value })),
	default: 'text-single',
};

const additionalFields: INodeProperties = {
	displayName: 'Additional Fields',
	name: 'additionalFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [
		...flags,
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			placeholder: 'e.g. favouriteColour',
			description: 'The key in contacts\' additional data; derived from the label when empty; cannot change later',
		},
		optionsField,
	],
};

const updateFields: INodeProperties = {
	displayName: 'Update Fields',
	name: 'updateFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [...flags, { displayName: 'Label', name: 'label', type: 'string', default: '', description: 'What forms and the CRM show' }, optionsField],
};

const fieldIdsField: INodeProperties = {
	displayName: 'Field IDs',
	name: 'fieldIds',
	type: 'string',
	typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Field ID' },
	required: true,
	default: [],
	description: 'Every data field ID of the company once, in the new order (an expression may give a list)',
};

export const { definitions: dataFieldOperations, properties: dataFieldProperties } = declareResource('dataField', {
	default: 'getAll',
	operations: {
		create: {
			option: {
				name: 'Create',
				description: 'Needs Label and Field Type; returns the data field (its name is the key in contacts\' additionalData)',
				action: 'Create a contact data field',
			},
			method: 'POST',
			path: '/v4/data-field',
			body: {
				label: { param: 'label', check: { maxLength: 100 } },
				fieldType: 'fieldType',
				name: 'additionalFields.name',
				required: 'additionalFields.required',
				hidden: 'additionalFields.hidden',
				options: { param: 'additionalFields.options', convert: choiceOptions },
			},
			fields: [label, fieldType, additionalFields],
		},
		getAll: {
			option: { name: 'Get Many', description: 'Needs nothing; returns one item per contact data field, in their order', action: 'Get many data fields' },
			method: 'GET',
			path: '/v4/data-field',
			pagination: { style: 'offset', itemsKey: DATA_FIELD_ITEMS },
			fields: returnAllFields(),
		},
		update: {
			option: { name: 'Update', description: 'Needs the data field and a new label, flags or options; returns the data field', action: 'Update a data field' },
			method: 'PATCH',
			path: '/v4/data-field/{id}',
			pathParams: { id: 'dataFieldId' },
			body: {
				label: { param: 'updateFields.label', check: { maxLength: 100 } },
				required: 'updateFields.required',
				hidden: 'updateFields.hidden',
				options: { param: 'updateFields.options', convert: choiceOptions },
			},
			fields: [dataFieldId, updateFields],
		},
		delete: {
			option: { name: 'Delete', description: 'Needs the data field (contacts keep their values); returns { deleted: true }', action: 'Delete a data field' },
			method: 'DELETE',
			path: '/v4/data-field/{id}',
			pathParams: { id: 'dataFieldId' },
			fields: [dataFieldId],
		},
		getUsage: {
			option: { name: 'Get Usage', description: 'Needs the data field; returns how many contacts and forms use it', action: 'Get the usage of a data field' },
			method: 'GET',
			path: '/data-field/{id}/usage',
			pathParams: { id: 'dataFieldId' },
			fields: [dataFieldId],
		},
		reorder: {
			option: { name: 'Reorder', description: 'Needs every data field ID in the new order; returns the data fields in that order', action: 'Reorder the data fields' },
			method: 'PATCH',
			path: '/v4/data-field/reorder',
			body: { fieldIds: { param: 'fieldIds', check: 'required', convert: fieldIds } },
			fields: [fieldIdsField],
		},
	},
});
