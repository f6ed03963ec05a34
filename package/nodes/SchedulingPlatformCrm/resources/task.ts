import type { INodeProperties } from 'n8n-workflow';

import { byName } from '../../shared/fields';
import { getManyFields } from '../../shared/getMany';
import { dateTime } from '../../shared/dates';
import { userLocator } from '../../shared/locators';
import type { ResourceDefinitions } from '../../shared/types';
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

export const taskOperations: ResourceDefinitions = {
	complete: { method: 'PATCH', path: `${taskPath}/complete`, pathParams: taskId },
	create: {
		method: 'POST',
		path: '/crm/tasks',
		body: { title: { param: 'title', check: 'required' }, ...typeAndDueDate(''), ...taskBody('additionalFields') },
	},
	delete: { method: 'DELETE', path: taskPath, pathParams: taskId },
	get: { method: 'GET', path: taskPath, pathParams: taskId },
	getAll: {
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
	},
	getOverdue: { method: 'GET', path: '/crm/tasks/overdue', pagination: { style: 'none' } },
	getUpcoming: { method: 'GET', path: '/crm/tasks/upcoming', query: { days: 'days' }, pagination: { style: 'none' } },
	getSummary: { method: 'GET', path: '/crm/tasks/summary', query: { assigneeId: { param: 'summaryFilters.assigneeId', check: 'uuid' } } },
	reopen: { method: 'PATCH', path: `${taskPath}/uncomplete`, pathParams: taskId },
	update: {
		method: 'PATCH',
		path: taskPath,
		pathParams: taskId,
		body: { title: 'updateFields.title', ...typeAndDueDate('updateFields.'), ...taskBody('updateFields') },
		check: (request, input) => (Object.keys(request.body ?? {}).length ? undefined : `Add at least one field under ${input.label('updateFields')}`),
	},
};

const show = (operation: string[]) => ({ show: { resource: ['task'], operation } });

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

export const taskProperties: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['task'] } },
		options: [
			{ name: 'Complete', value: 'complete', description: 'Needs the task; returns the task with completedAt', action: 'Complete a task' },
			{ name: 'Create', value: 'create', description: 'Needs Title, Type and Due Date; returns the task', action: 'Create a task' },
			{ name: 'Delete', value: 'delete', description: 'Needs the task; deletes it for good and returns { deleted: true }', action: 'Delete a task' },
			{ name: 'Get', value: 'get', description: 'Needs the task ID; returns the task', action: 'Get a task by ID' },
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'Filters by status, assignee, contact, deal, company or due date; returns one item per task',
				action: 'Get many tasks',
			},
			{ name: 'Get Overdue', value: 'getOverdue', description: 'Needs nothing; returns one item per open task past its due date', action: 'Get overdue tasks' },
			{
				name: 'Get Summary',
				value: 'getSummary',
				description: 'Needs nothing (Assignee optional); returns counts by state, type and priority',
				action: 'Get a summary of the tasks',
			},
			{ name: 'Get Upcoming', value: 'getUpcoming', description: 'Needs Days Ahead; returns one item per open task due within them', action: 'Get upcoming tasks' },
			{ name: 'Reopen', value: 'reopen', description: 'Needs a completed task; returns the task, open again', action: 'Reopen a task' },
			{ name: 'Update', value: 'update', description: 'Needs the task and the fields to change (not whether it is done); returns the task', action: 'Update a task' },
		],
		default: 'create',
	},
	{
		displayName: 'Task',
		name: 'taskId',
		type: 'resourceLocator',
		default: locatorDefault,
		required: true,
		displayOptions: show(['complete', 'delete', 'get', 'reopen', 'update']),
		description: 'The task to use',
		...taskLocator,
	},
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Call back about the offer',
		displayOptions: show(['create']),
		description: 'What to do',
	},
	{ ...typeField, required: true, displayOptions: show(['create']) },
	{ ...dueDateField, required: true, displayOptions: show(['create']) },
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: show(['create']),
		options: taskFields,
	},
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: show(['update']),
		options: byName([...taskFields, dueDateField, titleField, typeField]),
	},
	{
		displayName: 'Days Ahead',
		name: 'days',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 365, numberPrecision: 0 },
		default: 7,
		displayOptions: show(['getUpcoming']),
		description: 'How many days from now to look ahead',
	},
	...getManyFields('task', ['getAll', 'getOverdue', 'getUpcoming']),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: show(['getAll']),
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
	},
	{
		displayName: 'Filters',
		name: 'summaryFilters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: show(['getSummary']),
		options: [{ displayName: 'Assignee', name: 'assigneeId', type: 'resourceLocator', default: locatorDefault, description: 'Only the tasks of this user; left out: every user\'s', ...userLocator }],
	},
];
