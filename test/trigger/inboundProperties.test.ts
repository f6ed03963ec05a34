import fc from 'fast-check';

import { LOOKBACK_MS } from '../../package/nodes/shared/trigger/watermark';
import type { CommonStep, ListOrder } from '../harness/triggerHistory';
import { assertHistories, burstTimes, commonSteps, historyTenant, PolledHistory, pollTotals, propertyRuns, sandboxNow } from '../harness/triggerHistory';
import { useWorld } from '../harness/world';

/**
 * New Inbound Message on random histories: every inbound message is emitted exactly once, none lost, none repeated.
 * Its list is ordered by a moving time: conversations newest first by their last message, then each one's messages
 * newest first, so a conversation that gets a message while the poll reads a later page jumps to a page read already.
 * Each history runs the compiled Messenger Trigger through n8n-core's poll context against the sandbox, in a tenant of
 * its own after a sandbox reset (harness/triggerHistory.ts, shared with properties.test.ts):
 * - inbound messages to new and existing conversations, several sharing one moment (in one conversation or across
 *   conversations), outbound messages (sent through the API) that move a conversation to the top and are never events,
 * - late visibility: inbound messages whose createdAt lies up to (not quite) the lookback window before the clock
 *   (api-reference §8: items can become visible a little after their createdAt),
 * - bursts of 101 to 160 conversations with a message (several pages; a spread of 0 puts them all on one moment),
 * - messages while a poll pages: after a backlog of 101 to 260 conversations with a new message (two or three
 *   pages; in some, 2 to 12 of them share each moment, so a group can lie across a page edge; aged by up to 3
 *   minutes), the answer to the poll's second list request is held while conversations get a message (inbound or
 *   outbound, now or late): conversations on the page still to come (they jump to the page read already: the case
 *   of issue 23), on the page read already, older ones below the backlog, or new ones; some of these polls are
 *   abandoned midway (their items and state dropped),
 * - polls, some with a poll budget so short that only one request is read,
 * - failing polls (a 500 on the first or second list page, or on one conversation's messages): nothing emitted, the
 *   stored state unchanged,
 * - restarts from the stored state, or from the state of the last poll that emitted (n8n 1.x),
 * - a poll dispatched twice on the same saved state (the first run's items and state dropped, as n8n 2.x's durable
 *   scheduler does with a poll whose lease it lost),
 * - conversations sharing a last-message moment in a new random order on every page request (sandbox list-order),
 * - the clock moving on by seconds to minutes.
 * Truth: every inbound message created after the first activation's watermark is emitted exactly once; an older one,
 * and every outbound message, never; the stored state stays under 2 KB. In a history whose list shuffles ties and in
 * which the trigger warned of a group of one moment that no page can hold (docs/triggers.md's stated limit: some can be
 * missed), what is lost is counted apart (lostInUnreadableShuffledGroups), as in properties.test.ts; nothing may be
 * emitted twice or wrongly there either.
 */

const world = useWorld();

/** Default 60 histories (about 45 s on two cores); TRIGGER_PROPERTY_RUNS sets more, for every property test alike. */
const RUNS = propertyRuns(60);
const EVENT = { event: 'newInboundMessage' };
const CONVERSATIONS = '/v4/messenger/conversations';
const PAGE = 100;

type Target = 'unread' | 'read' | 'old' | 'new';

type Step =
	| { kind: 'inbound'; count: number; fresh: number; pick: number; shared: boolean }
	| { kind: 'outbound'; count: number; pick: number }
	| { kind: 'late'; count: number; fresh: boolean; pick: number; lagMs: number }
	| { kind: 'burst'; count: number; spreadMs: number; pick: number }
	| { kind: 'whilePaging'; backlog: number; reuse: number; tie: number; ageSeconds: number; target: Target; direction: 'inbound' | 'outbound'; count: number; lagMs: number; abandon: boolean }
	| { kind: 'failingPoll'; request: 'firstPage' | 'secondPage' | 'messages'; after: number }
	| { kind: 'twice' }
	| CommonStep;

const late = fc.integer({ min: 1, max: LOOKBACK_MS - 2000 });

const step: fc.Arbitrary<Step> = fc.oneof(
	{
		weight: 4,
		arbitrary: fc
			.record({ kind: fc.constant('inbound' as const), count: fc.integer({ min: 1, max: 20 }), fresh: fc.nat({ max: 20 }), pick: fc.nat(), shared: fc.boolean() })
			.map((drawn) => ({ ...drawn, fresh: Math.min(drawn.fresh, drawn.count) })),
	},
	{ weight: 2, arbitrary: fc.record({ kind: fc.constant('outbound' as const), count: fc.integer({ min: 1, max: 5 }), pick: fc.nat() }) },
	{ weight: 2, arbitrary: fc.record({ kind: fc.constant('late' as const), count: fc.integer({ min: 1, max: 5 }), fresh: fc.boolean(), pick: fc.nat(), lagMs: late }) },
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant('burst' as const), count: fc.integer({ min: 101, max: 160 }), spreadMs: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 5000 })), pick: fc.nat() }) },
	...commonSteps,
	{
		weight: 3,
		arbitrary: fc.record({
			kind: fc.constant('whilePaging' as const),
			backlog: fc.integer({ min: PAGE + 1, max: 2 * PAGE + 60 }),
			reuse: fc.nat({ max: 2 * PAGE + 60 }),
			tie: fc.oneof(fc.constant(1), fc.integer({ min: 2, max: 12 })),
			ageSeconds: fc.integer({ min: 0, max: 180 }),
			target: fc.constantFrom<Target>('unread', 'unread', 'read', 'old', 'new'),
			direction: fc.constantFrom('inbound' as const, 'inbound' as const, 'outbound' as const),
			count: fc.integer({ min: 1, max: 5 }),
			lagMs: fc.oneof(fc.constant(0), late),
			abandon: fc.nat({ max: 3 }).map((draw) => draw === 0),
		}),
	},
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant('failingPoll' as const), request: fc.constantFrom('firstPage' as const, 'secondPage' as const, 'messages' as const), after: fc.nat({ max: 3 }) }) },
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant('twice' as const) }) },
);

/** Conversations are sorted by lastMessageAt, a documented sort key (api-reference §4): an ignored sort is not drawn. */
const listOrder: fc.Arbitrary<ListOrder> = fc.constantFrom('sorted', 'shuffledTies');

const { byListOrder, ...pollCounts } = pollTotals();
const totals = {
	histories: 0,
	...pollCounts,
	conversations: 0,
	inbound: 0,
	outbound: 0,
	lateInbound: 0,
	whilePaging: 0,
	movedToReadPageWhilePaging: 0,
	abandonedWhilePaging: 0,
	/** Inbound messages at or before the first activation's watermark (late, or dated back in a burst): never emitted. */
	inboundBeforeWatermark: 0,
	emitted: 0,
	lost: 0,
	duplicated: 0,
	foreign: 0,
	lostInUnreadableShuffledGroups: 0,
	byListOrder,
};

interface Conversation {
	phone: string;
	id: string;
	/** The newest message's moment (ms), as the sandbox keeps lastMessageAt. */
	lastAt: number;
}

interface Message {
	id: string;
	conversationId: string;
	direction: 'inbound' | 'outbound';
	createdAt: number;
}

/** One history: a tenant, its conversations and messages, the trigger's stored state and what came out. */
class InboundHistory extends PolledHistory {
	conversations: Conversation[] = [];
	messages: Message[] = [];

	static async start(order: ListOrder): Promise<InboundHistory> {
		const tenant = await historyTenant(world(), order);
		totals.byListOrder[order]++;
		return new InboundHistory(world(), tenant, EVENT, totals);
	}

	async now(): Promise<number> {
		return await sandboxNow(world());
	}

	/** An inbound message as the channel delivers it, to a conversation (a new one when none): at the clock, or at `at`. */
	async inbound(conversation: Conversation | undefined, at?: number, late = false): Promise<void> {
		const phone = conversation?.phone ?? `+4917055${String(this.conversations.length).padStart(5, '0')}`;
		const body = { phone, text: `Message ${this.messages.length}`, companyId: this.tenant.companyId, ...(at !== undefined && { createdAt: new Date(at).toISOString() }) };
		const { conversation: listed, message } = (await world().control('POST', '/__sandbox/messenger/inbound', body)) as { conversation: { id: string }; message: { id: string; createdAt: string } };
		const createdAt = Date.parse(message.createdAt);
		const known = conversation ?? { phone, id: listed.id, lastAt: createdAt };
		if (!conversation) {
			this.conversations.push(known);
			totals.conversations++;
		}
		known.lastAt = Math.max(known.lastAt, createdAt);
		this.messages.push({ id: message.id, conversationId: known.id, direction: 'inbound', createdAt });
		totals.inbound++;
		if (late) totals.lateInbound++;
	}

	/** An outbound text through the API (the conversation's window is open: it began with an inbound message). */
	async outbound(conversation: Conversation): Promise<void> {
		const sent = await world().api('POST', '/v4/messenger/messages', this.tenant.token, { body: { conversationId: conversation.id, type: 'text', text: 'Thanks, we will get back to you.' } });
		expect(sent.status).toBe(201);
		const createdAt = Date.parse(String(sent.body.createdAt));
		conversation.lastAt = Math.max(conversation.lastAt, createdAt);
		this.messages.push({ id: String(sent.body.id), conversationId: conversation.id, direction: 'outbound', createdAt });
		totals.outbound++;
	}

	/** The conversation of a draw, when there is any. */
	pick(index: number): Conversation | undefined {
		return this.conversations.length ? this.conversations[index % this.conversations.length] : undefined;
	}

	async run(step: Step): Promise<void> {
		switch (step.kind) {
			case 'inbound': {
				const now = await this.now();
				for (let i = 0; i < step.count; i++) await this.inbound(i < step.fresh ? undefined : this.pick(step.pick + i * 7919), step.shared ? now : now - i);
				return;
			}
			case 'outbound':
				for (let i = 0; i < step.count && this.conversations.length; i++) await this.outbound(this.pick(step.pick + i * 104_729)!);
				return;
			case 'late': {
				const now = await this.now();
				for (let i = 0; i < step.count; i++) await this.inbound(step.fresh ? undefined : this.pick(step.pick + i), now - step.lagMs + i, true);
				return;
			}
			case 'burst': {
				const now = await this.now();
				// One message each for `count` conversations (the existing ones from a drawn one on, then new ones), spread
				// over spreadMs: groups share a moment.
				const shift = step.pick % (this.conversations.length || 1);
				const existing = [...this.conversations.slice(shift), ...this.conversations.slice(0, shift)];
				const times = burstTimes(now, step.count, step.spreadMs);
				for (let i = 0; i < step.count; i++) await this.inbound(existing[i], times[i]);
				return;
			}
			case 'whilePaging':
				return await this.messagesWhilePaging(step);
			case 'failingPoll': {
				const faults = { firstPage: { path: CONVERSATIONS, after: 0 }, secondPage: { path: CONVERSATIONS, after: 1 }, messages: { path: `${CONVERSATIONS}/*`, after: step.after } };
				return await this.failingPoll(faults[step.request]);
			}
			case 'twice':
				// Dispatched twice on the same saved state: the first run is dropped, the second runs from that same state.
				await this.abandoned();
				await this.poll();
				return;
			default:
				return await this.runCommon(step);
		}
	}

	/**
	 * A backlog of more than a page of conversations with a new message (the oldest existing ones, then new ones; `tie`
	 * of them share each moment, so a group can lie across a page edge), aged;
	 * then, while the poll waits for the answer to its second list request, messages to conversations of the target: on
	 * the page still to come (they jump to the first page, read already), on the first page, older than the backlog, or
	 * new. Where a conversation stands is the list's order by the last message, as the test keeps it.
	 */
	async messagesWhilePaging(drawn: Extract<Step, { kind: 'whilePaging' }>): Promise<void> {
		const { backlog, reuse, tie, ageSeconds, target, direction, count, lagMs, abandon } = drawn;
		const start = await this.now();
		const reused = [...this.conversations].sort((a, b) => a.lastAt - b.lastAt).slice(0, Math.min(reuse, backlog));
		for (let i = 0; i < backlog; i++) await this.inbound(reused[i], start - Math.floor(i / tie) * 7);
		await world().control('POST', '/__sandbox/clock/advance', { seconds: ageSeconds });
		const byLast = [...this.conversations].sort((a, b) => b.lastAt - a.lastAt);
		const targets = {
			// The oldest of the backlog: a group of one moment at the page edge keeps its members.
			unread: byLast.slice(PAGE, backlog).slice(-count),
			read: byLast.slice(0, PAGE).filter((_, i) => i % 17 === 3).slice(0, count),
			old: byLast.slice(backlog).slice(0, count),
			new: [],
		}[target];
		if (abandon) totals.abandonedWhilePaging++;
		await this.whilePaging(
			CONVERSATIONS,
			async (paging) => {
				if (paging) totals.whilePaging++;
				if (paging && target === 'unread') totals.movedToReadPageWhilePaging += targets.length;
				const now = await this.now();
				if (target === 'new') {
					for (let i = 0; i < count; i++) await this.inbound(undefined, lagMs ? now - lagMs - i : undefined, lagMs > 0);
					return;
				}
				for (const [i, conversation] of targets.entries()) {
					if (direction === 'outbound') await this.outbound(conversation);
					else await this.inbound(conversation, lagMs ? now - lagMs - i : undefined, lagMs > 0);
				}
			},
			{ abandon },
		);
	}

	/**
	 * The truth, message by message. Measured, not asserted: what a history loses whose list shuffles ties and in which
	 * the trigger warned of a group of one moment that no page can hold (docs/triggers.md: some can be missed); nothing may be
	 * emitted twice or wrongly there either.
	 */
	check(order: ListOrder): void {
		const measureOnly = order === 'shuffledTies' && this.unreadableGroup;
		const known = new Set(this.messages.map((message) => message.id));
		const wrong: Array<{ id: string; conversationId: string; direction: string; createdAt: string; times: number; expected: number }> = [];
		for (const message of this.messages) {
			const times = this.emitted.get(message.id) ?? 0;
			const expected = message.direction === 'inbound' && message.createdAt > this.since ? 1 : 0;
			if (message.direction === 'inbound' && !expected) totals.inboundBeforeWatermark++;
			if (times === expected) continue;
			if (measureOnly && times < expected) {
				totals.lostInUnreadableShuffledGroups++;
				continue;
			}
			if (times > 1) totals.duplicated++;
			else if (times < expected) totals.lost++;
			else totals.foreign++;
			wrong.push({ id: message.id, conversationId: message.conversationId, direction: message.direction, createdAt: new Date(message.createdAt).toISOString(), times, expected });
		}
		const unknown = [...this.emitted.keys()].filter((id) => !known.has(id));
		totals.foreign += unknown.length;
		totals.emitted += this.emissions();
		expect({ wrong, unknown }).toEqual({ wrong: [], unknown: [] });
	}
}

test(`New Inbound Message, random histories (${RUNS}): every inbound message emitted exactly once, none lost, none repeated, the state under 2 KB`, async () => {
	await assertHistories(async (order) => await InboundHistory.start(order), listOrder, step, 14, RUNS, () => totals.histories++);
	console.log(`New Inbound Message property: ${JSON.stringify(totals)}`);
	expect(totals.histories).toBeGreaterThanOrEqual(RUNS);
	// The case of issue 23 was drawn: conversations with an unemitted message moved from the page still to come to the
	// page read already (at the default runs and more; a handful of runs may draw none).
	if (RUNS >= 60) expect(totals.movedToReadPageWhilePaging).toBeGreaterThan(0);
	expect(totals.lost).toBe(0);
	expect(totals.duplicated).toBe(0);
	expect(totals.foreign).toBe(0);
}, 10 * 60_000);

/**
 * A counterexample the property found (shuffled ties), as a fixed history: two conversations jump to the top while the
 * poll waits for its second page, so that page starts with records newer than the first page's last (the list moved
 * down by two); 40 conversations of one moment lie across the edge of the second and third pages, which the service
 * returns in a new order on each request. The sort was honoured: each inbound message comes out once, none is lost.
 */
test('New Inbound Message: 40 conversations of one moment across a page edge in a new order on each request, while two conversations jump to the top; each message once', async () => {
	const history = await InboundHistory.start('shuffledTies');
	await history.activate();
	await world().control('POST', '/__sandbox/clock/advance', { seconds: 5 });
	const now = await history.now();
	// Newest first: positions 0 to 179 one moment each, 180 to 219 one shared moment, 220 to 239 older ones.
	const at = (position: number) => (position < 180 ? now - position * 10 : position < 220 ? now - 1800 : now - 1800 - (position - 219) * 10);
	for (let position = 239; position >= 0; position--) await history.inbound(undefined, at(position));
	const byPosition = [...history.conversations].reverse();
	await world().control('POST', '/__sandbox/clock/advance', { seconds: 70 });
	await history.whilePaging(CONVERSATIONS, async (paging) => {
		expect(paging).toBe(true);
		for (const position of [150, 151]) await history.inbound(byPosition[position]);
	});
	await history.drain();
	expect(history.unreadableGroup).toBe(false);
	history.check('shuffledTies');
	expect([...history.emitted.values()].every((times) => times === 1)).toBe(true);
	expect(history.emitted.size).toBe(242);
	// The API sorted as asked: nothing says otherwise.
	expect(history.logs.filter((message) => message.includes('order asked for'))).toEqual([]);
});
