import type { INodeProperties } from 'n8n-workflow';

import { byName } from '../../shared/fields';
import { declareResource } from '../../shared/declare';
import { returnAllFields } from '../../shared/getMany';
import { dateTime } from '../../shared/dates';
import { userLocator } from '../../shared/locators';
import { taskLocator } from '../locators';
import { companyLocator, contactOrEmailLocator, dealLocator } from '../records';

/**
 * Task (api-reference §3 Tasks): to-dos on the CRM, optionally linked to a contact, deal and company. Create needs
 * a title, a type and a due date; Update changes the fields only; Complete and Reopen change the state. Dates
 * without an offset are read in the workflow's time zone.
 */

const taskPath = '/crm/tasks/{id}';
const taskId = { id: 'taskId' };

/** Type and due date: fields of their own on Create (required), under Update Fields on Update. */
const typeAndDueDate = (prefix: string) => ({ type: `${prefix}type`, dueDate: { param: `${prefix}dueDate`, convert: dateTime() } });

/** Body key → field of a collection (Additional Fields or Update Fields), the same fields in both. */
function taskBody(collection: string) {
	return {
		description: `${collection}.description`,
		priority: `${collection}.priority`,
		reminderAt: { param: `${collection}.reminderAt`, convert: dateTime() },
		assigneeId: `${collection}.assigneeId`,
		contactId: `${collection}.contactId`,
		dealId: `${collection}.dealId`,
		crmCompanyId: `${collection}.crmCompanyId`,
	};
}

const locatorDefault = { mode: 'list', value: '' };

/** The fields of a task besides its title, type and due date, for Additional Fields and Update Fields (sorted by name). */
const taskFields: INodeProperties[] = [
	{ displayName: 'Assignee', name: 'assigneeId', type: 'resourceLocator', default: locatorDefault, description: 'The user who should do the task (left out on create: the acting user)', ...userLocator },
	{ displayName: 'Company', name: 'crmCompanyId', type: 'resourceLocator', default: locatorDefault, description: 'The company the task is about', ...companyLocator },
	{ displayName: 'Contact', name: 'contactId', type: 'resourceLocator', default: locatorDefault, description: 'The contact the task is about', ...contactOrEmailLocator },
	{ displayName: 'Deal', name: 'dealId', type: 'resourceLocator', default: locatorDefault, description: 'The deal the task is about', ...dealLocator },
	{ displayName: 'Description', name: 'description', type: 'string', typeOptions: { rows: 3 }, default: '', description: 'Details of what to do' },
	{
		displayName: 'Priority',
		name: 'priority',
		type: 'options',
		options: [
			{ name: 'High', value: 'high' },
			{ name: 'Low', value: 'low' },
			{ name: 'Medium', value: 'medium' },
		],
		default: 'medium',
		description: 'How urgent the task is (new tasks: Medium)',
	},
	{ displayName: 'Reminder At', name: 'reminderAt', type: 'dateTime', default: '', description: 'When to remind the assignee' },
];

const TASK_TYPES = [
	{ name: 'Call', value: 'call' },
	{ name: 'Email', value: 'email' },
	{ name: 'Follow Up', value: 'follow_up' },
	{ name: 'Meeting', value: 'meeting' },
	{ name: 'To Do', value: 'todo' },
];

const typeField: INodeProperties = { displayName: 'Type', name: 'type', type: 'options', options: TASK_TYPES, default: 'todo', description: 'What kind of task it is' };
const dueDateField: INodeProperties = {
	displayName: 'Due Date',
	name: 'dueDate',
	type: 'dateTime',
	default: '',
	description: 'When the task is due. Without an offset, the time is read in the workflow\'s time zone.',
};
const titleField: INodeProperties = { displayName: 'Title', name: 'title', type: 'string', default: '', description: 'What to do' };

const taskField: INodeProperties = {
	displayName: 'Task',
	name: 'taskId',
	type: 'resourceLocator',
	default: locatorDefault,
	required: true,
	description: 'The task to use',
	...taskLocator,
};

const additionalFields: INodeProperties = {
	displayName: 'Additional Fields',
	name: 'additionalFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: taskFields,
};

const updateFields: INodeProperties = {
	displayName: 'Update Fields',
	name: 'updateFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: byName([...taskFields, dueDateField, titleField, typeField]),
};

const days: INodeProperties = {
	displayName: 'Days Ahead',
	name: 'days',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 365, numberPrecision: 0 },
	default: 7,
	description: 'How many days from now to look ahead',
};

const filters: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options: [
		{ displayName: 'Assignee', name: 'assigneeId', type: 'resourceLocator', default: locatorDefault, description: 'Only tasks of this user', ...userLocator },
		{ displayName: 'Company', name: 'crmCompanyId', type: 'resourceLocator', default: locatorDefault, description: 'Only tasks about this company', ...companyLocator },
		{ displayName: 'Contact', name: 'contactId', type: 'resourceLocator', default: locatorDefault, description: 'Only tasks about this contact', ...contactOrEmailLocator },
		{ displayName: 'Deal', name: 'dealId', type: 'resourceLocator', default: locatorDefault, description: 'Only tasks about this deal', ...dealLocator },
		{ displayName: 'Due After', name: 'dueAfter', type: 'dateTime', default: '', description: 'Only tasks due after this moment' },
		{ displayName: 'Due Before', name: 'dueBefore', type: 'dateTime', default: '', description: 'Only tasks due before this moment' },
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			options: [
				{ name: 'Completed', value: 'completed' },
				{ name: 'Open', value: 'open' },
			],
			default: 'open',
			description: 'Only open or only completed tasks',
		},
	],
};

const summaryFilters: INodeProperties = {
	displayName: 'Filters',
	name: 'summaryFilters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options: [{ displayName: 'Assignee', name: 'assigneeId', type: 'resourceLocator', default: locatorDefault, description: 'Only the tasks of this user; left out: every user\'s', ...userLocator }],
};

/** Return All and Limit of Get Many, Get Overdue and Get Upcoming. */
const returnAll = returnAllFields();

export const { definitions: taskOperations, properties: taskProperties } = declareResource('task', {
	default: 'create',
	operations: {
		complete: {
			option: { name: 'Complete', description: 'Needs the task; returns the task with completedAt', action: 'Complete a task' },
			method: 'PATCH',
			path: `${taskPath}/complete`,
			pathParams: taskId,
			fields: [taskField],
		},
		create: {
			option: { name: 'Create', description: 'Needs Title, Type and Due Date; returns the task', action: 'Create a task' },
			method: 'POST',
			path: '/crm/tasks',
			body: { title: { param: 'title', check: 'required' }, ...typeAndDueDate(''), ...taskBody('additionalFields') },
			fields: [
				{ ...titleField, required: true, placeholder: 'e.g. Call back about the offer' },
				{ ...typeField, required: true },
				{ ...dueDateField, required: true },
				additionalFields,
			],
		},
		delete: {
			option: { name: 'Delete', description: 'Needs the task; deletes it for good and returns { deleted: true }', action: 'Delete a task' },
			method: 'DELETE',
			path: taskPath,
			pathParams: taskId,
			fields: [taskField],
		},
		get: {
			option: { name: 'Get', description: 'Needs the task ID; returns the task', action: 'Get a task by ID' },
			method: 'GET',
			path: taskPath,
			pathParams: taskId,
			fields: [taskField],
		},
		getAll: {
			option: {
				name: 'Get Many',
				description: 'Filters by status, assignee, contact, deal, company or due date; returns one item per task',
				action: 'Get many tasks',
			},
			method: 'GET',
			path: '/crm/tasks',
			query: {
				status: 'filters.status',
				assigneeId: 'filters.assigneeId',
				contactId: 'filters.contactId',
				dealId: 'filters.dealId',
				crmCompanyId: 'filters.crmCompanyId',
				dueBefore: { param: 'filters.dueBefore', convert: dateTime() },
				dueAfter: { param: 'filters.dueAfter', convert: dateTime() },
			},
			pagination: { style: 'page1', itemsKey: 'tasks' },
			fields: [...returnAll, filters],
		},
		getOverdue: {
			option: { name: 'Get Overdue', description: 'Needs nothing; returns one item per open task past its due date', action: 'Get overdue tasks' },
			method: 'GET',
			path: '/crm/tasks/overdue',
			pagination: { style: 'none' },
			fields: returnAll,
		},
		getUpcoming: {
			option: { name: 'Get Upcoming', description: 'Needs Days Ahead; returns one item per open task due within them', action: 'Get upcoming tasks' },
			method: 'GET',
			path: '/crm/tasks/upcoming',
			query: { days: 'days' },
			pagination: { style: 'none' },
			fields: [days, ...returnAll],
		},
		getSummary: {
			option: {
				name: 'Get Summary',
				description: 'Needs nothing (Assignee optional); returns counts by state, type and priority',
				action: 'Get a summary of the tasks',
			},
			method: 'GET',
			path: '/crm/tasks/summary',
			query: { assigneeId: { param: 'summaryFilters.assigneeId', check: 'uuid' } },
			fields: [summaryFilters],
		},
		reopen: {
			option: { name: 'Reopen', description: 'Needs a completed task; returns the task, open again', action: 'Reopen a task' },
			method: 'PATCH',
			path: `${taskPath}/uncomplete`,
			pathParams: taskId,
			fields: [taskField],
		},
		update: {
			option: { name: 'Update', description: 'Needs the task and the fields to change (not whether it is done); returns the task', action: 'Update a task' },
			method: 'PATCH',
			path: taskPath,
			pathParams: taskId,
			body: { title: 'updateFields.title', ...typeAndDueDate('updateFields.'), ...taskBody('updateFields') },
			check: (request, input) => (Object.keys(request.body ?? {}).length ? undefined : `Add at least one field under ${input.label('updateFields')}`),
			fields: [taskField, updateFields],
		},
	},
});
