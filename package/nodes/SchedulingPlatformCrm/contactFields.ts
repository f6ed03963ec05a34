import type { FieldType, IDataObject, INodeProperties, ResourceMapperField } from 'n8n-workflow';

import { InputProblem, inputProblem, isEmpty, typedValue } from '../shared/inputChecks';
import type { OperationCall } from '../shared/types';
import { readItems } from '../shared/transport/answers';
import type { ApiRequest } from '../shared/transport/request';
import { DATA_FIELD_ITEMS } from './resources/dataField';

/**
 * A contact's fields as the Contact Fields resource mapper offers them: the contact's own fields and the
 * company's data fields (GET /v4/data-field, keyed by their `name` in additionalData), with their types. At
 * run time the mapped values are checked against the data fields as they are now, so a misspelt or deleted
 * data field is refused instead of being stored silently.
 */

/** The contact's own text fields: those the bulk import takes, then those only create and update take. */
const IMPORT_FIELDS: Record<string, string> = { firstName: 'First Name', lastName: 'Last Name', email: 'Email', phoneNumber: 'Phone Number', notes: 'Notes' };
const OTHER_FIELDS: Record<string, string> = {
	language: 'Language',
	title: 'Title',
	employer: 'Employer',
	seniority: 'Seniority',
	function: 'Function',
	location: 'Location',
	addressLine1: 'Address Line 1',
	addressLine2: 'Address Line 2',
	addressLine3: 'Address Line 3',
	addressCity: 'Address City',
	addressZip: 'Address ZIP',
	addressCountry: 'Address Country',
};

/** The address fields of the mapper, by their part of the contact's `address` object. */
const ADDRESS_PARTS: Record<string, string> = { addressLine1: 'line1', addressLine2: 'line2', addressLine3: 'line3', addressCity: 'city', addressZip: 'zip', addressCountry: 'country' };

export const DATA_FIELDS_REQUEST: ApiRequest = { method: 'GET', path: '/v4/data-field', qs: { limit: 100, offset: 0 } };

export interface DataField {
	id: number | string;
	name: string;
	label: string;
	fieldType: string;
	options?: Array<{ label: string; value: string }>;
}

/** The contact's own fields for the operation (Import Many takes fewer). */
function ownFields(operation: string): Record<string, string> {
	return operation === 'importMany' ? IMPORT_FIELDS : { ...IMPORT_FIELDS, ...OTHER_FIELDS };
}

const NUMBER_TYPES = ['number', 'slide', 'rating', 'scale'];
const BOOLEAN_TYPES = ['yes-no', 'checkbox-single'];
const CHOICE_TYPES = ['select', 'radio'];

/** The mapper's and the checks' type of a data field type (unknown types are text). */
function typeOf(field: DataField): FieldType {
	if (NUMBER_TYPES.includes(field.fieldType)) return 'number';
	if (BOOLEAN_TYPES.includes(field.fieldType)) return 'boolean';
	if (CHOICE_TYPES.includes(field.fieldType)) return 'options';
	return field.fieldType === 'checkbox-multi' ? 'array' : 'string';
}

const choices = (field: DataField) => (field.options ?? []).map(({ label, value }) => ({ name: label, value }));

/** The fields the mapper lists: the contact's own, then each data field not named like one of them. */
export function mapperFields(operation: string, dataFields: DataField[]): ResourceMapperField[] {
	const own = ownFields(operation);
	const fields = Object.entries(own).map(([id, displayName]) => ({ id, displayName, type: 'string' as FieldType }));
	const extra = dataFields
		.filter((field) => !(field.name in own))
		.map((field) => ({ id: field.name, displayName: `${field.label} (Data Field)`, type: typeOf(field), ...(typeOf(field) === 'options' && { options: choices(field) }) }));
	return [...fields, ...extra].map((field) => ({ ...field, required: false, defaultMatch: false, display: true, canBeUsedToMatch: field.id === 'email' }));
}

/**
 * The line that says why the data fields are missing: read-only and empty, so nothing is sent for it. Reloading the
 * fields (reopen the node, or switch Mapping Column Mode) replaces it with the data fields once the reason is fixed.
 */
export function notLoadedField(reason: string): ResourceMapperField {
	return {
		id: 'dataFieldsNotLoaded',
		displayName: `Data fields not loaded: ${reason} Once that is fixed, reopen this node (or switch Mapping Column Mode) to load them.`,
		type: 'string',
		required: false,
		defaultMatch: false,
		canBeUsedToMatch: false,
		display: true,
		readOnly: true,
	};
}

/** The Contact Fields mapper, for the blocks of the operations that show it (Import Many: the fields the bulk import takes). */
export const contactFieldsProperty: INodeProperties = {
	displayName: 'Contact Fields',
	name: 'contactFields',
	type: 'resourceMapper',
	noDataExpression: true,
	default: { mappingMode: 'defineBelow', value: null },
	required: true,
	typeOptions: {
		// Reloaded when the operation or the Authentication changes (n8n offers no reload on a credential change).
		loadOptionsDependsOn: ['operation', 'authentication'],
		resourceMapper: {
			resourceMapperMethod: 'getContactFields',
			mode: 'add',
			fieldWords: { singular: 'field', plural: 'fields' },
			addAllFields: true,
			supportAutoMap: true,
			noFieldsError: 'No contact fields found',
		},
	},
	description:
		'The contact\'s own fields (always listed) and the company\'s data fields (read from the API); fields left empty here are not sent. "Map Automatically" takes the input fields of the same names.',
};

/** The value as the data field's type, through the node's own type rules (a number from "42", a choice among the options). */
function dataValue(field: DataField, value: unknown): unknown {
	const type = typeOf(field);
	if (type === 'array') return typedValue({ type: 'string', typeOptions: { multipleValues: true } } as INodeProperties, value);
	const property = { type: type === 'string' ? 'string' : type, options: choices(field) } as INodeProperties;
	return typedValue(property, value);
}

/**
 * The contact fields of the item, as the request body: own fields at the top, data fields in additionalData.
 * `clear`: an empty value clears the field (null; a data field's key is removed), else it is left out.
 */
export async function contactBody(call: OperationCall, operation: string, clear: boolean): Promise<IDataObject> {
	const mapper = (call.read('contactFields') ?? {}) as { mappingMode?: string; value?: IDataObject | null };
	const answer = await call.lookup(DATA_FIELDS_REQUEST);
	const dataFields = readItems(answer, DATA_FIELD_ITEMS, call.fail) as unknown as DataField[];
	const own = ownFields(operation);
	const byName = new Map(dataFields.map((field) => [field.name, field]));
	const auto = mapper.mappingMode === 'autoMapInputData';
	const given = auto ? call.item : (mapper.value ?? {});
	const body: IDataObject = {};
	const additionalData: IDataObject = {};
	for (const [key, raw] of Object.entries(given)) {
		const field = byName.get(key);
		if (!(key in own) && !field) {
			if (auto) continue;
			call.fail(`"${key}" is not a contact field or a data field of the company`, `Pick the field again in Contact Fields (the list is read from the API), or create the data field first (Data Field > Create). Data fields: ${[...byName.keys()].join(', ') || 'none'}.`);
		}
		const label = field ? field.label : own[key];
		const value = (isEmpty(raw) ? null : checked(call, label, () => (field ? dataValue(field, raw) : ownValue(key, raw)))) as IDataObject[string];
		if (value === null && !clear) continue;
		if (field) additionalData[key] = value;
		else body[key] = value;
	}
	if (Object.keys(additionalData).length) body.additionalData = additionalData;
	nestAddress(body);
	return body;
}

/** The address fields given move into the body's `address` object (a cleared one as null). */
function nestAddress(body: IDataObject): void {
	const given = Object.keys(ADDRESS_PARTS).filter((key) => key in body);
	if (!given.length) return;
	body.address = Object.fromEntries(given.map((key) => [ADDRESS_PARTS[key], body[key]]));
	for (const key of given) delete body[key];
}

/** The contact's address with the given parts changed and the cleared (null) ones removed, to be sent whole (whether the API merges or replaces it). */
export function mergedAddress(current: unknown, given: IDataObject): IDataObject {
	const merged = Object.entries({ ...(current as IDataObject | null), ...given }).filter(([, value]) => value !== null && value !== undefined);
	return Object.fromEntries(merged);
}

function ownValue(key: string, raw: unknown): unknown {
	const value = typedValue({ type: 'string' } as INodeProperties, raw);
	const problem = key === 'email' ? inputProblem('email', value) : undefined;
	if (problem) throw new InputProblem(problem);
	return value;
}

function checked(call: OperationCall, label: string, convert: () => unknown): unknown {
	try {
		return convert();
	} catch (error) {
		// The type rules throw only InputProblem: a sentence about the value.
		return call.fail(`Contact Fields: ${label} ${(error as Error).message}`, 'Fix the value in Contact Fields (or the input field mapped to it) and run the node again.');
	}
}
