import type { FieldType, IDataObject, ILoadOptionsFunctions, INodeProperties, ResourceMapperFields } from 'n8n-workflow';

import { isEmpty } from '../shared/inputChecks';
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

/**
 * Puts the mapped custom fields into the body (empty ones left out). "Map automatically" takes the input item's
 * fields named like a custom field's key; a key that is no longer in the settings stops the item.
 */
export async function putCustomFields(call: OperationCall, recordType: RecordType): Promise<void> {
	const { fields = [] } = (await call.lookup(settingsRequest(recordType))) as { fields?: IDataObject[] };
	const keys = new Set(fields.map((field) => String(field.key)));
	const automatic = call.read('customFields.mappingMode') === 'autoMapInputData';
	const mapped = (automatic ? call.item : (call.read('customFields.value') ?? {})) as IDataObject;
	const given = Object.entries(mapped).filter(([key, value]) => !isEmpty(value) && (!automatic || keys.has(key)));
	const unknown = given.find(([key]) => !keys.has(key));
	if (unknown) {
		call.fail(
			`Custom field "${unknown[0]}" is not in the ${recordType} custom-field settings`,
			`refresh the Custom Fields list (it may have been removed or renamed), or add "${unknown[0]}" to the settings.`,
		);
	}
	if (given.length) call.request.body = { ...call.request.body, customFields: Object.fromEntries(given) };
}
