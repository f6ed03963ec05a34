import type { INodeProperties } from 'n8n-workflow';

import { declareArea } from '../shared/trigger/pollingNode';
import { CONVERSATIONS_PATH, CONVERSATION_PATH, conversationStatusField } from './records';

/**
 * Messenger events (api-reference §4 and §8, designed): conversations newest first by creation (New
 * Conversation, narrowed with createdAfter), and inbound messages: conversations by their last message, then
 * each one's messages newest first. A conversation that gets a message while a poll reads later pages jumps to the
 * first page: the trigger reads it again (watch.ts recheckTop), so its earlier messages are not passed over.
 */

const pagination = { style: 'offset', itemsKey: 'conversations' } as const;
const filters = { status: 'conversationFilters.status', label: 'conversationFilters.label' };

const conversationFilters: INodeProperties = {
	displayName: 'Filters',
	name: 'conversationFilters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options: [
		{
			displayName: 'Label',
			name: 'label',
			type: 'string',
			default: '',
			placeholder: 'e.g. lead',
			description: 'Only conversations with this label',
		},
		{ ...conversationStatusField, description: 'Only conversations in this status' },
	],
};

/** The Scheduling Platform Messenger Trigger's events. */
export const messengerArea = declareArea(
	{
		newConversation: {
			option: { name: 'New Conversation', description: 'A messenger conversation starts' },
			read: {
				noun: 'conversation',
				list: { path: CONVERSATIONS_PATH, qs: { sortBy: 'createdAt', sortOrder: 'desc' }, pagination },
				filters,
				sinceParam: 'createdAfter',
				happenedAt: (conversation) => conversation.createdAt,
				detail: { path: CONVERSATION_PATH },
			},
			fields: [conversationFilters],
			fullRecord: true,
		},
		newInboundMessage: {
			option: { name: 'New Inbound Message', description: 'A contact writes a message (with its conversation)' },
			read: {
				noun: 'inbound message',
				list: { path: CONVERSATIONS_PATH, qs: { sortBy: 'lastMessageAt', sortOrder: 'desc' }, pagination },
				filters,
				within: {
					path: `${CONVERSATION_PATH}/messages`,
					pagination: { style: 'cursor', itemsKey: 'messages', cursorParam: 'before' },
					keep: (message) => message.direction === 'inbound',
					parentKey: 'conversation',
				},
				happenedAt: (message) => message.createdAt,
				sortedBy: (conversation) => conversation.lastMessageAt,
			},
			fields: [conversationFilters],
		},
	},
	{},
);
