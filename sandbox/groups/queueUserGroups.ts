import { randomUUID } from 'node:crypto';
import { apiError } from '../errors';
import { Call, Group } from '../handler';
import { groupAnswer, QueueUserGroup, queueState, routingOf } from '../routing';
import { companyUser } from '../visibility';

/** Queue User Group V4 (Beta, api-reference §7): a group is one member of its queue; its users must all be free. */

function tenantGroup({ store, actor, params }: Call): QueueUserGroup {
	const group = routingOf(store).groups.get(params.id);
	const owner = group && routingOf(store).queues.get(group.queueId)?.queue.companyId;
	if (!group || owner !== actor.company.id) throw apiError(404, 'Queue user group not found');
	return group;
}

function create({ store, actor, body }: Call) {
	const { queue } = queueState(store, actor.company.id, body.queueId as string);
	const now = store.clock.iso();
	const group: QueueUserGroup = { id: randomUUID(), name: body.name as string, queueId: queue.id, userIds: [], capacity: 1, mainGroupHostId: null, createdAt: now, updatedAt: now };
	routingOf(store).groups.set(group.id, group);
	queue.userGroupIds.push(group.id);
	return groupAnswer(store, group);
}

function update(call: Call) {
	const { store, actor, body } = call;
	const group = tenantGroup(call);
	if (typeof body.userId === 'string') {
		const user = companyUser(store, actor, body.userId);
		const present = group.userIds.includes(user.id);
		group.userIds = present ? group.userIds.filter((id) => id !== user.id) : [...group.userIds, user.id];
		if (present && group.mainGroupHostId === user.id) group.mainGroupHostId = null;
	}
	if (body.mainGroupHostId !== undefined) {
		if (body.mainGroupHostId !== null && !group.userIds.includes(body.mainGroupHostId as string)) throw apiError(400, ['mainGroupHostId must be a member of the group']);
		group.mainGroupHostId = body.mainGroupHostId as string | null;
	}
	if (body.name !== undefined) group.name = body.name as string;
	if (body.capacity !== undefined) group.capacity = body.capacity as number;
	group.updatedAt = store.clock.iso();
	return groupAnswer(store, group);
}

function remove(call: Call): void {
	const group = tenantGroup(call);
	const routing = routingOf(call.store);
	const state = routing.queues.get(group.queueId)!;
	state.queue.userGroupIds = state.queue.userGroupIds.filter((id) => id !== group.id);
	routing.groups.delete(group.id);
}

export const queueUserGroups: Group = {
	createQueueUserGroup: create,
	getQueueUserGroup: (call) => groupAnswer(call.store, tenantGroup(call)),
	updateQueueUserGroup: update,
	deleteQueueUserGroup: remove,
};
