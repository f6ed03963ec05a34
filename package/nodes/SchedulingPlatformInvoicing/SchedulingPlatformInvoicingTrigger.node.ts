import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { invoicingArea } from './events';
import { pollingMembers, triggerProperties, triggerSubtitle } from '../shared/trigger/pollingNode';

/**
 * The polling trigger of the Invoicing area (api-reference §6 and §8): n8n lists its events under the Scheduling
 * Platform Invoicing node. How it polls: nodes/shared/trigger/.
 */

const areas = [invoicingArea];
const properties = triggerProperties(areas);
const members = pollingMembers(areas, properties);

export class SchedulingPlatformInvoicingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Scheduling Platform Invoicing Trigger',
		name: 'schedulingPlatformInvoicingTrigger',
		icon: { light: 'file:../../icons/schedulingPlatform.svg', dark: 'file:../../icons/schedulingPlatform.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: triggerSubtitle(areas),
		description: 'Create, send and collect offers and invoices, bill recurring invoices and export the books with the Scheduling Platform, and start workflows on paid or overdue invoices and accepted offers (polled)',
		defaults: { name: 'Scheduling Platform Invoicing Trigger' },
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
