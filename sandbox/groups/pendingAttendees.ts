import { apiError } from '../errors';
import { Call, Group } from '../handler';
import { perStore, Store } from '../store';

/**
 * Attendee Pending V4 (Beta, api-reference §7): the partial booking-form entries of people who started a booking and
 * did not finish (numeric ids), deleted once a booking of that email completes (booking.ts).
 */

interface PendingAttendee {
	id: number;
	companyId: string;
	email: string | null;
	firstname: string | null;
	lastname: string | null;
	fullname: string | null;
	phone: string | null;
	language: string | null;
	timezone: string | null;
	notes: string | null;
	bringalongEmails: string[];
	createdAt: string;
	updatedAt: string;
}

const pendingOf = perStore<{ entries: PendingAttendee[]; nextId: number }>(() => ({ entries: [], nextId: 1 }));

/** A booking of this email completed: its pending entries of the company are gone. */
export function completePendingAttendee(store: Store, companyId: string, email: string): void {
	const state = pendingOf(store);
	state.entries = state.entries.filter((entry) => entry.companyId !== companyId || entry.email?.toLowerCase() !== email.toLowerCase());
}

function create({ store, actor, body }: Call): number {
	if (body.email === undefined && body.phone === undefined) throw apiError(400, ['email should not be empty']);
	const state = pendingOf(store);
	const now = store.clock.iso();
	const text = (key: string) => (body[key] as string | undefined) ?? null;
	const joined = [body.firstname, body.lastname].filter(Boolean).join(' ');
	state.entries.push({
		id: state.nextId++,
		companyId: actor.company.id,
		email: text('email'),
		firstname: text('firstname'),
		lastname: text('lastname'),
		fullname: text('fullname') ?? (joined || null),
		phone: text('phone'),
		language: text('language'),
		timezone: text('timezone'),
		notes: text('notes'),
		bringalongEmails: (body.bringalongEmails as string[] | undefined) ?? [],
		createdAt: now,
		updatedAt: now,
	});
	return state.nextId - 1;
}

export const pendingAttendees: Group = {
	listPendingAttendees: ({ store, actor }) => pendingOf(store).entries.filter((entry) => entry.companyId === actor.company.id).reverse(),
	createPendingAttendee: create,
};
