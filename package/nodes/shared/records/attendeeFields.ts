import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { Converter } from '../types';

/**
 * What a booking's attendee (api-reference §2) and a pending attendee (§7, the Routing node) share: the booking-form
 * answers, entered as Label/Value rows and sent as the API's `notes` object (`{}` when none), and the name rule (Full
 * Name, or First Name and Last Name: the live API would store an empty name otherwise).
 */

/** Form answers entered as Label/Value pairs → { label: value }. */
export const formAnswers: Converter = (value) => {
	const entries = ((value as IDataObject).answers ?? []) as Array<{ label?: string; value?: string }>;
	return Object.fromEntries(entries.filter((entry) => entry.label).map((entry) => [entry.label, entry.value ?? '']));
};

/** The Label/Value rows of the booking form, named `formAnswers`, shown where `displayOptions` says. */
export function formAnswersField(displayOptions: INodeProperties['displayOptions'], description: string): INodeProperties {
	return {
		displayName: 'Form Answers',
		name: 'formAnswers',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Answer',
		default: {},
		displayOptions,
		description,
		options: [
			{
				displayName: 'Answer',
				name: 'answers',
				values: [
					{ displayName: 'Label', name: 'label', type: 'string', default: '', description: 'Question of the booking form, e.g. Company' },
					{ displayName: 'Value', name: 'value', type: 'string', default: '', description: 'The answer' },
				],
			},
		],
	};
}

/** A person of the API (`fullname`, `firstname`, `lastname`) without a name: the sentence that refuses it. */
export function nameProblem(person: IDataObject, who: string): string | undefined {
	if (person.fullname || (person.firstname && person.lastname)) return undefined;
	return `${who} needs a name: enter Full Name, or both First Name and Last Name`;
}
