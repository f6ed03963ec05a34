import { apiError } from '../errors';
import { Call, Group } from '../handler';
import { assertValidSchedule } from '../schedule';
import { NewUser, User, userPageUrl } from '../store';
import { companyUser } from '../visibility';
import { emit } from '../webhooks';

/** User V4. */
export const users: Group = {
	createUser: ({ actor, body, store }) => {
		const input = body as unknown as NewUser;
		assertValidSchedule(input.availability?.schedule ?? {}, 'availability.schedule');
		const { user, availability, meetingType } = store.createUser(actor.company, input);
		emit(store, user.companyId, 'new_employee', user);
		return {
			userId: user.id,
			availabilityId: availability.id,
			meetingTypeId: meetingType.id,
			bookingUrl: userPageUrl(user),
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

	getUser: pathUser,

	/** Any of givenName, familyName, slug (others were refused by the contract); an empty body or a slug of another user is refused. */
	updateUser: (call) => {
		const changes = call.body as Partial<Pick<User, 'givenName' | 'familyName' | 'slug'>>;
		if (Object.keys(changes).length === 0) throw apiError(400, 'Empty Body');
		const user = pathUser(call);
		const taken = [...call.store.users.values()].some((other) => other.slug === changes.slug && other.id !== user.id);
		if (taken) throw apiError(409, 'A user with this slug already exists');
		Object.assign(user, changes, { updatedAt: call.store.clock.iso() });
		user.fullName = `${user.givenName} ${user.familyName}`;
		return user;
	},

	deleteUser: (call) => {
		const user = pathUser(call);
		if (user.id === call.actor.company.ownerId) throw apiError(409, 'The company owner cannot be deleted');
		call.store.deleteUser(user.id);
	},
};

/** The user named by the path, if they belong to the acting user's company. */
function pathUser({ actor, params, store }: Call): User {
	return companyUser(store, actor, params.id);
}
