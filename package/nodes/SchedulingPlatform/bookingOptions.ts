import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { byName } from '../shared/fields';
import { InputProblem, inputProblem } from '../shared/inputChecks';
import type { Converter } from '../shared/types';
import { channelOptions } from './records';

/**
 * The booking options of a meeting type (api-reference §2, Meeting Type V4): the fields of Booking Options
 * (`meetingOptions`, and on Update the time slot interval, minimum notice and booking window), the locations, the
 * metadata, and the converters of their repeated rows. The API's keys stay in the definitions (meetingType.ts).
 */

/** The meeting length the reference allows (meetingInfo.duration): each allowed duration is one. */
const DURATION = { min: 5, max: 480 };

/** ["15", "30, 60"] (entries, or a list or comma-separated text from an expression) → [15, 30, 60]: whole minutes, each a meeting length. */
export const durationList: Converter = (value) => {
	const given = [value].flat().flatMap((item) => String(item).split(',')).map((item) => item.trim()).filter(Boolean);
	const durations = given.map(Number);
	const wrong = durations.findIndex((minutes) => !Number.isInteger(minutes) || minutes < DURATION.min || minutes > DURATION.max);
	if (wrong >= 0) {
		throw new InputProblem(`must be whole minutes from ${DURATION.min} to ${DURATION.max}, such as 15, 30, 60; "${given[wrong]}" is not`);
	}
	return durations.length ? durations : undefined;
};

/** Rows of Channel and Availability ID → { channel: availabilityId }: each channel once, each with an ID (any non-empty text). */
export const channelAvailabilities: Converter = (value) => {
	const rows = ((value as IDataObject).channels ?? []) as Array<{ channel?: unknown; availabilityId?: unknown }>;
	const byChannel: IDataObject = {};
	for (const [index, row] of rows.entries()) {
		const [channel, availabilityId] = [String(row.channel ?? '').trim(), String(row.availabilityId ?? '').trim()];
		if (channel in byChannel) throw new InputProblem(`has the channel "${channel}" twice: give each channel once`);
		const problem = inputProblem('required', availabilityId);
		if (problem) throw new InputProblem(`row ${index + 1}: Availability ID ${problem}`);
		byChannel[channel] = availabilityId;
	}
	return rows.length ? byChannel : undefined;
};

/** Rows of Address → ["address", ...]: no empty row. */
export const locationList: Converter = (value) => {
	const rows = ((value as IDataObject).locations ?? []) as Array<{ address?: unknown }>;
	const addresses = rows.map((row) => String(row.address ?? '').trim());
	const empty = addresses.indexOf('');
	if (empty >= 0) throw new InputProblem(`row ${empty + 1} needs an address`);
	return addresses.length ? addresses : undefined;
};

/** At most 20 keys, each value at most 500 characters (api-reference §2). */
const METADATA = { keys: 20, valueLength: 500 };

/** Rows of Key and Value → { key: value }: each key given once, at most 20, values at most 500 characters. */
export const metadataEntries: Converter = (value) => {
	const rows = ((value as IDataObject).entries ?? []) as Array<{ key?: unknown; value?: unknown }>;
	if (rows.length > METADATA.keys) throw new InputProblem(`may hold at most ${METADATA.keys} keys; it holds ${rows.length}`);
	const metadata: IDataObject = {};
	for (const [index, row] of rows.entries()) {
		const key = String(row.key ?? '').trim();
		if (!key) throw new InputProblem(`row ${index + 1} needs a key`);
		if (key in metadata) throw new InputProblem(`has the key "${key}" twice: give each key once`);
		const text = String(row.value ?? '');
		const problem = inputProblem({ maxLength: METADATA.valueLength }, text);
		if (problem) throw new InputProblem(`"${key}": the value ${problem}`);
		metadata[key] = text;
	}
	return rows.length ? metadata : undefined;
};

/** The reference documents one value of the approval settings, `useCompanySettings`, and no other. */
const approvalField = (displayName: string, name: string, who: string): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	default: '',
	placeholder: 'e.g. useCompanySettings',
	description: `Whether ${who} before a booking becomes an appointment. The API documents the value useCompanySettings (the company's setting applies); it does not document its other values, so enter them as the API takes them.`,
});

/** `meetingOptions`: the same on Create and Update. */
const meetingOptionFields: INodeProperties[] = [
	{
		displayName: 'Allow Adding Guests',
		name: 'allowAddingGuests',
		type: 'boolean',
		default: false,
		description: 'Whether people who book may bring guests along',
	},
	{
		displayName: 'Allow Channel Choice',
		name: 'allowSelectChannel',
		type: 'boolean',
		default: false,
		description: 'Whether people who book choose the channel, among Allowed Channels',
	},
	{
		displayName: 'Allow Host Choice',
		name: 'allowHostSelection',
		type: 'boolean',
		default: false,
		description: 'Whether people who book may choose the host',
	},
	{
		displayName: 'Allow Phone-Only Booking',
		name: 'allowPhoneOnlyBooking',
		type: 'boolean',
		default: false,
		description: 'Whether people may book with a phone number alone (Booking → Create: Phone-Only Booking)',
	},
	{
		displayName: 'Allowed Channels',
		name: 'allowedChannels',
		type: 'multiOptions',
		options: channelOptions,
		default: [],
		description: 'Channels people who book may choose from; more than one turns the channel choice on',
	},
	{
		displayName: 'Allowed Durations (Minutes)',
		name: 'allowedDurations',
		type: 'string',
		typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Duration' },
		default: [],
		placeholder: 'e.g. 30',
		description: 'Meeting lengths people who book may pick, in whole minutes from 5 to 480; from an expression, a list or comma-separated text such as 15, 30, 60',
	},
	{
		displayName: 'Channel Availabilities',
		name: 'channelAvailabilities',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Channel' },
		placeholder: 'Add Channel',
		default: {},
		description:
			'Other hours for a channel: bookings on it follow that availability instead of the meeting type\'s. The API also takes an inline availability per channel; here, create it with Availability → Create and give its ID.',
		options: [
			{
				displayName: 'Channel',
				name: 'channels',
				values: [
					{ displayName: 'Channel', name: 'channel', type: 'options', options: channelOptions, default: 'phone' },
					{
						displayName: 'Availability ID',
						name: 'availabilityId',
						type: 'string',
						default: '',
						description: 'ID of the availability whose hours apply to this channel (Availability → Get Many lists them)',
					},
				],
			},
		],
	},
	approvalField('Double Opt-In', 'doubleOptIn', 'the person who books must confirm by email'),
	{
		displayName: 'Enable Buffer Carry-Over',
		name: 'enableBufferCarryOver',
		type: 'boolean',
		default: false,
		description: 'Whether buffer carry-over is on (the API\'s enableBufferCarryOver), up to Max Buffer Carry-Over Delay',
	},
	{
		displayName: 'Enable Cluster Meeting',
		name: 'enableClusterMeeting',
		type: 'boolean',
		default: false,
		description: 'Whether cluster meetings are on (the API\'s enableClusterMeeting)',
	},
	{
		displayName: 'Force Host Choice',
		name: 'forceHostSelection',
		type: 'boolean',
		default: false,
		description: 'Whether people who book must choose the host',
	},
	{
		displayName: 'Max Buffer Carry-Over Delay',
		name: 'maxBufferCarryOverDelay',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 0 },
		default: 0,
		description: 'The API\'s maxBufferCarryOverDelay, a whole number (the reference does not state its unit)',
	},
	approvalField('Require Host Confirmation', 'requireHostConfirmation', 'the host must confirm'),
];

/** Update only: how starts are offered, how short the notice may be, how far ahead people may book (`daysIntoFuture`). */
const schedulingFields: INodeProperties[] = [
	{
		displayName: 'Booking Window Count Mode',
		name: 'daysIntoFutureCountMode',
		type: 'string',
		default: '',
		description: 'How the days of the booking window are counted (the API\'s daysIntoFuture.countMode; the reference does not list its values)',
	},
	{
		displayName: 'Booking Window Limit',
		name: 'daysIntoFutureBookingLimit',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 0 },
		default: 30,
		description: 'How far into the future people may book (the API\'s daysIntoFuture.bookingLimit), used with the mode limit',
	},
	{
		displayName: 'Booking Window Mode',
		name: 'daysIntoFutureMode',
		type: 'string',
		default: '',
		placeholder: 'e.g. limit',
		description: 'How the booking window is set (the API\'s daysIntoFuture.mode). The API documents the value limit (Booking Window Limit applies); it does not document its other values.',
	},
	{
		displayName: 'Booking Window Range Max',
		name: 'daysIntoFutureRangeMax',
		type: 'string',
		default: '',
		description: 'End of the booking window\'s range (the API\'s daysIntoFuture.rangeMax), as the API takes it: the reference names it without its form',
	},
	{
		displayName: 'Booking Window Range Min',
		name: 'daysIntoFutureRangeMin',
		type: 'string',
		default: '',
		description: 'Start of the booking window\'s range (the API\'s daysIntoFuture.rangeMin), as the API takes it: the reference names it without its form',
	},
	{
		displayName: 'Minimum Notice (Minutes)',
		name: 'bookingMinimum',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 0 },
		default: 0,
		description: 'How long before its start a meeting can still be booked, in minutes; later times are not offered',
	},
	{
		displayName: 'Time Slot Interval (Minutes)',
		name: 'timeslotInterval',
		type: 'number',
		typeOptions: { minValue: 5, maxValue: 60, numberPrecision: 0 },
		default: 30,
		description: 'Minutes between the offered start times, 5 to 60 (e.g. 15: 09:00, 09:15, 09:30 …)',
	},
];

/** Booking Options of Create (`meetingOptions`) or Update (`meetingOptions` and the scheduling fields). */
export function bookingOptionsProperty(operation: 'create' | 'update'): INodeProperties {
	return {
		displayName: 'Booking Options',
		name: 'bookingOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		description: 'What people who book may choose, and which bookings need a confirmation',
		options: byName(operation === 'create' ? meetingOptionFields : [...meetingOptionFields, ...schedulingFields]),
	};
}

/** Calendar invite texts (`ics`) and in-person addresses (`locations`): fields of Additional Fields and Update Fields. */
export const inviteAndPlaceFields: INodeProperties[] = [
	{
		displayName: 'Calendar Invite Description',
		name: 'icsDescription',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		description: 'Description of the event in the calendar invitation of each booking',
	},
	{
		displayName: 'Calendar Invite Location',
		name: 'icsLocation',
		type: 'string',
		default: '',
		description: 'Location of the event in the calendar invitation of each booking',
	},
	{
		displayName: 'Calendar Invite Title',
		name: 'icsTitle',
		type: 'string',
		default: '',
		description: 'Title of the event in the calendar invitation of each booking',
	},
	{
		displayName: 'Locations',
		name: 'locations',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Location' },
		placeholder: 'Add Location',
		default: {},
		description: 'Addresses for in-person meetings; with several, the person who books chooses one',
		options: [
			{
				displayName: 'Location',
				name: 'locations',
				values: [{ displayName: 'Address', name: 'address', type: 'string', default: '', placeholder: 'e.g. Main Street 1, 10115 Berlin' }],
			},
		],
	},
];

/** Create only: metadata for other systems and the one-time link. */
export const createOnlyFields: INodeProperties[] = [
	{
		displayName: 'Create One-Time Link',
		name: 'createOneTimeLink',
		type: 'boolean',
		default: false,
		description: 'Whether a one-time booking link is created with the meeting type (Booking Link → Get Many One-Time Links lists it)',
	},
	{
		displayName: 'Metadata',
		name: 'metadata',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Key' },
		placeholder: 'Add Key',
		default: {},
		description: 'Keys and values to find the meeting type by in other systems: at most 20 keys, each value at most 500 characters',
		options: [
			{
				displayName: 'Entry',
				name: 'entries',
				values: [
					{ displayName: 'Key', name: 'key', type: 'string', default: '', placeholder: 'e.g. crmCampaignId' },
					{ displayName: 'Value', name: 'value', type: 'string', default: '' },
				],
			},
		],
	},
];
