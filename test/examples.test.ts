import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';

import type { IDataObject } from 'n8n-workflow';

import { stickyHeightNeeded } from './harness/stickyNotes';
import { useWorld, wire } from './harness/world';

/**
 * The example workflows (examples/) are safe to run twice. Their package nodes run here through the engine with the
 * example's own parameters: each write the second run must not repeat is found by the step that looks first, by the
 * key the example's check compares (the checks themselves are n8n's Code, Filter and Switch nodes, which the engine
 * harness does not load: the browser test runs every example twice whole). Every sticky note fits its text.
 */

const world = useWorld();

const EXAMPLES = join(__dirname, '..', 'examples');

interface ExampleNode {
	name: string;
	type: string;
	parameters: IDataObject;
}

function example(file: string): ExampleNode[] {
	return (JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as { nodes: ExampleNode[] }).nodes;
}

/** The steps of an example by node name, with their parameters as the example has them. */
function steps(file: string, ...names: string[]): Array<{ name: string; parameters: IDataObject }> {
	const nodes = example(file);
	return names.map((name) => ({ name, parameters: nodes.find((node) => node.name === name)!.parameters }));
}

/** Runs steps of an example after an input node of the given name (the node whose items the steps' expressions read). */
async function run(file: string, names: string[], input: IDataObject[], inputName = 'Items'): Promise<Record<string, IDataObject[]>> {
	const { outputs, error } = await world().runChain(steps(file, ...names), world().pat(), { input, inputName });
	expect(error).toBeUndefined();
	return outputs;
}

async function writes() {
	return (await world().requests()).filter((request) => request.method !== 'GET').map(wire);
}

async function api(method: string, path: string, body?: unknown): Promise<IDataObject & IDataObject[]> {
	return await world().call(method, path, world().seed.credentials.ownerPat, body);
}

const today = () => new Date().toISOString().slice(0, 10);
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** A contact made through the API; its ID. */
async function contact(fields: IDataObject): Promise<string> {
	return String(((await api('POST', '/crm', fields)).item as IDataObject).id);
}

/** Books the owner's first meeting type at its first open slot of the coming week for a person; the appointment. */
async function booked(firstname: string, lastname: string): Promise<IDataObject> {
	const [meetingType] = await world().meetingTypes();
	const slots = await api('GET', `/v4/booking-availability?meetingTypeId=${meetingType.id}&hostIds=${world().seed.users.owner.id}&start=${inDays(1)}&end=${inDays(8)}`);
	const [start] = (slots.dates as Array<{ spots: Array<{ startTime: string }> }>).flatMap((date) => date.spots.map((spot) => spot.startTime));
	return await world().bookAppointment(meetingType.id, start, firstname, lastname);
}

test('Nightly Contact Sync: its contacts through its Create or Update node: the first run creates three, the second writes nothing', async () => {
	const [source] = steps('nightly-contact-sync.json', 'Your Contacts');
	// The Code node returns a literal list of contacts (JSON), one item each.
	const contacts = JSON.parse(/return (\[[\s\S]*\])\.map/.exec(String(source.parameters.jsCode))![1]) as IDataObject[];
	const first = await run('nightly-contact-sync.json', ['Create or Update Contacts'], contacts);
	expect(first['Create or Update Contacts'].map((contact) => contact.outcome)).toEqual(['created', 'created', 'created']);
	expect((await writes()).map((request) => `${request.method} ${request.path}`)).toEqual(['POST /crm', 'POST /crm', 'POST /crm']);
	await world().clearRequests();

	const second = await run('nightly-contact-sync.json', ['Create or Update Contacts'], contacts);
	expect(second['Create or Update Contacts'].map((contact) => contact.outcome)).toEqual(['unchanged', 'unchanged', 'unchanged']);
	expect(await writes()).toEqual([]);
});

describe('New Conversation Labelled and Logged in the CRM', () => {
	const file = 'new-conversation-to-crm.json';

	test('its Contact node finds a caller known only by phone (a conversation without a name): the second run creates no nameless duplicate', async () => {
		const caller = { phoneNumber: '+4915790007777', firstName: '', lastName: '' };
		const first = await run(file, ['Contact'], [caller]);
		expect(await writes()).toEqual([
			{ method: 'POST', path: '/crm', query: '', headers: world().patHeaders(undefined, true), body: { phoneNumber: '+4915790007777' } },
		]);
		await world().clearRequests();

		const second = await run(file, ['Contact'], [caller]);
		expect(await writes()).toEqual([]);
		expect(second.Contact).toEqual([expect.objectContaining({ id: first.Contact[0].id, outcome: 'unchanged' })]);
	});

	test('its Log Communication node stores the conversation as External ID, which its Communications of Contact node lists back', async () => {
		const contactId = await contact({ phoneNumber: '+4915790008888' });
		expect((await run(file, ['Communications of Contact'], [{ id: contactId }]))['Communications of Contact']).toEqual([]);

		const conversationId = '2f6c1a9e-4b7d-4c3e-9a1f-0d8e7b6c5a41';
		const logged = { contactId, conversationId, direction: 'inbound', body: 'Do you have time next week?', occurredAt: '2026-11-25T09:30:00Z' };
		await run(file, ['Log Communication'], [logged], 'Not Logged Yet');
		expect(await writes()).toEqual([
			{
				method: 'POST',
				path: '/crm/communications',
				query: '',
				headers: world().patHeaders(undefined, true),
				body: { type: 'messenger', direction: 'inbound', body: 'Do you have time next week?', occurredAt: '2026-11-25T09:30:00Z', externalId: conversationId, contactId },
			},
		]);
		const listed = await run(file, ['Communications of Contact'], [{ id: contactId }]);
		expect(listed['Communications of Contact']).toEqual([expect.objectContaining({ contactId, externalId: conversationId })]);
	});
});

test('New Booking to CRM Deal: its Deal node writes the booking into the deal\'s notes, which its Deals of Contact node lists back', async () => {
	const file = 'new-booking-to-crm-deal.json';
	const booking = await booked('Lena', 'Lead');
	const contactId = String((booking.attendees as IDataObject[])[0].contactId);
	const key = `(appointment ${String(booking.id)})`;
	expect((await run(file, ['Deals of Contact'], [{ id: contactId }]))['Deals of Contact']).toEqual([]);

	const noDealYet = { contactId, name: 'Product Demo with Lena Lead', notes: `Booked for Mon 30 Nov 2026, 10:00 ${key}`, phone: '', firstName: 'Lena', startText: 'Mon 30 Nov, 10:00' };
	const made = await run(file, ['Sales Pipeline', 'Deal'], [noDealYet], 'No Deal Yet');
	expect((await writes()).map((request) => request.body)).toEqual([
		expect.objectContaining({ name: 'Product Demo with Lena Lead', contactId, notes: `Booked for Mon 30 Nov 2026, 10:00 ${key}` }),
	]);
	const listed = await run(file, ['Deals of Contact'], [{ id: contactId }]);
	expect(listed['Deals of Contact']).toEqual([expect.objectContaining({ id: made.Deal[0].id, contactId, notes: expect.stringContaining(key) })]);
});

test('Invoice Completed Bookings: its Invoice node writes the appointment into the line; its Invoices of Contact node lists it back with the status that says what is left', async () => {
	const file = 'invoice-completed-bookings.json';
	const contactId = await contact({ email: 'mary.invoice@client.example', firstName: 'Mary' });
	const key = '(appointment 7d3e9b2a-1c4f-4e8d-b6a5-0f9e8d7c6b5a)';
	expect((await run(file, ['Invoices of Contact'], [{ id: contactId }]))['Invoices of Contact']).toEqual([]);

	const bill = { next: 'bill', contactId, description: `Product Demo on ${today()} ${key}`, hours: 0.5, introText: `Thank you for your visit on ${today()}.` };
	const made = await run(file, ['Invoice'], [bill], 'Still to Do');
	expect((await writes()).map((request) => request.body)).toEqual([
		expect.objectContaining({ contactId, lineItems: [expect.objectContaining({ description: `Product Demo on ${today()} ${key}`, quantity: 0.5, unitPrice: 120 })] }),
	]);
	const invoiceOf = async () => (await run(file, ['Invoices of Contact'], [{ id: contactId }]))['Invoices of Contact'];
	expect(await invoiceOf()).toEqual([expect.objectContaining({ id: made.Invoice[0].id, status: 'draft', lineItems: [expect.objectContaining({ description: expect.stringContaining(key) })] })]);

	// A run that stopped after Finalise: the invoice comes back finalised (Still to Do sends it), then sent (nothing left).
	await run(file, ['Finalise'], [{ id: made.Invoice[0].id }]);
	expect((await invoiceOf()).map((invoice) => invoice.status)).toEqual(['finalised']);
	await run(file, ['Send Invoice'], [{ id: made.Invoice[0].id }]);
	expect((await invoiceOf()).map((invoice) => invoice.status)).toEqual(['sent']);
});

test('Monthly Billing Run: its Active Schedules node shows the schedule due by today before the run and not after; its Billing Runs node lists the invoice the run made', async () => {
	const file = 'monthly-billing-and-dunning.json';
	const contactId = await contact({ email: 'sam.support@client.example' });
	const schedule = await api('POST', '/invoicing/recurring', { name: 'Support plan', contactId, lineItems: [{ description: 'Support plan', quantity: 1, unitPrice: 290 }], interval: 'monthly', startDate: today() });
	const nextRun = async () => (await run(file, ['Active Schedules'], [{}]))['Active Schedules'].find((found) => found.id === schedule.id)!.nextRunDate as string;
	expect(await nextRun()).toBe(today());

	const billed = await run(file, ['Billing Run'], [{}]);
	const [documentId] = billed['Billing Run'][0].createdDocumentIds as string[];
	expect(documentId).toEqual(expect.any(String));
	expect(await nextRun() > today()).toBe(true);
	const runs = (await run(file, ['Billing Runs'], [{}]))['Billing Runs'];
	expect(runs).toEqual([expect.objectContaining({ runDate: today(), createdDocumentIds: [documentId] })]);
	expect((await run(file, ['Invoice'], [{ documentId }], 'Invoices of Recent Runs')).Invoice).toEqual([expect.objectContaining({ id: documentId, status: 'draft' })]);
});

test('Follow Up Abandoned Bookings: its Mark as Followed Up node adds the answer its filter looks for and keeps the entry\'s other answers and phone', async () => {
	const file = 'follow-up-abandoned-bookings.json';
	await api('POST', '/v4/attendee/pending', { email: 'dorothy.vaughan@client.example', firstname: 'Dorothy', lastname: 'Vaughan', phone: '+4915790002222', notes: { Company: 'NACA' } });
	const [entry] = await api('GET', '/v4/attendee/pending');
	await run(file, ['Mark as Followed Up'], [entry], 'To Follow Up');
	expect(await writes()).toEqual([
		{
			method: 'PATCH',
			path: `/v4/attendee/pending/${String(entry.id)}`,
			query: '',
			headers: world().patHeaders(undefined, true),
			body: {
				email: 'dorothy.vaughan@client.example',
				companyId: world().seed.companies.acme.id,
				firstname: 'Dorothy',
				lastname: 'Vaughan',
				fullname: 'Dorothy Vaughan',
				notes: { Company: 'NACA', 'Followed Up': expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) },
				phone: '+4915790002222',
			},
		},
	]);
	const [marked] = await api('GET', '/v4/attendee/pending');
	expect(marked).toMatchObject({ id: entry.id, phone: '+4915790002222', notes: { Company: 'NACA', 'Followed Up': expect.any(String) } });
});

test('Reply to a New Lead: its Conversations With Lead node finds the conversation the welcome template opened', async () => {
	const file = 'reply-to-lead-with-template.json';
	const lead = { firstName: 'Ada', lastName: 'Lovelace', phone: '+4915187650000' };
	expect((await run(file, ['Conversations With Lead'], [lead], 'Lead'))['Conversations With Lead']).toEqual([]);
	await run(file, ['Send Welcome Template'], [lead], 'Lead');
	expect((await run(file, ['Conversations With Lead'], [lead], 'Lead'))['Conversations With Lead']).toEqual([expect.objectContaining({ phone: '+4915187650000' })]);
});

test('Book the First Open Slot: its Upcoming Appointments of Lead node finds the lead\'s booking by email', async () => {
	const file = 'book-first-open-slot.json';
	const lead = { email: 'hedy.lamarr@example.com', firstName: 'Hedy', lastName: 'Lamarr' };
	expect((await run(file, ['Upcoming Appointments of Lead'], [lead], 'Lead'))['Upcoming Appointments of Lead']).toEqual([]);
	await booked('Hedy', 'Lamarr');
	const found = (await run(file, ['Upcoming Appointments of Lead'], [lead], 'Lead'))['Upcoming Appointments of Lead'];
	expect(found.map((appointment) => (appointment.attendees as IDataObject[]).map((attendee) => attendee.email))).toEqual([['hedy.lamarr@example.com']]);
});

test('every sticky note of the examples is big enough for its text', () => {
	const cutOff = readdirSync(EXAMPLES)
		.filter((file) => file.endsWith('.json'))
		.flatMap((file) =>
			example(file)
				.filter((node) => node.type === 'n8n-nodes-base.stickyNote')
				.map(({ name, parameters }) => ({ file, name, height: parameters.height as number, needed: stickyHeightNeeded(String(parameters.content), parameters.width as number) })),
		)
		.filter(({ height, needed }) => needed > height);
	expect(cutOff).toEqual([]);
});
