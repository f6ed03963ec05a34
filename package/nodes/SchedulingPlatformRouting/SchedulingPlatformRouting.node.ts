import type { IExecuteFunctions, INodeExecutionData, INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { actAsUserProperty, authenticationProperty } from '../shared/authentication';
import { testSchedulingPlatformCredential } from '../shared/credentialTest';
import { forTheEditor } from '../shared/editorLoaders';
import { executeDefinitions } from '../shared/executor';
import { getUsers, searchActingUsers, searchUsers } from '../shared/listSearch';
import { requestOptionsProperty } from '../shared/parallel';
import { searchMeetingTypeTemplates, searchPendingAttendees, searchProvisionalBookings, searchQueues, searchQueueUserGroups } from './listSearch';
import { meetingTypeTemplateOperations, meetingTypeTemplateProperties } from './resources/meetingTypeTemplate';
import { pendingAttendeeOperations, pendingAttendeeProperties } from './resources/pendingAttendee';
import { provisionalBookingOperations, provisionalBookingProperties } from './resources/provisionalBooking';
import { queueOperations, queueProperties } from './resources/queue';
import { queueUserGroupOperations, queueUserGroupProperties } from './resources/queueUserGroup';
import { searchMeetingTypes } from '../SchedulingPlatform/records';
import { routingErrorHints } from './errorHints';
import { schedulingErrorHints } from '../SchedulingPlatform/errorHints';

/**
 * The Routing node (api-reference §7, groups the API marks Beta): queues and round robin, queue user groups, meeting
 * type templates, pending attendees and provisional bookings, on the shared machinery of nodes/shared/.
 */

const properties: INodeProperties[] = [
	authenticationProperty,
	{
		displayName: 'These endpoints are marked Beta by the Scheduling Platform: their behaviour may still change.',
		name: 'betaNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Meeting Type Template', value: 'meetingTypeTemplate' },
			{ name: 'Pending Attendee', value: 'pendingAttendee', description: 'People who started a booking and did not finish' },
			{ name: 'Provisional Booking', value: 'provisionalBooking', description: 'Bookings waiting for the host\'s approval' },
			{ name: 'Queue', value: 'queue', description: 'Round-robin queues of meeting types' },
			{ name: 'Queue User Group', value: 'queueUserGroup' },
		],
		default: 'queue',
	},
	...queueProperties,
	...queueUserGroupProperties,
	...meetingTypeTemplateProperties,
	...pendingAttendeeProperties,
	...provisionalBookingProperties,
	actAsUserProperty,
	requestOptionsProperty,
];

/** The definitions of every resource, keyed like the Resource options. */
const resources = {
	queue: queueOperations,
	queueUserGroup: queueUserGroupOperations,
	meetingTypeTemplate: meetingTypeTemplateOperations,
	pendingAttendee: pendingAttendeeOperations,
	provisionalBooking: provisionalBookingOperations,
};

export class SchedulingPlatformRouting implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Scheduling Platform Routing',
		name: 'schedulingPlatformRouting',
		icon: { light: 'file:../../icons/schedulingPlatformRouting.svg', dark: 'file:../../icons/schedulingPlatformRouting.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Share leads between hosts with the Scheduling Platform: round-robin queues, groups, templates, abandoned and provisional bookings (Beta)',
		defaults: { name: 'Scheduling Platform Routing' },
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
		listSearch: forTheEditor({ searchActingUsers, searchUsers, searchMeetingTypes, searchQueues, searchQueueUserGroups, searchMeetingTypeTemplates, searchPendingAttendees, searchProvisionalBookings }),
		loadOptions: forTheEditor({ getUsers }),
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeDefinitions(this, { resources, properties, hints: [...routingErrorHints, ...schedulingErrorHints] });
	}
}
