import type { IDataObject, INodeProperties } from 'n8n-workflow';

/** The Messenger V4 paths (api-reference §4, designed), a conversation's status and how a template is named, in one place (the Messenger node and its trigger). */

export const CONVERSATIONS_PATH = '/v4/messenger/conversations';
export const CONVERSATION_PATH = '/v4/messenger/conversations/{id}';
export const MESSAGES_PATH = '/v4/messenger/messages';
export const TEMPLATES_PATH = '/v4/messenger/templates';

/** A template's value in the Template field: name and language joined by a colon. */
export const templateValue = (template: IDataObject) => `${String(template.name)}:${String(template.language)}`;

/** How a template is shown: name, language and how many parameters it takes. */
export function templateLabel(template: IDataObject): string {
	const count = Number(template.parameterCount ?? 0);
	return `${String(template.name)} (${String(template.language)}), ${count} parameter${count === 1 ? '' : 's'}`;
}

/** A conversation's status, as the Messenger node sets and filters it and the trigger filters it. */
export const conversationStatusField: INodeProperties = {
	displayName: 'Status',
	name: 'status',
	type: 'options',
	options: [
		{ name: 'Done', value: 'done', description: 'Archived' },
		{ name: 'Open', value: 'open', description: 'Active' },
	],
	default: 'open',
};
