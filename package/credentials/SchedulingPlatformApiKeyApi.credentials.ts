import type {
	IAuthenticate,
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';
import {
	credentialProblem,
	rateLimitProperties,
} from '../nodes/shared/transport/credentialChecks';

export class SchedulingPlatformApiKeyApi implements ICredentialType {
	name = 'schedulingPlatformApiKeyApi';

	displayName = 'Scheduling Platform API';

	icon = { light: 'file:../icons/schedulingPlatform.svg', dark: 'file:../icons/schedulingPlatform.dark.svg' } as const;

	documentationUrl = 'https://github.com/scheduling-platform/n8n-nodes-scheduling-platform/blob/main/docs/credentials.md#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			placeholder: 'e.g. https://api.example.com',
			required: true,
			description: 'Root address of the API, without a trailing slash',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Platform API key of the form ak_live:&lt;uuid&gt;:&lt;secret&gt;, shown once when a company owner or admin creates it',
		},
		{
			displayName: 'Default Acting User ID',
			name: 'actingUserId',
			type: 'string',
			default: '',
			placeholder: 'e.g. 6f1c2a7e-1b2c-4d5e-8f90-123456789abc',
			description: 'Optional. UUID of the user to act for when a node leaves "Act As User" empty. When both are empty, an operation that acts for a user stops before sending (with an API key most operations need one; creating a user and reading open slots do not).',
		},
		...rateLimitProperties,
	];

	authenticate: IAuthenticate = async (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> => {
		const problem = credentialProblem(credentials, true);
		if (problem) throw new Error(problem);
		const headers: IDataObject = { ...requestOptions.headers, Authorization: `Bearer ${String(credentials.apiKey).trim()}` };
		const defaultActingUser = String(credentials.actingUserId ?? '').trim();
		if (defaultActingUser && !headers['x-service-api-user-id']) {
			headers['x-service-api-user-id'] = defaultActingUser;
		}
		return { ...requestOptions, headers };
	};
}
