import type { INodeProperties } from 'n8n-workflow';

/** Fields that several CRM resources show the same way. */

/** Return All and Limit of a Get Many. */
export function getManyFields(resource: string, operation = 'getAll'): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			displayOptions: { show: { resource: [resource], operation: [operation] } },
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: 50,
			displayOptions: { show: { resource: [resource], operation: [operation], returnAll: [false] } },
			description: 'Max number of results to return',
		},
	];
}

/** Sort Order of a page1 list: upper case on the wire (api-reference §1.3). */
export const sortOrderField: INodeProperties = {
	displayName: 'Sort Order',
	name: 'sortOrder',
	type: 'options',
	options: [
		{ name: 'Ascending', value: 'ASC' },
		{ name: 'Descending', value: 'DESC' },
	],
	default: 'DESC',
};
