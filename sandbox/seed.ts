import { seedMessenger } from './messenger';
import { resetState, SandboxState } from './state';
import { Company, NewMeetingType, NewUser, Store, User } from './store';

export interface Seed {
	url: string;
	companies: { acme: Company; other: Company };
	users: { owner: User; member: User; outsider: User };
	credentials: { ownerPat: string; memberPat: string; apiKey: string };
}

/** Resets, then fills the sandbox with two companies, three users, their meeting types and credentials, message templates and Acme's demo conversations. */
export function seed(state: SandboxState): Seed {
	resetState(state);
	const { store } = state;
	const acme = store.createCompany('Acme Inc.', 'enterprise');
	const other = store.createCompany('Other Ltd.', 'essentials');
	const owner = demoUser(store, acme, { email: 'ada@acme.example', givenName: 'Ada', familyName: 'Admin', timezone: 'Europe/Berlin' }, [
		{ name: 'Product Demo', description: 'A guided tour of the product.', duration: 60, channel: 'google', bufferAfter: 15 },
		{ name: 'Strategy Workshop', description: 'Planning session for teams.', duration: 120, channel: 'zoom', bufferBefore: 10 },
	]);
	const member = demoUser(store, acme, { email: 'max@acme.example', givenName: 'Max', familyName: 'Member', timezone: 'America/New_York' }, [
		{ name: 'Quick Call', description: '', duration: 15, channel: 'phone' },
	]);
	const outsider = demoUser(store, other, { email: 'olga@other.example', givenName: 'Olga', familyName: 'Outsider', timezone: 'Asia/Tokyo' }, [
		{ name: 'Consultation', description: 'Paid consultation.', duration: 45, channel: 'jitsi' },
	]);
	seedMessenger(store, acme.id, true);
	seedMessenger(store, other.id, false);
	return {
		url: state.url,
		companies: { acme, other },
		users: { owner, member, outsider },
		credentials: {
			ownerPat: store.createPat(owner.id).token,
			memberPat: store.createPat(member.id).token,
			apiKey: store.createApiKey(acme.id, 'Demo key', 90).key,
		},
	};
}

function demoUser(store: Store, company: Company, input: NewUser, extras: NewMeetingType['meetingInfo'][]): User {
	const { user, availability } = store.createUser(company, input);
	for (const meetingInfo of extras) store.createMeetingType(user, { meetingInfo, availabilityId: availability.id });
	return user;
}
