import type { FieldType, IDataObject, ILoadOptionsFunctions, INodeProperties, NodePropertyTypes, ResourceMapperFields } from 'n8n-workflow';

import { InputProblem, isEmpty, shown, typedValue } from '../shared/inputChecks';
import { apiRequest } from '../shared/transport/request';
import type { OperationCall } from '../shared/types';
import { CUSTOM_FIELD_SETTINGS } from './resources/customField';

/**
 * Custom fields of companies and deals (GET /crm/settings/custom-fields?recordType=company|deal), entered with
 * n8n's resource mapper: one property, one loader and one request hook serve both record types.
 */

export type RecordType = 'company' | 'deal';

/**
 * Each custom-field type (api-reference §3): the mapper's field type, and the node field type whose rules check
 * and convert its values (a checkbox sends true, not "true"; a currency 1234.5, not "1234.5"). Another type is text
 * in the mapper and its value is sent as given.
 */
const TYPES: Record<string, { mapper: FieldType; rule: NodePropertyTypes }> = {
	text: { mapper: 'string', rule: 'string' },
	textarea: { mapper: 'string', rule: 'string' },
	number: { mapper: 'number', rule: 'number' },
	currency: { mapper: 'number', rule: 'number' },
	date: { mapper: 'dateTime', rule: 'dateTime' },
	select: { mapper: 'options', rule: 'options' },
	multiselect: { mapper: 'array', rule: 'multiOptions' },
	checkbox: { mapper: 'boolean', rule: 'boolean' },
};

export const settingsRequest = (recordType: RecordType) => ({ method: 'GET' as const, path: CUSTOM_FIELD_SETTINGS, qs: { recordType } });

/** The Custom Fields mapper of a record type's Create (required fields demanded) or Update (all optional), for that operation's block. */
export function customFieldsProperty(recordType: RecordType, operation: 'create' | 'update'): INodeProperties {
	return {
		displayName: 'Custom Fields',
		name: 'customFields',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'defineBelow', value: null },
		required: true,
		typeOptions: {
			loadOptionsDependsOn: ['resource', 'operation'],
			resourceMapper: {
				resourceMapperMethod: 'getCustomFields',
				mode: operation === 'create' ? 'add' : 'update',
				fieldWords: { singular: 'custom field', plural: 'custom fields' },
				addAllFields: operation === 'create',
				multiKeyMatch: false,
				supportAutoMap: true,
				noFieldsError: `No ${recordType} custom fields are set up yet`,
			},
		},
	};
}

/** The mapper's fields: the record type's custom-field settings, required only on Create. */
export async function getCustomFields(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
	const recordType = this.getNodeParameter('resource', 'deal') as RecordType;
	const creating = this.getNodeParameter('operation', '') === 'create';
	const { fields = [] } = (await apiRequest(this, 0, settingsRequest(recordType))) as { fields?: IDataObject[] };
	return {
		fields: fields.map((field) => ({
			id: String(field.key),
			displayName: String(field.label),
			required: creating && field.required === true,
			defaultMatch: false,
			display: true,
			type: TYPES[String(field.type)]?.mapper ?? 'string',
			...(field.type === 'select' && { options: ((field.options ?? []) as string[]).map((option) => ({ name: option, value: option })) }),
		})),
	};
}

/** A list given as JSON text (`["a", "b"]`, as typed into the mapper's list field) is that list; other values stay. */
function jsonList(raw: unknown): unknown {
	if (typeof raw !== 'string' || !raw.trim().startsWith('[')) return raw;
	try {
		return JSON.parse(raw) as unknown;
	} catch {
		return raw;
	}
}

/** A `date` value is an ISO date (YYYY-MM-DD): the day of a date, or of a date and time as written. */
function isoDate(checked: unknown): string {
	const day = /^\d{4}-\d{2}-\d{2}/.exec(String(checked))?.[0];
	if (!day) throw new InputProblem(`must be a date such as 2026-03-09, not ${shown(checked)}`);
	return day;
}

/**
 * The value as the custom field's type, through the node's own type rules (a number from "42", true from "true",
 * a choice among the options, a list of choices, a date).
 */
function typed(field: IDataObject, raw: unknown): unknown {
	const rule = TYPES[String(field.type)]?.rule;
	if (!rule) return typedValue(undefined, raw);
	const options = ((field.options ?? []) as string[]).map((option) => ({ name: option, value: option }));
	const value = typedValue({ type: rule, options } as INodeProperties, rule === 'multiOptions' ? jsonList(raw) : raw);
	return field.type === 'date' ? isoDate(value) : value;
}

/**
 * Puts the mapped custom fields into the body, typed, empty ones left out. "Map automatically" takes the input
 * item's fields named like a custom field's key; a key no longer in the settings, or a value of the wrong type,
 * stops the item.
 */
export async function putCustomFields(call: OperationCall, recordType: RecordType): Promise<void> {
	const { fields = [] } = (await call.lookup(settingsRequest(recordType))) as { fields?: IDataObject[] };
	const byKey = new Map(fields.map((field) => [String(field.key), field]));
	const mapper = (call.read('customFields') ?? {}) as { mappingMode?: string; value?: IDataObject | null };
	const automatic = mapper.mappingMode === 'autoMapInputData';
	const customFields: IDataObject = {};
	for (const [key, raw] of Object.entries(automatic ? call.item : (mapper.value ?? {}))) {
		const field = byKey.get(key);
		if (!field && automatic) continue;
		if (!field) {
			call.fail(
				`Custom field "${key}" is not in the ${recordType} custom-field settings`,
				`refresh the Custom Fields list (it may have been removed or renamed), or add "${key}" to the settings.`,
			);
		}
		if (isEmpty(raw)) continue;
		try {
			customFields[key] = typed(field, raw) as IDataObject[string];
		} catch (error) {
			// The type rules throw only InputProblem: a sentence about the value.
			call.fail(`Custom Fields: ${String(field.label)} ${(error as Error).message}`, 'fix the value in Custom Fields (or the input field mapped to it) and run the node again.');
		}
	}
	if (Object.keys(customFields).length) call.request.body = { ...call.request.body, customFields };
}
