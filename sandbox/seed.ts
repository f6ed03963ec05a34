import { randomUUID } from 'node:crypto';
import { seedInvoicing } from './invoicing';
import { seedMessenger } from './messenger';
import { resetState, SandboxState } from './state';
import { Company, NewMeetingType, NewUser, Stage, Store, User } from './store';

export interface Seed {
	url: string;
	companies: { acme: Company; other: Company };
	users: { owner: User; member: User; outsider: User };
	credentials: { ownerPat: string; memberPat: string; apiKey: string };
}

/** Resets, then fills the sandbox with two companies, three users, their meeting types and credentials, message templates, Acme's demo conversations, its Sales pipeline and its invoicing settings and products. */
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
	seedPipeline(store, acme.id);
	seedInvoicing(store, acme.id);
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

/** Acme's default sales pipeline, for deals made in the demo (the examples put new bookings into it). */
function seedPipeline(store: Store, companyId: string): void {
	const now = store.clock.iso();
	const id = randomUUID();
	const stage = (name: string, order: number, color: string, isWon = false, isLost = false): Stage => ({ id: randomUUID(), pipelineId: id, name, color, order, isWon, isLost, winProbability: null, rottingDays: null });
	const stages = [stage('New', 0, '#3b82f6'), stage('Qualified', 1, '#8b5cf6'), stage('Proposal', 2, '#f59e0b'), stage('Won', 3, '#10b981', true), stage('Lost', 4, '#ef4444', false, true)];
	store.pipelines.set(id, { id, companyId, name: 'Sales', isDefault: true, stages, createdAt: now, updatedAt: now });
}
