import { randomBytes, randomUUID } from 'node:crypto';
import { apiError } from '../errors';
import { Call, Group } from '../handler';
import { BOOKING_BASE_URL, MeetingType, OneTimeLink, Store, userPageUrl } from '../store';
import { canSeeOwnedBy, visible, visibleMeetingType } from '../visibility';

/** One Time Booking Link V4 and Booking Link V4. */
export const bookingLinks: Group = {
	createOneTimeBookingLink: ({ actor, params, body, store }) => {
		const meetingType = visibleMeetingType(store, actor, params.meetingTypeId);
		const expiresAt = body.expiresAt as string | undefined;
		if (expiresAt !== undefined && Date.parse(expiresAt) <= store.clock.now()) throw apiError(400, 'expiresAt must be in the future');
		return linkJson(newOneTimeLink(store, actor.user.id, meetingType.id, expiresAt === undefined ? null : new Date(expiresAt).toISOString()));
	},

	listOneTimeBookingLinks: ({ actor, query, store }) =>
		[...store.oneTimeLinks.values()]
			.filter((link) => link.userId === actor.user.id && (!query.meetingTypeId || link.meetingTypeId === query.meetingTypeId))
			.map(linkJson),

	deleteOneTimeBookingLink: (call) => {
		call.store.oneTimeLinks.delete(visibleLink(call).id);
	},

	/**
	 * The acting user's enabled meeting types outside a workspace are personal links; the company's enabled
	 * meeting types in a workspace (only those of `workspaceId`, when given) are workspace links.
	 */
	getBookingLinks: ({ actor, query, store }) => {
		const enabled = [...store.meetingTypes.values()].filter((meetingType) => meetingType.enabled && meetingType.companyId === actor.company.id);
		const personal = enabled.filter((meetingType) => meetingType.userId === actor.user.id && !store.workspaces.has(meetingType.id));
		const inWorkspaces = enabled.filter((meetingType) => store.workspaces.has(meetingType.id));
		const workspaceIds = [...new Set(inWorkspaces.map((meetingType) => store.workspaces.get(meetingType.id)!))];
		return {
			personalLinks: personal.map((meetingType) => bookingLink(store, meetingType)),
			workspaceLinks: workspaceIds
				.filter((workspaceId) => query.workspaceId === undefined || workspaceId === query.workspaceId)
				.map((workspaceId) => ({
					workspaceId,
					meetingTypesLinks: inWorkspaces
						.filter((meetingType) => store.workspaces.get(meetingType.id) === workspaceId)
						.map((meetingType) => ({ meetingTypeId: meetingType.id, links: [bookingLink(store, meetingType)] })),
				})),
		};
	},
};

/** `<base>/<host slug>/<meeting type slug>`. */
function pageUrl(store: Store, meetingType: MeetingType): string {
	return `${userPageUrl(store.users.get(meetingType.userId)!)}/${meetingType.slug}`;
}

/** A meeting type's link, by its host. */
function bookingLink(store: Store, meetingType: MeetingType) {
	const host = store.users.get(meetingType.userId)!;
	return {
		id: store.bookingLinkId(meetingType.id, host.id),
		meetingTypeId: meetingType.id,
		link: pageUrl(store, meetingType),
		title: meetingType.meetingInfo.name,
		slug: meetingType.slug,
		fullName: host.fullName,
		email: host.email,
		picture: host.picture,
	};
}

/** A link as the API shows it: without its owner. */
/** A one-time booking link of the user for the meeting type, stored (also made by a meeting type created with `options.createOneTimeLink`). */
export function newOneTimeLink(store: Store, userId: string, meetingTypeId: string, expiresAt: string | null): OneTimeLink {
	const link: OneTimeLink = {
		id: randomUUID(),
		userId,
		url: `${BOOKING_BASE_URL}/d/${randomBytes(12).toString('hex')}`,
		meetingTypeId,
		used: false,
		expiresAt,
		createdAt: store.clock.iso(),
	};
	store.oneTimeLinks.set(link.id, link);
	return link;
}

function linkJson({ id, url, meetingTypeId, used, expiresAt, createdAt }: OneTimeLink) {
	return { id, url, meetingTypeId, used, expiresAt, createdAt };
}

function visibleLink({ actor, params, store }: Call): OneTimeLink {
	return visible(store.oneTimeLinks.get(params.id), (link) => canSeeOwnedBy(store, actor, link.userId), 'One-time booking link');
}
