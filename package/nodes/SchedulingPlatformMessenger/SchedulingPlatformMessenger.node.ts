import type { IExecuteFunctions, INodeExecutionData, INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { actAsUserProperty, authenticationProperty } from '../shared/authentication';
import { testSchedulingPlatformCredential } from '../shared/credentialTest';
import { forTheEditor } from '../shared/editorLoaders';
import { executeDefinitions } from '../shared/executor';
import { searchActingUsers } from '../shared/listSearch';
import { requestOptionsProperty } from '../shared/parallel';
import { searchConversations, searchTemplates } from './listSearch';
import { conversationOperations, conversationProperties } from './resources/conversation';
import { messageOperations, messageProperties } from './resources/message';
import { templateOperations, templateProperties } from './resources/template';
import { messengerErrorHints } from './errorHints';

/**
 * The Messenger node (api-reference §4): conversations, sending text or approved templates within the rules of
 * the 24-hour customer-service window, and the message templates, on the shared machinery of nodes/shared/.
 */

const properties: INodeProperties[] = [
	authenticationProperty,
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Conversation', value: 'conversation' },
			{ name: 'Message', value: 'message' },
			{ name: 'Template', value: 'template' },
		],
		default: 'message',
	},
	...conversationProperties,
	...messageProperties,
	...templateProperties,
	actAsUserProperty,
	requestOptionsProperty,
];

/** The definitions of every resource, keyed like the Resource options. */
const resources = {
	conversation: conversationOperations,
	message: messageOperations,
	template: templateOperations,
};

export class SchedulingPlatformMessenger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Scheduling Platform Messenger',
		name: 'schedulingPlatformMessenger',
		icon: { light: 'file:../../icons/schedulingPlatformMessenger.svg', dark: 'file:../../icons/schedulingPlatformMessenger.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Send messenger messages and approved templates, and manage conversations of the Scheduling Platform',
		defaults: { name: 'Scheduling Platform Messenger' },
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
		listSearch: forTheEditor({ searchActingUsers, searchConversations, searchTemplates }),
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeDefinitions(this, { resources, properties, hints: messengerErrorHints });
	}
}
