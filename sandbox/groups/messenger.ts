import { Actor } from '../auth';
import { apiError } from '../errors';
import { Call, Group } from '../handler';
import { ordered } from '../listOrder';
import {
	addMessage,
	ConversationRecord,
	conversationView,
	isWindowOpen,
	messageView,
	messengerOf,
	MessageTemplateRef,
	newConversation,
	renderTemplate,
} from '../messenger';
import { Store } from '../store';

/** Messenger V4 (api-reference §4): conversations of the caller's company, their messages, sending, templates. */

export const WINDOW_CLOSED = 'The 24-hour customer-service window is closed; only template messages are accepted';
export const EXACTLY_ONE_RECIPIENT = 'Exactly one of phone, userId or conversationId must be provided';

interface ListQuery {
	status?: 'open' | 'done';
	label?: string;
	search?: string;
	createdAfter?: string;
	sortBy?: 'createdAt' | 'lastMessageAt';
	sortOrder?: 'asc' | 'desc';
	limit: number;
	offset: number;
}

interface SendBody {
	phone?: string;
	userId?: string;
	conversationId?: string;
	type: 'text' | 'template';
	text?: string;
	template?: { name: string; language: string; parameters?: string[] };
}

export const messenger: Group = {
	listConversations: ({ store, actor, query }) => {
		const { status, label, search, createdAfter, sortBy = 'lastMessageAt', sortOrder = 'desc', limit, offset } = query as unknown as ListQuery;
		const needle = search?.toLowerCase();
		const after = createdAfter ? Date.parse(createdAfter) : undefined;
		const sign = sortOrder === 'asc' ? 1 : -1;
		const matching = companyConversations(store, actor)
			.filter((conversation) => !status || conversation.status === status)
			.filter((conversation) => !label || conversation.labels.includes(label))
			.filter((conversation) => after === undefined || Date.parse(conversation.createdAt) > after)
			.filter((conversation) => !needle || [conversation.contactName, conversation.phone, conversation.username, conversation.lastMessagePreview].some((text) => text?.toLowerCase().includes(needle)));
		const sorted = ordered(store, matching, (a, b) => sign * a[sortBy].localeCompare(b[sortBy]));
		const page = sorted.slice(offset, offset + limit).map((conversation) => conversationView(store, conversation));
		return { conversations: page, total: sorted.length, count: page.length, offset };
	},

	getConversation: (call) => conversationView(call.store, pathConversation(call)),

	updateConversation: (call) => {
		const changes = call.body as { status?: 'open' | 'done'; labels?: string[] };
		if (Object.keys(changes).length === 0) throw apiError(400, 'Empty Body');
		const conversation = pathConversation(call);
		if (changes.status) conversation.status = changes.status;
		if (changes.labels) conversation.labels = [...new Set(changes.labels)];
		return conversationView(call.store, conversation);
	},

	/** Newest first; `before` (a message ID of the conversation) pages to older ones; nextCursor is the last message's ID while older ones remain. */
	listConversationMessages: (call) => {
		const { store, query } = call;
		const { limit, before } = query as unknown as { limit: number; before?: string };
		const conversation = pathConversation(call);
		const messages = messengerOf(store)
			.messages.filter((message) => message.conversationId === conversation.id)
			.sort((a, b) => b.sentAtMs - a.sentAtMs || b.sequence - a.sequence);
		let start = 0;
		if (before !== undefined) {
			const index = messages.findIndex((message) => message.id === before);
			if (index < 0) throw apiError(400, ['before must be the ID of a message of this conversation']);
			start = index + 1;
		}
		const page = messages.slice(start, start + limit);
		const more = start + limit < messages.length;
		return { messages: page.map((message) => messageView(store, message)), nextCursor: more && page.length ? page[page.length - 1].id : null };
	},

	sendMessage: ({ store, actor, body }) => {
		const input = body as unknown as SendBody;
		const given = [input.phone, input.userId, input.conversationId].filter((value) => value !== undefined && value !== null);
		if (given.length !== 1) throw apiError(400, EXACTLY_ONE_RECIPIENT);
		if (input.type === 'text' && (input.text === undefined || input.text.trim() === '')) throw apiError(400, ['text should not be empty']);
		if (input.type === 'template' && !input.template) throw apiError(400, ['template should not be empty']);
		const template = input.type === 'template' ? checkedTemplate(store, actor, input.template!) : undefined;
		const existing = input.conversationId !== undefined
			? companyConversation(store, actor, input.conversationId)
			: input.userId !== undefined
				? companyConversations(store, actor).find((conversation) => conversation.userId === input.userId) ?? notFound()
				: companyConversations(store, actor).find((conversation) => conversation.phone === input.phone);
		if (input.type === 'text' && (!existing || !isWindowOpen(store, existing))) throw apiError(400, WINDOW_CLOSED);
		// Sending to a phone with no conversation opens one (status open, window closed until the contact writes).
		const conversation = existing ?? newConversation(store, actor.company.id, { phone: input.phone! });
		const message = template
			? addMessage(store, conversation, { direction: 'outbound', type: 'template', text: template.text, template: template.ref })
			: addMessage(store, conversation, { direction: 'outbound', type: 'text', text: input.text! });
		return messageView(store, message);
	},

	listMessageTemplates: ({ store, actor }) => messengerOf(store).templates.get(actor.company.id) ?? [],
};

function notFound(): never {
	throw apiError(404, 'Conversation not found');
}

function companyConversations(store: Store, actor: Actor): ConversationRecord[] {
	return [...messengerOf(store).conversations.values()].filter((conversation) => conversation.companyId === actor.company.id);
}

function companyConversation(store: Store, actor: Actor, id: string): ConversationRecord {
	const conversation = messengerOf(store).conversations.get(id);
	if (!conversation || conversation.companyId !== actor.company.id) notFound();
	return conversation!;
}

function pathConversation({ store, actor, params }: Call): ConversationRecord {
	return companyConversation(store, actor, params.id);
}

/** An approved template of the company with as many parameters as it has placeholders (400 naming the template otherwise). */
function checkedTemplate(store: Store, actor: Actor, given: { name: string; language: string; parameters?: string[] }): { ref: MessageTemplateRef; text: string } {
	const parameters = given.parameters ?? [];
	const named = `Template "${given.name}" (${given.language})`;
	const template = (messengerOf(store).templates.get(actor.company.id) ?? []).find((candidate) => candidate.name === given.name && candidate.language === given.language);
	if (!template) throw apiError(400, `${named} does not exist`);
	if (template.status !== 'approved') throw apiError(400, `${named} is not approved (status ${template.status}); only approved templates can be sent`);
	if (parameters.length !== template.parameterCount) {
		throw apiError(400, `${named} expects ${template.parameterCount} parameter${template.parameterCount === 1 ? '' : 's'}, got ${parameters.length}`);
	}
	return { ref: { name: template.name, language: template.language, parameters }, text: renderTemplate(template, parameters) };
}
