import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { messengerArea } from './events';
import { pollingMembers, triggerProperties, triggerSubtitle } from '../shared/trigger/pollingNode';

/**
 * The polling trigger of the Messenger area (api-reference §4 and §8): n8n lists its events under the Scheduling
 * Platform Messenger node. How it polls: nodes/shared/trigger/.
 */

const areas = [messengerArea];
const properties = triggerProperties(areas);
const members = pollingMembers(areas, properties);

export class SchedulingPlatformMessengerTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Scheduling Platform Messenger Trigger',
		name: 'schedulingPlatformMessengerTrigger',
		icon: { light: 'file:../../icons/schedulingPlatform.svg', dark: 'file:../../icons/schedulingPlatform.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: triggerSubtitle(areas),
		description: 'Send messages and approved templates and manage conversations of the Scheduling Platform Messenger, and start workflows on new conversations and inbound messages (polled)',
		defaults: { name: 'Scheduling Platform Messenger Trigger' },
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

	methods = members.methods;

	poll = members.poll;
}
