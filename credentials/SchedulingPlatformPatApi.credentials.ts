import type {
	IAuthenticate,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';
import {
	baseUrlProblem,
	personalAccessTokenProblem,
	rateLimitProblem,
} from '../nodes/shared/transport/credentialChecks';

export class SchedulingPlatformPatApi implements ICredentialType {
	name = 'schedulingPlatformPatApi';

	displayName = 'Scheduling Platform Personal Access Token API';

	icon = { light: 'file:../icons/schedulingPlatform.svg', dark: 'file:../icons/schedulingPlatform.dark.svg' } as const;

	documentationUrl = 'https://github.com/scheduling-platform/n8n-nodes-scheduling-platform#credentials';

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
		{
			displayName: 'Requests per Minute',
			name: 'requestsPerMinute',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: 100,
			description: 'Requests per minute the API allows this credential (100 on every plan today). The nodes keep under it, shared by every workflow in this n8n process; other processes using the same credential are noticed by the API\'s 429 answers.',
		},
		{
			displayName: 'Burst',
			name: 'burst',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: 200,
			description: 'Requests the API allows at once before the per-minute rate applies (200 today)',
		},
	];

	authenticate: IAuthenticate = async (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> => {
		const problem = baseUrlProblem(credentials.baseUrl) ?? personalAccessTokenProblem(credentials.token) ?? rateLimitProblem(credentials);
		if (problem) throw new Error(problem);
		const headers = { ...requestOptions.headers, Authorization: `Bearer ${String(credentials.token).trim()}` };
		return { ...requestOptions, headers };
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.trim().replace(/\\/+$/, "")}}',
			url: '/v4/user/me',
			method: 'GET',
		},
	};
}
