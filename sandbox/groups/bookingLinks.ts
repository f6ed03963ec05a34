import { randomBytes, randomUUID } from 'node:crypto';
import { apiError } from '../errors';
import { Call, Group } from '../handler';
import { BOOKING_BASE_URL, MeetingType, OneTimeLink, Store, userPageUrl } from '../store';
import { canSeeOwnedBy, visible, visibleMeetingType } from '../visibility';

/** The prefill fields of a booking page address, in the order they appear in it. */
const PREFILL_KEYS = ['email', 'firstname', 'lastname', 'phone'];

/** One Time Booking Link V4 and Booking Link V4. */
export const bookingLinks: Group = {
	createOneTimeBookingLink: ({ actor, params, body, store }) => {
		const meetingType = visibleMeetingType(store, actor, params.meetingTypeId);
		const expiresAt = body.expiresAt as string | undefined;
		const now = store.clock.now();
		if (expiresAt !== undefined && Date.parse(expiresAt) <= now) throw apiError(400, 'expiresAt must be in the future');
		const link: OneTimeLink = {
			id: randomUUID(),
			userId: actor.user.id,
			url: `${BOOKING_BASE_URL}/d/${randomBytes(12).toString('hex')}`,
			meetingTypeId: meetingType.id,
			used: false,
			expiresAt: expiresAt === undefined ? null : new Date(expiresAt).toISOString(),
			createdAt: store.clock.iso(now),
		};
		store.oneTimeLinks.set(link.id, link);
		return linkJson(link);
	},

	listOneTimeBookingLinks: ({ actor, query, store }) =>
		[...store.oneTimeLinks.values()]
			.filter((link) => link.userId === actor.user.id && (!query.meetingTypeId || link.meetingTypeId === query.meetingTypeId))
			.map(linkJson),

	deleteOneTimeBookingLink: (call) => {
		call.store.oneTimeLinks.delete(visibleLink(call).id);
	},

	getBookingLink: ({ actor, query, store }) => {
		const meetingType = visibleMeetingType(store, actor, query.meetingTypeId as string);
		return { url: bookingPageUrl(store, meetingType, query) };
	},
};

/** `<base>/<host slug>/<meeting type slug>`, then the given prefill fields, URL-encoded. */
function bookingPageUrl(store: Store, meetingType: MeetingType, prefill: Record<string, unknown>): string {
	const host = store.users.get(meetingType.userId)!;
	const query = PREFILL_KEYS.filter((key) => typeof prefill[key] === 'string' && prefill[key] !== '')
		.map((key) => `${key}=${encodeURIComponent(prefill[key] as string)}`)
		.join('&');
	const address = `${userPageUrl(host)}/${meetingType.slug}`;
	return query ? `${address}?${query}` : address;
}

/** A link as the API shows it: without its owner. */
function linkJson({ id, url, meetingTypeId, used, expiresAt, createdAt }: OneTimeLink) {
	return { id, url, meetingTypeId, used, expiresAt, createdAt };
}

function visibleLink({ actor, params, store }: Call): OneTimeLink {
	return visible(store.oneTimeLinks.get(params.id), (link) => canSeeOwnedBy(store, actor, link.userId), 'One-time booking link');
}
