import { Actor } from './auth';
import { apiError } from './errors';
import { MeetingType, Store, User } from './store';

/**
 * Who sees what: a member what is theirs, an admin also what belongs to anyone of their company.
 * Anything else does not exist for the caller: 404 "<What> not found".
 */
export function canSee(actor: Actor, ownerIds: string[], companyId: string | undefined): boolean {
	return ownerIds.includes(actor.user.id) || (actor.user.isAdmin && companyId === actor.company.id);
}

/** Something owned by one user (availability, exception, connection, link): that user, or an admin of their company. */
export function canSeeOwnedBy(store: Store, actor: Actor, userId: string): boolean {
	return canSee(actor, [userId], store.users.get(userId)?.companyId);
}

/** The item when the caller may see it, else 404. */
export function visible<T>(item: T | undefined, seen: (item: T) => boolean, what: string): T {
	if (item === undefined || !seen(item)) throw apiError(404, `${what} not found`);
	return item;
}

/** A list narrowed to a user: a member may name only themselves (403). */
export function assertMayList(actor: Actor, userId: string | undefined): void {
	if (userId && userId !== actor.user.id && !actor.user.isAdmin) throw apiError(403, 'Forbidden resource');
}

export function visibleMeetingType(store: Store, actor: Actor, id: string): MeetingType {
	return visible(store.meetingTypes.get(id), (meetingType) => canSee(actor, [meetingType.userId], meetingType.companyId), 'Meeting type');
}

/** A user of the caller's company: anyone in the company may name one; other users do not exist for them. */
export function companyUser(store: Store, actor: Actor, id: string): User {
	return visible(store.users.get(id), (user) => user.companyId === actor.company.id, 'User');
}

/** Any user of the company may book and read slots of its meeting types; other meeting types do not exist for them. */
export function companyMeetingType(store: Store, actor: Actor, id: string): MeetingType {
	return visible(store.meetingTypes.get(id), (meetingType) => meetingType.companyId === actor.company.id, 'Meeting type');
}
