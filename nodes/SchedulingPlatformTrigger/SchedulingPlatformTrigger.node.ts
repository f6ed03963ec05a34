import type { INodeExecutionData, INodeProperties, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { authenticationProperties } from '../shared/authentication';
import { testSchedulingPlatformCredential } from '../shared/credentialTest';
import { forTheEditor } from '../shared/editorLoaders';
import { searchActingUsers, searchUsers } from '../shared/listSearch';
import type { TriggerEvent } from '../shared/trigger/watch';
import { pollEvent } from '../shared/trigger/watch';
import { searchMeetingTypes } from '../SchedulingPlatform/listSearch';
import { searchContacts, searchPipelines } from '../SchedulingPlatformCrm/listSearch';
import { crmEventOptions, crmEvents, crmFilterProperties } from './events/crm';
import { invoicingEventOptions, invoicingEvents, invoicingFilterProperties } from './events/invoicing';
import { messengerEventOptions, messengerEvents, messengerFilterProperties } from './events/messenger';
import { bookingEventOptions, bookingEvents, bookingFilterProperties } from './events/scheduling';
import { signatureEventOptions, signatureEvents } from './events/signatures';

/**
 * The polling trigger (api-reference §8): one event per workflow, read through the shared transport. How a
 * poll reads and what counts as new: nodes/shared/trigger/ (watch.ts, watermark.ts); what each event reads: events/.
 */

const events: Record<string, TriggerEvent> = { ...bookingEvents, ...messengerEvents, ...crmEvents, ...signatureEvents, ...invoicingEvents };

const eventOptions = [...bookingEventOptions, ...messengerEventOptions, ...crmEventOptions, ...signatureEventOptions, ...invoicingEventOptions];

/** Events whose list rows are not the whole record; those read through a window already list whole appointments. */
function hasFullRecord(name: string): boolean {
	const event = events[name];
	return typeof event === 'function' ? name === 'appointmentStartingSoon' : 'detail' in event && event.detail !== undefined;
}

/** The canvas shows the chosen event's name under the node. */
const subtitle = `={{ ${JSON.stringify(Object.fromEntries(eventOptions.map((option) => [option.value, option.name])))}[$parameter["event"]] }}`;

const properties: INodeProperties[] = [
	...authenticationProperties,
	{
		displayName: 'Event',
		name: 'event',
		type: 'options',
		noDataExpression: true,
		options: eventOptions,
		default: 'newBooking',
	},
	{
		displayName:
			'Fires once for each new event after the workflow is published (n8n 2.x) or activated (n8n 1.x); what existed before is not emitted. Fetch Test Event shows the newest one. Each poll uses the credential\'s rate limit, shared with every other node that uses it.',
		name: 'notice',
		type: 'notice',
		default: '',
	},
	...bookingFilterProperties,
	...messengerFilterProperties,
	...crmFilterProperties,
	...invoicingFilterProperties,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: { event: Object.keys(events).filter(hasFullRecord) } },
		options: [
			{
				displayName: 'Full Record',
				name: 'fullRecord',
				type: 'boolean',
				default: false,
				description: 'Whether to read each new record on its own (one request each) and output that answer instead of the list\'s',
			},
		],
	},
];

export class SchedulingPlatformTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Scheduling Platform Trigger',
		name: 'schedulingPlatformTrigger',
		icon: { light: 'file:../../icons/schedulingPlatform.svg', dark: 'file:../../icons/schedulingPlatform.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle,
		description: 'Starts the workflow on new, cancelled, rescheduled, starting or ended bookings, new conversations, messages, contacts, deals, completed signatures, paid or overdue invoices and accepted offers of the Scheduling Platform (polled)',
		defaults: { name: 'Scheduling Platform Trigger' },
		polling: true,
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
		properties,
	};

	methods = {
		credentialTest: { schedulingPlatformCredentialTest: testSchedulingPlatformCredential },
		listSearch: forTheEditor({ searchActingUsers, searchUsers, searchMeetingTypes, searchPipelines, searchContacts }),
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const event = this.getNodeParameter('event') as string;
		return await pollEvent(this, event, events[event], properties);
	}
}
