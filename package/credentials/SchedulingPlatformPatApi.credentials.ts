import type {
	IAuthenticate,
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';
import {
	credentialProblem,
	rateLimitProperties,
} from '../nodes/shared/transport/credentialChecks';

export class SchedulingPlatformPatApi implements ICredentialType {
	name = 'schedulingPlatformPatApi';

	displayName = 'Scheduling Platform Personal Access Token API';

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
			displayName: 'Token',
			name: 'token',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Personal Access Token starting with "rgo-", created in the integrations area of the dashboard',
		},
		...rateLimitProperties,
	];

	authenticate: IAuthenticate = async (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> => {
		const problem = credentialProblem(credentials, false);
		if (problem) throw new Error(problem);
		const headers = { ...requestOptions.headers, Authorization: `Bearer ${String(credentials.token).trim()}` };
		return { ...requestOptions, headers };
	};
}
