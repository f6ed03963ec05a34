import { apiError } from '../errors';
import { Call, Group } from '../handler';
import { assertValidSchedule, completeSchedule, Schedule } from '../schedule';
import { Availability, Store } from '../store';
import { canSeeOwnedBy, visible } from '../visibility';

type AvailabilityInput = { name: string; timezone: string; schedule: Partial<Schedule> };

/** availability: a user's weekly hours and time zone; each answer carries the availability's current exceptions. */
export const availability: Group = {
	listAvailabilities: ({ actor, store }) => store.userAvailabilities(actor.user.id).map((item) => withExceptions(store, item)),

	getAvailability: (call) => withExceptions(call.store, visibleAvailability(call, call.params.id)),

	createAvailability: ({ actor, body, store }) => {
		const input = body as AvailabilityInput;
		assertValidSchedule(input.schedule, 'schedule');
		return withExceptions(store, store.createAvailability(actor.user, input));
	},

	updateAvailability: (call) => {
		const target = visibleAvailability(call, call.params.id);
		const { schedule, ...changes } = call.body as Partial<AvailabilityInput>;
		if (schedule) assertValidSchedule(schedule, 'schedule');
		Object.assign(target, changes, schedule ? { schedule: completeSchedule(schedule) } : {});
		return withExceptions(call.store, target);
	},

	deleteAvailability: (call) => {
		const { store } = call;
		const target = visibleAvailability(call, call.params.id);
		if (target.isDefault) throw apiError(409, 'The default availability cannot be deleted');
		const used = [...store.meetingTypes.values()].some((meetingType) => meetingType.availabilityId === target.id);
		if (used) throw apiError(409, 'The availability is used by a meeting type');
		for (const exception of store.exceptionsOf(target.id)) store.availabilityExceptions.delete(String(exception.id));
		store.availabilities.delete(target.id);
	},
};

/** Members see their own availabilities, admins those of every user of their company; anything else is 404. */
export function visibleAvailability({ actor, store }: Call, id: string): Availability {
	return visible(store.availabilities.get(id), (availability) => canSeeOwnedBy(store, actor, availability.userId), 'Availability');
}

function withExceptions(store: Store, item: Availability): Availability {
	return { ...item, availabilityExceptions: store.exceptionsOf(item.id) };
}
