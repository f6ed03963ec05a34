import type { INodeProperties } from 'n8n-workflow';

import { dateTime } from '../../shared/dates';
import { getManyFields } from '../../shared/getMany';
import type { ResourceDefinitions } from '../../shared/types';
import { conversationLocator } from '../locators';
import { CONVERSATIONS_PATH, CONVERSATION_PATH, conversationStatusField } from '../records';

/**
 * Conversation (api-reference §4): a contact's thread on the messenger channel. Get Many is an offset list
 * (`conversations`); Get Messages reads cursor pages (`{ messages, nextCursor }`, `before` a message ID), newest first.
 */

const conversationId = { id: 'conversationId' };

export const conversationOperations: ResourceDefinitions = {
	get: { method: 'GET', path: CONVERSATION_PATH, pathParams: conversationId },
	getAll: {
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
	},
	getMessages: {
		method: 'GET',
		path: `${CONVERSATION_PATH}/messages`,
		pathParams: conversationId,
		pagination: { style: 'cursor', itemsKey: 'messages', cursorParam: 'before' },
	},
	update: {
		method: 'PATCH',
		path: CONVERSATION_PATH,
		pathParams: conversationId,
		body: { status: 'updateFields.status', labels: 'updateFields.labels' },
		check: (request, input) => (Object.keys(request.body ?? {}).length ? undefined : `Add at least one field under ${input.label('updateFields')}: Labels or Status`),
	},
};

const show = (operation: string[]) => ({ show: { resource: ['conversation'], operation } });

/** A conversation's status (also a filter of the trigger's conversation events). */
export const conversationProperties: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['conversation'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Needs the conversation; returns it with its contact, labels, last message and 24-hour window',
				action: 'Get a conversation by ID',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'Filters by status, label, text or creation time; returns one item per conversation',
				action: 'Get many conversations',
			},
			{
				name: 'Get Messages',
				value: 'getMessages',
				description: 'Needs the conversation; returns one item per message, newest first',
				action: 'Get the messages of a conversation',
			},
			{ name: 'Update', value: 'update', description: 'Needs the conversation and a status or labels; returns the conversation', action: 'Update a conversation' },
		],
		default: 'getAll',
	},
	{
		displayName: 'Conversation',
		name: 'conversationId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		displayOptions: show(['get', 'getMessages', 'update']),
		description: 'The conversation to use',
		...conversationLocator,
	},
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: show(['update']),
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
	},
	...getManyFields('conversation', ['getAll', 'getMessages']),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: show(['getAll']),
		options: [
			{ displayName: 'Created After', name: 'createdAfter', type: 'dateTime', default: '', description: 'Only conversations started after this moment. Without an offset, the time is read in the workflow\'s time zone.' },
			{ displayName: 'Label', name: 'label', type: 'string', default: '', placeholder: 'e.g. lead', description: 'Only conversations with this label' },
			{ displayName: 'Search', name: 'search', type: 'string', default: '', description: 'Part of the contact\'s name, phone number or username, or of the last message' },
			{ ...conversationStatusField, description: 'Only open or only done conversations' },
		],
	},
	{
		displayName: 'Sort By',
		name: 'sortBy',
		type: 'options',
		options: [
			{ name: 'Created At', value: 'createdAt' },
			{ name: 'Last Message At', value: 'lastMessageAt' },
		],
		default: 'lastMessageAt',
		displayOptions: show(['getAll']),
		description: 'Which time to sort the conversations by',
	},
	{
		displayName: 'Sort Order',
		name: 'sortOrder',
		type: 'options',
		options: [
			{ name: 'Ascending', value: 'asc' },
			{ name: 'Descending', value: 'desc' },
		],
		default: 'desc',
		displayOptions: show(['getAll']),
	},
];
