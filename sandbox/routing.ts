import { randomUUID } from 'node:crypto';
import { DateTime } from 'luxon';
import { apiError } from './errors';
import { isSlotOpen } from './slots';
import { MeetingType, perStore, Store, User } from './store';

/**
 * Routing (api-reference §7, Beta): the queue of a meeting type, its groups, and how a booking through the queue
 * picks its host (designed, for the sandbox). A member is a user or a group; a group counts as one member whose
 * users must all be free, hosted by its main host (else its first user).
 * Priority first (known, api-reference §7): among the members free for the slot, a higher `userPriorities` value (1–3,
 * 3 the highest) is booked first, members without one (groups too) last; among equal priorities the type's own order:
 * - simpleRoundRobin: members in turn (the order they joined), the next free one after the last pick;
 * - equalDistribution: the free member with the fewest picks in the distribution period (day, week, month of the
 *   sandbox clock, UTC), ties by turn;
 * - advancedRoundRobin: smooth weighted round robin on the capacities (a group's own capacity): each pick adds every
 *   member's capacity to its credit and takes the free member with the most, which then pays the total; over N
 *   picks each member gets N × capacity / total (within one pick), ties by turn.
 * Every pick appends a roundRobinEntries row with its selectionReason.
 */

export type QueueType = 'simpleRoundRobin' | 'advancedRoundRobin' | 'equalDistribution';

export interface RoundRobinEntry {
	id: number;
	createdAt: string;
	userId: string;
	groupId: string | null;
	appointmentId: string;
	queueId: string;
	selectionReason: string;
}

export interface Queue {
	id: string;
	type: QueueType;
	meetingTypeId: string;
	companyId: string;
	workspaceId: string | null;
	userCapacities: Array<{ userId: string; capacity: number }>;
	userPriorities: Array<{ userId: string; priority: number }>;
	userCustomLinks: Array<{ userId: string; link: string }>;
	maxLeadThreshold: number | null;
	distributionPeriod: 'day' | 'week' | 'month';
	prioritizeNearTermAvailability: boolean;
	roundRobinEntries: RoundRobinEntry[];
	userIds: string[];
	userGroupIds: string[];
	createdAt: string;
	updatedAt: string;
}

export interface QueueUserGroup {
	id: string;
	name: string;
	queueId: string;
	userIds: string[];
	capacity: number;
	mainGroupHostId: string | null;
	createdAt: string;
	updatedAt: string;
}

/** What a queue keeps besides its answer: whose turn it is and the weighted round robin's credits. */
interface QueueState {
	queue: Queue;
	/** The member after the last pick (simple round robin). */
	turn: number;
	/** Credits of the smooth weighted round robin, by member key. */
	credits: Map<string, number>;
}

export interface RoutingState {
	queues: Map<string, QueueState>;
	groups: Map<string, QueueUserGroup>;
	nextEntryId: number;
}

export const routingOf = perStore<RoutingState>(() => ({ queues: new Map(), groups: new Map(), nextEntryId: 1 }));

/** A member of a queue: `u:<userId>` or `g:<groupId>`, in the order they joined (users, then groups). */
export interface Member {
	key: string;
	userId: string | null;
	groupId: string | null;
}

export function membersOf(queue: Queue): Member[] {
	return [
		...queue.userIds.map((userId) => ({ key: `u:${userId}`, userId, groupId: null })),
		...queue.userGroupIds.map((groupId) => ({ key: `g:${groupId}`, userId: null, groupId })),
	];
}

/** The users who host for a member: the user, or every user of the group (the main host first). */
export function hostsOf(store: Store, member: Member): string[] {
	if (member.userId) return [member.userId];
	const group = routingOf(store).groups.get(member.groupId!);
	if (!group) return [];
	const main = group.mainGroupHostId;
	return main ? [main, ...group.userIds.filter((id) => id !== main)] : [...group.userIds];
}

function capacityOf(store: Store, queue: Queue, member: Member): number {
	if (member.groupId) return routingOf(store).groups.get(member.groupId)?.capacity ?? 1;
	return queue.userCapacities.find((entry) => entry.userId === member.userId)?.capacity ?? 1;
}

/** A member's priority, 1 to 3 (3 booked first); 0 for a member without one (booked last). */
function priorityOf(queue: Queue, member: Member): number {
	return queue.userPriorities.find((entry) => entry.userId === member.userId)?.priority ?? 0;
}

/** A pick's reason: with priorities set, the priority decided first and the type's order after it. */
function reasonOf(queue: Queue, member: Member, reason: string): string {
	if (!queue.userPriorities.length) return reason;
	return `Priority ${priorityOf(queue, member) || 'none'}, then ${reason.charAt(0).toLowerCase()}${reason.slice(1)}`;
}

function periodStart(queue: Queue, now: number): string {
	const unit = queue.distributionPeriod;
	return DateTime.fromMillis(now, { zone: 'utc' }).startOf(unit === 'week' ? 'week' : unit).toISO()!;
}

function picksInPeriod(queue: Queue, member: Member, since: string): number {
	return queue.roundRobinEntries.filter((entry) => entry.createdAt >= since && (member.groupId ? entry.groupId === member.groupId : entry.userId === member.userId && !entry.groupId)).length;
}

/** A ranked member with the reason it would be picked. */
interface Ranked {
	member: Member;
	reason: string;
}

/** Every member in the order the next booking tries them, with why; `credits` and `turn` as they stand. */
function ranking(store: Store, state: QueueState, credits: Map<string, number>, turn: number, counts: Map<string, number>): Ranked[] {
	const { queue } = state;
	const members = membersOf(queue);
	if (!members.length) return [];
	const position = (member: Member) => (members.indexOf(member) - turn + members.length) % members.length;
	const ranked = (order: (a: Member, b: Member) => number, reason: (member: Member) => string): Ranked[] =>
		[...members]
			.sort((a, b) => priorityOf(queue, b) - priorityOf(queue, a) || order(a, b) || position(a) - position(b))
			.map((member) => ({ member, reason: reasonOf(queue, member, reason(member)) }));
	if (queue.type === 'simpleRoundRobin') return ranked(() => 0, () => 'Next in turn (simple round robin)');
	if (queue.type === 'equalDistribution') {
		const count = (member: Member) => counts.get(member.key) ?? 0;
		return ranked((a, b) => count(a) - count(b), (member) => `Fewest bookings this ${queue.distributionPeriod} (${count(member)})`);
	}
	const total = members.reduce((sum, member) => sum + capacityOf(store, queue, member), 0);
	const credit = (member: Member) => (credits.get(member.key) ?? 0) + capacityOf(store, queue, member);
	return ranked((a, b) => credit(b) - credit(a), (member) => `Weighted turn: capacity ${capacityOf(store, queue, member)} of ${total}`);
}

/** The picks in the current distribution period, by member key. */
function periodCounts(store: Store, queue: Queue): Map<string, number> {
	const since = periodStart(queue, store.clock.now());
	return new Map(membersOf(queue).map((member) => [member.key, picksInPeriod(queue, member, since)]));
}

/** Moves the turn and the credits past a pick of this member. */
function advance(store: Store, queue: Queue, credits: Map<string, number>, picked: Member): number {
	const members = membersOf(queue);
	const total = members.reduce((sum, member) => sum + capacityOf(store, queue, member), 0);
	for (const member of members) credits.set(member.key, (credits.get(member.key) ?? 0) + capacityOf(store, queue, member));
	credits.set(picked.key, (credits.get(picked.key) ?? 0) - total);
	return (members.findIndex((member) => member.key === picked.key) + 1) % members.length;
}

/** The next `count` picks if every host were free (Get Next Hosts), without changing the queue. */
export function nextHosts(store: Store, state: QueueState, count = 10): Array<{ userId: string | null; groupId: string | null; selectionReason: string }> {
	const credits = new Map(state.credits);
	const counts = periodCounts(store, state.queue);
	let turn = state.turn;
	const picks = [];
	for (let index = 0; index < count; index++) {
		const [first] = ranking(store, state, credits, turn, counts);
		if (!first) break;
		picks.push({ userId: hostsOf(store, first.member)[0] ?? null, groupId: first.member.groupId, selectionReason: first.reason });
		counts.set(first.member.key, (counts.get(first.member.key) ?? 0) + 1);
		turn = advance(store, state.queue, credits, first.member);
	}
	return picks;
}

export interface QueuePick {
	member: Member;
	hostIds: string[];
	reason: string;
}

/** The member that takes a booking at this start: the first in the ranking whose hosts are all free; none: undefined. */
export function pickHost(store: Store, state: QueueState, meetingType: MeetingType, start: string, duration: number): QueuePick | undefined {
	const ranked = ranking(store, state, state.credits, state.turn, periodCounts(store, state.queue));
	for (const [index, { member, reason }] of ranked.entries()) {
		const hostIds = hostsOf(store, member);
		const free = hostIds.length > 0 && hostIds.every((hostId) => isSlotOpen(store, { meetingType, hostIds: [hostId], start, duration }));
		if (free) return { member, hostIds, reason: index === 0 ? reason : `${reason}; the ones before were busy` };
	}
	return undefined;
}

/** Records a pick: the entry with its reason, the turn and the credits moved on. */
export function recordPick(store: Store, state: QueueState, pick: QueuePick, appointmentId: string): void {
	const routing = routingOf(store);
	state.queue.roundRobinEntries.push({
		id: routing.nextEntryId++,
		createdAt: store.clock.iso(),
		userId: pick.hostIds[0],
		groupId: pick.member.groupId,
		appointmentId,
		queueId: state.queue.id,
		selectionReason: pick.reason,
	});
	state.turn = advance(store, state.queue, state.credits, pick.member);
}

/** The queue of a meeting type, made on first use (designed: the reference has no create). */
export function queueOfMeetingType(store: Store, meetingType: MeetingType): QueueState {
	const routing = routingOf(store);
	const existing = meetingType.queueId ? routing.queues.get(meetingType.queueId) : undefined;
	if (existing) return existing;
	const now = store.clock.iso();
	const queue: Queue = {
		id: randomUUID(),
		type: 'simpleRoundRobin',
		meetingTypeId: meetingType.id,
		companyId: meetingType.companyId,
		workspaceId: store.workspaces.get(meetingType.id) ?? null,
		userCapacities: [],
		userPriorities: [],
		userCustomLinks: [],
		maxLeadThreshold: null,
		distributionPeriod: 'month',
		prioritizeNearTermAvailability: false,
		roundRobinEntries: [],
		userIds: [],
		userGroupIds: [],
		createdAt: now,
		updatedAt: now,
	};
	const state: QueueState = { queue, turn: 0, credits: new Map() };
	routing.queues.set(queue.id, state);
	meetingType.queueId = queue.id;
	return state;
}

export function queueState(store: Store, companyId: string, queueId: string): QueueState {
	const state = routingOf(store).queues.get(queueId);
	if (!state || state.queue.companyId !== companyId) throw apiError(404, 'Queue not found');
	return state;
}

/** A user as queues and provisional bookings show them. */
export const userSummary = (user: User) => ({ id: user.id, givenName: user.givenName, familyName: user.familyName, slug: user.slug, userType: user.userType, picture: user.picture });

/** A group as answered, with its users' summaries. */
export function groupAnswer(store: Store, group: QueueUserGroup) {
	return { ...group, users: group.userIds.map((id) => store.users.get(id)).filter((user): user is User => Boolean(user)).map(userSummary) };
}

/** A queue as answered: its users and groups spelled out (api-spec Queue; a group's `name` is designed). */
export function queueAnswer(store: Store, queue: Queue) {
	const groups = queue.userGroupIds.map((id) => routingOf(store).groups.get(id)).filter((group): group is QueueUserGroup => Boolean(group));
	const users = queue.userIds.map((id) => store.users.get(id)).filter((user): user is User => Boolean(user));
	return { ...queue, users: users.map(userSummary), userGroups: groups.map((group) => ({ id: group.id, name: group.name, userIds: group.userIds, users: groupAnswer(store, group).users })) };
}
