import { apiError } from '../errors';
import { Group } from '../handler';
import { MeetingInfo, NewMeetingType } from '../store';
import { visibleMeetingType } from '../visibility';

type MeetingTypeInput = Omit<NewMeetingType, 'availabilityId'> & { availabilityId?: string };
type MeetingTypeChanges = { meetingInfo?: Partial<MeetingInfo>; slug?: string; spots?: number; enabled?: boolean };

/** Values another one requires: 400 in the class-validator style of §1.1 (designed sentences). */
function assertComplete(info: Partial<MeetingInfo>): void {
	const errors: string[] = [];
	if (info.channel === 'custom' && !info.customChannelLink) errors.push('meetingInfo.customChannelLink should not be empty');
	if (info.enableRedirect && !info.redirect) errors.push('meetingInfo.redirect should not be empty');
	if (errors.length) throw apiError(400, errors);
}

/** Meeting Type V4. */
export const meetingTypes: Group = {
	listMeetingTypes: ({ actor, store }) => store.userMeetingTypes(actor.user.id),

	getMeetingType: ({ actor, params, store }) => visibleMeetingType(store, actor, params.id),

	createMeetingType: ({ actor, body, store }) => {
		const input = body as unknown as MeetingTypeInput;
		assertComplete(input.meetingInfo);
		const availabilities = store.userAvailabilities(actor.user.id);
		const availability = availabilities.find((candidate) =>
			input.availabilityId ? candidate.id === input.availabilityId : candidate.isDefault,
		);
		if (!availability) throw apiError(404, 'Availability not found');
		return store.createMeetingType(actor.user, { ...input, availabilityId: availability.id });
	},

	updateMeetingType: (call) => {
		const meetingType = visibleMeetingType(call.store, call.actor, call.params.id);
		const { meetingInfo, ...changes } = call.body as MeetingTypeChanges;
		const merged = { ...meetingType.meetingInfo, ...meetingInfo };
		assertComplete(merged);
		if (changes.slug) call.store.assertSlugFree(meetingType.companyId, changes.slug, meetingType.id);
		Object.assign(meetingType, changes, { meetingInfo: merged, updatedAt: call.store.clock.iso() });
		return meetingType;
	},

	deleteMeetingType: (call) => {
		call.store.meetingTypes.delete(visibleMeetingType(call.store, call.actor, call.params.id).id);
	},
};
