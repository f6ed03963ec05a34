import { randomUUID } from 'node:crypto';
import { assertOwner, countBy, customFieldsOf, notFound, page1, Page1Query, tenantRecord, tenantRecords } from '../crm';
import { attachmentsOn } from '../crmAttachments';
import { Call, Group } from '../handler';
import { Appointment, Contact, CrmCompany } from '../store';

const OPTIONAL_FIELDS = ['domain', 'industry', 'size', 'website', 'phoneNumber', 'addressLine1', 'addressLine2', 'addressCity', 'addressZip', 'addressCountry', 'notes'];

type CompanyInput = Record<string, unknown> & { customFields?: Record<string, unknown> };

function pathCompany({ actor, params, store }: Call): CrmCompany {
	return tenantRecord(store, actor, 'crmCompanies', params.id);
}

function companyContacts(call: Call, company: CrmCompany): Contact[] {
	return [...call.store.contacts.values()].filter((contact) => contact.crmCompanyId === company.id);
}

/** The tenant's appointments with any of these contacts as attendee (by email, case-insensitive), oldest first. */
function meetingsWith(call: Call, contacts: Contact[]): Appointment[] {
	const emails = new Set(contacts.map((contact) => contact.email?.toLowerCase()).filter(Boolean));
	return [...call.store.appointments.values()]
		.filter((appointment) => appointment.companyId === call.actor.company.id && appointment.attendees.some((attendee) => emails.has(attendee.email.toLowerCase())))
		.sort((a, b) => a.start.localeCompare(b.start));
}

/** CRM Companies. */
export const crmCompanies: Group = {
	listCrmCompanies: ({ actor, query, store }) => {
		const { search, industry, size, ownerId } = query as Record<string, string | undefined>;
		const needle = search?.toLowerCase();
		const matching = tenantRecords(store.crmCompanies, actor).filter(
			(company) =>
				(!needle || [company.name, company.domain].some((text) => String(text ?? '').toLowerCase().includes(needle))) &&
				(!industry || company.industry === industry) &&
				(!size || company.size === size) &&
				(!ownerId || company.ownerId === ownerId),
		);
		return page1('companies', matching, query as unknown as Page1Query, store);
	},

	/** Owner left out: the acting user (designed, as for deals). */
	createCrmCompany: (call) => {
		const input = call.body as CompanyInput;
		assertOwner(call.store, call.actor, input.ownerId);
		const now = call.store.clock.iso();
		const company: CrmCompany = {
			id: randomUUID(),
			companyId: call.actor.company.id,
			name: String(input.name),
			domain: null,
			...Object.fromEntries(OPTIONAL_FIELDS.map((field) => [field, input[field] ?? null])),
			ownerId: input.ownerId === undefined ? call.actor.user.id : (input.ownerId as string | null),
			customFields: customFieldsOf(call.store, call.actor, 'company', input.customFields, undefined),
			createdAt: now,
			updatedAt: now,
		};
		call.store.crmCompanies.set(company.id, company);
		return company;
	},

	getCrmCompany: pathCompany,

	getCrmCompanyByDomain: ({ actor, params, store }) => {
		const domain = params.domain.toLowerCase();
		const found = tenantRecords(store.crmCompanies, actor).find((company) => company.domain?.toLowerCase() === domain);
		if (!found) throw notFound('crmCompanies');
		return found;
	},

	updateCrmCompany: (call) => {
		const company = pathCompany(call);
		const { customFields, ...changes } = call.body as CompanyInput;
		assertOwner(call.store, call.actor, changes.ownerId);
		const merged = customFields === undefined ? company.customFields : customFieldsOf(call.store, call.actor, 'company', customFields, company.customFields);
		return Object.assign(company, changes, { customFields: merged, updatedAt: call.store.clock.iso() });
	},

	/** Contacts and deals of the company stay, unlinked (designed). */
	deleteCrmCompany: (call) => {
		const company = pathCompany(call);
		for (const record of [...call.store.contacts.values(), ...call.store.deals.values()]) if (record.crmCompanyId === company.id) record.crmCompanyId = null;
		call.store.crmCompanies.delete(company.id);
	},

	listCrmCompanyContacts: (call) => companyContacts(call, pathCompany(call)),

	listCrmCompanyDeals: (call) => {
		const company = pathCompany(call);
		return [...call.store.deals.values()].filter((deal) => deal.crmCompanyId === company.id);
	},

	/** The figures are designed where api-reference §3 names only the keys. */
	getCrmCompanySummary: ({ actor, query, store }) => {
		const companies = tenantRecords(store.crmCompanies, actor).filter((company) => !query.ownerId || company.ownerId === query.ownerId);
		const ids = new Set(companies.map((company) => company.id));
		const linked = tenantRecords(store.deals, actor).filter((deal) => deal.crmCompanyId !== null && ids.has(deal.crmCompanyId));
		return {
			totalCompanies: companies.length,
			totalDealsValue: Math.round(linked.reduce((total, deal) => total + Number(deal.value ?? 0), 0) * 100) / 100,
			companiesWithDeals: new Set(linked.map((deal) => deal.crmCompanyId)).size,
			byIndustry: countBy(companies, (company) => company.industry),
			bySize: countBy(companies, (company) => company.size),
		};
	},

	listCrmCompanyAttachments: (call) => attachmentsOn(call.store, pathCompany(call).id),

	/** Designed shape: meetings with the company's contacts, the contacts met and how often, the first and last start. */
	getCrmCompanyMeetingHistory: (call) => {
		const contacts = companyContacts(call, pathCompany(call));
		const meetings = meetingsWith(call, contacts);
		const attended = (contact: Contact) => meetings.filter((meeting) => meeting.attendees.some((attendee) => attendee.email.toLowerCase() === contact.email?.toLowerCase()));
		return {
			meetings: meetings.map(({ id, start, end, isCancelled, meetingInfo, hostIds, attendees }) => ({ id, start, end, isCancelled, title: meetingInfo.name, hostIds, attendees: attendees.map((attendee) => attendee.email) })),
			people: contacts
				.map((contact) => ({ contactId: contact.id, email: contact.email, firstName: contact.firstName, lastName: contact.lastName, meetingCount: attended(contact).length }))
				.filter((person) => person.meetingCount > 0),
			firstMeetingAt: meetings[0]?.start ?? null,
			lastMeetingAt: meetings[meetings.length - 1]?.start ?? null,
		};
	},
};
