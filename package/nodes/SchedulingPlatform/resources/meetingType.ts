import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { declareResource } from '../../shared/declare';
import { byName } from '../../shared/fields';
import { returnAllFields } from '../../shared/getMany';
import { inputProblem } from '../../shared/inputChecks';
import type { InputReader, OperationCall, ParamSource } from '../../shared/types';
import { locatorField } from '../../shared/locators';
import { bookingOptionsProperty, channelAvailabilities, createOnlyFields, durationList, inviteAndPlaceFields, locationList, metadataEntries } from '../bookingOptions';
import { availabilityLocator } from '../locators';
import { weekFrom, weeklyHoursProblem, weeklyHoursProperties } from '../weeklyHours';
import { channelOptions, meetingTypeLocator } from '../records';

/**
 * Read only for the Custom channel: the link field is hidden, and unset, for the others. It is not marked required:
 * n8n shows (and would then demand) a dependent field whenever Channel is an expression.
 */
function customChannelLink(channel: unknown, input: InputReader): unknown {
	return channel === 'custom' ? input.read('customChannelLink') : undefined;
}

/** On Create, Custom needs a link; on Update a link needs Channel unset (the stored one) or Custom. */
function channelProblem(info: IDataObject, creating: boolean): string | undefined {
	const linkProblem = inputProblem('url', info.customChannelLink);
	if (linkProblem) return `Custom Channel Link ${linkProblem}`;
	if (creating && info.channel === 'custom' && !info.customChannelLink) return 'Custom Channel Link is required when Channel is Custom';
	if (info.customChannelLink && info.channel !== undefined && info.channel !== 'custom') {
		return 'Custom Channel Link is only used with the Custom channel: set Channel to Custom or remove the link';
	}
	return undefined;
}

/** The switch must agree with the URL: on Create an unset switch is off, on Update it keeps the stored setting. */
function redirectProblem(info: IDataObject, creating: boolean): string | undefined {
	const redirecting = info.enableRedirect ?? (creating ? false : undefined);
	if (redirecting === true && !info.redirect) return 'Redirect URL is required when Redirect After Booking is on';
	if (redirecting === false && info.redirect) return 'Redirect URL is set but Redirect After Booking is off: turn it on or remove the URL';
	if (redirecting === false && info.passEventDetailsToRedirect === true) {
		return 'Pass Event Details to Redirect needs Redirect After Booking on: turn it on or turn Pass Event Details to Redirect off';
	}
	return undefined;
}

/** Values that contradict each other are refused before sending, not resolved silently. */
function meetingInfoProblem(request: OperationCall['request'], creating: boolean): string | undefined {
	const info = (request.body?.meetingInfo ?? {}) as IDataObject;
	return channelProblem(info, creating) ?? redirectProblem(info, creating);
}

/** On Create: new weekly hours (an inline availability) or an existing availability, not both; the hours checked. */
function availabilityProblem(request: OperationCall['request'], input: InputReader): string | undefined {
	const inline = request.body?.availability as IDataObject | undefined;
	if (inline && request.body?.availabilityId) {
		return `${input.label('setWeeklyHours')} gives the meeting type new hours and Availability (Additional Fields) picks existing ones: use one of them`;
	}
	return weeklyHoursProblem(inline?.schedule);
}

/** `meetingOptions` (Booking Options) and the calendar invite and locations (in `fields`): the same keys on Create and Update. */
function bookingOptionsBody(fields: 'additionalFields' | 'updateFields'): Record<string, ParamSource> {
	return {
		'meetingOptions.allowedDurations': { param: 'bookingOptions.allowedDurations', convert: durationList },
		'meetingOptions.allowSelectChannel': 'bookingOptions.allowSelectChannel',
		'meetingOptions.allowHostSelection': 'bookingOptions.allowHostSelection',
		'meetingOptions.forceHostSelection': 'bookingOptions.forceHostSelection',
		'meetingOptions.allowedChannels': 'bookingOptions.allowedChannels',
		'meetingOptions.allowAddingGuests': 'bookingOptions.allowAddingGuests',
		'meetingOptions.doubleOptIn': 'bookingOptions.doubleOptIn',
		'meetingOptions.requireHostConfirmation': 'bookingOptions.requireHostConfirmation',
		'meetingOptions.enableClusterMeeting': 'bookingOptions.enableClusterMeeting',
		'meetingOptions.enableBufferCarryOver': 'bookingOptions.enableBufferCarryOver',
		'meetingOptions.maxBufferCarryOverDelay': 'bookingOptions.maxBufferCarryOverDelay',
		'meetingOptions.allowPhoneOnlyBooking': 'bookingOptions.allowPhoneOnlyBooking',
		'meetingOptions.channelAvailabilities': { param: 'bookingOptions.channelAvailabilities', convert: channelAvailabilities },
		locations: { param: `${fields}.locations`, convert: locationList },
		'ics.title': `${fields}.icsTitle`,
		'ics.description': `${fields}.icsDescription`,
		'ics.location': `${fields}.icsLocation`,
	};
}

const stayWithinHoursField: INodeProperties = {
	displayName: 'Buffers Stay Within Working Hours',
	name: 'bufferMustStayWithinWorkingHours',
	type: 'boolean',
	default: false,
	description: 'Whether the buffers before and after a meeting must also fall within the working hours (no slot is offered otherwise)',
};

const showSlotsField: INodeProperties = {
	displayName: 'Show Available Slots',
	name: 'showAvailableSlots',
	type: 'boolean',
	default: true,
	description: 'Whether the booking page shows the open time slots',
};

/** Where people go after booking: Redirect URL is required when the switch is on, refused when it is off. */
const redirectFields: INodeProperties[] = [
	{
		displayName: 'Pass Event Details to Redirect',
		name: 'passEventDetailsToRedirect',
		type: 'boolean',
		default: false,
		description: 'Whether the booking\'s details are added to the redirect address',
	},
	{
		displayName: 'Redirect After Booking',
		name: 'enableRedirect',
		type: 'boolean',
		default: false,
		description: 'Whether people are sent to Redirect URL after booking instead of the confirmation page',
	},
	{
		displayName: 'Redirect URL',
		name: 'redirect',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://example.com/thank-you',
		description: 'Web address people are sent to after booking; needs Redirect After Booking on',
	},
];

/** The availability picker of Additional Fields (Create) and Update Fields. */
function availabilityField(description: string): INodeProperties {
	return {
		displayName: 'Availability',
		name: 'availabilityId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		description,
		...availabilityLocator,
	};
}

const name: INodeProperties = {
	displayName: 'Name',
	name: 'name',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. Intro Call',
	description: 'Name shown to people who book',
};

const duration: INodeProperties = {
	displayName: 'Duration (Minutes)',
	name: 'duration',
	type: 'number',
	required: true,
	typeOptions: { minValue: 5, maxValue: 480, numberPrecision: 0 },
	default: 30,
	description: 'Length of a meeting, 5 to 480 minutes',
};

const description: INodeProperties = {
	displayName: 'Description',
	name: 'description',
	type: 'string',
	typeOptions: { rows: 3 },
	default: '',
	description: 'Text shown on the booking page; may stay empty',
};

const channel: INodeProperties = {
	displayName: 'Channel',
	name: 'channel',
	type: 'options',
	required: true,
	options: channelOptions,
	default: 'phone',
	description: 'Where the meeting takes place',
};

const customChannelLinkField: INodeProperties = {
	displayName: 'Custom Channel Link',
	name: 'customChannelLink',
	type: 'string',
	default: '',
	placeholder: 'e.g. https://meet.example.com/team-room',
	displayOptions: { show: { channel: ['custom'] } },
	description: 'Web address where the meeting takes place; required for the Custom channel',
};

const setWeeklyHours: INodeProperties = {
	displayName: 'Set Weekly Hours',
	name: 'setWeeklyHours',
	type: 'boolean',
	default: false,
	description: 'Whether to give the meeting type weekly hours of its own (a new availability created with it); when off, it uses the user\'s default availability or the one picked under Additional Fields',
};

const availabilityName: INodeProperties = {
	displayName: 'Availability Name',
	name: 'availabilityName',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. Intro Call Hours',
	displayOptions: { show: { setWeeklyHours: [true] } },
	description: 'Name of the availability created with the meeting type',
};

const availabilityTimezone: INodeProperties = {
	displayName: 'Availability Timezone',
	name: 'availabilityTimezone',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. Europe/Berlin',
	displayOptions: { show: { setWeeklyHours: [true] } },
	description: 'IANA time zone the weekly hours are meant in',
};

const additionalFields: INodeProperties = {
	displayName: 'Additional Fields',
	name: 'additionalFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: byName([
		availabilityField('Availability whose hours the meeting type uses; the user\'s default when empty. Not with Set Weekly Hours.'),
		{
			displayName: 'Buffer After (Minutes)',
			name: 'bufferAfter',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 120, numberPrecision: 0 },
			default: 0,
			description: 'Free time kept after each meeting',
		},
		{
			displayName: 'Buffer Before (Minutes)',
			name: 'bufferBefore',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 120, numberPrecision: 0 },
			default: 0,
			description: 'Free time kept before each meeting',
		},
		stayWithinHoursField,
		{
			displayName: 'Color',
			name: 'color',
			type: 'color',
			default: '#1a73e8',
		},
		...redirectFields,
		showSlotsField,
		{
			displayName: 'Spots',
			name: 'spots',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 100, numberPrecision: 0 },
			default: 1,
			description: 'How many attendees can book the same time (group meetings)',
		},
		...inviteAndPlaceFields,
		...createOnlyFields,
	]),
};

const meetingTypeId: INodeProperties = { ...locatorField('Meeting Type', 'meetingTypeId', 'The meeting type to work on', meetingTypeLocator), required: true };

const updateFields: INodeProperties = {
	displayName: 'Update Fields',
	name: 'updateFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: byName([
		availabilityField('Availability whose hours the meeting type uses from now on'),
		{
			displayName: 'Buffer After (Minutes)',
			name: 'bufferAfter',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 120, numberPrecision: 0 },
			default: 0,
		},
		{
			displayName: 'Buffer Before (Minutes)',
			name: 'bufferBefore',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 120, numberPrecision: 0 },
			default: 0,
		},
		stayWithinHoursField,
		{
			displayName: 'Channel',
			name: 'channel',
			type: 'options',
			options: channelOptions,
			default: 'phone',
			description: 'Where the meeting takes place; Custom needs a Custom Channel Link (here, or already stored)',
		},
		{ displayName: 'Color', name: 'color', type: 'color', default: '#1a73e8' },
		{
			displayName: 'Custom Channel Link',
			name: 'customChannelLink',
			type: 'string',
			default: '',
			placeholder: 'e.g. https://meet.example.com/team-room',
			description: 'Web address where the meeting takes place; only with the Custom channel',
		},
		{ displayName: 'Description', name: 'description', type: 'string', default: '' },
		{
			displayName: 'Duration (Minutes)',
			name: 'duration',
			type: 'number',
			typeOptions: { minValue: 5, maxValue: 480, numberPrecision: 0 },
			default: 30,
		},
		{
			displayName: 'Enabled',
			name: 'enabled',
			type: 'boolean',
			default: true,
			description: 'Whether the meeting type can be booked',
		},
		{ displayName: 'Name', name: 'name', type: 'string', default: '' },
		...redirectFields,
		showSlotsField,
		{ displayName: 'Slug', name: 'slug', type: 'string', default: '', description: 'URL part of the booking page' },
		{
			displayName: 'Spots',
			name: 'spots',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 100, numberPrecision: 0 },
			default: 1,
		},
		{
			displayName: 'Internal Notes',
			name: 'internalNotes',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			description: 'Notes for the team, not shown to people who book',
		},
		...inviteAndPlaceFields,
	]),
};

/** Meeting Type V4 (api-reference §2). The list is a bare array: Limit is applied by the node. */
export const { definitions: meetingTypeOperations, properties: meetingTypeProperties } = declareResource('meetingType', {
	default: 'getAll',
	operations: {
		create: {
			option: { name: 'Create', description: 'Needs Name, Duration and Channel; returns the meeting type, bookable at once', action: 'Create a meeting type' },
			method: 'POST',
			path: '/v4/meeting-type',
			body: {
				'meetingInfo.name': { param: 'name', check: 'required' },
				'meetingInfo.description': 'description',
				'meetingInfo.duration': 'duration',
				'meetingInfo.channel': 'channel',
				'meetingInfo.customChannelLink': { param: 'channel', convert: customChannelLink },
				'meetingInfo.bufferBefore': 'additionalFields.bufferBefore',
				'meetingInfo.bufferAfter': 'additionalFields.bufferAfter',
				'meetingInfo.bufferMustStayWithinWorkingHours': 'additionalFields.bufferMustStayWithinWorkingHours',
				'meetingInfo.showAvailableSlots': 'additionalFields.showAvailableSlots',
				'meetingInfo.enableRedirect': 'additionalFields.enableRedirect',
				'meetingInfo.redirect': { param: 'additionalFields.redirect', check: 'url' },
				'meetingInfo.passEventDetailsToRedirect': 'additionalFields.passEventDetailsToRedirect',
				'meetingInfo.color': 'additionalFields.color',
				spots: 'additionalFields.spots',
				availabilityId: 'additionalFields.availabilityId',
				'availability.name': 'availabilityName',
				'availability.timezone': { param: 'availabilityTimezone', check: 'timezone' },
				'availability.schedule': { param: 'setWeeklyHours', convert: (set, input) => (set ? weekFrom(input) : undefined) },
				...bookingOptionsBody('additionalFields'),
				metadata: { param: 'additionalFields.metadata', convert: metadataEntries },
				'options.createOneTimeLink': 'additionalFields.createOneTimeLink',
			},
			check: (request, input) => meetingInfoProblem(request, true) ?? availabilityProblem(request, input),
			// The API requires a description and takes an empty one: empty, or null from an expression, is sent as "".
			prepare: async ({ request }) => {
				(request.body!.meetingInfo as IDataObject).description ??= '';
			},
			fields: [
				name,
				duration,
				description,
				channel,
				customChannelLinkField,
				setWeeklyHours,
				...weeklyHoursProperties({ setWeeklyHours: [true] }),
				availabilityName,
				availabilityTimezone,
				additionalFields,
				bookingOptionsProperty('create'),
			],
		},
		delete: {
			option: { name: 'Delete', description: 'Needs the meeting type (its appointments stay); returns { deleted: true }', action: 'Delete a meeting type' },
			method: 'DELETE',
			path: '/v4/meeting-type/{id}',
			pathParams: { id: 'meetingTypeId' },
			fields: [meetingTypeId],
		},
		get: {
			option: { name: 'Get', description: 'Needs the meeting type ID; returns the meeting type', action: 'Get a meeting type by ID' },
			method: 'GET',
			path: '/v4/meeting-type/{id}',
			pathParams: { id: 'meetingTypeId' },
			fields: [meetingTypeId],
		},
		getAll: {
			option: { name: 'Get Many', description: 'Needs nothing; returns one item per meeting type of the acting user', action: 'Get many meeting types' },
			method: 'GET',
			path: '/v4/meeting-type',
			pagination: { style: 'none' },
			fields: returnAllFields(),
		},
		update: {
			option: { name: 'Update', description: 'Needs the meeting type and the fields to change; returns the meeting type', action: 'Update a meeting type' },
			method: 'PATCH',
			path: '/v4/meeting-type/{id}',
			pathParams: { id: 'meetingTypeId' },
			body: {
				'meetingInfo.name': 'updateFields.name',
				'meetingInfo.description': 'updateFields.description',
				'meetingInfo.duration': 'updateFields.duration',
				'meetingInfo.channel': 'updateFields.channel',
				'meetingInfo.customChannelLink': 'updateFields.customChannelLink',
				'meetingInfo.bufferBefore': 'updateFields.bufferBefore',
				'meetingInfo.bufferAfter': 'updateFields.bufferAfter',
				'meetingInfo.bufferMustStayWithinWorkingHours': 'updateFields.bufferMustStayWithinWorkingHours',
				'meetingInfo.showAvailableSlots': 'updateFields.showAvailableSlots',
				'meetingInfo.enableRedirect': 'updateFields.enableRedirect',
				'meetingInfo.redirect': { param: 'updateFields.redirect', check: 'url' },
				'meetingInfo.passEventDetailsToRedirect': 'updateFields.passEventDetailsToRedirect',
				'meetingInfo.color': 'updateFields.color',
				slug: 'updateFields.slug',
				spots: 'updateFields.spots',
				enabled: 'updateFields.enabled',
				availabilityId: 'updateFields.availabilityId',
				internalNotes: 'updateFields.internalNotes',
				...bookingOptionsBody('updateFields'),
				timeslotInterval: 'bookingOptions.timeslotInterval',
				bookingMinimum: 'bookingOptions.bookingMinimum',
				'daysIntoFuture.mode': 'bookingOptions.daysIntoFutureMode',
				'daysIntoFuture.bookingLimit': 'bookingOptions.daysIntoFutureBookingLimit',
				'daysIntoFuture.rangeMin': 'bookingOptions.daysIntoFutureRangeMin',
				'daysIntoFuture.rangeMax': 'bookingOptions.daysIntoFutureRangeMax',
				'daysIntoFuture.countMode': 'bookingOptions.daysIntoFutureCountMode',
			},
			check: (request) => meetingInfoProblem(request, false),
			fields: [meetingTypeId, updateFields, bookingOptionsProperty('update')],
		},
	},
});
