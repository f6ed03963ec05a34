import { readFileSync } from 'fs';
import { join } from 'path';

import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { getEngine } from '../scripts/engine';
import { byId, useWorld } from './harness/world';

/**
 * Issue 33, "ID forms only where they are known": the specification says only that identifiers are strings, so an ID
 * field checks a form only where the API reference shows one (users: UUIDs; data fields and pending attendees:
 * numbers) and takes any non-empty text everywhere else. The decisions are the table "Which ID fields check which
 * form, and why" of docs/checks-and-errors.md; this file holds every By ID field of every node to it, and runs the
 * checks through the engine: each kept form still refused naming its field, each other ID sent as it is.
 */

const world = useWorld();

const UUID_RULE = '^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})?$';
const NUMBER_RULE = '^(\\d+)?$';
const UUID_PROBLEM = 'must be in UUID form, such as 6f1c2a7e-1b2c-4d5e-8f90-123456789abc';
const UUID_CHECK = 'must be an ID in UUID form, such as 6f1c2a7e-1b2c-4d5e-8f90-123456789abc';
const SOME_UUID = '6f1c2a7e-1b2c-4d5e-8f90-123456789abc';

type Form = 'uuid' | 'number' | 'text';

/**
 * The decision for every By ID mode of every node (node, parameter path), by the field's label. A locator added
 * without a decision here (and a row in the documentation's table) fails the first test.
 */
const DECISIONS: Record<string, { form: Form; fields: string[] }> = {
	'Act As User': {
		form: 'uuid',
		fields: [
			'schedulingPlatform actAsUser',
			'schedulingPlatformCrm actAsUser',
			'schedulingPlatformSignatures actAsUser',
			'schedulingPlatformMessenger actAsUser',
			'schedulingPlatformInvoicing actAsUser',
			'schedulingPlatformRouting actAsUser',
			'schedulingPlatformTrigger actAsUser',
			'schedulingPlatformCrmTrigger actAsUser',
			'schedulingPlatformMessengerTrigger actAsUser',
			'schedulingPlatformSignaturesTrigger actAsUser',
			'schedulingPlatformInvoicingTrigger actAsUser',
			'schedulingPlatformWebhookTrigger actAsUser',
		],
	},
	User: { form: 'uuid', fields: ['schedulingPlatform userId', 'schedulingPlatform filters.userId', 'schedulingPlatform targetUserId', 'schedulingPlatformRouting userId'] },
	Host: { form: 'uuid', fields: ['schedulingPlatformTrigger bookingFilters.host', 'schedulingPlatformWebhookTrigger bookingFilters.host'] },
	Owner: {
		form: 'uuid',
		fields: [
			'schedulingPlatformCrm additionalFields.ownerId',
			'schedulingPlatformCrm updateFields.ownerId',
			'schedulingPlatformCrm filters.ownerId',
			'schedulingPlatformCrm summaryFilters.ownerId',
			'schedulingPlatformTrigger contactFilters.owner',
			'schedulingPlatformTrigger dealFilters.owner',
			'schedulingPlatformCrmTrigger contactFilters.owner',
			'schedulingPlatformCrmTrigger dealFilters.owner',
		],
	},
	'Account Owner': { form: 'uuid', fields: ['schedulingPlatformCrm additionalFields.accountOwnerId', 'schedulingPlatformCrm updateFields.accountOwnerId', 'schedulingPlatformCrm filters.ownerId'] },
	Assignee: {
		form: 'uuid',
		fields: ['schedulingPlatformCrm additionalFields.assigneeId', 'schedulingPlatformCrm updateFields.assigneeId', 'schedulingPlatformCrm filters.assigneeId', 'schedulingPlatformCrm summaryFilters.assigneeId'],
	},
	'Data Field': { form: 'number', fields: ['schedulingPlatformCrm dataFieldId'] },
	'Pending Attendee': { form: 'number', fields: ['schedulingPlatformRouting pendingAttendeeId'] },
	'Meeting Type': {
		form: 'text',
		fields: [
			'schedulingPlatform meetingTypeId',
			'schedulingPlatform filters.meetingTypeId',
			'schedulingPlatform additionalFields.meetingTypeId',
			'schedulingPlatformRouting meetingTypeId',
			'schedulingPlatformRouting filters.meetingTypeId',
			'schedulingPlatformTrigger bookingFilters.meetingType',
			'schedulingPlatformWebhookTrigger bookingFilters.meetingType',
		],
	},
	Appointment: { form: 'text', fields: ['schedulingPlatform appointmentId'] },
	'Rescheduling Appointment': { form: 'text', fields: ['schedulingPlatform additionalFields.existingAppointmentId'] },
	Availability: { form: 'text', fields: ['schedulingPlatform availabilityId', 'schedulingPlatform additionalFields.availabilityId', 'schedulingPlatform updateFields.availabilityId'] },
	Contact: {
		form: 'text',
		fields: [
			'schedulingPlatformCrm contactId',
			'schedulingPlatformCrm additionalFields.contactId',
			'schedulingPlatformCrm updateFields.contactId',
			'schedulingPlatformCrm filters.contactId',
			'schedulingPlatformCrm dealContacts.contact.contactId',
			'schedulingPlatformInvoicing contactId',
			'schedulingPlatformInvoicing updateFields.contactId',
			'schedulingPlatformInvoicing filters.contactId',
			'schedulingPlatformTrigger invoiceFilters.contact',
			'schedulingPlatformInvoicingTrigger invoiceFilters.contact',
		],
	},
	Company: {
		form: 'text',
		fields: [
			'schedulingPlatformCrm companyId',
			'schedulingPlatformCrm crmCompanyId',
			'schedulingPlatformCrm additionalFields.crmCompanyId',
			'schedulingPlatformCrm updateFields.crmCompanyId',
			'schedulingPlatformCrm filters.crmCompanyId',
		],
	},
	'CRM Company': { form: 'text', fields: ['schedulingPlatformInvoicing additionalFields.crmCompanyId', 'schedulingPlatformInvoicing updateFields.crmCompanyId'] },
	Deal: {
		form: 'text',
		fields: [
			'schedulingPlatformCrm dealId',
			'schedulingPlatformCrm additionalFields.dealId',
			'schedulingPlatformCrm updateFields.dealId',
			'schedulingPlatformCrm filters.dealId',
			'schedulingPlatformInvoicing additionalFields.dealId',
			'schedulingPlatformInvoicing updateFields.dealId',
		],
	},
	Pipeline: {
		form: 'text',
		fields: [
			'schedulingPlatformCrm pipelineId',
			'schedulingPlatformCrm filters.pipelineId',
			'schedulingPlatformCrm summaryFilters.pipelineId',
			'schedulingPlatformTrigger dealFilters.pipeline',
			'schedulingPlatformCrmTrigger dealFilters.pipeline',
		],
	},
	Task: { form: 'text', fields: ['schedulingPlatformCrm taskId'] },
	Conversation: { form: 'text', fields: ['schedulingPlatformMessenger conversationId'] },
	'Signature Request': { form: 'text', fields: ['schedulingPlatformSignatures signatureRequestId'] },
	Document: { form: 'text', fields: ['schedulingPlatformInvoicing documentId'] },
	Product: { form: 'text', fields: ['schedulingPlatformInvoicing productId'] },
	'Recurring Invoice': { form: 'text', fields: ['schedulingPlatformInvoicing recurringInvoiceId'] },
	'Billing Run': { form: 'text', fields: ['schedulingPlatformInvoicing billingRunId'] },
	Queue: { form: 'text', fields: ['schedulingPlatformRouting queueId'] },
	Group: { form: 'text', fields: ['schedulingPlatformRouting groupId'] },
	Template: { form: 'text', fields: ['schedulingPlatformRouting templateId'] },
	'Provisional Booking': { form: 'text', fields: ['schedulingPlatformRouting provisionalBookingId'] },
};

/** Plain fields (not resource locators) with an ID check of their own, with the form each checks. */
const PLAIN_FIELDS: Record<string, Form> = {
	'Host Names or IDs': 'uuid',
	'Current Host Names or IDs': 'uuid',
	'User Names or IDs': 'uuid',
	'Main Host ID': 'uuid',
	'Company ID': 'uuid',
	'Field IDs': 'number',
	'Appointment IDs': 'text',
	'Channel Availabilities → Availability ID': 'text',
	'Queue ID': 'text',
};

/** Modes of a resource locator that name a record otherwise than by its ID, or a moment: not ID forms. */
const OTHER_MODES = ['dateTime', 'email', 'name'];

interface ByIdMode {
	key: string;
	label: string;
	form: Form | 'unknown';
	placeholder?: string;
}

/** Every By ID mode of every node as n8n loads the package (every version's fields), with its form. */
async function byIdModes(): Promise<{ modes: ByIdMode[]; otherModes: string[] }> {
	const { loader } = await getEngine();
	const modes = new Map<string, ByIdMode>();
	const otherModes = new Set<string>();
	const walk = (node: string, properties: INodeProperties[], path: string) => {
		for (const property of properties) {
			for (const mode of property.type === 'resourceLocator' ? (property.modes ?? []) : []) {
				if (mode.type === 'list') continue;
				if (mode.name !== 'id') {
					otherModes.add(mode.name);
					continue;
				}
				const regex = (mode.validation?.[0] as { properties?: { regex?: string } } | undefined)?.properties?.regex;
				const form = regex === UUID_RULE ? 'uuid' : regex === NUMBER_RULE ? 'number' : regex === undefined ? 'text' : 'unknown';
				const key = `${node} ${path}${property.name}`;
				modes.set(`${key} ${property.displayName}`, { key, label: property.displayName, form, placeholder: mode.placeholder });
			}
			const children = (property.options ?? []) as Array<INodeProperties & { values?: INodeProperties[] }>;
			walk(node, children.filter((child) => 'type' in child), `${path}${property.name}.`);
			for (const group of children.filter((child) => child.values)) walk(node, group.values!, `${path}${property.name}.${group.name}.`);
		}
	};
	for (const description of loader.types.nodes) walk(description.name, description.properties, '');
	return { modes: [...modes.values()], otherModes: [...otherModes].sort() };
}

/** The rows of the documentation's table: each label of its first column with the form of its third. */
function documentedForms(): Record<string, Form> {
	const page = readFileSync(join(__dirname, '..', 'docs', 'checks-and-errors.md'), 'utf8');
	const section = page.split('### Which ID fields check which form, and why')[1].split(/\n#{2,3} /)[0];
	const rows = section.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| ID field') && !line.startsWith('|---'));
	const forms: Record<string, Form> = {};
	for (const row of rows) {
		const [labels, , form] = row.split(' | ').map((cell) => cell.replace(/^\| /, ''));
		const decided: Form = form.startsWith('UUID') ? 'uuid' : form.startsWith('a number') ? 'number' : form.startsWith('any non-empty text') ? 'text' : (`unknown: ${form}` as Form);
		for (const label of labels.split(', ')) forms[label] = decided;
	}
	return forms;
}

describe('every By ID field has a decision, the table documents it, the editor shows it', () => {
	test('the By ID modes of every node are exactly those decided here, each with its form', async () => {
		const { modes, otherModes } = await byIdModes();
		const found = Object.fromEntries(modes.map((mode) => [`${mode.key} (${mode.label})`, mode.form]));
		const decided = Object.fromEntries(Object.entries(DECISIONS).flatMap(([label, { form, fields }]) => fields.map((field) => [`${field} (${label})`, form])));
		expect(found).toEqual(decided);
		expect(otherModes).toEqual(OTHER_MODES);
	});

	test('the documentation\'s table has a row for every decided label and plain ID field, with the same form, and nothing else', () => {
		const expected = { ...Object.fromEntries(Object.entries(DECISIONS).map(([label, { form }]) => [label, form])), ...PLAIN_FIELDS };
		expect(documentedForms()).toEqual(expected);
	});

	test('free text modes have a plain placeholder and no rule; UUID and number modes show an example of their form', async () => {
		const { modes } = await byIdModes();
		for (const mode of modes) {
			const placeholder = { key: mode.key, placeholder: mode.placeholder };
			if (mode.form === 'text') expect(placeholder).toEqual({ key: mode.key, placeholder: expect.stringMatching(/^Enter the [A-Z][\w ]* ID$/) });
			// Act As User says what empty means instead (transport.test.ts).
			else if (mode.label !== 'Act As User') expect(placeholder).toEqual({ key: mode.key, placeholder: mode.form === 'uuid' ? `e.g. ${SOME_UUID}` : 'e.g. 42' });
		}
	});
});

describe('a kept form is still refused before sending, naming the field', () => {
	const getSlots = { resource: 'booking', operation: 'getSlots', meetingTypeId: byId('mt_1'), start: '2027-03-09', end: '2027-03-10' };
	const handOffMany = { resource: 'handoff', operation: 'handOffMany', start: '2026-03-03T00:00:00+01:00', end: '2026-03-04T00:00:00+01:00', currentHostIds: [SOME_UUID] };
	const pendingUpdate = { resource: 'pendingAttendee', operation: 'update', pendingAttendeeId: byId('7'), email: 'a@example.com', additionalFields: { fullName: 'A B' } };

	test.each([
		['User (Scheduling: User → Get)', 'User', { resource: 'user', operation: 'get', userId: byId('={{ "ada" }}') }, `User ID ${UUID_PROBLEM}; "ada" is not`],
		['User (Routing: Queue → Add Host)', 'User', { resource: 'queue', operation: 'addHost', meetingTypeId: byId('mt_1'), userId: byId('={{ "ada" }}') }, `User ID ${UUID_PROBLEM}; "ada" is not`],
		['Owner (CRM: Deal → Get Many)', 'Owner', { resource: 'deal', operation: 'getAll', filters: { ownerId: byId('={{ "ada" }}') } }, `User ID ${UUID_PROBLEM}; "ada" is not`],
		['Owner from an expression without a mode (CRM: Company → Get Summary)', 'Owner', { resource: 'company', operation: 'getSummary', summaryFilters: { ownerId: '={{ "ada" }}' } }, `Owner ${UUID_CHECK}; "ada" is not`],
		['Account Owner (CRM: Contact → Get Many)', 'Account Owner', { resource: 'contact', operation: 'getAll', filters: { ownerId: byId('={{ "ada" }}') } }, `User ID ${UUID_PROBLEM}; "ada" is not`],
		['Assignee (CRM: Task → Get Many)', 'Assignee', { resource: 'task', operation: 'getAll', filters: { assigneeId: byId('={{ "ada" }}') } }, `User ID ${UUID_PROBLEM}; "ada" is not`],
		['Host Names or IDs (Scheduling: Booking → Get Open Slots)', 'Host Names or IDs', { ...getSlots, additionalFields: { hostIds: ['ada'] } }, `Host Names or IDs ${UUID_CHECK}; "ada" is not`],
		['Current Host Names or IDs (Scheduling: Handoff → Hand Off Many)', 'Current Host Names or IDs', { ...handOffMany, currentHostIds: ['ada'], handOffTo: 'user', targetUserId: byId(SOME_UUID) }, `Current Host Names or IDs ${UUID_CHECK}; "ada" is not`],
		['User Names or IDs (Scheduling: Handoff → Hand Off Many)', 'User Names or IDs', { ...handOffMany, handOffTo: 'roundRobin', targetUserIds: ['ada'] }, `User Names or IDs ${UUID_CHECK}; "ada" is not`],
		['Main Host ID (Routing: Queue User Group → Update)', 'Main Host ID', { resource: 'queueUserGroup', operation: 'update', groupId: byId('group_1'), updateFields: { mainGroupHostId: 'ada' } }, `Main Host ID ${UUID_CHECK}; "ada" is not`],
		['Company ID (Routing: Pending Attendee → Update)', 'Company ID', { ...pendingUpdate, additionalFields: { fullName: 'A B', companyId: 'acme' } }, `Company ID ${UUID_CHECK}; "acme" is not`],
		['Pending Attendee (Routing: Pending Attendee → Update)', 'Pending Attendee', { ...pendingUpdate, pendingAttendeeId: byId('={{ "7a" }}') }, 'Pending Attendee ID must be a number, such as 42; "7a" is not'],
		['Data Field (CRM: Data Field → Get Usage)', 'Data Field', { resource: 'dataField', operation: 'getUsage', dataFieldId: byId('={{ "budget" }}') }, 'Data Field ID must be a number, such as 42; "budget" is not'],
		['Field IDs (CRM: Data Field → Reorder)', 'Field IDs', { resource: 'dataField', operation: 'reorder', fieldIds: ['1', 'budget'] }, 'Field IDs must be data field IDs (numbers); "budget" is not'],
	])('%s', async (_what, label, parameters, message) => {
		const { error } = await world().runNode(parameters as IDataObject, world().pat());
		expect({ message: error?.message, description: error?.description }).toEqual({ message, description: `Item 1: fix the value of "${label}" and run the node again.` });
		expect(await world().requests()).toEqual([]);
	});

	test('Act As User (an API key\'s acting user) is refused before sending', async () => {
		const { error } = await world().runNode({ resource: 'meetingType', operation: 'getAll', returnAll: true, actAsUser: byId('={{ "max" }}') }, world().apiKey());
		expect(error?.message).toBe('Act As User is not a valid user ID');
		await expect(world().runNode({ resource: 'meetingType', operation: 'getAll', returnAll: true, actAsUser: byId('max') }, world().apiKey())).rejects.toThrow(
			new RegExp(`node has issues:\\n- Act As User ${UUID_PROBLEM}`),
		);
		expect(await world().requests()).toEqual([]);
	});

	test('a typed user ID of another form is refused by n8n itself, as the editor shows under the field', async () => {
		await expect(world().runNode({ resource: 'user', operation: 'delete', userId: byId('grace hopper') }, world().pat())).rejects.toThrow(
			new RegExp(`node has issues:\\n- User ID ${UUID_PROBLEM}`),
		);
		expect(await world().requests()).toEqual([]);
	});

	test('a trigger\'s Host filter (a user) is refused before the first poll reads anything, naming the filter', async () => {
		const outcome = await world().poll({ event: 'newBooking', bookingFilters: { host: byId('={{ "ada" }}') } }, world().pat());
		expect({ message: outcome.error?.message, description: outcome.error?.description }).toEqual({
			message: `User ID ${UUID_PROBLEM}; "ada" is not`,
			description: 'Nothing was read: fix the value of "Host" in the trigger\'s Filters.',
		});
		expect(await world().requests()).toEqual([]);
	});
});

describe('any other ID is any non-empty text: sent as it is, and the API answers for it', () => {
	test.each([
		['Meeting Type (Scheduling)', { resource: 'meetingType', operation: 'get', meetingTypeId: byId('mt_1') }, 'GET /v4/meeting-type/mt_1 404'],
		['Appointment (Scheduling)', { resource: 'appointment', operation: 'get', appointmentId: byId('={{ "12345" }}') }, 'GET /v4/appointment/12345 404'],
		['Availability (Scheduling)', { resource: 'availability', operation: 'get', availabilityId: byId('weekdays') }, 'GET /availability/weekdays 404'],
		['Contact (CRM)', { resource: 'contact', operation: 'get', getBy: 'contactId', contactId: byId('ct-1') }, 'GET /crm/details?contactId=ct-1 404'],
		['Company (CRM)', { resource: 'company', operation: 'get', companyId: byId('co_1') }, 'GET /crm/companies/co_1 404'],
		['Deal (CRM)', { resource: 'deal', operation: 'get', dealId: byId('D-42') }, 'GET /crm/deals/D-42 404'],
		['Task (CRM)', { resource: 'task', operation: 'get', taskId: byId('task 7') }, 'GET /crm/tasks/task%207 404'],
		['Document (Invoicing)', { resource: 'document', operation: 'get', documentId: byId('INV-2026-0001') }, 'GET /invoicing/documents/INV-2026-0001 404'],
		['Signature Request (Signatures)', { resource: 'signatureRequest', operation: 'get', signatureRequestId: byId('sr_1') }, 'GET /v4/signatures/sr_1 404'],
		['Queue (Routing)', { resource: 'queue', operation: 'get', queueId: byId('sales') }, 'GET /v4/queue/sales 404'],
		['Provisional Booking (Routing)', { resource: 'provisionalBooking', operation: 'confirm', provisionalBookingId: byId('pb-1') }, 'POST /v4/provisional-booking/pb-1/confirm 404'],
	])('%s', async (_what, parameters, request) => {
		const { error } = await world().runNode(parameters as IDataObject, world().pat());
		expect(error?.httpCode).toBe('404');
		expect((await world().requests()).map((logged) => `${logged.method} ${logged.path}${logged.query ? `?${logged.query}` : ''} ${logged.status}`)).toEqual([request]);
	});

	test('Queue ID of a booking\'s open slots: sent as it is; an unknown queue is the API\'s 404', async () => {
		const meetingTypeId = await world().createMeetingType('Any Queue');
		await world().clearRequests();
		const { error } = await world().runNode(
			{ resource: 'booking', operation: 'getSlots', meetingTypeId: byId(meetingTypeId), start: '2027-03-09', end: '2027-03-10', additionalFields: { queueId: 'sales' } },
			world().pat(),
		);
		expect(error?.message).toBe('Queue not found (HTTP 404)');
		const [request] = await world().requests();
		expect(new URLSearchParams(request.query).get('queueId')).toBe('sales');
	});

	test('a contact\'s Company By ID: sent as it is; an unknown company is the API\'s 404', async () => {
		const created = await world().api('POST', '/crm', world().seed.credentials.ownerPat, { body: { email: 'any.company@example.com' } });
		const contactId = String((created.body.item as IDataObject).id);
		await world().clearRequests();
		const { error } = await world().runNode({ resource: 'contact', operation: 'update', contactId: byId(contactId), updateFields: { crmCompanyId: byId('co_1') } }, world().pat());
		expect(error?.httpCode).toBe('404');
		const patch = (await world().requests()).find((request) => request.method === 'PATCH');
		expect(patch?.body).toMatchObject({ crmCompanyId: 'co_1' });
	});

	test('a trigger\'s Meeting Type filter of another form is looked up at the first activation: the API says it does not exist', async () => {
		const outcome = await world().poll({ event: 'newBooking', bookingFilters: { meetingType: byId('mt_1') } }, world().pat());
		expect(outcome.error?.message).toBe('The Meeting Type filter names a meeting type that does not exist (ID mt_1)');
		expect((await world().requests()).map((request) => `${request.method} ${request.path} ${request.status}`)).toEqual(['GET /v4/meeting-type/mt_1 404']);
	});
});

describe('the sandbox answers an ID of any form as the reference says', () => {
	test('an unknown ID of another form is the group\'s 404, never a 400 about its form; users stay UUIDs', async () => {
		const pat = world().seed.credentials.ownerPat;
		const owner = world().seed.users.owner.id;
		const answers = [
			await world().api('GET', '/v4/booking-availability?meetingTypeId=mt_1&start=2027-03-09&end=2027-03-10&queueId=sales', pat),
			await world().api('GET', `/v4/booking-availability/user/${owner}/timeframe?start=2027-03-09T00:00:00Z&end=2027-03-10T00:00:00Z&meetingTypeId=mt_1`, pat),
			await world().api('POST', '/v4/booking', pat, { body: { meetingTypeId: 'mt_1', start: '2027-03-09T10:00:00+01:00', hostIds: [owner], attendee: { email: 'a@example.com', fullname: 'A B', receiveReminders: false, notes: {} } } }),
			await world().api('POST', '/v4/meeting-type', pat, { body: { meetingInfo: { name: 'Any', description: '', duration: 30, channel: 'phone' }, availabilityId: 'weekdays' } }),
			await world().api('GET', '/v4/messenger/conversations/conv_8f2k1', pat),
		];
		expect(answers.map(({ status, body }) => [status, body.message])).toEqual([
			[404, 'Meeting type not found'],
			[404, 'Meeting type not found'],
			[404, 'Meeting type not found'],
			[404, 'Availability not found'],
			[404, 'Conversation not found'],
		]);
		expect((await world().api('GET', '/v4/one-time-booking-link?meetingTypeId=mt_1', pat)).status).toBe(200);
		const notAUser = await world().api('GET', '/v4/booking-availability?meetingTypeId=mt_1&start=2027-03-09&end=2027-03-10&hostIds=ada', pat);
		expect([notAUser.status, notAUser.body.message]).toEqual([400, ['each value in hostIds must be a UUID']]);
	});
});
