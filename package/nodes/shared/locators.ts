import type { INodeProperties, INodePropertyMode } from 'n8n-workflow';

import { UUID_EXAMPLE, uuidValidation } from './inputChecks';

/**
 * The modes of a resource locator, to spread into its property: "From List" with a list search loader of the
 * node, and "By ID" with the ID's form where the API's form is known (n8n's validation: the editor refuses a wrong
 * literal ID under the field; the executor and the triggers' filters apply the same rule to IDs from expressions).
 * An ID's form is checked only where the specification or the reference shows it ("All identifiers are strings"):
 * - `uuid`: users (the acting-user header is a user's UUID, api-reference §1 Acting user and §1.1);
 * - `number`: data fields and pending attendees (numeric ids, api-reference §1 Ids, §3 Data Fields, §7);
 * - `text` (the default): any non-empty text, for every other record. The path builder keeps any text inside its
 *   path segment (URL-encoded; empty or only dots refused), and a required field refuses an empty one.
 * The decisions, field by field, are the table "Which ID fields check which form, and why" in docs/checks-and-errors.md.
 */

export type IdForm = 'uuid' | 'number' | 'text';

function numberValidation(what: string): INodePropertyMode['validation'] {
	return [{ type: 'regex', properties: { regex: '^(\\d+)?$', errorMessage: `${what} must be a number, such as 42` } }];
}

const ID_FORMS: Record<IdForm, (what: string) => Pick<INodePropertyMode, 'placeholder' | 'validation'>> = {
	uuid: (what) => ({ placeholder: `e.g. ${UUID_EXAMPLE}`, validation: uuidValidation(what) }),
	number: (what) => ({ placeholder: 'e.g. 42', validation: numberValidation(what) }),
	// No example: the form of these IDs is not known, and one would suggest a form the API may not have.
	text: (what) => ({ placeholder: `Enter the ${what}` }),
};

/** List, By ID and `more` modes; `what` names the ID in the editor's message ("User ID must be in UUID form, ..."). */
export function locator(searchListMethod: string, what: string, form: IdForm = 'text', more: Pick<INodeProperties, 'modes'> = {}): Pick<INodeProperties, 'modes'> {
	return {
		modes: [
			{ displayName: 'From List', name: 'list', type: 'list', typeOptions: { searchListMethod, searchable: true } },
			{ displayName: 'By ID', name: 'id', type: 'string', ...ID_FORMS[form](what) },
			...(more.modes ?? []),
		],
	};
}

/** Users are UUIDs (api-reference §1: `x-service-api-user-id: <user uuid>`); shared by every node. */
export const userLocator = locator('searchUsers', 'User ID', 'uuid');

/** A resource locator property with these modes, empty by default. */
export const locatorField = (displayName: string, name: string, description: string, modes: Pick<INodeProperties, 'modes'>): INodeProperties => ({
	displayName,
	name,
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	description,
	...modes,
});
