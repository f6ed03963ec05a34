import { apiError } from '../errors';
import { Call, Group } from '../handler';
import { MeetingInfo, MeetingType, NewMeetingType } from '../store';

type MeetingTypeInput = Omit<NewMeetingType, 'availabilityId'> & { availabilityId?: string };
type MeetingTypeChanges = { meetingInfo?: Partial<MeetingInfo>; slug?: string; spots?: number; enabled?: boolean };

/** Meeting Type V4. */
export const meetingTypes: Group = {
	listMeetingTypes: ({ actor, store }) => store.userMeetingTypes(actor.user.id),

	getMeetingType: visibleMeetingType,

	createMeetingType: ({ actor, body, store }) => {
		const input = body as unknown as MeetingTypeInput;
		const availabilities = store.userAvailabilities(actor.user.id);
		const availability = availabilities.find((candidate) =>
			input.availabilityId ? candidate.id === input.availabilityId : candidate.isDefault,
		);
		if (!availability) throw apiError(404, 'Availability not found');
		return store.createMeetingType(actor.user, { ...input, availabilityId: availability.id });
	},

	updateMeetingType: (call) => {
		const meetingType = visibleMeetingType(call);
		const { meetingInfo, ...changes } = call.body as MeetingTypeChanges;
		if (changes.slug) call.store.assertSlugFree(meetingType.companyId, changes.slug, meetingType.id);
		Object.assign(meetingType, changes, {
			meetingInfo: { ...meetingType.meetingInfo, ...meetingInfo },
			updatedAt: call.store.clock.iso(),
		});
		return meetingType;
	},

	deleteMeetingType: (call) => {
		call.store.meetingTypes.delete(visibleMeetingType(call).id);
		return { deleted: true };
	},
};

/** Members see their own meeting types, admins any of their company; anything else does not exist for them. */
function visibleMeetingType({ actor, params, store }: Call): MeetingType {
	const meetingType = store.meetingTypes.get(params.id);
	const own = meetingType?.userId === actor.user.id;
	const asAdmin = actor.user.isAdmin && meetingType?.companyId === actor.company.id;
	if (!meetingType || !(own || asAdmin)) throw apiError(404, 'Meeting type not found');
	return meetingType;
}
