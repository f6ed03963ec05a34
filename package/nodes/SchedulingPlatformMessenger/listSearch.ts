import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { matches } from '../shared/listSearch';
import { MAX_PAGE_SIZE } from '../shared/transport/pagination';
import { apiRequest } from '../shared/transport/request';
import { CONVERSATIONS_PATH, TEMPLATES_PATH, templateLabel, templateValue } from './records';

/** "From List" loaders of the Messenger node: conversations (offset pages, the API's search) and approved templates. */

function conversationName(conversation: IDataObject): string {
	const who = conversation.contactName ?? conversation.username ?? conversation.phone ?? conversation.userId;
	const reach = conversation.phone ?? (conversation.username ? `@${String(conversation.username)}` : conversation.userId);
	const done = conversation.status === 'done' ? ', done' : '';
	return who === reach ? `${String(who)}${done}` : `${String(who)} (${String(reach)})${done}`;
}

/** Conversations, the latest message first, searched by the API (contact name, phone, username, last message). */
export async function searchConversations(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const offset = Number(paginationToken ?? 0);
	const qs: IDataObject = { limit: MAX_PAGE_SIZE, offset, sortBy: 'lastMessageAt', sortOrder: 'desc' };
	if (filter) qs.search = filter;
	const answer = (await apiRequest(this, 0, { method: 'GET', path: CONVERSATIONS_PATH, qs })) as IDataObject;
	const conversations = (answer.conversations ?? []) as IDataObject[];
	const next = offset + conversations.length;
	return {
		results: conversations.map((conversation) => ({ name: conversationName(conversation), value: String(conversation.id) })),
		paginationToken: conversations.length === MAX_PAGE_SIZE && next < Number(answer.total ?? 0) ? String(next) : undefined,
	};
}

/** The approved templates (only those can be sent), by name and language; a bare array, filtered here. */
export async function searchTemplates(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const templates = (await apiRequest(this, 0, { method: 'GET', path: TEMPLATES_PATH })) as IDataObject[];
	return {
		results: templates
			.filter((template) => template.status === 'approved' && matches(filter, template.name, template.language, template.body))
			.map((template) => ({ name: templateLabel(template), value: templateValue(template) })),
	};
}
