import type { INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { testSchedulingPlatformCredential } from '../shared/credentialTest';
import { crmArea } from '../SchedulingPlatformCrm/events';
import { invoicingArea } from '../SchedulingPlatformInvoicing/events';
import { messengerArea } from '../SchedulingPlatformMessenger/events';
import { schedulingArea } from './events';
import { signaturesArea } from '../SchedulingPlatformSignatures/events';
import { eventField, pollTrigger, triggerListSearch, triggerProperties, triggerSubtitle } from '../shared/trigger/pollingNode';

/**
 * The polling trigger of the Scheduling area (api-reference §8): n8n lists its events under the Scheduling Platform
 * node. Version 1 offered every area's events; its workflows keep them (and their stored position: it is kept per node
 * name, event and filters, not per node type or version). Version 2, for new workflows, offers the bookings' events;
 * the other areas have triggers of their own (SchedulingPlatformCrmTrigger and so on).
 */

const current = [schedulingArea];
const versionOne = [schedulingArea, messengerArea, crmArea, signaturesArea, invoicingArea];
const properties = triggerProperties(versionOne, [eventField(current, 2), eventField(versionOne, 1)]);

export class SchedulingPlatformTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Scheduling Platform Trigger',
		name: 'schedulingPlatformTrigger',
		icon: { light: 'file:../../icons/schedulingPlatform.svg', dark: 'file:../../icons/schedulingPlatform.dark.svg' },
		group: ['trigger'],
		version: [1, 2],
		subtitle: triggerSubtitle(versionOne),
		description: 'Book, move and cancel appointments, manage users, meeting types and availability, and start workflows on new, cancelled, rescheduled, starting or ended bookings (polled)',
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
		listSearch: triggerListSearch(versionOne),
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollTrigger(this, this.getNode().typeVersion === 1 ? versionOne : current, properties);
	}
}
