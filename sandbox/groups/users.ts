import { apiError } from '../errors';
import { Call, Group } from '../handler';
import { scheduleErrors } from '../schedule';
import { BOOKING_BASE_URL, NewUser, User } from '../store';

/** User V4. */
export const users: Group = {
	createUser: ({ actor, body, store }) => {
		const input = body as unknown as NewUser;
		const errors = scheduleErrors(input.availability?.schedule ?? {}, 'availability.schedule');
		if (errors.length) throw apiError(400, errors);
		const { user, availability, meetingType } = store.createUser(actor.company, input);
		return {
			userId: user.id,
			availabilityId: availability.id,
			meetingTypeId: meetingType.id,
			bookingUrl: `${BOOKING_BASE_URL}/${user.slug}`,
			companyId: user.companyId,
		};
	},

	getCurrentUser: ({ actor }) => actor.user,

	listUsers: ({ actor, query, store }) => {
		const { limit, offset, userType } = query as { limit: number; offset: number; userType?: string };
		const matching = store.companyUsers(actor.company.id).filter((user) => !userType || user.userType === userType);
		const page = matching.slice(offset, offset + limit);
		return { users: page, total: matching.length, count: page.length, offset };
	},

	getUser: companyUser,

	updateUser: (call) => {
		const user = companyUser(call);
		Object.assign(user, call.body, { updatedAt: call.store.clock.iso() });
		user.fullName = `${user.givenName} ${user.familyName}`;
		return user;
	},

	deleteUser: (call) => {
		const user = companyUser(call);
		if (user.id === call.actor.company.ownerId) throw apiError(409, 'The company owner cannot be deleted');
		call.store.deleteUser(user.id);
		return { deleted: true };
	},
};

/** The user named by the path, if they belong to the acting user's company. */
function companyUser({ actor, params, store }: Call): User {
	const user = store.users.get(params.id);
	if (user?.companyId !== actor.company.id) throw apiError(404, 'User not found');
	return user;
}
