import { resolve } from '../contract';
import { apiError } from '../errors';
import { Group } from '../handler';
import { assertValidSchedule, Schedule } from '../schedule';
import { Availability, BookingSettings, MeetingInfo, MeetingType, NewMeetingType, Store, User } from '../store';
import { validateBody } from '../validation';
import { visibleMeetingType } from '../visibility';
import { newOneTimeLink } from './bookingLinks';

type NewAvailability = { name: string; timezone: string; schedule: Partial<Schedule> };
type MeetingTypeInput = Omit<NewMeetingType, 'availabilityId'> & {
	availabilityId?: string;
	availability?: NewAvailability;
	options?: { createOneTimeLink?: boolean };
};
type MeetingTypeChanges = BookingSettings & { meetingInfo?: Partial<MeetingInfo>; slug?: string; spots?: number; enabled?: boolean; availabilityId?: string };

/** Values another one requires: 400 in the class-validator style of §1.1 (designed sentences). */
function assertComplete(info: Partial<MeetingInfo>): void {
	const errors: string[] = [];
	if (info.channel === 'custom' && !info.customChannelLink) errors.push('meetingInfo.customChannelLink should not be empty');
	if (info.enableRedirect && !info.redirect) errors.push('meetingInfo.redirect should not be empty');
	if (errors.length) throw apiError(400, errors);
}

/** An availability of the host: the named one (404 when it is not theirs), else their default one. */
function hostAvailability(store: Store, hostId: string, availabilityId?: string): Availability {
	const found = store.userAvailabilities(hostId).find((candidate) => (availabilityId ? candidate.id === availabilityId : candidate.isDefault));
	if (!found) throw apiError(404, 'Availability not found');
	return found;
}

/** Per channel an availability ID of the host, or an inline availability checked as POST /availability checks one. */
function assertChannelAvailabilities(store: Store, hostId: string, settings: BookingSettings): void {
	const perChannel = (settings.meetingOptions?.channelAvailabilities ?? {}) as Record<string, unknown>;
	for (const [channel, availability] of Object.entries(perChannel)) {
		if (typeof availability === 'string') {
			hostAvailability(store, hostId, availability);
			continue;
		}
		const name = `meetingOptions.channelAvailabilities.${channel}`;
		const inline = validateBody(resolve({ $ref: '#/components/schemas/CreateAvailability' }), availability, name) as NewAvailability;
		assertValidSchedule(inline.schedule, `${name}.schedule`);
	}
}

/** The availability a new meeting type uses: new weekly hours (created for the user), a named one, or the default. */
function availabilityFor(store: Store, input: MeetingTypeInput, user: User): Availability {
	if (!input.availability) return hostAvailability(store, user.id, input.availabilityId);
	if (input.availabilityId) throw apiError(400, 'Expected availabilityId or availability, not both');
	assertValidSchedule(input.availability.schedule, 'availability.schedule');
	return store.createAvailability(user, input.availability);
}

/** meetingOptions, ics and daysIntoFuture of a PATCH, merged key by key into the stored ones (the other keys are replaced). */
function mergedSettings(meetingType: MeetingType, changes: BookingSettings): BookingSettings {
	const keys = (['meetingOptions', 'ics', 'daysIntoFuture'] as const).filter((key) => changes[key]);
	return Object.fromEntries(keys.map((key) => [key, { ...meetingType[key], ...changes[key] }]));
}

/** Meeting Type V4. */
export const meetingTypes: Group = {
	listMeetingTypes: ({ actor, store }) => store.userMeetingTypes(actor.user.id),

	getMeetingType: ({ actor, params, store }) => visibleMeetingType(store, actor, params.id),

	createMeetingType: ({ actor, body, store }) => {
		const input = body as unknown as MeetingTypeInput;
		assertComplete(input.meetingInfo);
		assertChannelAvailabilities(store, actor.user.id, input);
		const availability = availabilityFor(store, input, actor.user);
		const meetingType = store.createMeetingType(actor.user, { ...input, availabilityId: availability.id });
		if (input.options?.createOneTimeLink) newOneTimeLink(store, actor.user.id, meetingType.id, null);
		return meetingType;
	},

	updateMeetingType: (call) => {
		const meetingType = visibleMeetingType(call.store, call.actor, call.params.id);
		const { meetingInfo, ...changes } = call.body as MeetingTypeChanges;
		const merged = { ...meetingType.meetingInfo, ...meetingInfo };
		assertComplete(merged);
		if (changes.slug) call.store.assertSlugFree(meetingType.companyId, changes.slug, meetingType.id);
		if (changes.availabilityId) hostAvailability(call.store, meetingType.userId, changes.availabilityId);
		assertChannelAvailabilities(call.store, meetingType.userId, changes);
		Object.assign(meetingType, changes, mergedSettings(meetingType, changes), { meetingInfo: merged, updatedAt: call.store.clock.iso() });
		return meetingType;
	},

	deleteMeetingType: (call) => {
		call.store.meetingTypes.delete(visibleMeetingType(call.store, call.actor, call.params.id).id);
	},
};
