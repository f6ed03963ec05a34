import { randomUUID } from 'node:crypto';
import { apiError } from '../errors';
import { Call, Group } from '../handler';
import { MeetingInfo, perStore } from '../store';
import { companyUser } from '../visibility';

/**
 * Meeting Type Template V4 (Beta, api-reference §7): meeting settings a company reuses; assigning one gives the user a
 * meeting type made from it, on their default availability (designed response). A template's name is
 * `meetingInfo.name` (known): a top-level `name` is no field, dropped like any unknown one, and renames nothing.
 */

/** What a template holds besides its tenant (the fields of the reference's row; defaults designed). */
interface TemplateFields {
	meetingInfo: Partial<MeetingInfo>;
	meetingOptions: Record<string, unknown>;
	spots: number;
	locations: unknown[];
	templateType: 'individual' | 'team';
	queueType: string | null;
	lockedFields: string[];
}

interface Template extends TemplateFields {
	id: string;
	companyId: string;
	assignedUserIds: string[];
}

const templatesOf = perStore(() => new Map<string, Template>());

function tenantTemplate({ store, actor }: Call, id: string): Template {
	const template = templatesOf(store).get(id);
	if (!template || template.companyId !== actor.company.id) throw apiError(404, 'Meeting type template not found');
	return template;
}

/** The template as answered (the tenant is not part of it). */
const answer = ({ id, meetingInfo, meetingOptions, spots, locations, templateType, queueType, lockedFields, assignedUserIds }: Template) =>
	({ id, meetingInfo, meetingOptions, spots, locations, templateType, queueType, lockedFields, assignedUserIds });

function create({ store, actor, body }: Call) {
	const meetingInfo = body.meetingInfo as Partial<MeetingInfo>;
	// As a meeting type's (the schema's properties); its name and duration are needed to make meeting types of it.
	const missing = (['name', 'duration'] as const).filter((key) => meetingInfo[key] === undefined);
	if (missing.length) throw apiError(400, missing.map((key) => `meetingInfo.${key} should not be empty`));
	const fields = body as Partial<TemplateFields>;
	const template: Template = {
		id: randomUUID(),
		companyId: actor.company.id,
		meetingInfo,
		meetingOptions: fields.meetingOptions ?? {},
		spots: fields.spots ?? 1,
		locations: fields.locations ?? [],
		templateType: fields.templateType ?? 'individual',
		queueType: fields.queueType ?? null,
		lockedFields: [],
		assignedUserIds: [],
	};
	templatesOf(store).set(template.id, template);
	return answer(template);
}

/** A partial change: meetingInfo and meetingOptions merge, the other fields replace. */
function update(call: Call) {
	const template = tenantTemplate(call, call.params.id);
	const { meetingInfo, meetingOptions, ...rest } = call.body as Partial<TemplateFields>;
	Object.assign(template, rest, {
		meetingInfo: { ...template.meetingInfo, ...meetingInfo },
		meetingOptions: { ...template.meetingOptions, ...meetingOptions },
	});
	return answer(template);
}

function assign(call: Call) {
	const { store, actor, params, body } = call;
	const template = tenantTemplate(call, params.templateId);
	const user = companyUser(store, actor, body.userId as string);
	if (template.assignedUserIds.includes(user.id)) throw apiError(409, 'The template is already assigned to this user');
	const availability = [...store.availabilities.values()].find((candidate) => candidate.userId === user.id && candidate.isDefault);
	const meetingInfo = template.meetingInfo as MeetingInfo;
	const meetingType = store.createMeetingType(user, { meetingInfo, spots: template.spots, availabilityId: availability?.id ?? '' });
	template.assignedUserIds.push(user.id);
	return { templateId: template.id, userId: user.id, meetingTypeId: meetingType.id };
}

export const meetingTypeTemplates: Group = {
	listMeetingTypeTemplates: ({ store, actor }) => [...templatesOf(store).values()].filter((template) => template.companyId === actor.company.id).map(answer),
	createMeetingTypeTemplate: create,
	updateMeetingTypeTemplate: update,
	assignMeetingTypeTemplate: assign,
};
