import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { signaturesArea } from './events';
import { pollingMembers, triggerProperties, triggerSubtitle } from '../shared/trigger/pollingNode';

/**
 * The polling trigger of the Signatures area (api-reference §5 and §8): n8n lists its event under the Scheduling
 * Platform Signatures node. How it polls: nodes/shared/trigger/.
 */

const areas = [signaturesArea];
const properties = triggerProperties(areas);
const members = pollingMembers(areas, properties);

export class SchedulingPlatformSignaturesTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Scheduling Platform Signatures Trigger',
		name: 'schedulingPlatformSignaturesTrigger',
		icon: { light: 'file:../../icons/schedulingPlatform.svg', dark: 'file:../../icons/schedulingPlatform.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: triggerSubtitle(areas),
		description: 'Send PDFs for electronic signature and download the signed PDF with the Scheduling Platform, and start workflows when every signer has signed (polled)',
		defaults: { name: 'Scheduling Platform Signatures Trigger' },
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
