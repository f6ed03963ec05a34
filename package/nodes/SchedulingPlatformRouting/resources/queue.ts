import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { declareResource } from '../../shared/declare';
import { returnAllFields } from '../../shared/getMany';
import { InputProblem, inputProblem } from '../../shared/inputChecks';
import { locatorField, userLocator } from '../../shared/locators';
import type { Converter, OperationCall } from '../../shared/types';
import { queueLocator } from '../locators';
import { changeMembership } from '../membership';
import { meetingTypeLocator } from '../../SchedulingPlatform/records';

/**
 * Queue (api-reference §7, Beta): the round-robin queue of a meeting type. Settings go to the meeting type's queue
 * (`PATCH /v4/queue/meeting-type/{id}`); Add Host and Remove Host read the queue first and send the API's toggle only
 * when it changes something (membership.ts). Get Next Hosts puts out one item per upcoming pick.
 */

const QUEUE = '/v4/queue/{queueId}';
const OF_MEETING_TYPE = '/v4/queue/meeting-type/{meetingTypeId}';
const meetingTypePath = { meetingTypeId: 'meetingTypeId' };

/** The queue of the meeting type as it is now, or undefined when the meeting type has none yet. */
async function queueOfMeetingType(call: OperationCall): Promise<IDataObject | undefined> {
	const meetingTypeId = String(call.request.pathParams!.meetingTypeId);
	const meetingType = (await call.lookup({ method: 'GET', path: '/v4/meeting-type/{id}', pathParams: { id: meetingTypeId } })) as IDataObject;
	if (!meetingType.queueId) return undefined;
	return (await call.send({ method: 'GET', path: QUEUE, pathParams: { queueId: String(meetingType.queueId) } })) as IDataObject;
}

const hostMembership = {
	current: queueOfMeetingType,
	toggle: (call: OperationCall, userId: string) => ({ method: 'PATCH' as const, path: OF_MEETING_TYPE, pathParams: call.request.pathParams, body: { userId } }),
	members: (queue: IDataObject) => (queue.userIds ?? []) as string[],
	empty: (call: OperationCall) => ({ meetingTypeId: call.request.pathParams!.meetingTypeId, userIds: [] }),
};

interface Row {
	userId?: unknown;
	capacity?: unknown;
	priority?: unknown;
	link?: unknown;
}

/** Rows of a per-host list: each names a host once; `value` is the row's other field, checked. */
function hostRows(list: string, valueKey: 'capacity' | 'priority' | 'link'): Converter {
	return (value) => {
		const rows = ((value as IDataObject)[list] ?? []) as Row[];
		const seen = new Set<string>();
		return rows.map((row, index) => {
			const userId = String(row.userId ?? '').trim();
			if (!userId) throw new InputProblem(`need a host in row ${index + 1}`);
			if (seen.has(userId)) throw new InputProblem(`name each host once; row ${index + 1} repeats ${userId}`);
			seen.add(userId);
			// An empty link is allowed: the host then meets at the meeting type's own custom link.
			if (valueKey === 'link' && inputProblem('url', row.link)) {
				throw new InputProblem(`need a Meeting Link in row ${index + 1} that is empty or a web address starting with https:// or http://`);
			}
			return { userId, [valueKey]: row[valueKey] };
		});
	};
}

/** How a queue picks the host of a booking (`type`; a team template's `queueType`). */
export const queueTypeOptions = [
	{ name: 'Advanced Round Robin', value: 'advancedRoundRobin', description: 'In turn, weighted by the hosts\' capacities' },
	{ name: 'Equal Distribution', value: 'equalDistribution', description: 'The host with the fewest bookings in the period' },
	{ name: 'Simple Round Robin', value: 'simpleRoundRobin', description: 'Each host in turn' },
];

const hostField: INodeProperties = {
	displayName: 'Host Name or ID',
	name: 'userId',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getUsers' },
	default: '',
	description: 'A host of the queue. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

const perHost = (displayName: string, name: string, value: INodeProperties): INodeProperties => ({
	displayName,
	name,
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Host',
	default: {},
	description: 'Replaces the whole list; hosts must be in the queue',
	options: [{ displayName: 'Host', name: name === 'userCapacities' ? 'capacity' : name === 'userPriorities' ? 'priority' : 'link', values: [hostField, value] }],
});

const meetingType: INodeProperties = { ...locatorField('Meeting Type', 'meetingTypeId', 'The meeting type whose queue to change (its queue is made on first use)', meetingTypeLocator), required: true };

const user: INodeProperties = { displayName: 'User', name: 'userId', type: 'resourceLocator', required: true, default: { mode: 'list', value: '' }, description: 'The host to add or remove', ...userLocator };
const queue: INodeProperties = { displayName: 'Queue', name: 'queueId', type: 'resourceLocator', required: true, default: { mode: 'list', value: '' }, description: 'The queue to read', ...queueLocator };

const scope: INodeProperties = {
	displayName: 'Scope',
	name: 'scope',
	type: 'options',
	options: [
		{ name: 'Company', value: 'company', description: 'Every queue of the company' },
		{ name: 'Workspace', value: 'workspace', description: 'The queues of one workspace' },
	],
	default: 'company',
	description: 'Which queues to list',
};

const workspaceId: INodeProperties = { displayName: 'Workspace ID', name: 'workspaceId', type: 'string', required: true, default: '', displayOptions: { show: { scope: ['workspace'] } }, description: 'The workspace whose queues to list' };

const settings: INodeProperties = {
	displayName: 'Settings',
	name: 'settings',
	type: 'collection',
	placeholder: 'Add Setting',
	default: {},
	options: [
		{ displayName: 'Distribution Period', name: 'distributionPeriod', type: 'options', options: [{ name: 'Day', value: 'day' }, { name: 'Month', value: 'month' }, { name: 'Week', value: 'week' }], default: 'month', description: 'The period Equal Distribution counts bookings in' },
		perHost('Host Capacities', 'userCapacities', { displayName: 'Capacity', name: 'capacity', type: 'number', typeOptions: { minValue: 1, maxValue: 100, numberPrecision: 0 }, default: 1, description: 'The host\'s share in Advanced Round Robin (2 takes twice as many as 1)' }),
		perHost('Host Custom Meeting Links', 'userCustomLinks', {
			displayName: 'Meeting Link',
			name: 'link',
			type: 'string',
			default: '',
			placeholder: 'e.g. https://zoom.us/j/1234567890',
			description: 'Where this host\'s meetings take place (their own video room, for example), instead of the meeting type\'s custom meeting link; not a booking page. Empty: the meeting type\'s link.',
		}),
		perHost('Host Priorities', 'userPriorities', {
			displayName: 'Priority',
			name: 'priority',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 3, numberPrecision: 0 },
			default: 2,
			description: 'Who is booked first among the hosts free for a slot: 1 to 3 (the stars in the app), 3 the highest. Hosts without a priority come last.',
		}),
		{ displayName: 'Max Lead Threshold', name: 'maxLeadThreshold', type: 'number', typeOptions: { minValue: 1, numberPrecision: 0 }, default: 1, description: 'How many bookings a host may lead the others by' },
		{ displayName: 'Prioritize Near-Term Availability', name: 'prioritizeNearTermAvailability', type: 'boolean', default: false, description: 'Whether hosts free sooner are preferred' },
		{
			displayName: 'Type',
			name: 'type',
			type: 'options',
			options: queueTypeOptions,
			default: 'simpleRoundRobin',
			description: 'How the queue picks the host of a booking',
		},
	],
};

export const { definitions: queueOperations, properties: queueProperties } = declareResource('queue', {
	default: 'getAll',
	operations: {
		addHost: {
			option: {
				name: 'Add Host',
				description: 'Needs the meeting type and the user (nothing is sent when they are in it); returns the queue with the outcome',
				action: 'Add a host to a queue',
			},
			method: 'PATCH',
			path: OF_MEETING_TYPE,
			pathParams: meetingTypePath,
			values: { userId: { param: 'userId', check: ['required', 'uuid'] } },
			perform: changeMembership(hostMembership, 'add'),
			fields: [meetingType, user],
		},
		get: {
			option: { name: 'Get', description: 'Needs the queue ID; returns it with its hosts, groups and picks', action: 'Get a queue by ID' },
			method: 'GET',
			path: QUEUE,
			pathParams: { queueId: 'queueId' },
			fields: [queue],
		},
		getAll: {
			option: { name: 'Get Many', description: 'Needs the scope: the company or a workspace; returns one item per queue', action: 'Get many queues' },
			method: 'GET',
			// The company's queues, or a workspace's: the Workspace ID goes through pathParams like every other path ID.
			path: (input) => (input.read('scope') === 'workspace' ? '/v4/queue/workspace/{workspaceId}' : '/v4/queue/company'),
			pathParams: { workspaceId: 'workspaceId' },
			pagination: { style: 'none' },
			fields: [scope, workspaceId, ...returnAllFields()],
		},
		getNextHosts: {
			option: { name: 'Get Next Hosts', description: 'Needs the queue; returns one item per upcoming pick, in order', action: 'Get the next hosts of a queue' },
			method: 'GET',
			path: `${QUEUE}/next`,
			pathParams: { queueId: 'queueId' },
			output: (answer) => (((answer as IDataObject).nextHosts ?? []) as IDataObject[]).map((host, index) => ({ position: index + 1, ...host })),
			fields: [queue],
		},
		removeHost: {
			option: {
				name: 'Remove Host',
				description: 'Needs the meeting type and the user (nothing is sent when they are not in it); returns the queue with the outcome',
				action: 'Remove a host from a queue',
			},
			method: 'PATCH',
			path: OF_MEETING_TYPE,
			pathParams: meetingTypePath,
			values: { userId: { param: 'userId', check: ['required', 'uuid'] } },
			perform: changeMembership(hostMembership, 'remove'),
			fields: [meetingType, user],
		},
		updateSettings: {
			option: { name: 'Update Settings', description: 'Needs the meeting type and the settings to change; returns the queue', action: 'Update the settings of a queue' },
			method: 'PATCH',
			path: OF_MEETING_TYPE,
			pathParams: meetingTypePath,
			body: {
				type: 'settings.type',
				userCapacities: { param: 'settings.userCapacities', convert: hostRows('capacity', 'capacity') },
				userPriorities: { param: 'settings.userPriorities', convert: hostRows('priority', 'priority') },
				userCustomLinks: { param: 'settings.userCustomLinks', convert: hostRows('link', 'link') },
				maxLeadThreshold: 'settings.maxLeadThreshold',
				distributionPeriod: 'settings.distributionPeriod',
				prioritizeNearTermAvailability: 'settings.prioritizeNearTermAvailability',
			},
			check: (request) => (Object.keys(request.body ?? {}).length ? undefined : 'Add at least one setting to change'),
			fields: [meetingType, settings],
		},
	},
});
