import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { executeDefinitions } from './executor';
import { searchActingUsers, searchMeetingTypes, searchUsers } from './listSearch';
import { meetingTypeOperations, meetingTypeProperties } from './resources/meetingType';
import { userOperations, userProperties } from './resources/user';

const properties: INodeProperties[] = [
	{
		displayName: 'Authentication',
		name: 'authentication',
		type: 'options',
		options: [
			{ name: 'Personal Access Token', value: 'personalAccessToken' },
			{ name: 'Platform API Key', value: 'apiKey' },
		],
		default: 'personalAccessToken',
	},
	{
		displayName: 'Act As User',
		name: 'actAsUser',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		displayOptions: { show: { authentication: ['apiKey'] } },
		description: 'User of the company the API key acts for. Empty: the credential\'s Default Acting User ID.',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchActingUsers', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 6f1c2a7e-1b2c-4d5e-8f90-123456789abc',
			},
		],
	},
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Meeting Type', value: 'meetingType' },
			{ name: 'User', value: 'user' },
		],
		default: 'meetingType',
	},
	...userProperties,
	...meetingTypeProperties,
];

export class SchedulingPlatform implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Scheduling Platform',
		name: 'schedulingPlatform',
		icon: { light: 'file:../../icons/schedulingPlatform.svg', dark: 'file:../../icons/schedulingPlatform.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Manage users and meeting types of the Scheduling Platform',
		defaults: { name: 'Scheduling Platform' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'schedulingPlatformPatApi',
				required: true,
				displayOptions: { show: { authentication: ['personalAccessToken'] } },
			},
			{
				name: 'schedulingPlatformApiKeyApi',
				required: true,
				displayOptions: { show: { authentication: ['apiKey'] } },
			},
		],
		properties,
	};

	methods = {
		listSearch: { searchActingUsers, searchMeetingTypes, searchUsers },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeDefinitions(this, { meetingType: meetingTypeOperations, user: userOperations }, properties);
	}
}
