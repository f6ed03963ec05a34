import type { INodeProperties } from 'n8n-workflow';

import { locator } from '../shared/locators';

/** Resource locators of the Messenger node (their loaders in listSearch.ts). */

export const conversationLocator = locator('searchConversations', 'Conversation ID');

/** A template is named by its name and language, joined by a colon (`lead_welcome:en`): one name exists in several languages. */
export const templateLocator: Pick<INodeProperties, 'modes'> = {
	modes: [
		{ displayName: 'From List', name: 'list', type: 'list', typeOptions: { searchListMethod: 'searchTemplates', searchable: true } },
		{
			displayName: 'By Name',
			name: 'name',
			type: 'string',
			placeholder: 'e.g. lead_welcome:en',
			validation: [
				{
					type: 'regex',
					properties: {
						regex: '^([^:\\s]+:[^:\\s]+)?$',
						errorMessage: 'Template must be the template\'s name and language joined by a colon, such as lead_welcome:en',
					},
				},
			],
		},
	],
};
