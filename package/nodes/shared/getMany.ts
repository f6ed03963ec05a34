import type { INodeProperties } from 'n8n-workflow';

/**
 * Return All and Limit of a Get Many (n8n's convention), shown for the resource's listing operations; `maxLimit`
 * where the endpoint answers at most so many in one request and has no pages.
 */
export function getManyFields(resource: string, operations: string[] = ['getAll'], maxLimit?: number): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			displayOptions: { show: { resource: [resource], operation: operations } },
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0, ...(maxLimit && { maxValue: maxLimit }) },
			default: 50,
			displayOptions: { show: { resource: [resource], operation: operations, returnAll: [false] } },
			description: 'Max number of results to return',
		},
	];
}
