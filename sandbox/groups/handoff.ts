import { randomUUID } from 'node:crypto';
import { apiError } from '../errors';
import { Group } from '../handler';
import { Handoff } from '../store';
import { canSee, visible, visibleMeetingType } from '../visibility';
import { bookingPageUrl } from './bookingLinks';

type HandoffInput = Pick<Handoff, 'email'> & Partial<Record<'firstname' | 'lastname' | 'phone' | 'note' | 'meetingTypeId' | 'queueId', string>>;

const LIFETIME_SECONDS = 7 * 86400;

/** Handoff V4: a lead handed to a human host with a prefilled booking link. */
export const handoff: Group = {
	createHandoff: ({ actor, body, store }) => {
		const input = body as HandoffInput;
		if (!input.meetingTypeId && !input.queueId) throw apiError(400, 'Expected meetingTypeId or queueId');
		if (input.queueId) throw apiError(404, 'Queue not found');
		const meetingType = visibleMeetingType(store, actor, input.meetingTypeId!);
		const now = store.clock.now();
		const created: Handoff = {
			id: randomUUID(),
			userId: actor.user.id,
			companyId: actor.company.id,
			url: bookingPageUrl(store, meetingType, input),
			assignedUserId: meetingType.userId,
			status: 'pending',
			email: input.email,
			firstname: input.firstname ?? null,
			lastname: input.lastname ?? null,
			phone: input.phone ?? null,
			note: input.note ?? null,
			meetingTypeId: meetingType.id,
			queueId: null,
			expiresAt: store.clock.iso(now + LIFETIME_SECONDS * 1000),
			createdAt: store.clock.iso(now),
		};
		store.handoffs.set(created.id, created);
		const { id, url, assignedUserId, status, createdAt } = created;
		return { id, url, assignedUserId, status, createdAt };
	},

	/** Seen by its creator, its assigned host and admins. A pending handoff past its expiry becomes expired when read. */
	getHandoff: ({ actor, params, store }) => {
		const seen = (handoff: Handoff) => canSee(actor, [handoff.userId, handoff.assignedUserId], handoff.companyId);
		const found = visible(store.handoffs.get(params.id), seen, 'Handoff');
		if (found.status === 'pending' && store.clock.now() >= Date.parse(found.expiresAt)) found.status = 'expired';
		return found;
	},
};
