import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { calendarDay, dateTime, endAfterStart } from '../../shared/dates';
import { declareResource } from '../../shared/declare';
import type { InputCheck } from '../../shared/inputChecks';
import { InputProblem, inputProblem } from '../../shared/inputChecks';
import { locatorField, userLocator } from '../../shared/locators';
import { appointmentLocator } from '../locators';
import type { ApiRequest } from '../../shared/transport/request';
import type { Converter, OperationCall } from '../../shared/types';
import { channelOptions, formAnswers, formAnswersField, meetingTypeLocator, nameProblem } from '../records';

/** Booking Availability V4 and Booking V4 (api-reference §2). */

/**
 * Values picked or entered one by one, each of which may also be "a, b" from an expression → ["a", "b"]:
 * each must pass the check, and at most `most.count` are allowed.
 */
function checkedList(check: InputCheck, most?: { count: number; what: string }): Converter {
	return (value) => {
		const values = (value as unknown[]).flatMap((item) => String(item).split(',')).map((item) => item.trim()).filter(Boolean);
		if (most && values.length > most.count) throw new InputProblem(`must be at most ${most.count} ${most.what}; ${values.length} are given`);
		const problem = values.map((item) => inputProblem(check, item)).find(Boolean);
		if (problem) throw new InputProblem(problem);
		return values.length > 0 ? values : undefined;
	};
}

/** User IDs (hosts): UUIDs, as the acting-user header names a user (api-reference §1 Acting user). */
export const idList = checkedList('uuid');

export const meetingTypeRequest = (id: string): ApiRequest => ({ method: 'GET', path: '/v4/meeting-type/{id}', pathParams: { id } });

/** The hosts the API needs beside a meeting type when none are given: its queue, else its host. */
export function defaultHosts(meetingType: IDataObject): IDataObject {
	return meetingType.queueId ? { queueId: meetingType.queueId } : { hostIds: [meetingType.userId] };
}

/** Without host IDs or a queue, the API refuses: read the meeting type and take its queue, else its host. */
function fillHosts(target: 'qs' | 'body') {
	return async (call: OperationCall): Promise<void> => {
		const fields = target === 'qs' ? call.request.qs : call.request.body!;
		if (fields.hostIds || fields.queueId) return;
		Object.assign(fields, defaultHosts((await call.lookup(meetingTypeRequest(String(fields.meetingTypeId)))) as IDataObject));
	};
}

export interface SlotAnswer {
	timezone: string;
	dates: Array<{ date: string; spots: Array<{ startTime: string }> }>;
}

/** Each open start of the API's answer in time order (local time with offset), with its date and the answer's time zone. */
export function openSlots({ timezone, dates }: SlotAnswer): Array<{ startTime: string; date: string; timezone: string }> {
	return dates.flatMap(({ date, spots }) => spots.map(({ startTime }) => ({ startTime, date, timezone })));
}

function slotItems(answer: unknown, call: OperationCall): IDataObject[] {
	if (call.read('output') === 'raw') return [answer as IDataObject];
	const meetingTypeId = call.request.qs.meetingTypeId;
	return openSlots(answer as SlotAnswer).map((slot) => ({ ...slot, meetingTypeId }));
}

/** A busy stretch names what blocks it: `unavailabilityEvent { hostId, hostName, type, picture }`; there is no reason field. */
interface Timeframe {
	available: Array<{ start: string; end: string }>;
	unavailable: Array<{ start: string; end: string; unavailabilityEvent: IDataObject }>;
}

/** One item with the whole answer, or each stretch, free or busy, as its own item in time order (to filter or loop over). */
function timeframeItems(answer: unknown, call: OperationCall): IDataObject[] {
	if (call.read('output') !== 'stretches') return [answer as IDataObject];
	const { available, unavailable } = answer as Timeframe;
	const stretches = [
		...available.map(({ start, end }) => ({ start, end, available: true, unavailabilityEvent: null })),
		...unavailable.map(({ start, end, unavailabilityEvent }) => ({ start, end, available: false, unavailabilityEvent })),
	];
	return stretches.sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
}

/** One item per bookable start `{ start, userId }`, or the API's `{ windows }` as one item. */
function windowItems(answer: unknown, call: OperationCall): IDataObject[] {
	if (call.read('output') === 'raw') return [answer as IDataObject];
	const userId = call.request.pathParams?.userId;
	return (answer as { windows: string[] }).windows.map((start) => ({ start, userId }));
}

const APPROVAL_MESSAGES: Record<string, string> = {
	doubleOptIn: 'No appointment exists yet: the attendee must confirm the booking with the link in the email they receive (double opt-in).',
	requireHostConfirmation: 'No appointment exists yet: the host must confirm the booking first.',
};

/** The live API stores an attendee without a name with an empty one; a phone-only booking cannot go without the phone. */
function bookingProblem(request: OperationCall['request']): string | undefined {
	const attendee = request.body!.attendee as IDataObject;
	const phoneMissing = request.body!.phoneOnlyBooking === true && !attendee.phone;
	return nameProblem(attendee, 'The attendee') ?? (phoneMissing ? 'Phone is required when Phone-Only Booking is on' : undefined);
}

/** What the request knows of the booking: the meeting type, the start and the attendee (in an appointment's attendee shape). */
function requested(call: OperationCall): IDataObject {
	const { meetingTypeId, start, attendee } = call.request.body as { meetingTypeId: string; start: string; attendee: IDataObject };
	const known = ['email', 'firstname', 'lastname', 'fullname', 'phone', 'timezone', 'language'].filter((key) => attendee[key] !== undefined);
	return { meetingTypeId, start, attendees: [Object.fromEntries(known.map((key) => [key, attendee[key]]))] };
}

/**
 * Books, then reads the appointment once (GET /v4/appointment/{id}) so that later nodes can map its start, end,
 * hosts and attendees; `appointmentId` and `secret` (the API's answer) stay at the top. The booking stands whatever
 * the read does: a failed read outputs what the request knows (retrying the item would book twice). A booking that
 * needs approval has no appointment yet: what the request knows, with the provisional booking and why it waits.
 */
async function book(call: OperationCall): Promise<IDataObject[]> {
	const { appointmentId, secret, bookingType, provisionalBookingId } = (await call.send(call.request)) as IDataObject;
	if (!appointmentId) {
		return [{ status: 'pendingApproval', bookingType, provisionalBookingId, message: APPROVAL_MESSAGES[String(bookingType)], ...requested(call) }];
	}
	const appointment = await call
		.send({ method: 'GET', path: '/v4/appointment/{id}', pathParams: { id: String(appointmentId) } })
		.catch((error: Error) => ({ ...requested(call), readBack: `The booking was made; reading the appointment back failed: ${error.message}` }));
	return [{ status: 'booked', appointmentId, secret, ...(appointment as IDataObject) }];
}

/** Days of open slots that Create's Start lists (today and the days after it): one request. */
export const SLOT_LIST_DAYS = 14;

/**
 * The node version from which Create's Start is a resource locator (From List: the open slots; Date and Time: any
 * moment). Earlier versions keep the date picker, so workflows saved with them open as they were; both run the same.
 */
export const START_FROM_LIST_SINCE = 1.2;

const durationField: INodeProperties = {
	displayName: 'Duration (Minutes)',
	name: 'duration',
	type: 'number',
	typeOptions: { minValue: 5, maxValue: 480, numberPrecision: 0 },
	default: 30,
	description: 'Length of the meeting, 5 to 480 minutes; the meeting type\'s duration when not set',
};

const hostIdsField: INodeProperties = {
	displayName: 'Host Names or IDs',
	name: 'hostIds',
	type: 'multiOptions',
	typeOptions: { loadOptionsMethod: 'getUsers' },
	default: [],
	description:
		'Hosts to consider; when neither hosts nor Queue ID is set, the meeting type\'s queue or its host is used. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

/** Start and End of the time looked at; `dayZone` says where a date alone starts and ends. */
function rangeFields(dayZone: string): INodeProperties[] {
	return [
		{
			displayName: 'Start',
			name: 'start',
			type: 'dateTime',
			required: true,
			default: '',
			description: `First day or moment to look at. A date alone means the start of that day in ${dayZone}.`,
		},
		{
			displayName: 'End',
			name: 'end',
			type: 'dateTime',
			required: true,
			default: '',
			description: 'Last day or moment to look at. A date alone means the end of that day (included).',
		},
	];
}

const queueIdField: INodeProperties = {
	displayName: 'Queue ID',
	name: 'queueId',
	type: 'string',
	default: '',
	description: 'Round-robin queue whose members host the meeting, instead of Host IDs',
};

const meetingTypeId: INodeProperties = { ...locatorField('Meeting Type', 'meetingTypeId', 'The meeting type to book', meetingTypeLocator), required: true };

const userId: INodeProperties = { ...locatorField('User', 'userId', 'The host whose times to read; any user of the company', userLocator), required: true };

const startDate: INodeProperties = {
	displayName: 'Start Date',
	name: 'startDate',
	type: 'dateTime',
	required: true,
	default: '',
	description: 'First day to look at (YYYY-MM-DD; a time of day is ignored)',
};

const endDate: INodeProperties = {
	displayName: 'End Date',
	name: 'endDate',
	type: 'dateTime',
	required: true,
	default: '',
	description: 'Last day to look at, included (YYYY-MM-DD; a time of day is ignored)',
};

const timezone: INodeProperties = {
	displayName: 'Timezone',
	name: 'timezone',
	type: 'string',
	default: '',
	placeholder: 'e.g. America/New_York',
	description: 'IANA time zone of the slot times and of Start and End. Empty: the host\'s time zone (Start and End without an offset are then read in the workflow\'s time zone).',
};

// Versions 1 and 1.1: the date picker, as workflows saved with them show it.
const startPicker: INodeProperties = {
	displayName: 'Start',
	name: 'start',
	type: 'dateTime',
	required: true,
	default: '',
	displayOptions: { show: { '@version': [{ _cnd: { lt: START_FROM_LIST_SINCE } }] } },
	description: 'Start of the meeting; must be an open slot (see Get Open Slots). Without an offset it is read in the attendee\'s time zone if set, else the workflow\'s.',
};

const startFromList: INodeProperties = {
	displayName: 'Start',
	name: 'start',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	displayOptions: { show: { '@version': [{ _cnd: { gte: START_FROM_LIST_SINCE } }] } },
	description: `Start of the meeting; must be an open slot. From List: the open slots of the meeting type (and of Hosts or Queue ID, when set) from today to ${SLOT_LIST_DAYS - 1} days ahead, in the host's time zone. Date and Time: any moment, typed or from an expression; without an offset it is read in the attendee's time zone if set, else the workflow's.`,
	modes: [
		{ displayName: 'From List', name: 'list', type: 'list', typeOptions: { searchListMethod: 'searchOpenSlots', searchable: true } },
		{
			displayName: 'Date and Time',
			name: 'dateTime',
			type: 'string',
			placeholder: 'e.g. 2026-03-09T10:00:00+01:00',
			validation: [
				{
					type: 'regex',
					properties: {
						regex: '^(\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:?\\d{2})?)?$',
						errorMessage: 'Start must be a date and time such as 2026-03-09T10:00:00+01:00 (an offset is optional)',
					},
				},
			],
		},
	],
};

const email: INodeProperties = {
	displayName: 'Attendee Email',
	name: 'email',
	type: 'string',
	placeholder: 'name@email.com',
	required: true,
	default: '',
	description: 'Email address of the person who books; their CRM contact is created or completed with it',
};

const firstName: INodeProperties = {
	displayName: 'First Name',
	name: 'firstName',
	type: 'string',
	default: '',
	description: 'First name of the attendee',
};

const lastName: INodeProperties = {
	displayName: 'Last Name',
	name: 'lastName',
	type: 'string',
	default: '',
	description: 'Last name of the attendee',
};

const receiveReminders: INodeProperties = {
	displayName: 'Receive Reminders',
	name: 'receiveReminders',
	type: 'boolean',
	default: true,
	description: 'Whether the attendee gets reminder emails before the meeting',
};

const createFields: INodeProperties = {
	displayName: 'Additional Fields',
	name: 'additionalFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [
		{
			displayName: 'Attendee Timezone',
			name: 'timezone',
			type: 'string',
			default: '',
			placeholder: 'e.g. Europe/Berlin',
			description: 'IANA time zone of the attendee, used for their emails',
		},
		{
			displayName: 'Calendar Event Description',
			name: 'icsDescription',
			type: 'string',
			typeOptions: { rows: 4 },
			default: '',
			description: 'Description of the event in the calendar invitation, up to 2000 characters',
		},
		{
			displayName: 'Calendar Event Title',
			name: 'icsTitle',
			type: 'string',
			default: '',
			description: 'Title of the event in the calendar invitation, up to 200 characters',
		},
		{
			displayName: 'Channel',
			name: 'channel',
			type: 'options',
			options: channelOptions,
			default: 'google',
			description: 'Where the meeting takes place; the meeting type\'s channel when not set',
		},
		{
			displayName: 'Data Policy Accepted',
			name: 'dataPolicyAccepted',
			type: 'boolean',
			default: false,
			description: 'Whether the attendee accepted the data policy',
		},
		durationField,
		{
			displayName: 'Full Name',
			name: 'fullName',
			type: 'string',
			default: '',
			description: 'Full name of the attendee, when it is not just first and last name. Required unless First Name and Last Name are both set.',
		},
		{
			displayName: 'Guests',
			name: 'guests',
			type: 'string',
			typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Guest' },
			default: [],
			placeholder: 'e.g. colleague@example.com',
			description: 'Up to 5 email addresses of people the attendee brings along; from an expression, a list or comma-separated text',
		},
		hostIdsField,
		{
			displayName: 'Language',
			name: 'language',
			type: 'string',
			default: '',
			placeholder: 'e.g. en',
			description: 'Language of the attendee\'s emails, as a language code',
		},
		{
			displayName: 'Location',
			name: 'location',
			type: 'string',
			default: '',
			description: 'Where the meeting takes place, e.g. an address',
		},
		{
			displayName: 'Phone',
			name: 'phone',
			type: 'string',
			default: '',
			placeholder: 'e.g. +4915112345678',
			description: 'Phone number of the attendee in E.164 form',
		},
		{
			displayName: 'Phone-Only Booking',
			name: 'phoneOnlyBooking',
			type: 'boolean',
			default: false,
			description: 'Whether the attendee books with their phone number; Phone is then required',
		},
		queueIdField,
		{
			displayName: 'Skip Notifications',
			name: 'skipNotifications',
			type: 'boolean',
			default: false,
			description: 'Whether to send no confirmation emails for this booking',
		},
	],
};

const slotFields: INodeProperties = {
	displayName: 'Additional Fields',
	name: 'additionalFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [
		{
			displayName: 'Calculation Method',
			name: 'calculationMethod',
			type: 'options',
			options: [
				{ name: 'Anyone', value: 'anyone', description: 'A time is open when any of the hosts is free' },
				{ name: 'Everyone', value: 'everyone', description: 'A time is open only when every host is free' },
			],
			default: 'anyone',
			description: 'How the free times of several hosts combine',
		},
		durationField,
		hostIdsField,
		queueIdField,
		locatorField('Rescheduling Appointment', 'existingAppointmentId', 'The appointment being moved: its own time is not counted as taken, so its slot stays open', appointmentLocator),
	],
};

const availabilityFields: INodeProperties = {
	displayName: 'Additional Fields',
	name: 'additionalFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [
		locatorField('Meeting Type', 'meetingTypeId', 'Count this meeting type\'s buffers around the host\'s appointments, and its availability when the user hosts it (else the user\'s default availability)', meetingTypeLocator),
	],
};

const slotOutput: INodeProperties = {
	displayName: 'Output',
	name: 'output',
	type: 'options',
	options: [
		{ name: 'One Item per Slot', value: 'slots', description: 'Each open start time as its own item, ready to loop over' },
		{ name: 'Raw Answer', value: 'raw', description: 'The API\'s answer (slots grouped by date) as one item' },
	],
	default: 'slots',
	description: 'How the open slots come out of the node',
};

const stretchOutput: INodeProperties = {
	displayName: 'Output',
	name: 'output',
	type: 'options',
	options: [
		{ name: 'One Item', value: 'answer', description: 'The API\'s answer as one item: hostId, available and unavailable stretches' },
		{
			name: 'One Item per Stretch',
			value: 'stretches',
			description:
				'Each free or busy stretch as its own item in time order ({ start, end, available, unavailabilityEvent }), ready to filter or loop over',
		},
	],
	default: 'answer',
	description: 'How the host\'s stretches come out of the node',
};

const windowOutput: INodeProperties = {
	displayName: 'Output',
	name: 'output',
	type: 'options',
	options: [
		{ name: 'One Item per Window', value: 'windows', description: 'Each bookable start as its own item ({ start, userId }), ready to loop over' },
		{ name: 'Raw Answer', value: 'raw', description: 'The API\'s answer ({ windows }) as one item' },
	],
	default: 'windows',
	description: 'How the bookable starts come out of the node',
};

export const { definitions: bookingOperations, properties: bookingProperties } = declareResource('booking', {
	default: 'getSlots',
	operations: {
		create: {
			option: {
				name: 'Create',
				description: 'Needs the meeting type, Start (an open slot) and the attendee\'s email and name; returns the booked appointment',
				action: 'Create a booking at an open slot',
			},
			method: 'POST',
			path: '/v4/booking',
			body: {
				meetingTypeId: { param: 'meetingTypeId', check: 'required' },
				start: { param: 'start', check: 'required', convert: dateTime({ zoneParam: 'additionalFields.timezone' }) },
				'attendee.email': { param: 'email', check: ['required', 'email'] },
				'attendee.firstname': 'firstName',
				'attendee.lastname': 'lastName',
				'attendee.fullname': 'additionalFields.fullName',
				'attendee.phone': { param: 'additionalFields.phone', check: 'phone' },
				'attendee.timezone': { param: 'additionalFields.timezone', check: 'timezone' },
				'attendee.language': 'additionalFields.language',
				'attendee.receiveReminders': 'receiveReminders',
				'attendee.notes': { param: 'formAnswers', convert: formAnswers },
				'attendee.bringalongEmails': { param: 'additionalFields.guests', convert: checkedList('email', { count: 5, what: 'email addresses' }) },
				'attendee.dataPolicyAccepted': 'additionalFields.dataPolicyAccepted',
				hostIds: { param: 'additionalFields.hostIds', convert: idList },
				queueId: 'additionalFields.queueId',
				duration: 'additionalFields.duration',
				channel: 'additionalFields.channel',
				location: 'additionalFields.location',
				skipNotifications: 'additionalFields.skipNotifications',
				icsTitle: { param: 'additionalFields.icsTitle', check: { maxLength: 200 } },
				icsDescription: { param: 'additionalFields.icsDescription', check: { maxLength: 2000 } },
				phoneOnlyBooking: 'additionalFields.phoneOnlyBooking',
			},
			check: bookingProblem,
			prepare: fillHosts('body'),
			perform: book,
			fields: [
				meetingTypeId,
				startPicker,
				startFromList,
				email,
				firstName,
				lastName,
				receiveReminders,
				formAnswersField('Answers to the booking form, as the attendee would give them'),
				createFields,
			],
		},
		getHostAvailability: {
			option: {
				name: 'Get Host Availability',
				description: 'Needs the user, Start and End; returns their free and busy stretches',
				action: 'Get the free and busy times of a host',
			},
			method: 'GET',
			path: '/v4/booking-availability/user/{userId}/timeframe',
			pathParams: { userId: 'userId' },
			query: {
				start: { param: 'start', check: 'required', convert: dateTime({ dateOnly: true }) },
				end: { param: 'end', check: 'required', convert: dateTime({ dateOnly: true }) },
				meetingTypeId: 'additionalFields.meetingTypeId',
			},
			check: (request) => endAfterStart(request.qs, 'start', 'end', ['Start', 'End']),
			output: timeframeItems,
			fields: [
				userId,
				...rangeFields('the user\'s time zone. A date and time without an offset is read in the workflow\'s time zone'),
				availabilityFields,
				stretchOutput,
			],
		},
		getBookableWindows: {
			option: {
				name: 'Get Bookable Windows',
				description: 'Needs the user, Start Date and End Date; returns one item per bookable start',
				action: 'Get the bookable start times of a user',
			},
			method: 'GET',
			path: '/v4/user/{userId}/bookable-windows',
			pathParams: { userId: 'userId' },
			query: {
				startDate: { param: 'startDate', check: 'required', convert: calendarDay },
				endDate: { param: 'endDate', check: 'required', convert: calendarDay },
			},
			check: (request) => endAfterStart(request.qs, 'startDate', 'endDate', ['Start Date', 'End Date']),
			output: windowItems,
			fields: [userId, startDate, endDate, windowOutput],
		},
		getSlots: {
			option: {
				name: 'Get Open Slots',
				description: 'Needs the meeting type, Start and End; returns one item per open start time',
				action: 'Get the open slots of a meeting type',
			},
			method: 'GET',
			path: '/v4/booking-availability',
			needsUserContext: false,
			query: {
				meetingTypeId: { param: 'meetingTypeId', check: 'required' },
				start: { param: 'start', check: 'required', convert: dateTime({ zoneParam: 'timezone', dateOnly: true }) },
				end: { param: 'end', check: 'required', convert: dateTime({ zoneParam: 'timezone', dateOnly: true }) },
				hostIds: { param: 'additionalFields.hostIds', convert: idList },
				queueId: 'additionalFields.queueId',
				timezone: { param: 'timezone', check: 'timezone' },
				meetingDuration: 'additionalFields.duration',
				calculationMethod: 'additionalFields.calculationMethod',
				existingAppointmentId: 'additionalFields.existingAppointmentId',
			},
			check: (request) => endAfterStart(request.qs, 'start', 'end', ['Start', 'End']),
			prepare: fillHosts('qs'),
			output: slotItems,
			fields: [meetingTypeId, ...rangeFields('the time zone below'), timezone, slotFields, slotOutput],
		},
	},
});
