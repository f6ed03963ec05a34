import type { FieldType, IDataObject, ILoadOptionsFunctions, INodeProperties, ResourceMapperFields } from 'n8n-workflow';

import { isEmpty, typedValue } from '../shared/inputChecks';
import { apiRequest } from '../shared/transport/request';
import type { OperationCall } from '../shared/types';

/**
 * Custom fields of companies and deals (GET /crm/settings/custom-fields?recordType=company|deal), entered with
 * n8n's resource mapper: one property, one loader and one request hook serve both record types.
 */

export type RecordType = 'company' | 'deal';

const FIELD_TYPES: Record<string, FieldType> = {
	number: 'number',
	boolean: 'boolean',
	date: 'dateTime',
	select: 'options',
	multiselect: 'array',
};

const settingsRequest = (recordType: RecordType) => ({ method: 'GET' as const, path: '/crm/settings/custom-fields', qs: { recordType } });

/** The Custom Fields mapper of a record type's Create (required fields demanded) or Update (all optional). */
export function customFieldsProperty(recordType: RecordType, operation: 'create' | 'update'): INodeProperties {
	return {
		displayName: 'Custom Fields',
		name: 'customFields',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'defineBelow', value: null },
		required: true,
		displayOptions: { show: { resource: [recordType], operation: [operation] } },
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
			type: FIELD_TYPES[String(field.type)] ?? 'string',
			...(field.type === 'select' && { options: ((field.options ?? []) as string[]).map((option) => ({ name: option, value: option })) }),
		})),
	};
}

/** The value as the custom field's type, through the node's own type rules (a number from "42", a choice among the options). */
function typed(field: IDataObject, raw: unknown): unknown {
	const type = FIELD_TYPES[String(field.type)] ?? 'string';
	if (type === 'array') return typedValue({ type: 'string', typeOptions: { multipleValues: true } } as INodeProperties, raw);
	const options = ((field.options ?? []) as string[]).map((option) => ({ name: option, value: option }));
	return typedValue({ type, options } as INodeProperties, raw);
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
