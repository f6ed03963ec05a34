import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult, INodeProperties } from 'n8n-workflow';

import { matches } from '../shared/listSearch';
import { locator } from '../shared/locators';
import { apiRequest } from '../shared/transport/request';
import type { Converter } from '../shared/types';

/**
 * The Scheduling records and fields other areas use too (the Routing node, the triggers' filters): meeting types (the
 * "From List" loader and the resource locator), the meeting channels, and the booking form's answers and name rule.
 */

export const meetingTypeLocator = locator('searchMeetingTypes', 'Meeting Type ID');

export async function searchMeetingTypes(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const meetingTypes = (await apiRequest(this, 0, { method: 'GET', path: '/v4/meeting-type' })) as IDataObject[];
	return {
		results: meetingTypes
			.filter((type) => matches(filter, (type.meetingInfo as IDataObject)?.name, type.slug, type.id))
			.map((type) => ({ name: String((type.meetingInfo as IDataObject)?.name ?? type.slug), value: String(type.id) })),
	};
}

/** Where a meeting takes place (meetingInfo.channel): every value of the reference, shared by Meeting Type, Booking → Create, User → Create and the booking options. */
export const channelOptions = [
	{ name: 'Alfaview', value: 'alfaview' },
	{ name: 'Connect', value: 'connect' },
	{ name: 'Custom', value: 'custom' },
	{ name: 'Google Meet', value: 'google' },
	{ name: 'In Person (Attendee Location)', value: 'local-attendee' },
	{ name: 'In Person (Host Location)', value: 'local' },
	{ name: 'Jitsi', value: 'jitsi' },
	{ name: 'KMeet', value: 'kmeet' },
	{ name: 'Messenger', value: 'messenger' },
	{ name: 'Microsoft Teams (Business)', value: 'teamsForBusiness2' },
	{ name: 'Microsoft Teams (Exchange)', value: 'teams2ForExchange' },
	{ name: 'Nextcloud Talk', value: 'nextcloudTalk' },
	{ name: 'OpenTalk', value: 'openTalk' },
	{ name: 'Phone (Attendee Calls)', value: 'phone-incoming' },
	{ name: 'Phone (Host Calls)', value: 'phone' },
	{ name: 'Resource (Room or Equipment)', value: 'resource' },
	{ name: 'Webex', value: 'webex' },
	{ name: 'Whereby', value: 'whereby' },
	{ name: 'Zoom', value: 'zoom' },
];

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
export function formAnswersField(description: string, displayOptions?: INodeProperties['displayOptions']): INodeProperties {
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
