import type { INodeProperties, INodePropertyMode } from 'n8n-workflow';

import { contactIdOfEmail } from './contacts';
import { UUID_EXAMPLE, uuidValidation } from './inputChecks';
import type { OperationCall } from './types';

/**
 * The modes of a resource locator, to spread into its property: "From List" with a list search loader of the
 * node, and "By ID" with n8n's validation of the ID's form (the editor refuses a wrong literal ID under the field;
 * the executor applies the same rule to IDs from expressions). Most IDs are UUIDs; data fields, availability
 * exceptions and pending attendees have numbers (api-reference §1). Users are shared by every node.
 */

export type IdForm = 'uuid' | 'number';

function numberValidation(what: string): INodePropertyMode['validation'] {
	return [{ type: 'regex', properties: { regex: '^(\\d+)?$', errorMessage: `${what} must be a number, such as 42` } }];
}

const ID_FORMS: Record<IdForm, { placeholder: string; validation: (what: string) => INodePropertyMode['validation'] }> = {
	uuid: { placeholder: `e.g. ${UUID_EXAMPLE}`, validation: uuidValidation },
	number: { placeholder: 'e.g. 42', validation: numberValidation },
};

/** List, By ID and `more` modes; `what` names the ID in the editor's message ("Contact ID must be in UUID form, ..."). */
export function locator(searchListMethod: string, what: string, form: IdForm = 'uuid', more: Pick<INodeProperties, 'modes'> = {}): Pick<INodeProperties, 'modes'> {
	const { placeholder, validation } = ID_FORMS[form];
	return {
		modes: [
			{ displayName: 'From List', name: 'list', type: 'list', typeOptions: { searchListMethod, searchable: true } },
			{ displayName: 'By ID', name: 'id', type: 'string', placeholder, validation: validation(what) },
			...(more.modes ?? []),
		],
	};
}

export const userLocator = locator('searchUsers', 'User ID');

/**
 * Modes whose value names the record another way than its ID (a contact By Email), by mode name: how the executor
 * finds the ID before building the request (`label` names the field in its messages).
 */
export const modeResolvers: Record<string, (value: string, call: Pick<OperationCall, 'lookup' | 'fail'>, label: string) => Promise<string>> = {
	email: contactIdOfEmail,
};

/** A resource locator property with these modes, empty by default. */
export const locatorField = (displayName: string, name: string, description: string, modes: Pick<INodeProperties, 'modes'>): INodeProperties => ({
	displayName,
	name,
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	description,
	...modes,
});
