import type { IHookFunctions, INodeProperties, INodeType, INodeTypeDescription, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { actAsUserProperty, authenticationProperty } from '../shared/authentication';
import { testSchedulingPlatformCredential } from '../shared/credentialTest';
import { forTheEditor } from '../shared/editorLoaders';
import { searchActingUsers, searchUsers } from '../shared/listSearch';
import { userLocator } from '../shared/locators';
import { control } from '../shared/trigger/dedupe';
import { receive } from './webhook/deliveries';
import { BOOKING_EVENTS, eventOptions, eventsProperty } from './webhook/events';
import { subscribe, subscriptionExists, unsubscribe } from './webhook/subscriptions';
import { meetingTypeLocator, searchMeetingTypes } from './records';

/**
 * The instant trigger (api-reference §9): a webhook subscription of the company, made when the workflow is
 * published and deleted when it is unpublished (subscriptions.ts), and each delivery checked before the workflow
 * starts (deliveries.ts). The polling triggers, one per area (SchedulingPlatformTrigger, ...CrmTrigger, ...), watch
 * what has no webhook.
 */

/** The canvas shows the chosen events' names under the node. */
const subtitle = `={{ [].concat($parameter["events"] || []).map((event) => (${JSON.stringify(Object.fromEntries(eventOptions.map((option) => [option.value, option.name])))})[event] || event).join(", ") }}`;

const properties: INodeProperties[] = [
	eventsProperty,
	authenticationProperty,
	{
		displayName:
			'The Scheduling Platform delivers only to https addresses, so n8n\'s public webhook URL (its WEBHOOK_URL setting) must be https. Keep the webhook URL secret: deliveries are not signed, so anyone who knows it can post to it.',
		name: 'notice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Filters',
		name: 'bookingFilters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show: { events: BOOKING_EVENTS } },
		options: [
			{
				displayName: 'Meeting Type',
				name: 'meetingType',
				type: 'resourceLocator',
				default: { mode: 'list', value: '' },
				description: 'Only booking events of this meeting type (other events are not filtered)',
				...meetingTypeLocator,
			},
			{
				displayName: 'Host',
				name: 'host',
				type: 'resourceLocator',
				default: { mode: 'list', value: '' },
				description: 'Only booking events this user hosts (other events are not filtered)',
				...userLocator,
			},
		],
	},
	actAsUserProperty,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Verify Through the API',
				name: 'verifyThroughApi',
				type: 'boolean',
				default: true,
				description:
					'Whether to read the appointment of each booking event from the API and start the workflow with the API\'s appointment (with webhookType and eventTime, the moment of the event as the API gives it) instead of the delivery\'s data, dropping the event when the API contradicts it (no such appointment, not cancelled, another time) or it is outside the Filters. The delivery is answered at once; the workflow starts when the read comes through, within the credential\'s rate limit. Off: the workflow gets the delivery as it came, unchecked (deliveries are not signed). The credential must be able to read the company\'s appointments. Test events (Listen for Test Event) are not verified.',
			},
		],
	},
];

export class SchedulingPlatformWebhookTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Scheduling Platform Webhook Trigger',
		name: 'schedulingPlatformWebhookTrigger',
		icon: { light: 'file:../../icons/schedulingPlatform.svg', dark: 'file:../../icons/schedulingPlatform.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle,
		description: 'Instant, no polling: starts the workflow seconds after the Scheduling Platform sends a booking created, cancelled or rescheduled, a form submission, a review, a new employee, a credential error or a completed signature (webhook)',
		defaults: { name: 'Scheduling Platform Webhook Trigger' },
		inputs: [],
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
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
		properties,
	};

	methods = {
		credentialTest: { schedulingPlatformCredentialTest: testSchedulingPlatformCredential },
		listSearch: forTheEditor({ searchActingUsers, searchUsers, searchMeetingTypes }),
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await subscriptionExists(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await subscribe(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await unsubscribe(this);
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		// The node's requests to itself that claim a delivery across n8n's processes (dedupe.ts), else a delivery.
		return control(this) ?? (await receive(this, properties));
	}
}
