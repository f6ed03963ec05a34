import type { INodeProperties } from 'n8n-workflow';

import { locator } from './locators';

/**
 * What every node of the package has: the Authentication switch between the two credentials (first), and Act As
 * User for an API key (last, below the operation's own fields: it is optional; its list from `searchActingUsers` in
 * listSearch.ts). Each node lists the two credentials itself, literally, with `testedBy` naming the shared credential
 * test (credentialTest.ts): n8n's lint reads the node file to see that every credential is tested.
 */

export const authenticationProperty: INodeProperties = {
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
};

const OPTIONAL = 'Optional: empty acts as the credential\'s Default Acting User';

export const actAsUserProperty: INodeProperties = {
	displayName: 'Act As User',
	name: 'actAsUser',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	displayOptions: { show: { authentication: ['apiKey'] } },
	description:
		'Optional. The user of the company the API key acts for: whose data the operation reads and changes. Empty: the credential\'s Default Acting User ID. When that is empty too, an operation that acts for a user stops before sending and says so (the API requires an acting user for most operations); the lists in the editor then show what the company owner sees.',
	modes: locator('searchActingUsers', 'Act As User', 'uuid').modes!.map((mode) => ({ ...mode, placeholder: OPTIONAL })),
};
