import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { forTheEditor } from '../shared/editorLoaders';
import { executeDefinitions } from '../shared/executor';
import { requestOptionsProperty } from '../shared/parallel';
import { actAsUserProperty, authenticationProperty } from '../shared/authentication';
import { testSchedulingPlatformCredential } from '../shared/credentialTest';
import { getUsers, searchActingUsers, searchUsers } from '../shared/listSearch';
import { searchAppointments, searchAvailabilities, searchOpenSlots } from './listSearch';
import { appointmentOperations, appointmentProperties } from './resources/appointment';
import { attendeeOperations, attendeeProperties } from './resources/attendee';
import { availabilityOperations, availabilityProperties } from './resources/availability';
import { availabilityExceptionOperations, availabilityExceptionProperties } from './resources/availabilityException';
import { bookingOperations, bookingProperties } from './resources/booking';
import { bookingLinkOperations, bookingLinkProperties } from './resources/bookingLink';
import { calendarConnectionOperations, calendarConnectionProperties } from './resources/calendarConnection';
import { handoffOperations, handoffProperties } from './resources/handoff';
import { meetingTypeOperations, meetingTypeProperties } from './resources/meetingType';
import { personalPageOperations, personalPageProperties } from './resources/personalPage';
import { userOperations, userProperties } from './resources/user';
import { searchMeetingTypes } from './records';
import { schedulingErrorHints } from './errorHints';

const properties: INodeProperties[] = [
	authenticationProperty,
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Appointment', value: 'appointment' },
			{ name: 'Attendee', value: 'attendee' },
			{ name: 'Availability', value: 'availability' },
			{ name: 'Availability Exception', value: 'availabilityException' },
			{ name: 'Booking', value: 'booking' },
			{ name: 'Booking Link', value: 'bookingLink' },
			{ name: 'Calendar Connection', value: 'calendarConnection' },
			{ name: 'Handoff', value: 'handoff' },
			{ name: 'Meeting Type', value: 'meetingType' },
			{ name: 'Personal Page', value: 'personalPage' },
			{ name: 'User', value: 'user' },
		],
		default: 'meetingType',
	},
	...appointmentProperties,
	...attendeeProperties,
	...availabilityProperties,
	...availabilityExceptionProperties,
	...bookingProperties,
	...bookingLinkProperties,
	...calendarConnectionProperties,
	...handoffProperties,
	...meetingTypeProperties,
	...personalPageProperties,
	...userProperties,
	actAsUserProperty,
	requestOptionsProperty,
];

/** The definitions of every resource, keyed like the Resource options. */
const resources = {
	appointment: appointmentOperations,
	attendee: attendeeOperations,
	availability: availabilityOperations,
	availabilityException: availabilityExceptionOperations,
	booking: bookingOperations,
	bookingLink: bookingLinkOperations,
	calendarConnection: calendarConnectionOperations,
	handoff: handoffOperations,
	meetingType: meetingTypeOperations,
	personalPage: personalPageOperations,
	user: userOperations,
};

export class SchedulingPlatform implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Scheduling Platform',
		name: 'schedulingPlatform',
		icon: { light: 'file:../../icons/schedulingPlatform.svg', dark: 'file:../../icons/schedulingPlatform.dark.svg' },
		group: ['transform'],
		// 1.1: Simplify (on by default) on Get and Get Many of appointments; version 1 outputs them whole (shared/simplify.ts).
		// 1.2: Booking → Create's Start offers the open slots (a resource locator); 1 and 1.1 keep the date picker.
		version: [1, 1.1, 1.2],
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Manage scheduling on the Scheduling Platform: users, meeting types, availability, open slots, bookings, appointments, calendars, booking links and handoffs',
		defaults: { name: 'Scheduling Platform' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'schedulingPlatformPatApi',
				required: true,
				testedBy: 'schedulingPlatformCredentialTest',
				displayOptions: { show: { authentication: ['personalAccessToken'] } },
			},
			{
				name: 'schedulingPlatformApiKeyApi',
				required: true,
				testedBy: 'schedulingPlatformCredentialTest',
				displayOptions: { show: { authentication: ['apiKey'] } },
			},
		],
		properties,
	};

	methods = {
		credentialTest: { schedulingPlatformCredentialTest: testSchedulingPlatformCredential },
		loadOptions: forTheEditor({ getUsers }),
		listSearch: forTheEditor({ searchActingUsers, searchAppointments, searchAvailabilities, searchMeetingTypes, searchOpenSlots, searchUsers }),
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeDefinitions(this, { resources, properties, hints: schedulingErrorHints });
	}
}
