import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { declareResource } from '../../shared/declare';
import { returnAllFields } from '../../shared/getMany';
import { emailList } from '../../shared/inputChecks';
import { jsonOf } from '../../shared/json';
import type { OperationCall, ParamSource } from '../../shared/types';
import { locatorField } from '../../shared/locators';
import { pendingAttendeeLocator } from '../locators';
import { formAnswers, formAnswersField, nameProblem } from '../../SchedulingPlatform/records';

/**
 * Pending Attendee (api-reference §7, Beta): people who started a booking form and did not finish (numeric IDs),
 * gone once their booking completes: the list to follow up abandoned bookings from. Create and Update need a name
 * (Full Name, or First Name and Last Name); the form entries (`notes`) are an object, `{}` when none.
 */

const PENDING = '/v4/attendee/pending';

/** The body of Create and Update: what both take, the optional fields from their Additional Fields. */
const entryBody: Record<string, ParamSource> = {
	firstname: 'firstName',
	lastname: 'lastName',
	fullname: 'additionalFields.fullName',
	// Form Answers Input "Using JSON"; with the rows (the JSON field hidden), fillNotes converts them.
	notes: { param: 'formAnswersJson', convert: jsonOf('object') },
	phone: { param: 'additionalFields.phone', check: 'phone' },
	language: 'additionalFields.language',
	timezone: { param: 'additionalFields.timezone', check: 'timezone' },
	bringalongEmails: { param: 'additionalFields.guestEmails', convert: emailList(5) },
	dataPolicyAccepted: 'additionalFields.dataPolicyAccepted',
};

const unnamed = (body: IDataObject) => nameProblem(body, 'The pending attendee');

/** The form entries are always sent: the Label/Value rows (as Booking → Create's) unless given as JSON; `{}` when none. */
function fillNotes(call: OperationCall): void {
	call.request.body!.notes ??= formAnswers(call.read('formAnswers') ?? {}, call) as IDataObject;
}

/** Update: the form entries, and without a Company ID the acting user's company, read once per node run. */
async function prepareUpdate(call: OperationCall): Promise<void> {
	fillNotes(call);
	const body = call.request.body!;
	if (body.companyId !== undefined) return;
	const me = (await call.lookup({ method: 'GET', path: '/v4/user/me' })) as IDataObject;
	if (!me.companyId) call.fail('The acting user\'s company could not be read', 'Enter the Company ID in Additional Fields.');
	body.companyId = me.companyId;
}

/** The languages the API takes (api-reference §7). */
const languageOptions = [
	{ name: 'Danish', value: 'da' },
	{ name: 'Dutch', value: 'nl' },
	{ name: 'English', value: 'en' },
	{ name: 'French', value: 'fr' },
	{ name: 'German', value: 'de' },
	{ name: 'Italian', value: 'it' },
	{ name: 'Norwegian', value: 'no' },
	{ name: 'Polish', value: 'pl' },
	{ name: 'Spanish', value: 'es' },
	{ name: 'Swedish', value: 'sv' },
	{ name: 'Turkish', value: 'tr' },
];

/** The options of Create's and Update's Additional Fields. */
const additionalOptions: INodeProperties[] = [
	{ displayName: 'Data Policy Accepted', name: 'dataPolicyAccepted', type: 'boolean', default: false, description: 'Whether the person accepted the data policy' },
	{
		displayName: 'Full Name',
		name: 'fullName',
		type: 'string',
		default: '',
		description: 'The person\'s full name, when it is not just first and last name. Required unless First Name and Last Name are both set.',
	},
	{ displayName: 'Guest Emails', name: 'guestEmails', type: 'string', default: '', description: 'Guests the person wanted to bring, separated by commas (at most 5)' },
	{ displayName: 'Language', name: 'language', type: 'options', options: languageOptions, default: 'en', description: 'The language of the person\'s booking' },
	{ displayName: 'Phone', name: 'phone', type: 'string', default: '', placeholder: '+4915112345678', description: 'In E.164 form' },
	{ displayName: 'Timezone', name: 'timezone', type: 'string', default: '', placeholder: 'e.g. Europe/Berlin' },
];

const pendingAttendee: INodeProperties = { ...locatorField('Pending Attendee', 'pendingAttendeeId', 'The entry to change (its ID is a number)', pendingAttendeeLocator), required: true };

const createEmail: INodeProperties = { displayName: 'Email', name: 'email', type: 'string', placeholder: 'name@email.com', default: '', description: 'The person\'s email (or a Phone in Additional Fields)' };
const updateEmail: INodeProperties = { displayName: 'Email', name: 'email', type: 'string', placeholder: 'name@email.com', required: true, default: '', description: 'The person\'s email' };
const firstName: INodeProperties = { displayName: 'First Name', name: 'firstName', type: 'string', default: '', description: 'Required with Last Name unless Full Name is set' };
const lastName: INodeProperties = { displayName: 'Last Name', name: 'lastName', type: 'string', default: '', description: 'Required with First Name unless Full Name is set' };

const formAnswersInput: INodeProperties = {
	displayName: 'Form Answers Input',
	name: 'formAnswersInput',
	type: 'options',
	noDataExpression: true,
	options: [
		{ name: 'Using Fields Below', value: 'fields', description: 'One Label/Value row per answer' },
		{ name: 'Using JSON', value: 'json', description: 'An object of answers, e.g. an entry\'s notes as Get Many outputs them' },
	],
	default: 'fields',
	description: 'How the booking-form answers are entered. They are always sent ({} when none): on Update they replace the entry\'s answers.',
};

/** Shown with one way of entering the form answers. */
const answersAs = (mode: string) => ({ show: { formAnswersInput: [mode] } });

const formAnswersRows = formAnswersField('The answers the person gave in the booking form', answersAs('fields'));

const formAnswersJson: INodeProperties = {
	displayName: 'Form Answers (JSON)',
	name: 'formAnswersJson',
	type: 'json',
	default: '{}',
	displayOptions: answersAs('json'),
	description: 'The answers as an object of label → value, e.g. {"Company": "Acme"}; or an expression giving the notes of an entry that Get Many put out',
};

const createAdditionalFields: INodeProperties = { displayName: 'Additional Fields', name: 'additionalFields', type: 'collection', placeholder: 'Add Field', default: {}, options: additionalOptions };

const updateAdditionalFields: INodeProperties = {
	displayName: 'Additional Fields',
	name: 'additionalFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [
		{
			displayName: 'Company ID',
			name: 'companyId',
			type: 'string',
			default: '',
			placeholder: 'e.g. 3b9d6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f',
			description: 'The company of the entry, in UUID form (the API requires it). Empty: the company of the acting user, read once per run with GET /v4/user/me.',
		},
		...additionalOptions,
	],
};

export const { definitions: pendingAttendeeOperations, properties: pendingAttendeeProperties } = declareResource('pendingAttendee', {
	default: 'getAll',
	operations: {
		create: {
			option: { name: 'Create', description: 'Needs an email or phone and a name; returns its ID', action: 'Create a pending attendee' },
			method: 'POST',
			path: PENDING,
			body: { email: { param: 'email', check: 'email' }, ...entryBody },
			check: ({ body }) => unnamed(body!) ?? (body!.email === undefined && body!.phone === undefined ? 'Email or Phone is required' : undefined),
			prepare: async (call) => fillNotes(call),
			output: (answer) => [{ id: answer as number }],
			fields: [createEmail, firstName, lastName, formAnswersInput, formAnswersRows, formAnswersJson, createAdditionalFields],
		},
		getAll: {
			option: { name: 'Get Many', description: 'Needs nothing; returns one item per unfinished booking form, newest first', action: 'Get many pending attendees' },
			method: 'GET',
			path: PENDING,
			pagination: { style: 'none' },
			fields: returnAllFields(),
		},
		update: {
			option: { name: 'Update', description: 'Needs the entry, Email and a name; returns its ID', action: 'Update a pending attendee' },
			method: 'PATCH',
			path: `${PENDING}/{id}`,
			pathParams: { id: 'pendingAttendeeId' },
			body: { email: { param: 'email', check: 'email' }, companyId: { param: 'additionalFields.companyId', check: 'uuid' }, ...entryBody },
			check: ({ body }) => unnamed(body!),
			prepare: prepareUpdate,
			output: (answer) => [{ id: answer as number }],
			fields: [pendingAttendee, updateEmail, firstName, lastName, formAnswersInput, formAnswersRows, formAnswersJson, updateAdditionalFields],
		},
	},
});
