import { randomUUID } from 'node:crypto';
import { countBy, tenantRecord, tenantRecords } from '../crm';
import { parentsOf } from '../crmParents';
import { Call, Group } from '../handler';
import { CrmParents, Task } from '../store';
import { companyUser } from '../visibility';

type TaskFields = Pick<Task, 'title' | 'type' | 'description' | 'priority' | 'dueDate' | 'reminderAt' | 'assigneeId'> & CrmParents;
type TaskQuery = Partial<CrmParents> & {
	page: number;
	limit: number;
	status?: 'open' | 'completed';
	assigneeId?: string;
	dueBefore?: string;
	dueAfter?: string;
};

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * CRM tasks (api-reference §3 Tasks): the tenant's tasks, open while `completedAt` is null. PATCH changes the
 * task's fields only (completion fields are not in its schema, so they are dropped); complete and uncomplete
 * change the state. Overdue and upcoming are open tasks by due date, read on the sandbox clock.
 */
export const tasks: Group = {
	listTasks: (call) => {
		const { page, limit, status, assigneeId, contactId, dealId, crmCompanyId, dueBefore, dueAfter } = call.query as TaskQuery;
		const wanted = byDueDate(tenantTasks(call)).filter(
			(task) =>
				(!status || (status === 'open') === (task.completedAt === null)) &&
				(!assigneeId || task.assigneeId === assigneeId) &&
				(!contactId || task.contactId === contactId) &&
				(!dealId || task.dealId === dealId) &&
				(!crmCompanyId || task.crmCompanyId === crmCompanyId) &&
				(!dueBefore || (task.dueDate !== null && Date.parse(task.dueDate) < Date.parse(dueBefore))) &&
				(!dueAfter || (task.dueDate !== null && Date.parse(task.dueDate) > Date.parse(dueAfter))),
		);
		return { tasks: wanted.slice((page - 1) * limit, page * limit), page, limit, total: wanted.length, totalPages: Math.ceil(wanted.length / limit) };
	},

	createTask: (call) => {
		const { store, actor } = call;
		const input = call.body as Partial<TaskFields> & Pick<TaskFields, 'title' | 'type' | 'dueDate'>;
		const parents = parentsOf(store, actor, input);
		const now = store.clock.iso();
		const task: Task = {
			id: randomUUID(),
			companyId: actor.company.id,
			title: input.title,
			type: input.type,
			description: input.description ?? null,
			priority: input.priority ?? 'medium',
			dueDate: input.dueDate,
			reminderAt: input.reminderAt ?? null,
			completedAt: null,
			assigneeId: input.assigneeId === undefined ? actor.user.id : (assignee(call, input.assigneeId) ?? null),
			...parents,
			createdAt: now,
			updatedAt: now,
		};
		store.tasks.set(task.id, task);
		return task;
	},

	getTask: (call) => visibleTask(call),

	updateTask: (call) => {
		const task = visibleTask(call);
		const changes = call.body as Partial<TaskFields>;
		const parents = parentsOf(call.store, call.actor, { ...task, ...changes });
		assignee(call, changes.assigneeId);
		return Object.assign(task, changes, parents, { updatedAt: call.store.clock.iso() });
	},

	deleteTask: (call) => {
		call.store.tasks.delete(visibleTask(call).id);
	},

	/** Completing a completed task keeps the moment it was first completed. */
	completeTask: (call) => {
		const task = visibleTask(call);
		const now = call.store.clock.iso();
		return Object.assign(task, { completedAt: task.completedAt ?? now, updatedAt: now });
	},

	uncompleteTask: (call) => {
		const task = visibleTask(call);
		return Object.assign(task, { completedAt: null, updatedAt: call.store.clock.iso() });
	},

	listOverdueTasks: (call) => {
		const now = call.store.clock.now();
		return byDueDate(openTasks(call)).filter((task) => Date.parse(task.dueDate!) < now);
	},

	/** The tasks of a company of the tenant (404 otherwise), the earliest due first. */
	listCrmCompanyTasks: (call) => {
		const company = tenantRecord(call.store, call.actor, 'crmCompanies', call.params.crmCompanyId);
		return byDueDate(tenantTasks(call)).filter((task) => task.crmCompanyId === company.id);
	},

	/** The figures on the sandbox clock (designed where api-reference §3 names only the keys). */
	getTaskSummary: (call) => {
		const assigneeId = call.query.assigneeId as string | undefined;
		const all = tenantTasks(call).filter((task) => !assigneeId || task.assigneeId === assigneeId);
		const open = all.filter((task) => task.completedAt === null && task.dueDate !== null);
		const now = call.store.clock.now();
		const dueBefore = (end: number) => open.filter((task) => Date.parse(task.dueDate!) >= now && Date.parse(task.dueDate!) < end).length;
		const tomorrow = (Math.floor(now / DAY_MS) + 1) * DAY_MS;
		const nextMonday = tomorrow + ((7 - new Date(tomorrow).getUTCDay() + 1) % 7) * DAY_MS;
		return {
			totalTasks: all.length,
			completedTasks: all.filter((task) => task.completedAt !== null).length,
			overdueTasks: open.filter((task) => Date.parse(task.dueDate!) < now).length,
			dueTodayTasks: dueBefore(tomorrow),
			dueThisWeekTasks: dueBefore(nextMonday),
			byType: countBy(all, (task) => task.type),
			byPriority: countBy(all, (task) => task.priority),
		};
	},

	listUpcomingTasks: (call) => {
		const now = call.store.clock.now();
		const until = now + (call.query.days as number) * DAY_MS;
		return byDueDate(openTasks(call)).filter((task) => Date.parse(task.dueDate!) >= now && Date.parse(task.dueDate!) <= until);
	},
};

function tenantTasks({ store, actor }: Call): Task[] {
	return tenantRecords(store.tasks, actor);
}

/** Open tasks that have a due date. */
function openTasks(call: Call): Task[] {
	return tenantTasks(call).filter((task) => task.completedAt === null && task.dueDate !== null);
}

/** Earliest due date first, tasks without one last; creation order otherwise (the sort is stable). */
function byDueDate(list: Task[]): Task[] {
	const due = (task: Task) => (task.dueDate === null ? Infinity : Date.parse(task.dueDate));
	return [...list].sort((a, b) => due(a) - due(b));
}

/** An assignee must be a user of the tenant (404 otherwise); null unassigns; left out on create: the acting user. */
function assignee({ store, actor }: Call, id: string | null | undefined): string | null | undefined {
	return id ? companyUser(store, actor, id).id : id;
}

function visibleTask({ store, actor, params }: Call): Task {
	return tenantRecord(store, actor, 'tasks', params.id);
}
