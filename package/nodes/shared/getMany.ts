import type { INodeProperties } from 'n8n-workflow';

/**
 * Return All and Limit of a Get Many (n8n's convention), for the operations whose blocks list them (shared/declare.ts):
 * one call per resource, so that its listing operations share them; `maxLimit` where the endpoint answers at most so
 * many in one request and has no pages.
 */
export function returnAllFields(maxLimit?: number): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0, ...(maxLimit && { maxValue: maxLimit }) },
			default: 50,
			displayOptions: { show: { returnAll: [false] } },
			description: 'Max number of results to return',
		},
	];
}
