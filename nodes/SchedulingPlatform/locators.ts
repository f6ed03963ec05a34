import type { INodeProperties, INodePropertyMode } from 'n8n-workflow';

import { uuidValidation } from './inputChecks';

/**
 * The modes of a resource locator, to spread into its property: "From List" with a loader of listSearch.ts,
 * and "By ID".
 */
function locator(searchListMethod: string, placeholder: string, validation?: INodePropertyMode['validation']): Pick<INodeProperties, 'modes'> {
	return {
		modes: [
			{ displayName: 'From List', name: 'list', type: 'list', typeOptions: { searchListMethod, searchable: true } },
			{ displayName: 'By ID', name: 'id', type: 'string', placeholder, ...(validation && { validation }) },
		],
	};
}

export const meetingTypeLocator = locator('searchMeetingTypes', 'e.g. 3b9d6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f');

export const appointmentLocator = locator('searchAppointments', 'e.g. 3b9d6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f');

export const userLocator = locator('searchUsers', 'e.g. 6f1c2a7e-1b2c-4d5e-8f90-123456789abc', uuidValidation('User ID'));
