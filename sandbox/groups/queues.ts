import { apiError } from '../errors';
import { Call, Group } from '../handler';
import { nextHosts, Queue, queueAnswer, queueOfMeetingType, queueState, routingOf } from '../routing';
import { companyMeetingType, companyUser } from '../visibility';

/** Queue V4 (Beta, api-reference §7): the queue of a meeting type and its hosts; picking lives in routing.ts. */

type HostList = 'userCapacities' | 'userPriorities' | 'userCustomLinks';

/** The user's hosts lists without the user (when they leave the queue). */
function withoutUser(queue: Queue, userId: string): void {
	for (const list of ['userCapacities', 'userPriorities', 'userCustomLinks'] as HostList[]) {
		(queue[list] as Array<{ userId: string }>) = (queue[list] as Array<{ userId: string }>).filter((entry) => entry.userId !== userId);
	}
}

function update(call: Call) {
	const { store, actor, params, body } = call;
	const meetingType = companyMeetingType(store, actor, params.meetingTypeId);
	const { queue } = queueOfMeetingType(store, meetingType);
	if (typeof body.userId === 'string') {
		const user = companyUser(store, actor, body.userId);
		const present = queue.userIds.includes(user.id);
		queue.userIds = present ? queue.userIds.filter((id) => id !== user.id) : [...queue.userIds, user.id];
		if (present) withoutUser(queue, user.id);
	}
	for (const list of ['userCapacities', 'userPriorities', 'userCustomLinks'] as HostList[]) {
		const entries = body[list] as Array<{ userId: string }> | undefined;
		if (!entries) continue;
		const stranger = entries.findIndex((entry) => !queue.userIds.includes(entry.userId));
		if (stranger >= 0) throw apiError(400, [`${list}.${stranger}.userId is not a host of this queue`]);
		(queue[list] as Array<{ userId: string }>) = entries;
	}
	for (const key of ['type', 'maxLeadThreshold', 'distributionPeriod', 'prioritizeNearTermAvailability'] as const) {
		if (body[key] !== undefined) (queue as unknown as Record<string, unknown>)[key] = body[key];
	}
	queue.updatedAt = store.clock.iso();
	return queueAnswer(store, queue);
}

function companyQueues(call: Call): Queue[] {
	return [...routingOf(call.store).queues.values()].map((state) => state.queue).filter((queue) => queue.companyId === call.actor.company.id);
}

export const queues: Group = {
	listCompanyQueues: (call) => companyQueues(call).map((queue) => queueAnswer(call.store, queue)),
	listWorkspaceQueues: (call) => companyQueues(call).filter((queue) => call.store.workspaces.get(queue.meetingTypeId) === call.params.workspaceId).map((queue) => queueAnswer(call.store, queue)),
	getQueue: ({ store, actor, params }) => queueAnswer(store, queueState(store, actor.company.id, params.queueId).queue),
	getNextHosts: ({ store, actor, params }) => ({ nextHosts: nextHosts(store, queueState(store, actor.company.id, params.queueId)) }),
	updateQueueSettings: update,
};
