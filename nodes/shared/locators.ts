import type { INodeProperties, INodePropertyMode } from 'n8n-workflow';

import { uuidValidation } from './inputChecks';

/**
 * The modes of a resource locator, to spread into its property: "From List" with a list search loader of the
 * node, and "By ID" (with n8n's validation of the ID, when given). Users are shared by every node.
 */
export function locator(searchListMethod: string, placeholder: string, validation?: INodePropertyMode['validation']): Pick<INodeProperties, 'modes'> {
	return {
		modes: [
			{ displayName: 'From List', name: 'list', type: 'list', typeOptions: { searchListMethod, searchable: true } },
			{ displayName: 'By ID', name: 'id', type: 'string', placeholder, ...(validation && { validation }) },
		],
	};
}

export const userLocator = locator('searchUsers', 'e.g. 6f1c2a7e-1b2c-4d5e-8f90-123456789abc', uuidValidation('User ID'));
