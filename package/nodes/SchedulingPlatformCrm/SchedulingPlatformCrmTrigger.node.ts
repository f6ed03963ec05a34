import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { crmArea } from './events';
import { pollingMembers, triggerProperties, triggerSubtitle } from '../shared/trigger/pollingNode';

/**
 * The polling trigger of the CRM area (api-reference §3 and §8): n8n lists its events under the Scheduling Platform
 * CRM node. How it polls: nodes/shared/trigger/.
 */

const areas = [crmArea];
const properties = triggerProperties(areas);
const members = pollingMembers(areas, properties);

export class SchedulingPlatformCrmTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Scheduling Platform CRM Trigger',
		name: 'schedulingPlatformCrmTrigger',
		icon: { light: 'file:../../icons/schedulingPlatform.svg', dark: 'file:../../icons/schedulingPlatform.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: triggerSubtitle(areas),
		description: 'Manage contacts, companies, deals, pipelines, tasks and notes in the Scheduling Platform CRM, and start workflows on new contacts and on new, won or lost deals (polled)',
		defaults: { name: 'Scheduling Platform CRM Trigger' },
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
