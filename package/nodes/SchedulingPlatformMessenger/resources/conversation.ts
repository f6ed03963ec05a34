import type { INodeProperties } from 'n8n-workflow';

import { dateTime } from '../../shared/dates';
import { declareResource } from '../../shared/declare';
import { returnAllFields } from '../../shared/getMany';
import { locatorField } from '../../shared/locators';
import { conversationLocator } from '../locators';
import { CONVERSATIONS_PATH, CONVERSATION_PATH, conversationStatusField } from '../records';

/**
 * Conversation (api-reference §4): a contact's thread on the messenger channel. Get Many is an offset list
 * (`conversations`); Get Messages reads cursor pages (`{ messages, nextCursor }`, `before` a message ID), newest first.
 */

const conversationId = { id: 'conversationId' };

const conversation: INodeProperties = { ...locatorField('Conversation', 'conversationId', 'The conversation to use', conversationLocator), required: true };

const updateFields: INodeProperties = {
	displayName: 'Update Fields',
	name: 'updateFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [
		{
			displayName: 'Labels',
			name: 'labels',
			type: 'string',
			typeOptions: { multipleValues: true },
			default: [],
			description: 'The conversation\'s labels: they replace the current ones (no label removes them all)',
		},
		{ ...conversationStatusField, description: 'Done archives the conversation; Open makes it active again' },
	],
};

const returnAll = returnAllFields();

const filters: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options: [
		{ displayName: 'Created After', name: 'createdAfter', type: 'dateTime', default: '', description: 'Only conversations started after this moment. Without an offset, the time is read in the workflow\'s time zone.' },
		{ displayName: 'Label', name: 'label', type: 'string', default: '', placeholder: 'e.g. lead', description: 'Only conversations with this label' },
		{ displayName: 'Search', name: 'search', type: 'string', default: '', description: 'Part of the contact\'s name, phone number or username, or of the last message' },
		{ ...conversationStatusField, description: 'Only open or only done conversations' },
	],
};

const sortBy: INodeProperties = {
	displayName: 'Sort By',
	name: 'sortBy',
	type: 'options',
	options: [
		{ name: 'Created At', value: 'createdAt' },
		{ name: 'Last Message At', value: 'lastMessageAt' },
	],
	default: 'lastMessageAt',
	description: 'Which time to sort the conversations by',
};

const sortOrder: INodeProperties = {
	displayName: 'Sort Order',
	name: 'sortOrder',
	type: 'options',
	options: [
		{ name: 'Ascending', value: 'asc' },
		{ name: 'Descending', value: 'desc' },
	],
	default: 'desc',
};

export const { definitions: conversationOperations, properties: conversationProperties } = declareResource('conversation', {
	default: 'getAll',
	operations: {
		get: {
			option: { name: 'Get', description: 'Needs the conversation; returns it with its contact, labels, last message and 24-hour window', action: 'Get a conversation by ID' },
			method: 'GET',
			path: CONVERSATION_PATH,
			pathParams: conversationId,
			fields: [conversation],
		},
		getAll: {
			option: { name: 'Get Many', description: 'Filters by status, label, text or creation time; returns one item per conversation', action: 'Get many conversations' },
			method: 'GET',
			path: CONVERSATIONS_PATH,
			query: {
				status: 'filters.status',
				label: 'filters.label',
				search: 'filters.search',
				createdAfter: { param: 'filters.createdAfter', convert: dateTime() },
				sortBy: 'sortBy',
				sortOrder: 'sortOrder',
			},
			pagination: { style: 'offset', itemsKey: 'conversations' },
			fields: [...returnAll, filters, sortBy, sortOrder],
		},
		getMessages: {
			option: { name: 'Get Messages', description: 'Needs the conversation; returns one item per message, newest first', action: 'Get the messages of a conversation' },
			method: 'GET',
			path: `${CONVERSATION_PATH}/messages`,
			pathParams: conversationId,
			pagination: { style: 'cursor', itemsKey: 'messages', cursorParam: 'before' },
			fields: [conversation, ...returnAll],
		},
		update: {
			option: { name: 'Update', description: 'Needs the conversation and a status or labels; returns the conversation', action: 'Update a conversation' },
			method: 'PATCH',
			path: CONVERSATION_PATH,
			pathParams: conversationId,
			body: { status: 'updateFields.status', labels: 'updateFields.labels' },
			check: (request, input) => (Object.keys(request.body ?? {}).length ? undefined : `Add at least one field under ${input.label('updateFields')}: Labels or Status`),
			fields: [conversation, updateFields],
		},
	},
});
