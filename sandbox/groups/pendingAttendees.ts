import { apiError } from '../errors';
import { Call, Group } from '../handler';
import { perStore, Store } from '../store';

/**
 * Attendee Pending V4 (Beta, api-reference §7): the partial booking-form entries of people who started a booking and
 * did not finish (numeric ids), deleted once a booking of that email completes (booking.ts). Create and update need a
 * name (`fullname`, or `firstname` and `lastname`); `notes` is an object of form entries.
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
	notes: Record<string, unknown>;
	bringalongEmails: string[];
	createdAt: string;
	updatedAt: string;
	deletedAt: string | null;
}

const pendingOf = perStore<{ entries: PendingAttendee[]; nextId: number }>(() => ({ entries: [], nextId: 1 }));

/** A booking of this email completed: its pending entries of the company are gone. */
export function completePendingAttendee(store: Store, companyId: string, email: string): void {
	const state = pendingOf(store);
	state.entries = state.entries.filter((entry) => entry.companyId !== companyId || entry.email?.toLowerCase() !== email.toLowerCase());
}

/** The name rule of create and update (designed wording, class-validator style). */
function assertNamed(body: Record<string, unknown>): void {
	if (!body.fullname && !(body.firstname && body.lastname)) throw apiError(400, ['fullname should not be empty']);
}

/** The fields an entry takes from a body (`dataPolicyAccepted` is accepted; the list rows do not show it, so it is not kept). */
function entryFields(body: Record<string, unknown>): Omit<PendingAttendee, 'id' | 'companyId' | 'createdAt' | 'updatedAt' | 'deletedAt'> {
	const text = (key: string) => (body[key] as string | undefined) ?? null;
	const joined = [body.firstname, body.lastname].filter(Boolean).join(' ');
	return {
		email: text('email'),
		firstname: text('firstname'),
		lastname: text('lastname'),
		fullname: text('fullname') ?? (joined || null),
		phone: text('phone'),
		language: text('language'),
		timezone: text('timezone'),
		notes: body.notes as Record<string, unknown>,
		bringalongEmails: (body.bringalongEmails as string[] | undefined) ?? [],
	};
}

function create({ store, actor, body }: Call): number {
	if (body.email === undefined && body.phone === undefined) throw apiError(400, ['email should not be empty']);
	assertNamed(body);
	const state = pendingOf(store);
	const now = store.clock.iso();
	state.entries.push({ id: state.nextId++, companyId: actor.company.id, ...entryFields(body), createdAt: now, updatedAt: now, deletedAt: null });
	return state.nextId - 1;
}

/**
 * `PATCH /v4/attendee/pending/{id}`: the numeric id of an entry of the body's company (the caller's); the fields given
 * replace the entry's (the name always: it is required); answers the id.
 */
function update({ store, actor, params, body }: Call): number {
	if (!/^\d+$/.test(params.id)) throw apiError(400, 'Validation failed (numeric string is expected)');
	assertNamed(body);
	const entry = pendingOf(store).entries.find((candidate) => String(candidate.id) === params.id && candidate.companyId === actor.company.id);
	if (!entry || body.companyId !== actor.company.id) throw apiError(404, 'Pending attendee not found');
	const fields = Object.entries(entryFields(body)).filter(([key]) => key === 'fullname' || body[key] !== undefined);
	Object.assign(entry, Object.fromEntries(fields), { updatedAt: store.clock.iso() });
	return entry.id;
}

export const pendingAttendees: Group = {
	listPendingAttendees: ({ store, actor }) => pendingOf(store).entries.filter((entry) => entry.companyId === actor.company.id).reverse(),
	createPendingAttendee: create,
	updatePendingAttendee: update,
};
