import { randomUUID } from 'node:crypto';
import { apiError } from '../errors';
import { Call, Group } from '../handler';
import { MeetingInfo, perStore } from '../store';
import { companyUser } from '../visibility';

/**
 * Meeting Type Template V4 (Beta, api-reference §7): meeting settings a company reuses; assigning one gives the user a
 * meeting type made from it, on their default availability (designed response).
 */

interface Template {
	id: string;
	companyId: string;
	name: string;
	meetingInfo: Partial<MeetingInfo>;
	assignedUserIds: string[];
	createdAt: string;
	updatedAt: string;
}

const templatesOf = perStore(() => new Map<string, Template>());

function tenantTemplate({ store, actor }: Call, id: string): Template {
	const template = templatesOf(store).get(id);
	if (!template || template.companyId !== actor.company.id) throw apiError(404, 'Meeting type template not found');
	return template;
}

/** The template as answered (the tenant is not part of it). */
const answer = ({ id, name, meetingInfo, assignedUserIds, createdAt, updatedAt }: Template) => ({ id, name, meetingInfo, assignedUserIds, createdAt, updatedAt });

function create({ store, actor, body }: Call) {
	const now = store.clock.iso();
	const template: Template = { id: randomUUID(), companyId: actor.company.id, name: body.name as string, meetingInfo: body.meetingInfo as Partial<MeetingInfo>, assignedUserIds: [], createdAt: now, updatedAt: now };
	templatesOf(store).set(template.id, template);
	return answer(template);
}

function assign(call: Call) {
	const { store, actor, params, body } = call;
	const template = tenantTemplate(call, params.templateId);
	const user = companyUser(store, actor, body.userId as string);
	if (template.assignedUserIds.includes(user.id)) throw apiError(409, 'The template is already assigned to this user');
	const availability = [...store.availabilities.values()].find((candidate) => candidate.userId === user.id && candidate.isDefault);
	const meetingInfo = { name: template.name, ...template.meetingInfo };
	const meetingType = store.createMeetingType(user, { meetingInfo, availabilityId: availability?.id ?? '' });
	template.assignedUserIds.push(user.id);
	return { templateId: template.id, userId: user.id, meetingTypeId: meetingType.id };
}

export const meetingTypeTemplates: Group = {
	listMeetingTypeTemplates: ({ store, actor }) => [...templatesOf(store).values()].filter((template) => template.companyId === actor.company.id).map(answer),
	createMeetingTypeTemplate: create,
	updateMeetingTypeTemplate: (call) => {
		const template = tenantTemplate(call, call.params.id);
		const { name, meetingInfo } = call.body as { name?: string; meetingInfo?: Partial<MeetingInfo> };
		Object.assign(template, name === undefined ? {} : { name }, { meetingInfo: { ...template.meetingInfo, ...meetingInfo }, updatedAt: call.store.clock.iso() });
		return answer(template);
	},
	assignMeetingTypeTemplate: assign,
};
