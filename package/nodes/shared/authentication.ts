import type { INodeProperties } from 'n8n-workflow';

import { locator } from './locators';

/**
 * What every node of the package starts with: the Authentication switch between the two credentials, and
 * Act As User for an API key (its list from `searchActingUsers` in listSearch.ts). Each node lists the two
 * credentials itself, literally, with `testedBy` naming the shared credential test (credentialTest.ts): n8n's
 * lint reads the node file to see that every credential is tested.
 */

export const authenticationProperties: INodeProperties[] = [
	{
		displayName: 'Authentication',
		name: 'authentication',
		type: 'options',
		options: [
			{
				name: 'Personal Access Token',
				value: 'personalAccessToken',
				description: 'A Scheduling Platform Personal Access Token credential: acts as the token\'s owner',
			},
			{
				name: 'Platform API Key',
				value: 'apiKey',
				description: 'A Scheduling Platform API credential with the company\'s Platform API key: acts for any user of the company (Act As User)',
			},
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
		...locator('searchActingUsers', 'Act As User'),
	},
];
