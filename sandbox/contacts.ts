import { randomUUID } from 'node:crypto';
import { Contact, Store } from './store';

/** What a booking knows about its attendee. */
export interface AttendeeDetails {
	email: string;
	firstname?: string | null;
	lastname?: string | null;
	phone?: string | null;
	language?: string | null;
}

/** The company's CRM contact of this email (case-insensitive), its empty fields filled in; else a new contact owned by the host. */
export function contactForAttendee(store: Store, companyId: string, ownerId: string, attendee: AttendeeDetails): Contact {
	const email = attendee.email.toLowerCase();
	const found = [...store.contacts.values()].find((contact) => contact.companyId === companyId && contact.email?.toLowerCase() === email);
	const details = {
		firstName: attendee.firstname ?? null,
		lastName: attendee.lastname ?? null,
		phoneNumber: attendee.phone ?? null,
		language: attendee.language ?? null,
	};
	return found ? enrich(store, found, details) : create(store, companyId, ownerId, attendee.email, details);
}

type Details = Pick<Contact, 'firstName' | 'lastName' | 'phoneNumber' | 'language'>;

function enrich(store: Store, contact: Contact, details: Details): Contact {
	const keys = Object.keys(details) as Array<keyof Details>;
	const empty = keys.filter((key) => !contact[key] && details[key]);
	for (const key of empty) contact[key] = details[key];
	if (empty.length > 0) contact.updatedAt = store.clock.iso();
	return contact;
}

function create(store: Store, companyId: string, ownerId: string, email: string, details: Details): Contact {
	const now = store.clock.iso();
	const contact: Contact = {
		id: randomUUID(),
		companyId,
		firstName: details.firstName,
		lastName: details.lastName,
		email,
		phoneNumber: details.phoneNumber,
		language: details.language,
		tags: [],
		notes: null,
		crmCompanyId: null,
		accountOwnerId: ownerId,
		additionalData: {},
		address: null,
		title: null,
		employer: null,
		seniority: null,
		function: null,
		location: null,
		noShowCount: 0,
		createdAt: now,
		updatedAt: now,
	};
	store.contacts.set(contact.id, contact);
	return contact;
}
