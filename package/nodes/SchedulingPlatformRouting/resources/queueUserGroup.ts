import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { clearSwitches } from '../../shared/clearSwitches';
import { declareResource } from '../../shared/declare';
import { locatorField, userLocator } from '../../shared/locators';
import type { OperationCall } from '../../shared/types';
import { queueLocator, queueUserGroupLocator } from '../locators';
import { changeMembership } from '../membership';

/**
 * Queue User Group (api-reference §7, Beta): hosts who take a booking together; the group is one member of its
 * queue and all its users must be free. Add Member and Remove Member read the group first and toggle only on a change.
 */

const GROUPS = '/v4/queue-user-group';
const GROUP = `${GROUPS}/{id}`;
const groupPath = { id: 'groupId' };

const memberMembership = {
	current: async (call: OperationCall) => (await call.send({ method: 'GET', path: GROUP, pathParams: call.request.pathParams })) as IDataObject,
	toggle: (call: OperationCall, userId: string) => ({ method: 'PATCH' as const, path: GROUP, pathParams: call.request.pathParams, body: { userId } }),
	members: (group: IDataObject) => (group.userIds ?? []) as string[],
};

const mainHostSwitch = clearSwitches([{ key: 'mainGroupHostId', field: 'updateFields.mainGroupHostId', flag: 'updateFields.clearMainHost' }]);
const member = { userId: { param: 'userId', check: ['required' as const, 'uuid' as const] } };

const queue: INodeProperties = { displayName: 'Queue', name: 'queueId', type: 'resourceLocator', required: true, default: { mode: 'list', value: '' }, description: 'The queue the group joins as one member', ...queueLocator };
const name: INodeProperties = { displayName: 'Name', name: 'name', type: 'string', required: true, default: '', placeholder: 'e.g. Enterprise pair', description: 'The group\'s name' };

const group: INodeProperties = { ...locatorField('Group', 'groupId', 'The group to use (the list shows the groups of every queue)', queueUserGroupLocator), required: true };

const user: INodeProperties = { displayName: 'User', name: 'userId', type: 'resourceLocator', required: true, default: { mode: 'list', value: '' }, description: 'The member to add or remove', ...userLocator };

const updateFields: INodeProperties = {
	displayName: 'Update Fields',
	name: 'updateFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [
		{ displayName: 'Capacity', name: 'capacity', type: 'number', typeOptions: { minValue: 1, maxValue: 100, numberPrecision: 0 }, default: 1, description: 'The group\'s share in Advanced Round Robin' },
		{ displayName: 'Clear Main Host', name: 'clearMainHost', type: 'boolean', default: false, description: 'Whether to remove the main host (the first member then hosts)' },
		{ displayName: 'Main Host ID', name: 'mainGroupHostId', type: 'string', default: '', placeholder: 'e.g. 6f1c2a7e-1b2c-4d5e-8f90-123456789abc', description: 'The member who hosts the group\'s bookings (must be a member)' },
		{ displayName: 'Name', name: 'name', type: 'string', default: '', description: 'The group\'s name' },
	],
};

export const { definitions: queueUserGroupOperations, properties: queueUserGroupProperties } = declareResource('queueUserGroup', {
	default: 'create',
	operations: {
		addMember: {
			option: {
				name: 'Add Member',
				description: 'Needs the group and the user (nothing is sent when they are in it); returns the group with the outcome',
				action: 'Add a member to a queue user group',
			},
			method: 'PATCH',
			path: GROUP,
			pathParams: groupPath,
			values: member,
			perform: changeMembership(memberMembership, 'add'),
			fields: [group, user],
		},
		create: {
			option: { name: 'Create', description: 'Needs the queue and Name; returns the group', action: 'Create a queue user group' },
			method: 'POST',
			path: GROUPS,
			body: { queueId: 'queueId', name: { param: 'name', check: ['required', { maxLength: 200 }] } },
			fields: [queue, name],
		},
		delete: {
			option: { name: 'Delete', description: 'Needs the group; returns { deleted: true }', action: 'Delete a queue user group' },
			method: 'DELETE',
			path: GROUP,
			pathParams: groupPath,
			fields: [group],
		},
		get: {
			option: { name: 'Get', description: 'Needs the group ID; returns the group with its members', action: 'Get a queue user group by ID' },
			method: 'GET',
			path: GROUP,
			pathParams: groupPath,
			fields: [group],
		},
		removeMember: {
			option: {
				name: 'Remove Member',
				description: 'Needs the group and the user (nothing is sent when they are not in it); returns the group with the outcome',
				action: 'Remove a member from a queue user group',
			},
			method: 'PATCH',
			path: GROUP,
			pathParams: groupPath,
			values: member,
			perform: changeMembership(memberMembership, 'remove'),
			fields: [group, user],
		},
		update: {
			option: { name: 'Update', description: 'Needs the group and a new name, capacity or main host; returns the group', action: 'Update a queue user group' },
			method: 'PATCH',
			path: GROUP,
			pathParams: groupPath,
			body: { name: { param: 'updateFields.name', check: { maxLength: 200 } }, capacity: 'updateFields.capacity', mainGroupHostId: { param: 'updateFields.mainGroupHostId', check: 'uuid' } },
			check: (request, call) => mainHostSwitch.check(request, call) ?? (Object.keys(request.body ?? {}).length || call.read('updateFields.clearMainHost') === true ? undefined : 'Add at least one field to change'),
			prepare: mainHostSwitch.prepare,
			fields: [group, updateFields],
		},
	},
});
