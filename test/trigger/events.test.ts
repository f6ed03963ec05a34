import type { IDataObject } from 'n8n-workflow';

import { asTenant, crmParent, freshTenant, FRESH_SELLER } from '../harness/crm';
import type { TypeVersion } from '../../scripts/engine';
import { TRIGGER_NODE_TYPE } from '../../scripts/engine';
import { actAs, makePdf } from '../harness/signatures';
import type { LoggedRequest } from '../harness/world';
import { byId, useWorld, wire } from '../harness/world';

/**
 * Every event of the polling triggers through n8n-core's poll context against the sandbox: the first activation (one
 * list request, nothing emitted), the event happening, the next poll emitting exactly that record (exact requests),
 * and an idle poll after it (one request, nothing). Each event runs on the trigger of its area as a new workflow gets
 * it (Scheduling Platform Trigger v2 for bookings, CRM, Messenger, Signatures and Invoicing Trigger), and the other
 * areas' events also on the Scheduling Platform Trigger v1, which offered every event: workflows saved with it keep
 * working. Each test works in a tenant of its own, so the lists hold only what it made. The sandbox clock starts on
 * Monday 2027-03-01 06:00 UTC.
 */

const world = useWorld();

type Tenant = Awaited<ReturnType<typeof freshTenant>>;

beforeAll(async () => {
	await world().control('POST', '/__sandbox/clock/set', { now: '2027-03-01T06:00:00Z' });
});

const call = (tenant: Tenant, method: string, path: string, body?: unknown) => asTenant(world(), tenant, method, path, body);

/** Books the tenant owner's default meeting type at a time of 2027-03-01 (UTC); the appointment. */
async function book(tenant: Tenant, time: string, email = 'ann.lee@example.com'): Promise<IDataObject> {
	const [meetingType] = (await call(tenant, 'GET', '/v4/meeting-type')) as unknown as IDataObject[];
	const booked = await call(tenant, 'POST', '/v4/booking', {
		meetingTypeId: meetingType.id,
		start: `2027-03-01T${time}:00Z`,
		hostIds: [tenant.userId],
		attendee: { email, firstname: 'Ann', lastname: 'Lee', receiveReminders: true, notes: {} },
	});
	return await call(tenant, 'GET', `/v4/appointment/${String(booked.appointmentId)}`);
}

async function inboundMessage(tenant: Tenant, phone: string, text: string): Promise<{ conversation: IDataObject; message: IDataObject }> {
	return (await world().control('POST', '/__sandbox/messenger/inbound', { phone, text, companyId: tenant.companyId })) as { conversation: IDataObject; message: IDataObject };
}

/** The requests of the last step, as the node sent them. */
async function sent(): Promise<Array<ReturnType<typeof wire>>> {
	const requests: LoggedRequest[] = await world().requests();
	await world().clearRequests();
	return requests.map(wire);
}

const get = (tenant: Tenant, path: string, query: string) => ({ method: 'GET', path, query, headers: world().patHeaders(tenant.token), body: null });

/** The Scheduling Platform Trigger as workflows saved before the area triggers have it: version 1, every event. */
const VERSION_ONE: TypeVersion = { type: TRIGGER_NODE_TYPE, version: 1 };

/** The triggers an area's events run on: its own (the one new workflows get), and version 1 of the Scheduling Platform Trigger. */
const TRIGGERS: Array<[string, TypeVersion | undefined]> = [
	['its area\'s trigger', undefined],
	['Scheduling Platform Trigger v1', VERSION_ONE],
];

/**
 * Activates (first poll), lets `happen` make the event, polls again and checks the requests of each poll and what
 * came out; then an idle poll. `lists` are the requests of one poll (the first one is also the activation's);
 * `checks` the reads of the filters' records that only the activation makes.
 */
async function watch(
	tenant: Tenant,
	parameters: IDataObject,
	happen: () => Promise<IDataObject[]>,
	lists: (tenant: Tenant) => Array<ReturnType<typeof get>>,
	checks: Array<ReturnType<typeof get>> = [],
	node?: TypeVersion,
): Promise<{ items: IDataObject[]; state: IDataObject }> {
	const credential = world().pat(tenant.token);
	await world().clearRequests();
	const first = await world().poll(parameters, credential, { node });
	expect(first.error).toBeUndefined();
	expect(first.items).toBeNull();
	expect(await sent()).toEqual([...checks, lists(tenant)[0]]);
	const expected = await happen();
	await world().clearRequests();
	const second = await world().poll(parameters, credential, { state: first.staticData, node });
	expect(second.error).toBeUndefined();
	expect(await sent()).toEqual(lists(tenant));
	expect(second.items?.map((item) => item.id)).toEqual(expected.map((record) => record.id));
	const idle = await world().poll(parameters, credential, { state: second.staticData, node });
	expect(idle.items).toBeNull();
	expect(await sent()).toEqual([lists(tenant)[0]]);
	expect(JSON.stringify(idle.staticData).length).toBeLessThan(2048);
	return { items: second.items!, state: idle.staticData };
}

const APPOINTMENTS = '/v4/appointment/paginated';

describe('Booking events on the Scheduling Platform Trigger', () => {
	test('New Booking: appointments newest first by createdAt; the new one comes out as the API lists it', async () => {
		const tenant = await freshTenant(world());
		await book(tenant, '09:00', 'before@example.com');
		let made: IDataObject = {};
		const { items } = await watch(tenant, { event: 'newBooking' }, async () => [(made = await book(tenant, '10:00'))], (t) => [
			get(t, APPOINTMENTS, 'sortBy=appointment.createdAt&sortDirection=DESC&page=0&pageSize=100'),
		]);
		expect(items).toEqual([made]);
	});

	test('New Booking with Meeting Type and Host filters: both records checked once at activation, then sent as meetingTypeId and userId', async () => {
		const tenant = await freshTenant(world());
		const [meetingType] = (await call(tenant, 'GET', '/v4/meeting-type')) as unknown as IDataObject[];
		const filters = { bookingFilters: { meetingType: byId(String(meetingType.id)), host: byId(tenant.userId) } };
		await watch(
			tenant,
			{ event: 'newBooking', ...filters },
			async () => [await book(tenant, '10:00')],
			(t) => [get(t, APPOINTMENTS, `sortBy=appointment.createdAt&sortDirection=DESC&meetingTypeId=${String(meetingType.id)}&userId=${t.userId}&page=0&pageSize=100`)],
			[get(tenant, `/v4/meeting-type/${String(meetingType.id)}`, ''), get(tenant, `/v4/user/${tenant.userId}`, '')],
		);
	});

	test('a filter naming a record that does not exist fails the activation, naming the field; nothing is stored', async () => {
		const tenant = await freshTenant(world());
		const missing = '00000000-0000-4000-8000-000000000000';
		const outcome = await world().poll({ event: 'newBooking', bookingFilters: { meetingType: byId(missing) } }, world().pat(tenant.token));
		expect(outcome.error?.message).toBe(`The Meeting Type filter names a meeting type that does not exist (ID ${missing})`);
		expect(outcome.error?.description).toBe('Nothing would ever match it. Pick the meeting type from the list in the trigger\'s Filters, or remove the filter.');
		expect((outcome.error as { failure?: unknown }).failure).toEqual({ cause: 'configuration-invalid' });
		expect(outcome.staticData).toEqual({});
		const deals = await world().poll({ event: 'dealWon', dealFilters: { pipeline: byId(missing) } }, world().pat(tenant.token));
		expect(deals.error?.message).toBe(`The Pipeline filter names a pipeline that does not exist (ID ${missing})`);
		// Every filter that names a record: the host (a user) of a window event, a deal's owner, an invoice's contact.
		const others: Array<[IDataObject, string]> = [
			[{ event: 'bookingCancelled', bookingFilters: { host: byId(missing) } }, `The Host filter names a user that does not exist (ID ${missing})`],
			[{ event: 'appointmentEnded', bookingFilters: { meetingType: byId(missing) } }, `The Meeting Type filter names a meeting type that does not exist (ID ${missing})`],
			[{ event: 'dealLost', dealFilters: { owner: byId(missing) } }, `The Owner filter names a user that does not exist (ID ${missing})`],
			[{ event: 'invoiceOverdue', invoiceFilters: { contact: byId(missing) } }, `The Contact filter names a contact that does not exist (ID ${missing})`],
		];
		for (const [parameters, message] of others) {
			const refused = await world().poll(parameters, world().pat(tenant.token));
			expect({ message: refused.error?.message, items: refused.items, staticData: refused.staticData }).toEqual({ message, items: null, staticData: {} });
		}
	});
});

describe.each(TRIGGERS)('Messenger events on %s', (_name, node) => {
	const CONVERSATIONS = '/v4/messenger/conversations';

	test('New Conversation: by createdAt, narrowed with createdAfter = the watermark after activation', async () => {
		const tenant = await freshTenant(world());
		await inboundMessage(tenant, '+491701111111', 'Before');
		const credential = world().pat(tenant.token);
		await world().clearRequests();
		const first = await world().poll({ event: 'newConversation' }, credential, { node });
		const since = String((first.staticData.state as IDataObject).since);
		expect(await sent()).toEqual([get(tenant, CONVERSATIONS, 'sortBy=createdAt&sortOrder=desc&limit=100&offset=0')]);
		const { conversation } = await inboundMessage(tenant, '+491702222222', 'Hello');
		await inboundMessage(tenant, '+491701111111', 'Again (not a new conversation)');
		await world().clearRequests();
		const second = await world().poll({ event: 'newConversation' }, credential, { state: first.staticData, node });
		expect(await sent()).toEqual([get(tenant, CONVERSATIONS, `sortBy=createdAt&sortOrder=desc&createdAfter=${encodeURIComponent(since)}&limit=100&offset=0`)]);
		expect(second.items).toEqual([expect.objectContaining({ id: conversation.id, phone: '+491702222222' })]);
	});

	test('New Inbound Message: conversations by lastMessageAt, then the messages of each one after the watermark; only inbound, with the conversation', async () => {
		const tenant = await freshTenant(world());
		const { conversation } = await inboundMessage(tenant, '+491703333333', 'Before activation');
		const credential = world().pat(tenant.token);
		await world().clearRequests();
		const first = await world().poll({ event: 'newInboundMessage', conversationFilters: { status: 'open' } }, credential, { node });
		expect(await sent()).toEqual([get(tenant, CONVERSATIONS, 'sortBy=lastMessageAt&sortOrder=desc&status=open&limit=100&offset=0')]);
		const { message } = await inboundMessage(tenant, '+491703333333', 'Is 3 pm possible?');
		await call(tenant, 'POST', '/v4/messenger/messages', { conversationId: conversation.id, type: 'text', text: 'Yes (outbound: not emitted)' });
		await world().clearRequests();
		const second = await world().poll({ event: 'newInboundMessage', conversationFilters: { status: 'open' } }, credential, { state: first.staticData, node });
		expect(await sent()).toEqual([
			get(tenant, CONVERSATIONS, 'sortBy=lastMessageAt&sortOrder=desc&status=open&limit=100&offset=0'),
			get(tenant, `${CONVERSATIONS}/${String(conversation.id)}/messages`, 'limit=100'),
		]);
		expect(second.items).toEqual([{ ...message, conversation: expect.objectContaining({ id: conversation.id }) }]);
		// Within the lookback window the conversation's messages are read again (a late message may still appear);
		// once the window has passed its last message, an idle poll is the one list request.
		await world().control('POST', '/__sandbox/clock/advance', { seconds: 61 });
		const settling = await world().poll({ event: 'newInboundMessage', conversationFilters: { status: 'open' } }, credential, { state: second.staticData, node });
		expect(settling.items).toBeNull();
		expect(await sent()).toHaveLength(2);
		const idle = await world().poll({ event: 'newInboundMessage', conversationFilters: { status: 'open' } }, credential, { state: settling.staticData, node });
		expect(idle.items).toBeNull();
		expect(await sent()).toHaveLength(1);
	});
});

describe.each(TRIGGERS)('CRM and signature events on %s', (_name, node) => {
	test('New Contact: contacts by createdAt (page1); the item is the contact with its appointments, as Get Many gives it', async () => {
		const tenant = await freshTenant(world());
		const { items } = await watch(
			tenant,
			{ event: 'newContact', contactFilters: { owner: byId('') } },
			async () => [((await call(tenant, 'POST', '/crm', { email: 'new.lead@example.com', firstName: 'New' })).item as IDataObject)],
			(t) => [get(t, '/crm', 'sortBy=createdAt&sortOrder=DESC&page=1&limit=100')],
			[],
			node,
		);
		expect(items[0]).toMatchObject({ email: 'new.lead@example.com', appointments: [], nextAppointmentIso: null });
	});

	test('New Deal by createdAt; Deal Won and Deal Lost: the isWon / isLost list by updatedAt, the moment from wonAt / lostAt', async () => {
		const tenant = await freshTenant(world());
		const dealId = await crmParent(world(), 'deal', 'Roof repair', tenant.companyId);
		const deal = await call(tenant, 'GET', `/crm/deals/${dealId}`);
		await watch(
			tenant,
			{ event: 'newDeal', dealFilters: { pipeline: byId(String(deal.pipelineId)) } },
			async () => [await call(tenant, 'POST', '/crm/deals', { name: 'Solar', pipelineId: deal.pipelineId, stageId: deal.stageId })],
			(t) => [get(t, '/crm/deals', `sortBy=createdAt&sortOrder=DESC&pipelineId=${String(deal.pipelineId)}&page=1&limit=100`)],
			[get(tenant, '/crm/pipelines', '')],
			node,
		);
		const { items: won } = await watch(
			tenant,
			{ event: 'dealWon' },
			async () => [await call(tenant, 'PATCH', `/crm/deals/${dealId}/won`, {})],
			(t) => [get(t, '/crm/deals', 'isWon=true&sortBy=updatedAt&sortOrder=DESC&page=1&limit=100')],
			[],
			node,
		);
		expect(won[0]).toMatchObject({ id: dealId, wonAt: expect.any(String), lostAt: null });
		expect(won[0]).not.toHaveProperty('isWon');
		await call(tenant, 'PATCH', `/crm/deals/${dealId}/reopen`, {});
		const { items: lost } = await watch(
			tenant,
			{ event: 'dealLost' },
			async () => [await call(tenant, 'PATCH', `/crm/deals/${dealId}/lost`, {})],
			(t) => [get(t, '/crm/deals', 'isLost=true&sortBy=updatedAt&sortOrder=DESC&page=1&limit=100')],
			[],
			node,
		);
		expect(lost[0]).toMatchObject({ id: dealId, lostAt: expect.any(String), wonAt: null });
	});

	test('Signature Request Completed: the completed requests read whole (the list names no sort); Full Record reads each one', async () => {
		const tenant = await freshTenant(world());
		const document = { fileName: 'a.pdf', contentType: 'application/pdf', content: (await makePdf(1)).toString('base64') };
		const request = await call(tenant, 'POST', '/v4/signatures', { title: 'Lease', document, signers: [{ name: 'Ann Lee', email: 'ann@example.com', order: 1 }] });
		await watch(
			tenant,
			{ event: 'signatureCompleted', options: { fullRecord: true } },
			async () => [await actAs(world(), String(request.id), 'ann@example.com')],
			(t) => [get(t, '/v4/signatures', 'status=completed&limit=100&offset=0'), get(t, `/v4/signatures/${String(request.id)}`, '')],
			[],
			node,
		);
	});
});

describe('Polling trigger: Platform API key', () => {
	test('without a user to act for the activation fails and stores nothing; with Act As User every poll acts for that user', async () => {
		// A key minted now: the seed's key has expired on the clock of this file (2027-03-01).
		const { key } = await world().mintApiKey();
		await world().clearRequests();
		const refused = await world().poll({ event: 'newContact' }, world().apiKey('', key));
		expect(refused.error?.message).toBe('This operation needs a user to act for');
		expect(refused.staticData).toEqual({});
		expect(await world().requests()).toEqual([]);
		const owner = world().seed.users.owner.id;
		const acting = await world().poll({ event: 'newContact', actAsUser: byId(owner) }, world().apiKey('', key));
		expect(acting.error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: '/crm', query: 'sortBy=createdAt&sortOrder=DESC&page=1&limit=100', headers: world().keyHeaders(owner, false, key), body: null },
		]);
	});
});

describe('Polling triggers: lists of the filters', () => {
	test('Meeting Type, Host and Pipeline lists load through the trigger as in the action nodes', async () => {
		const meetingTypes = await world().listSearch('searchMeetingTypes', { event: 'newBooking' }, world().pat());
		expect(meetingTypes.result?.results.map((option) => option.name)).toEqual(expect.arrayContaining(['Product Demo']));
		const hosts = await world().listSearch('searchUsers', { event: 'newBooking' }, world().pat());
		expect(hosts.result?.results.map((option) => option.value)).toEqual(expect.arrayContaining([world().seed.users.owner.id]));
		const pipelines = await world().listSearch('searchPipelines', { event: 'newDeal' }, world().pat());
		expect(pipelines.result?.results.map((option) => option.name)).toEqual(expect.arrayContaining([expect.stringContaining('Sales')]));
	});
});

describe.each(TRIGGERS)('Invoicing events on %s', (_name, node) => {
	const DOCUMENTS = '/invoicing/documents';

	test('Invoice Paid (paidAt), Offer Accepted (updatedAt) and Invoice Overdue (day after the due date, with the Contact filter): lists read whole, only the keys of the row', async () => {
		const tenant = await freshTenant(world());
		await call(tenant, 'PATCH', '/invoicing/settings', FRESH_SELLER);
		const contactId = await crmParent(world(), 'contact', 'payer@example.com', tenant.companyId);
		const document = async (type: string, paymentTermsDays: number, send: boolean) => {
			const created = await call(tenant, 'POST', DOCUMENTS, { type, contactId, paymentTermsDays, lineItems: [{ description: 'Work', quantity: 1, unitPrice: 100 }] });
			await call(tenant, 'POST', `${DOCUMENTS}/${String(created.id)}/finalise`);
			if (send) await call(tenant, 'POST', `${DOCUMENTS}/${String(created.id)}/send`, {});
			return await call(tenant, 'GET', `${DOCUMENTS}/${String(created.id)}`);
		};

		const invoice = await document('invoice', 14, true);
		const { items: paid } = await watch(
			tenant,
			{ event: 'invoicePaid' },
			async () => {
				await call(tenant, 'POST', `${DOCUMENTS}/${String(invoice.id)}/payments`, { amount: 119 });
				return [invoice];
			},
			(t) => [get(t, DOCUMENTS, 'type=invoice&status=paid&page=1&limit=100')],
			[],
			node,
		);
		expect(paid[0]).toMatchObject({ status: 'paid', amountDue: 0 });

		const offer = await document('offer', 30, false);
		await watch(
			tenant,
			{ event: 'offerAccepted' },
			async () => {
				await call(tenant, 'POST', `${DOCUMENTS}/${String(offer.id)}/convert`);
				return [offer];
			},
			(t) => [get(t, DOCUMENTS, 'type=offer&status=accepted&page=1&limit=100')],
			[],
			node,
		);

		// Due the day it is made (the sandbox's today: each run of this test moves the clock on by a day).
		const { now } = (await world().control('POST', '/__sandbox/clock/advance', { seconds: 0 })) as { now: string };
		const late = await document('invoice', 0, true);
		const { items: overdue } = await watch(
			tenant,
			{ event: 'invoiceOverdue', invoiceFilters: { contact: byId(contactId) } },
			async () => {
				await world().control('POST', '/__sandbox/clock/advance', { seconds: 86_400 });
				return [late];
			},
			(t) => [get(t, DOCUMENTS, `type=invoice&status=overdue&contactId=${contactId}&page=1&limit=100`)],
			[get(tenant, '/crm/details', `contactId=${contactId}`)],
			node,
		);
		expect(overdue[0]).toMatchObject({ status: 'overdue', dueDate: now.slice(0, 10) });
	});
});

describe('Workflows saved with the Scheduling Platform Trigger v1', () => {
	test('a CRM event reads on from the position the earlier release stored: no new activation, the next deal comes out once', async () => {
		const tenant = await freshTenant(world());
		const dealId = await crmParent(world(), 'deal', 'Before the update', tenant.companyId);
		const deal = await call(tenant, 'GET', `/crm/deals/${dealId}`);
		const { now } = (await world().control('POST', '/__sandbox/clock/advance', { seconds: 1 })) as { now: string };
		// The static data as the release with one trigger for every event stored it: the watch is the event and its filters.
		const stored = { state: { v: 1, watch: '["newDeal",{}]', since: now, seen: '' } };
		await world().control('POST', '/__sandbox/clock/advance', { seconds: 1 });
		const made = await call(tenant, 'POST', '/crm/deals', { name: 'After the update', pipelineId: deal.pipelineId, stageId: deal.stageId });
		const credential = world().pat(tenant.token);
		const poll = await world().poll({ event: 'newDeal' }, credential, { state: stored, node: VERSION_ONE });
		expect(poll.error).toBeUndefined();
		expect(poll.logs).toEqual([]);
		expect(poll.items?.map((item) => item.id)).toEqual([made.id]);
		expect(poll.staticData.state).toMatchObject({ v: 1, watch: '["newDeal",{}]' });
		const again = await world().poll({ event: 'newDeal' }, credential, { state: poll.staticData, node: VERSION_ONE });
		expect(again.items).toBeNull();
	});

	test('version 2 offers only booking events: a CRM event put into it is refused before anything is read, naming the fix', async () => {
		const tenant = await freshTenant(world());
		await world().clearRequests();
		const outcome = await world().poll({ event: 'newDeal' }, world().pat(tenant.token), { node: { type: TRIGGER_NODE_TYPE, version: 2 } });
		expect(outcome.error?.message).toBe('This trigger has no event "newDeal"');
		expect(outcome.error?.description).toBe('Pick one from its Event list. Each product area has a trigger of its own: Scheduling Platform (bookings), CRM, Messenger, Signatures and Invoicing Trigger.');
		expect((outcome.error as { failure?: unknown }).failure).toEqual({ cause: 'configuration-invalid' });
		expect(outcome.staticData).toEqual({});
		expect(await world().requests()).toEqual([]);
	});
});
