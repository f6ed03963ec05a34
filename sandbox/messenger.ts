import { randomUUID, randomBytes } from 'node:crypto';
import { apiError } from './errors';
import { perStore, Store } from './store';

/**
 * Messenger state (api-reference §4): conversations, their messages and the company's message templates. It lives
 * beside the store (one per Store, so a reset empties it) and reads the store's clock: the 24-hour window opened by
 * each inbound message and the status of an outbound message (queued → sent → delivered → read) follow the
 * sandbox clock.
 */

export const WINDOW_MS = 24 * 3600 * 1000;

/** Seconds after sending at which an outbound message is sent, delivered and read (the sandbox's designed pace). */
const STATUS_AFTER: Array<[number, MessageStatus]> = [
	[60, 'read'],
	[10, 'delivered'],
	[2, 'sent'],
];

export type MessageStatus = 'queued' | 'sent' | 'delivered' | 'read' | 'failed';

export interface ConversationRecord {
	id: string;
	companyId: string;
	phone: string | null;
	userId: string;
	username: string | null;
	contactName?: string;
	contactId?: string;
	status: 'open' | 'done';
	labels: string[];
	createdAt: string;
	/** The last inbound message (ms): the window is open for 24 hours after it. */
	lastInboundAt: number | null;
	lastMessageAt: string;
	lastMessagePreview?: string;
	lastMessageDirection: 'inbound' | 'outbound';
}

export interface MessageTemplateRef {
	name: string;
	language: string;
	parameters: string[];
}

export interface MessageRecord {
	id: string;
	conversationId: string;
	direction: 'inbound' | 'outbound';
	type: 'text' | 'template';
	text: string;
	template: MessageTemplateRef | null;
	/** Inbound messages keep theirs; an outbound message's status follows the clock. */
	fixedStatus?: MessageStatus;
	/** Order of creation: messages of one millisecond keep it. */
	sequence: number;
	sentAtMs: number;
	createdAt: string;
}

export interface Template {
	name: string;
	language: string;
	category: 'MARKETING' | 'UTILITY' | 'AUTHENTICATION';
	status: 'approved' | 'pending' | 'rejected';
	body: string;
	parameterCount: number;
}

interface MessengerState {
	conversations: Map<string, ConversationRecord>;
	messages: MessageRecord[];
	templates: Map<string, Template[]>;
	sequence: number;
}

export const messengerOf = perStore<MessengerState>(() => ({ conversations: new Map(), messages: [], templates: new Map(), sequence: 0 }));

/** The conversation as the API answers it: the window computed on the sandbox clock. */
export function conversationView(store: Store, record: ConversationRecord): Record<string, unknown> {
	const now = store.clock.now();
	const expires = record.lastInboundAt === null ? null : record.lastInboundAt + WINDOW_MS;
	const windowOpen = expires !== null && now < expires;
	return {
		id: record.id,
		phone: record.phone,
		userId: record.userId,
		username: record.username,
		...(record.contactName !== undefined && { contactName: record.contactName }),
		...(record.contactId !== undefined && { contactId: record.contactId }),
		windowOpen,
		...(windowOpen && { windowExpiresAt: store.clock.iso(expires!) }),
		lastMessageAt: record.lastMessageAt,
		...(record.lastMessagePreview !== undefined && { lastMessagePreview: record.lastMessagePreview }),
		lastMessageDirection: record.lastMessageDirection,
		status: record.status,
		labels: record.labels,
		createdAt: record.createdAt,
	};
}

export function isWindowOpen(store: Store, record: ConversationRecord): boolean {
	return record.lastInboundAt !== null && store.clock.now() < record.lastInboundAt + WINDOW_MS;
}

export function messageStatus(store: Store, message: MessageRecord): MessageStatus {
	if (message.fixedStatus) return message.fixedStatus;
	const age = (store.clock.now() - message.sentAtMs) / 1000;
	return STATUS_AFTER.find(([after]) => age >= after)?.[1] ?? 'queued';
}

export function messageView(store: Store, message: MessageRecord): Record<string, unknown> {
	return {
		id: message.id,
		conversationId: message.conversationId,
		direction: message.direction,
		type: message.type,
		text: message.text,
		template: message.template,
		status: messageStatus(store, message),
		createdAt: message.createdAt,
	};
}

/** A new conversation (status open, no window until the contact writes). */
export function newConversation(
	store: Store,
	companyId: string,
	contact: { phone: string | null; username?: string | null; contactName?: string },
	at = store.clock.now(),
): ConversationRecord {
	const record: ConversationRecord = {
		id: randomUUID(),
		companyId,
		phone: contact.phone,
		userId: `bsu_${randomBytes(8).toString('hex')}`,
		username: contact.username ?? null,
		...(contact.contactName !== undefined && { contactName: contact.contactName }),
		status: 'open',
		labels: [],
		createdAt: store.clock.iso(at),
		lastInboundAt: null,
		lastMessageAt: store.clock.iso(at),
		lastMessageDirection: 'outbound',
	};
	messengerOf(store).conversations.set(record.id, record);
	return record;
}

/** Adds a message to the conversation and makes it the conversation's last; an inbound one opens the window and reopens a done conversation. */
export function addMessage(
	store: Store,
	conversation: ConversationRecord,
	input: { direction: 'inbound' | 'outbound'; type: 'text' | 'template'; text: string; template?: MessageTemplateRef },
	at = store.clock.now(),
): MessageRecord {
	const state = messengerOf(store);
	const message: MessageRecord = {
		id: randomUUID(),
		conversationId: conversation.id,
		direction: input.direction,
		type: input.type,
		text: input.text,
		template: input.template ?? null,
		...(input.direction === 'inbound' && { fixedStatus: 'delivered' as const }),
		sequence: ++state.sequence,
		sentAtMs: at,
		createdAt: store.clock.iso(at),
	};
	state.messages.push(message);
	// A message that becomes visible late (its moment before the clock: replication lag) is the last only when newer.
	if (at >= Date.parse(conversation.lastMessageAt)) {
		conversation.lastMessageAt = message.createdAt;
		conversation.lastMessagePreview = input.text.length > 80 ? `${input.text.slice(0, 79)}…` : input.text;
		conversation.lastMessageDirection = input.direction;
	}
	if (input.direction === 'inbound') {
		conversation.lastInboundAt = Math.max(conversation.lastInboundAt ?? at, at);
		conversation.status = 'open';
	}
	return message;
}

/** An inbound message from a phone (or a contact known by userId) of the company: its conversation is found or opened. */
export function deliverInbound(
	store: Store,
	companyId: string,
	input: { phone?: string; userId?: string; text: string; contactName?: string },
	at = store.clock.now(),
): { conversation: Record<string, unknown>; message: Record<string, unknown> } {
	const conversations = [...messengerOf(store).conversations.values()].filter((conversation) => conversation.companyId === companyId);
	let conversation = conversations.find((candidate) => (input.phone ? candidate.phone === input.phone : candidate.userId === input.userId));
	if (!conversation) {
		if (!input.phone) throw apiError(404, 'Conversation not found');
		conversation = newConversation(store, companyId, { phone: input.phone, contactName: input.contactName }, at);
	}
	const message = addMessage(store, conversation, { direction: 'inbound', type: 'text', text: input.text }, at);
	return { conversation: conversationView(store, conversation), message: messageView(store, message) };
}

/** A template's text with its parameters in place of {{1}}, {{2}}, ... */
export function renderTemplate(template: Template, parameters: string[]): string {
	return template.body.replace(/\{\{(\d+)\}\}/g, (whole, index: string) => parameters[Number(index) - 1] ?? whole);
}

const DEMO_TEMPLATES: Template[] = [
	{ name: 'appointment_reminder', language: 'en', category: 'UTILITY', status: 'approved', body: 'Hi {{1}}, this is a reminder of your appointment on {{2}}. Reply to this message if you need to reschedule.', parameterCount: 2 },
	{ name: 'conversation_restart', language: 'en', category: 'UTILITY', status: 'approved', body: 'Hello! We would like to continue our conversation. Reply to this message to chat with us.', parameterCount: 0 },
	{ name: 'lead_welcome', language: 'de', category: 'MARKETING', status: 'approved', body: 'Hallo {{1}}, danke für Ihr Interesse! Antworten Sie auf diese Nachricht, um einen Termin zu buchen.', parameterCount: 1 },
	{ name: 'lead_welcome', language: 'en', category: 'MARKETING', status: 'approved', body: 'Hi {{1}}, thanks for your interest! Reply to this message to book a call with us.', parameterCount: 1 },
	{ name: 'follow_up', language: 'en', category: 'MARKETING', status: 'pending', body: 'Hi {{1}}, just checking in: do you have any questions?', parameterCount: 1 },
	{ name: 'summer_sale', language: 'en', category: 'MARKETING', status: 'rejected', body: 'Summer sale: {{1}} off everything!', parameterCount: 1 },
];

/** The demo templates of a company, and for the first company (the seed's Acme) a few conversations to show. */
export function seedMessenger(store: Store, companyId: string, withConversations: boolean): void {
	messengerOf(store).templates.set(companyId, DEMO_TEMPLATES.map((template) => ({ ...template })));
	if (!withConversations) return;
	const now = store.clock.now();
	const ago = (minutes: number) => now - minutes * 60 * 1000;

	const grace = newConversation(store, companyId, { phone: '+12025550143', contactName: 'Grace Hopper' }, ago(90));
	addMessage(store, grace, { direction: 'inbound', type: 'text', text: 'Hi, can I book a product demo next week?' }, ago(90));
	grace.labels = ['lead'];

	const alan = newConversation(store, companyId, { phone: '+441632960001', contactName: 'Alan Turing' }, ago(4 * 24 * 60));
	addMessage(store, alan, { direction: 'inbound', type: 'text', text: 'Thanks for the call, I will think about it.' }, ago(3 * 24 * 60));
	addMessage(store, alan, { direction: 'outbound', type: 'text', text: 'Sure, let us know any time!' }, ago(3 * 24 * 60 - 5));
	alan.labels = ['customer'];

	const katherine = newConversation(store, companyId, { phone: null, username: 'katherine_j', contactName: 'Katherine Johnson' }, ago(120));
	addMessage(store, katherine, { direction: 'inbound', type: 'text', text: 'Hello, do you offer workshops for teams?' }, ago(120));

	const margaret = newConversation(store, companyId, { phone: '+4915112345678', contactName: 'Margaret Hamilton' }, ago(12 * 24 * 60));
	addMessage(store, margaret, { direction: 'inbound', type: 'text', text: 'All sorted, thank you!' }, ago(10 * 24 * 60));
	margaret.status = 'done';
	margaret.labels = ['support'];
}
