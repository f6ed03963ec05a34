import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { MatchKey } from '../records';
import { comparable, companyLocator, contactOrEmailLocator, contactsWith, readContact } from '../records';
import { declareResource } from '../../shared/declare';
import { returnAllFields } from '../../shared/getMany';
import { locatorField, userLocator } from '../../shared/locators';
import { oneAtATime } from '../../shared/serial';
import { simplifyOption } from '../../shared/simplify';
import type { OperationCall, OperationDefinition } from '../../shared/types';
import { rowOutcomes } from '../bulk';
import { contactBody, contactFieldsProperty, mergedAddress } from '../contactFields';
import { EMAIL_PAGES } from './email';
import { sortOrderField } from '../fields';

/**
 * Contact (api-reference §3). The API answers a contact as { item, appointments }: the node outputs the
 * contact itself. Create does not deduplicate; Create or Update finds the contact of the email (else of the phone
 * number) first.
 */

/**
 * What Simplify keeps of a contact (api-reference §3 Contact): who it is, how to reach them, its tags, and the company
 * and owner to link to.
 */
const SIMPLE_CONTACT = ['id', 'firstName', 'lastName', 'email', 'phoneNumber', 'tags', 'crmCompanyId', 'accountOwnerId', 'createdAt', 'updatedAt'];

const IMPORT_BATCH = 1000;
const DELETE_BATCH = 500;
const BULK_CALLS_PER_MINUTE = 3;
const ACTIVITY_PAGE = 50;

/** The mapped contact fields join the body built from the other fields. */
function withContactFields(operation: string, clear = false): Pick<OperationDefinition, 'prepare'> {
	return {
		prepare: async (call) => {
			Object.assign(call.request.body!, await contactBody(call, operation, clear));
		},
	};
}

const sameList = (a: unknown, b: unknown) => JSON.stringify([...((a as unknown[]) ?? [])].sort()) === JSON.stringify([...((b as unknown[]) ?? [])].sort());

/** What of the wanted fields differs from the contact (an email differing only in case does not; additionalData key by key; the address part by part). */
function changes(contact: IDataObject, wanted: IDataObject): IDataObject {
	const result: IDataObject = {};
	for (const [key, value] of Object.entries(wanted)) {
		if (key === 'address') {
			const address = mergedAddress(contact.address, value as IDataObject);
			if (JSON.stringify(address) !== JSON.stringify(mergedAddress(contact.address, {}))) result.address = address;
		} else if (key === 'additionalData') {
			const stored = (contact.additionalData ?? {}) as IDataObject;
			const data = Object.fromEntries(Object.entries(value as IDataObject).filter(([name, v]) => JSON.stringify(stored[name]) !== JSON.stringify(v)));
			if (Object.keys(data).length) result.additionalData = data;
		} else if (key === 'email' ? comparable(key, contact.email) !== comparable(key, value) : key === 'tags' ? !sameList(contact.tags, value) : contact[key] !== value) {
			result[key] = value;
		}
	}
	return result;
}

/**
 * Create or Update: the contact of the email, or without an email of the phone number (the oldest when several share
 * it), gets only what differs; none is created. Items with the same key run one after the other, so a new one is
 * created once.
 */
async function createOrUpdate(call: OperationCall): Promise<IDataObject[]> {
	const wanted = call.request.body!;
	const key: MatchKey = wanted.email ? { field: 'email', value: String(wanted.email) } : { field: 'phoneNumber', value: String(wanted.phoneNumber) };
	return await oneAtATime(`${key.field}:${comparable(key.field, key.value)}`, async () => {
		const [found] = (await contactsWith(call.send, key, call.fail)).sort((a, b) => String(a.createdAt).localeCompare(String(b.createdAt)));
		if (!found) return [{ ...readContact(await call.send({ method: 'POST', path: '/crm', body: wanted }), call.fail), outcome: 'created' }];
		const changed = changes(found, wanted);
		if (!Object.keys(changed).length) return [{ ...found, outcome: 'unchanged' }];
		const updated = await call.send({ method: 'PATCH', path: '/crm/{id}', pathParams: { id: String(found.id) }, body: changed });
		return [{ ...readContact(updated, call.fail), outcome: 'updated' }];
	});
}

/**
 * Update: tags replaced, or added to or removed from the contact's tags; address parts changed in the contact's
 * address. Those two need the contact as it is: read once, only then.
 */
async function prepareUpdate(call: OperationCall): Promise<void> {
	const body = call.request.body!;
	Object.assign(body, await contactBody(call, 'update', true));
	const mode = call.read('updateFields.tagsMode') ?? 'replace';
	const tagsChange = body.tags !== undefined && mode !== 'replace';
	if (!tagsChange && !body.address) return;
	const contact = readContact(await call.send({ method: 'GET', path: '/crm/details', qs: { contactId: call.request.pathParams!.id } }), call.fail);
	if (body.address) body.address = mergedAddress(contact.address, body.address as IDataObject);
	if (!tagsChange) return;
	const current = (contact.tags ?? []) as string[];
	const given = body.tags as string[];
	body.tags = mode === 'add' ? [...current, ...given.filter((tag) => !current.includes(tag))] : current.filter((tag) => !given.includes(tag));
}

const tagsField: INodeProperties = {
	displayName: 'Tags',
	name: 'tags',
	type: 'string',
	typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Tag' },
	default: [],
	description: 'Tags of the contact (an expression may give a list of texts, or one text with commas)',
};

const ownerField: INodeProperties = locatorField('Account Owner', 'accountOwnerId', 'The user of the company who owns the contact', userLocator);

const companyField = locatorField('Company', 'crmCompanyId', 'The CRM company the contact works for', companyLocator);

/** The contact fields of a bulk import besides Contact Fields (Contact and Deal → Import Many). */
export const contactImportFields: INodeProperties[] = [
	{
		displayName: 'Account Owner Email',
		name: 'accountOwnerEmail',
		type: 'string',
		placeholder: 'name@email.com',
		default: '',
		description: 'Email of the user of the company who owns the contact',
	},
	{
		displayName: 'Company (ID or Name)',
		name: 'crmCompanyRef',
		type: 'string',
		default: '',
		description: 'The CRM company the contact works for, by ID or name; an unknown name creates the company',
	},
	tagsField,
];

const getBy: INodeProperties = {
	displayName: 'Get By',
	name: 'getBy',
	type: 'options',
	options: [
		{ name: 'Contact', value: 'contactId' },
		{ name: 'Attendee ID', value: 'attendeeId', description: 'The attendee of a booking: its contact' },
	],
	default: 'contactId',
};

const contactId: INodeProperties = { ...locatorField('Contact', 'contactId', 'The contact to work on. Type to search names, emails and phone numbers.', contactOrEmailLocator), required: true };

const contactToGet: INodeProperties = { ...locatorField('Contact', 'contactId', 'The contact to get. Type to search names, emails and phone numbers.', contactOrEmailLocator), required: true, displayOptions: { show: { getBy: ['contactId'] } } };

const attendeeId: INodeProperties = {
	displayName: 'Attendee ID',
	name: 'attendeeId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
	displayOptions: { show: { getBy: ['attendeeId'] } },
	description: 'ID of an attendee of a booking (from an appointment\'s attendees)',
};

const additionalFields: INodeProperties = {
	displayName: 'Additional Fields',
	name: 'additionalFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [ownerField, companyField, tagsField],
};

const updateFields: INodeProperties = {
	displayName: 'Update Fields',
	name: 'updateFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [
		ownerField,
		companyField,
		tagsField,
		{
			displayName: 'Tags Mode',
			name: 'tagsMode',
			type: 'options',
			options: [
				{ name: 'Replace', value: 'replace', description: 'The contact gets exactly these tags' },
				{ name: 'Add', value: 'add', description: 'These tags are added to the contact\'s tags' },
				{ name: 'Remove', value: 'remove', description: 'These tags are removed from the contact\'s tags' },
			],
			default: 'replace',
			description: 'What the Tags do to the contact\'s current tags',
		},
	],
};

const existingContacts: INodeProperties = {
	displayName: 'Existing Contacts',
	name: 'existingContacts',
	type: 'options',
	options: [
		{ name: 'Update', value: 'update', description: 'A row whose email belongs to a contact updates that contact' },
		{ name: 'Skip', value: 'skip', description: 'A row whose email belongs to a contact is left out' },
	],
	default: 'update',
};

const importFields: INodeProperties = {
	displayName: 'Import Fields',
	name: 'importFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: contactImportFields,
};

const activityTypes: INodeProperties = {
	displayName: 'Activity Types',
	name: 'activityTypes',
	type: 'multiOptions',
	options: ['communication', 'conversation', 'email', 'form', 'meeting', 'note', 'task'].map((value) => ({ name: value[0].toUpperCase() + value.slice(1), value })),
	default: [],
	description: 'Only these kinds of activity; none picked: all',
};

const returnAll = returnAllFields();

const filters: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options: [
		{ ...ownerField, name: 'ownerId', description: 'Only contacts this user owns' },
		{
			displayName: 'Search Term',
			name: 'searchTerm',
			type: 'string',
			default: '',
			description: 'Part of a name, email or phone number (not an exact email match)',
		},
		{ ...tagsField, description: 'Only contacts with all of these tags' },
	],
};

const sort: INodeProperties = {
	displayName: 'Sort',
	name: 'sort',
	type: 'collection',
	placeholder: 'Add Sort',
	default: {},
	options: [
		{
			displayName: 'Sort By',
			name: 'sortBy',
			type: 'options',
			options: [
				{ name: 'Created At', value: 'createdAt' },
				{ name: 'Email', value: 'email' },
				{ name: 'First Name', value: 'firstName' },
				{ name: 'Last Name', value: 'lastName' },
			],
			default: 'createdAt',
		},
		sortOrderField,
	],
};

export const { definitions: contactOperations, properties: contactProperties } = declareResource('contact', {
	default: 'create',
	operations: {
		create: {
			option: {
				name: 'Create',
				description: 'Needs Email or Phone Number in Contact Fields; returns the contact (no duplicate check: see Create or Update)',
				action: 'Create a contact from an email or phone number',
			},
			method: 'POST',
			path: '/crm',
			body: {
				tags: 'additionalFields.tags',
				accountOwnerId: 'additionalFields.accountOwnerId',
				crmCompanyId: 'additionalFields.crmCompanyId',
			},
			...withContactFields('create'),
			output: (answer, call) => [readContact(answer, call.fail)],
			fields: [contactFieldsProperty, additionalFields],
		},
		upsert: {
			option: {
				name: 'Create or Update',
				description: 'Create a new contact (found by email, else phone number), or update the current one if it already exists (upsert)',
				action: 'Create or update a contact by email or phone',
			},
			method: 'POST',
			path: '/crm',
			body: {
				tags: 'additionalFields.tags',
				accountOwnerId: 'additionalFields.accountOwnerId',
				crmCompanyId: 'additionalFields.crmCompanyId',
			},
			prepare: async (call) => {
				Object.assign(call.request.body!, await contactBody(call, 'upsert', false));
				const { email, phoneNumber } = call.request.body!;
				if (!email && !phoneNumber) {
					call.fail(
						'Create or Update needs an email or a phone number to find the contact',
						'Map the Email field (or, for contacts known only by phone, Phone Number) in Contact Fields, or give the input items an "email" or "phoneNumber" field with "Map Automatically".',
					);
				}
			},
			perform: createOrUpdate,
			fields: [contactFieldsProperty, additionalFields],
		},
		get: {
			option: {
				name: 'Get',
				description: 'Needs the contact (ID or email) or an attendee ID; returns the contact (with its appointments when Simplify is off)',
				action: 'Get a contact by ID or email',
			},
			method: 'GET',
			path: '/crm/details',
			query: { contactId: 'contactId', attendeeId: 'attendeeId' },
			output: (answer, call) => [{ ...readContact(answer, call.fail), appointments: (answer as IDataObject).appointments }],
			simplify: SIMPLE_CONTACT,
			fields: [getBy, contactToGet, attendeeId, simplifyOption],
		},
		getAll: {
			option: { name: 'Get Many', description: 'Filters by text, tags or owner, each optional; returns one item per contact', action: 'Get many contacts' },
			method: 'GET',
			path: '/crm',
			query: {
				searchTerm: 'filters.searchTerm',
				tags: 'filters.tags',
				ownerId: 'filters.ownerId',
				sortBy: 'sort.sortBy',
				sortOrder: 'sort.sortOrder',
			},
			pagination: {
				style: 'page1',
				pick: (answer) =>
					(((answer as IDataObject).result ?? []) as IDataObject[]).map((row) => ({ ...(row.item as IDataObject), appointments: row.appointments, nextAppointmentIso: row.nextAppointmentIso })),
			},
			simplify: SIMPLE_CONTACT,
			fields: [...returnAll, simplifyOption, filters, sort],
		},
		update: {
			option: { name: 'Update', description: 'Needs the contact and the fields, tags or data fields to change; returns the contact', action: 'Update a contact' },
			method: 'PATCH',
			path: '/crm/{id}',
			pathParams: { id: 'contactId' },
			body: {
				tags: 'updateFields.tags',
				accountOwnerId: 'updateFields.accountOwnerId',
				crmCompanyId: 'updateFields.crmCompanyId',
			},
			prepare: prepareUpdate,
			output: (answer, call) => [readContact(answer, call.fail)],
			fields: [contactId, contactFieldsProperty, updateFields],
		},
		delete: {
			option: { name: 'Delete', description: 'Needs the contact (ID or email); deletes it for good and returns { deleted: true }', action: 'Delete a contact' },
			method: 'DELETE',
			path: '/crm/{id}',
			pathParams: { id: 'contactId' },
			fields: [contactId],
		},
		getNotes: {
			option: { name: 'Get Notes', description: 'Needs the contact; returns one item per note, pinned first', action: 'Get the notes of a contact' },
			method: 'GET',
			path: '/crm/contacts/{id}/notes',
			pathParams: { id: 'contactId' },
			fields: [contactId],
		},
		getCommunications: {
			option: {
				name: 'Get Communications',
				description: 'Needs the contact; returns one item per logged communication, the latest first',
				action: 'Get the communications of a contact',
			},
			method: 'GET',
			path: '/crm/contacts/{contactId}/communications',
			pathParams: { contactId: 'contactId' },
			fields: [contactId],
		},
		getActivity: {
			option: {
				name: 'Get Activity',
				description: 'Needs the contact (Activity Types optional); returns one item per activity, newest first',
				action: 'Get the activity of a contact',
			},
			method: 'GET',
			path: '/crm/contacts/{id}/activity',
			pathParams: { id: 'contactId' },
			query: { types: 'activityTypes' },
			pagination: { style: 'cursor', itemsKey: 'items', maxPageSize: ACTIVITY_PAGE },
			fields: [contactId, activityTypes, ...returnAll],
		},
		getEmails: {
			option: {
				name: 'Get Emails',
				description: 'Needs the contact; returns one item per synced email: headers and preview (the text: Email → Get Body)',
				action: 'Get the synced emails of a contact',
			},
			method: 'GET',
			path: '/crm/contacts/{id}/emails',
			pathParams: { id: 'contactId' },
			pagination: EMAIL_PAGES,
			fields: [contactId, ...returnAll],
		},
		getAttachments: {
			option: {
				name: 'Get Attachments',
				description: 'Needs the contact; returns one item per attached file, as the API gives it',
				action: 'Get the attachments of a contact',
			},
			method: 'GET',
			path: '/crm/contacts/{id}/attachments',
			pathParams: { id: 'contactId' },
			fields: [contactId],
		},
		deleteMany: {
			option: {
				name: 'Delete Many',
				description: 'Needs a contact per input item (500 per call); returns each contact ID with its call\'s counts',
				action: 'Delete many contacts',
			},
			method: 'POST',
			path: '/crm/bulk-delete',
			body: { contactId: { param: 'contactId', check: 'required' } },
			callsPerMinute: BULK_CALLS_PER_MINUTE,
			batch: {
				size: DELETE_BATCH,
				wrap: (bodies) => ({ contactIds: bodies.map((body) => body.contactId) }),
				split: (answer, bodies) => bodies.map((body) => ({ contactId: body.contactId, call: answer as IDataObject })),
			},
			fields: [contactId],
		},
		importMany: {
			option: {
				name: 'Import Many',
				description: 'Needs an email or phone number per input item (1,000 per call, 3 calls a minute); returns each row\'s outcome',
				action: 'Import many contacts',
			},
			method: 'POST',
			path: '/crm/bulk',
			body: {
				tags: 'importFields.tags',
				accountOwnerEmail: { param: 'importFields.accountOwnerEmail', check: 'email' },
				crmCompanyRef: 'importFields.crmCompanyRef',
			},
			...withContactFields('importMany'),
			callsPerMinute: BULK_CALLS_PER_MINUTE,
			batch: {
				size: IMPORT_BATCH,
				wrap: (bodies, call) => ({ contacts: bodies, updateExisting: call.read('existingContacts') !== 'skip' }),
				split: rowOutcomes,
			},
			fields: [contactFieldsProperty, existingContacts, importFields],
		},
	},
});
