import { apiError } from '../errors';
import { Group } from '../handler';
import { PersonalPage, Store, User, userPageUrl } from '../store';

type PageChanges = Partial<Omit<PersonalPage, 'userId' | 'url' | 'updatedAt'>>;

/** Personal Page V4: one page per user, created with defaults on first use. Online profiles are replaced as a whole. */
export const personalPage: Group = {
	getPersonalPage: ({ actor, store }) => pageOf(store, actor.user),

	updatePersonalPage: ({ actor, body, store }) => {
		const page = pageOf(store, actor.user);
		const changes = body as PageChanges;
		const own = new Set(store.userMeetingTypes(actor.user.id).map((meetingType) => meetingType.id));
		if (changes.meetingTypeOrder?.some((id) => !own.has(id))) {
			throw apiError(400, 'meetingTypeOrder must contain only your meeting type ids');
		}
		return Object.assign(page, changes, { updatedAt: store.clock.iso() });
	},
};

function pageOf(store: Store, user: User): PersonalPage {
	const existing = store.personalPages.get(user.id);
	if (existing) return existing;
	const page: PersonalPage = {
		userId: user.id,
		url: userPageUrl(user),
		description: '',
		primaryColor: '#1a73e8',
		secondaryColor: '#ffffff',
		useCustomColors: false,
		showAllMeetingTypes: true,
		meetingTypeOrder: [],
		headerImage: null,
		onlineProfiles: {},
		updatedAt: store.clock.iso(),
	};
	store.personalPages.set(user.id, page);
	return page;
}
