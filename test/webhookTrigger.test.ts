import type { IDataObject } from 'n8n-workflow';

import { asTenant, freshTenant, recordCounts } from './harness/crm';
import { WebhookReceiver, WebhookTrigger } from './harness/webhooks';
import { WEBHOOK_TRIGGER_NODE_TYPE, getEngine } from '../scripts/engine';
import { byId, useWorld, wire } from './harness/world';

/**
 * The Scheduling Platform Webhook Trigger through n8n-core's HookContext (publish, unpublish) and WebhookContext
 * (deliveries) against the sandbox, which delivers its events over HTTP to a receiver on loopback that stands for
 * n8n's webhook server. Each test works in a tenant of its own (its own 6 subscriptions and bookings). The sandbox
 * clock starts on Monday 2027-03-01 06:00 UTC.
 */

const world = useWorld();
let receiver: WebhookReceiver;

beforeAll(async () => {
	receiver = await WebhookReceiver.start();
	await world().control('POST', '/__sandbox/clock/set', { now: '2027-03-01T06:00:00Z' });
});

afterAll(async () => await receiver.close());

beforeEach(async () => {
	await world().control('DELETE', '/__sandbox/webhooks/delivery-faults');
	await world().control('DELETE', '/__sandbox/webhooks/deliveries');
});

type Tenant = Awaited<ReturnType<typeof freshTenant>>;

const BOOKING_EVENTS = ['booking_created', 'booking_cancelled', 'booking_rescheduled'];
const WORKFLOW = 'Bookings to CRM';

const call = (tenant: Tenant, method: string, path: string, body?: unknown) => asTenant(world(), tenant, method, path, body);

/** A trigger of a fresh tenant (its owner's PAT), served live on the receiver. */
async function triggerOf(tenant: Tenant, parameters: IDataObject, options: { mode?: 'webhook' | 'manual'; webhookId?: string } = {}): Promise<WebhookTrigger> {
	return await world().webhookTrigger(parameters, world().pat(tenant.token), receiver, { workflowName: WORKFLOW, ...options });
}

/** The requests of the last step, as the node sent them. */
async function sent(): Promise<Array<ReturnType<typeof wire>>> {
	const requests = await world().requests();
	await world().clearRequests();
	return requests.map(wire);
}

const headers = (tenant: Tenant, json = false) => world().patHeaders(tenant.token, json);
const listRequest = (tenant: Tenant) => ({ method: 'GET', path: '/webhooks', query: '', headers: headers(tenant), body: null });

async function subscriptionsOf(tenant: Tenant): Promise<IDataObject[]> {
	const listed = await world().api('GET', '/webhooks', tenant.token);
	await world().clearRequests();
	return listed.body as unknown as IDataObject[];
}

/** The sandbox's deliveries to the trigger's URL once `count` of them are answered (and the receiver is idle). */
async function delivered(trigger: WebhookTrigger, count: number): Promise<IDataObject[]> {
	const deadline = Date.now() + 10_000;
	for (;;) {
		const all = (await world().control('GET', '/__sandbox/webhooks/deliveries')) as IDataObject[];
		const mine = all.filter((delivery) => delivery.endpoint === trigger.url);
		if (mine.length >= count) {
			await receiver.idle();
			return mine;
		}
		if (Date.now() > deadline) throw new Error(`${mine.length} of ${count} deliveries to ${trigger.url} arrived`);
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
}

/** Books the tenant owner's default meeting type (or the given one) at a time of 2027-03-02 (UTC); the appointment. */
async function book(tenant: Tenant, time: string, meetingTypeId?: string, firstname = 'Ann'): Promise<IDataObject> {
	const [first] = (await call(tenant, 'GET', '/v4/meeting-type')) as unknown as IDataObject[];
	const booked = await call(tenant, 'POST', '/v4/booking', {
		meetingTypeId: meetingTypeId ?? first.id,
		start: `2027-03-02T${time}:00Z`,
		hostIds: [tenant.userId],
		attendee: { email: `${firstname.toLowerCase()}.lee@example.com`, firstname, lastname: 'Lee', receiveReminders: true, notes: {} },
	});
	const appointment = await call(tenant, 'GET', `/v4/appointment/${String(booked.appointmentId)}`);
	await world().clearRequests();
	return appointment;
}

/** A published trigger of a fresh tenant, its request log cleared. */
async function published(parameters: IDataObject = { events: BOOKING_EVENTS }): Promise<{ tenant: Tenant; trigger: WebhookTrigger }> {
	const tenant = await freshTenant(world());
	const trigger = await triggerOf(tenant, parameters);
	const activated = await trigger.activate();
	expect(activated.error).toBeUndefined();
	await world().clearRequests();
	return { tenant, trigger };
}

describe('publishing and unpublishing', () => {
	test('publishing creates exactly one subscription for the node URL and stores its id', async () => {
		const tenant = await freshTenant(world());
		const trigger = await triggerOf(tenant, { events: ['booking_created', 'booking_cancelled'] });
		await world().clearRequests();

		const outcome = await trigger.activate();

		expect(outcome.error).toBeUndefined();
		expect(outcome.result).toBe(true);
		expect(await sent()).toEqual([
			listRequest(tenant),
			listRequest(tenant),
			{
				method: 'POST',
				path: '/webhooks',
				query: '',
				headers: headers(tenant, true),
				body: { endpoint: trigger.url, eventTypes: ['booking_created', 'booking_cancelled'], description: `n8n workflow ${WORKFLOW}` },
			},
		]);
		const subscriptions = await subscriptionsOf(tenant);
		expect(subscriptions).toEqual([expect.objectContaining({ endpoint: trigger.url, eventTypes: ['booking_created', 'booking_cancelled'], description: `n8n workflow ${WORKFLOW}` })]);
		expect(typeof subscriptions[0].id).toBe('number');
		expect(trigger.staticData).toEqual({ subscriptionId: subscriptions[0].id });
	});

	test('publishing again with the same URL reuses the subscription (checkExists, and create when n8n repeats it)', async () => {
		const { tenant, trigger } = await published();
		const [subscription] = await subscriptionsOf(tenant);
		// Another process, or a republish: the same URL, no static data.
		const again = await triggerOf(tenant, { events: [...BOOKING_EVENTS].reverse() }, { webhookId: trigger.node.webhookId });

		const outcome = await again.activate();
		expect(outcome.result).toBe(true);
		expect(await sent()).toEqual([listRequest(tenant)]);
		expect(again.staticData).toEqual({ subscriptionId: subscription.id });

		// n8n repeats create after an error it did not see the end of: the subscription is found, not made twice.
		const repeated = await again.method('create');
		expect(repeated.result).toBe(true);
		expect(await sent()).toEqual([listRequest(tenant)]);
		expect(await subscriptionsOf(tenant)).toEqual([subscription]);
	});

	test('changed events update the subscription in place (PATCH), never a second one', async () => {
		const { tenant, trigger } = await published();
		const [subscription] = await subscriptionsOf(tenant);
		const changed = await triggerOf(tenant, { events: ['booking_rescheduled', 'form_submission'] }, { webhookId: trigger.node.webhookId });

		const outcome = await changed.activate();

		expect(outcome.result).toBe(true);
		expect(await sent()).toEqual([
			listRequest(tenant),
			{
				method: 'PATCH',
				path: `/webhooks/${String(subscription.id)}`,
				query: '',
				headers: headers(tenant, true),
				body: { eventTypes: ['booking_rescheduled', 'form_submission'], description: `n8n workflow ${WORKFLOW}` },
			},
		]);
		expect(await subscriptionsOf(tenant)).toEqual([{ ...subscription, eventTypes: ['booking_rescheduled', 'form_submission'] }]);
		expect(changed.staticData).toEqual({ subscriptionId: subscription.id });
	});

	test('a subscription ID the API gives as text (numbers in the live service; the reference takes both) is reused, updated and deleted by it', async () => {
		const { tenant, trigger } = await published();
		const [subscription] = await subscriptionsOf(tenant);
		const asText = String(subscription.id);
		await world().control('POST', '/__sandbox/faults', { method: 'GET', path: '/webhooks', status: 200, body: [{ ...subscription, id: asText }] });
		const changed = await triggerOf(tenant, { events: ['booking_cancelled'] }, { webhookId: trigger.node.webhookId });

		const outcome = await changed.activate();
		expect(outcome.error).toBeUndefined();
		const patch = { method: 'PATCH', path: `/webhooks/${asText}`, query: '', headers: headers(tenant, true), body: { eventTypes: ['booking_cancelled'], description: `n8n workflow ${WORKFLOW}` } };
		expect(await sent()).toEqual([listRequest(tenant), patch]);
		expect(changed.staticData).toEqual({ subscriptionId: asText });

		const removed = await changed.deactivate();
		expect(removed.error).toBeUndefined();
		expect(await sent()).toEqual([{ method: 'DELETE', path: `/webhooks/${asText}`, query: '', headers: headers(tenant), body: null }]);
		expect(await subscriptionsOf(tenant)).toEqual([]);
	});

	test('unpublishing deletes the subscription; a subscription deleted already (404) or never stored is fine', async () => {
		const { tenant, trigger } = await published();
		const [subscription] = await subscriptionsOf(tenant);
		const stored = { ...trigger.staticData };

		const outcome = await trigger.deactivate();
		expect(outcome.error).toBeUndefined();
		expect(outcome.result).toBe(true);
		expect(await sent()).toEqual([{ method: 'DELETE', path: `/webhooks/${String(subscription.id)}`, query: '', headers: headers(tenant), body: null }]);
		expect(await subscriptionsOf(tenant)).toEqual([]);
		expect(trigger.staticData).toEqual({});

		// n8n retries delete after a failure it did not see the end of: the subscription is gone (404).
		trigger.staticData = stored;
		const retried = await trigger.deactivate();
		expect(retried.error).toBeUndefined();
		expect(retried.result).toBe(true);
		expect((await sent()).map((request) => request.method)).toEqual(['DELETE']);
		expect(trigger.staticData).toEqual({});

		const nothingStored = await trigger.deactivate();
		expect(nothingStored.result).toBe(true);
		expect(await sent()).toEqual([]);
	});

	test('a 7th subscription of the company: the limit, the subscriptions in use and how to free one', async () => {
		const tenant = await freshTenant(world());
		for (let n = 1; n <= 6; n++) {
			const endpoint = n === 1 ? 'https://n8n.example.com/webhook/3f2a9c1e-7b4d-4e8f-9a0b-1c2d3e4f5a6b/webhook' : `https://hooks.example.com/receiver-${n}`;
			const body = { endpoint, eventTypes: n === 1 ? ['booking_created', 'booking_cancelled'] : ['form_submission'], ...(n === 2 ? {} : { description: `Subscription ${n}` }) };
			expect((await world().api('POST', '/webhooks', tenant.token, { body })).status).toBe(201);
		}
		const ids = (await subscriptionsOf(tenant)).map((subscription) => String(subscription.id));
		const trigger = await triggerOf(tenant, { events: ['booking_created'] });

		const outcome = await trigger.activate();

		// n8n shows only the message of an activation error (1.x's answer to the editor, 2.x's publication error): it is the whole explanation.
		expect(outcome.error?.message).toBe(
			[
				"The company's limit of 6 webhook subscriptions is reached, and this workflow would need one more. The company's subscriptions are:",
				`1. ID ${ids[0]}: https://n8n.example.com/webhook/3f2a9c1e…/webhook ("Subscription 1"; booking_created, booking_cancelled)`,
				`2. ID ${ids[1]}: https://hooks.example.com/receiver-2 (no description; form_submission)`,
				...[3, 4, 5, 6].map((n, index) => `${n}. ID ${ids[index + 2]}: https://hooks.example.com/receiver-${n} ("Subscription ${n}"; form_submission)`),
				'To free one, delete a subscription the platform no longer needs (in the platform, or with DELETE /webhooks/{id}), or deactivate (unpublish) another n8n workflow that uses this trigger; then publish this workflow again (n8n 2.x; activate it in n8n 1.x). Listening for a test event also takes one while it listens.',
			].join('\n'),
		);
		expect(outcome.error?.description).toBeFalsy();
		expect(trigger.staticData).toEqual({});
		expect((await subscriptionsOf(tenant)).length).toBe(6);
	});

	test('a webhook URL that is not https is refused before any request, naming WEBHOOK_URL; loopback http and https are taken', async () => {
		const tenant = await freshTenant(world());
		const node = (await triggerOf(tenant, { events: ['booking_created'] })).node;
		await world().clearRequests();

		const plain = new WebhookTrigger(node, { webhookBaseUrl: 'http://n8n.example.com/webhook', workflowName: WORKFLOW });
		for (const method of ['checkExists', 'create'] as const) {
			const outcome = await plain.method(method);
			// The fix is in the message: n8n shows only the message of an activation error.
			expect(outcome.error?.message).toBe(
				`The webhook URL http://n8n.example.com/webhook/${String(node.webhookId)}/webhook is not https, so the Scheduling Platform cannot deliver to it (it delivers only to https addresses). Set n8n's WEBHOOK_URL environment variable to the public https address of this n8n (for example https://n8n.example.com/), restart n8n and publish the workflow again (n8n 2.x; activate it in n8n 1.x). Plain http is accepted only for a loopback address (127.0.0.1, localhost, ::1), for local tests.`,
			);
		}
		expect(await sent()).toEqual([]);

		for (const base of ['https://n8n.example.com/webhook', 'http://localhost:5678/webhook', 'http://[::1]:5678/webhook', 'http://127.0.0.2:5678/webhook']) {
			const outcome = await new WebhookTrigger(node, { webhookBaseUrl: base, workflowName: WORKFLOW }).activate();
			expect(outcome.error).toBeUndefined();
		}
		expect((await subscriptionsOf(tenant)).map((subscription) => subscription.endpoint)).toEqual([
			`https://n8n.example.com/webhook/${String(node.webhookId)}/webhook`,
			`http://localhost:5678/webhook/${String(node.webhookId)}/webhook`,
			`http://[::1]:5678/webhook/${String(node.webhookId)}/webhook`,
			`http://127.0.0.2:5678/webhook/${String(node.webhookId)}/webhook`,
		]);
	});

	test('Events from an expression are checked before any request: names as a comma-separated text, none, or an unknown one', async () => {
		const tenant = await freshTenant(world());
		const byText = await triggerOf(tenant, { events: '={{ "booking_created, form_submission" }}' });
		await world().clearRequests();
		expect((await byText.activate()).error).toBeUndefined();
		expect((await sent()).at(-1)?.body).toMatchObject({ eventTypes: ['booking_created', 'form_submission'] });

		const none = await (await triggerOf(tenant, { events: [] })).activate();
		expect([none.error?.message, none.error?.description]).toEqual(['Events is empty', 'Choose at least one event in Events.']);
		const unknown = await (await triggerOf(tenant, { events: '={{ ["booking_created", "deal_won"] }}' })).activate();
		expect(unknown.error?.message).toMatch(/^Events must be one of "booking_cancelled", .*; "deal_won" is not$/);
		expect(await sent()).toEqual([]);
	});

	test('with a Platform API key, every request acts as the node\'s Act As User', async () => {
		const owner = world().seed.users.owner.id;
		// The seed's key has expired on the sandbox clock of this file: a key minted now.
		const { key } = await world().mintApiKey();
		const trigger = await world().webhookTrigger({ events: ['booking_created'], actAsUser: byId(owner) }, world().apiKey('', key), receiver, { workflowName: WORKFLOW });
		await world().clearRequests();

		expect((await trigger.activate()).error).toBeUndefined();
		const id = String(trigger.staticData.subscriptionId);
		const forged = { webhookType: 'booking_created', id: 'a0000000-0000-4000-8000-000000000003' };
		await trigger.deliver(forged);
		expect((await trigger.deactivate()).error).toBeUndefined();

		const requests = await sent();
		expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /webhooks', 'GET /webhooks', 'POST /webhooks', `GET /v4/appointment/${forged.id}`, `DELETE /webhooks/${id}`]);
		for (const request of requests) expect(request.headers).toMatchObject({ authorization: `Bearer ${key}`, 'x-service-api-user-id': owner });
	});
});

describe('deliveries', () => {
	test('a booking made, rescheduled and cancelled through the API starts one execution each with the appointment as the API returns it', async () => {
		const { tenant, trigger } = await published();
		/** The appointment as the API has it now (the request log cleared after). */
		const now = async (id: unknown) => {
			const record = await call(tenant, 'GET', `/v4/appointment/${String(id)}`);
			await world().clearRequests();
			return record;
		};
		const reads: Array<ReturnType<typeof wire>> = [];
		const nodeReads = async () => reads.push(...(await sent()).filter((request) => request.method === 'GET'));

		const appointment = await book(tenant, '09:00');
		await delivered(trigger, 1);
		await nodeReads();
		const records = [await now(appointment.id)];
		for (const [n, start] of [[2, '2027-03-02T11:00:00Z'], [3, '2027-03-02T12:00:00Z']] as const) {
			await world().control('POST', '/__sandbox/clock/advance', { seconds: 60 });
			await call(tenant, 'POST', `/v4/appointment/${String(appointment.id)}/reschedule`, { start });
			await delivered(trigger, n);
			await nodeReads();
			records.push(await now(appointment.id));
		}
		await call(tenant, 'POST', `/v4/appointment/${String(appointment.id)}/cancel`, { reason: 'Plans changed' });
		const deliveries = await delivered(trigger, 4);
		await nodeReads();
		records.push(await now(appointment.id));

		expect(deliveries.map((delivery) => [delivery.webhookType, delivery.status])).toEqual([
			['booking_created', 200],
			['booking_rescheduled', 200],
			['booking_rescheduled', 200],
			['booking_cancelled', 200],
		]);
		// Each item is the appointment as the API returned it when the delivery came (nothing changed it in between),
		// with the event's name and its moment as the API gives it: createdAt, rescheduledAt, the cancellation's actionAt.
		const events = ['booking_created', 'booking_rescheduled', 'booking_rescheduled', 'booking_cancelled'];
		const moments = records.map((record, n) => [record.createdAt, record.rescheduledAt, record.rescheduledAt, (record.cancel as IDataObject | null)?.actionAt][n]);
		expect(moments.every((moment) => typeof moment === 'string')).toBe(true);
		expect(trigger.executions).toEqual(records.map((record, n) => [{ webhookType: events[n], eventTime: new Date(String(moments[n])).toISOString(), ...record }]));
		expect(trigger.executions.slice(1, 3).map(([item]) => item.start)).toEqual(['2027-03-02T11:00:00.000Z', '2027-03-02T12:00:00.000Z']);
		expect(trigger.executions[3][0]).toMatchObject({ isCancelled: true, cancel: { reason: 'Plans changed' } });
		// The API's record, not the delivery's: fields only the API has, none only the delivery has.
		expect(Object.keys(trigger.executions[0][0])).toEqual(expect.arrayContaining(['notes', 'rescheduleCount', 'userId']));
		expect(trigger.executions[0][0]).not.toHaveProperty('hosts');
		expect(trigger.executions[0][0]).not.toHaveProperty('meetingType');
		// Each was read through the API, and answered by the node before the read.
		expect(reads).toEqual(Array(4).fill({ method: 'GET', path: `/v4/appointment/${String(appointment.id)}`, query: '', headers: headers(tenant), body: null }));
		expect(trigger.deliveries.map((delivery) => [delivery.answer?.by, delivery.answer?.status, delivery.answeredTwice])).toEqual(Array(4).fill(['node', 200, false]));
	});

	test('a delivery sent 3 times starts one execution', async () => {
		const { tenant, trigger } = await published({ events: ['booking_created'] });
		await world().control('POST', '/__sandbox/webhooks/delivery-faults', { repeat: 3 });

		const appointment = await book(tenant, '10:00');
		const deliveries = await delivered(trigger, 3);

		expect(deliveries.map((delivery) => delivery.status)).toEqual([200, 200, 200]);
		expect(trigger.executions).toEqual([[expect.objectContaining({ webhookType: 'booking_created', id: appointment.id })]]);
		expect(trigger.deliveries.filter((delivery) => delivery.result?.workflowData !== undefined)).toHaveLength(1);
	});

	test('repeats arriving at the same time in one process start one execution (before any static data is saved)', async () => {
		const { tenant, trigger } = await published({ events: ['booking_created'] });
		const appointment = await book(tenant, '10:30');
		const [delivery] = await delivered(trigger, 1);
		// Another workflow's trigger that gets the same delivery: nothing in its static data yet.
		const other = await triggerOf(tenant, { events: ['booking_created'] });

		await Promise.all([1, 2, 3].map(() => other.deliver(delivery.body)));

		expect(other.executions).toEqual([[expect.objectContaining({ id: appointment.id })]]);
	});

	test('static data keeps every key of the last hour (16 characters each; dedupe.ts): a repeat after the process forgot it is dropped, also after 250 newer ones', async () => {
		const { trigger } = await published({ events: ['form_submission'] });
		const form = (n: number) => ({ webhookType: 'form_submission', id: `form-${n}`, updatedAt: '2027-03-01T06:00:00.000Z' });
		for (let n = 1; n <= 251; n++) await trigger.deliver(form(n));
		expect(trigger.executions).toHaveLength(251);
		expect(Object.keys(trigger.staticData).sort()).toEqual(['deliveryKeys', 'subscriptionId']);
		expect(JSON.stringify(trigger.staticData).length).toBeLessThan(251 * 16 + 100);

		// 11 minutes later the process has forgotten them (its keys live 10 minutes); static data has not.
		const now = Date.now();
		const later = jest.spyOn(Date, 'now').mockReturnValue(now + 11 * 60_000);
		try {
			await trigger.deliver(form(251));
			await trigger.deliver(form(1));
			expect(trigger.executions).toHaveLength(251);
		} finally {
			later.mockRestore();
		}
	});

	test('the older { event, data } form is taken and comes out flat (Verify Through the API off: the delivery as it came)', async () => {
		const { tenant, trigger } = await published({ events: ['booking_created'], options: { verifyThroughApi: false } });
		await world().control('POST', '/__sandbox/webhooks/delivery-faults', { envelope: true });

		const appointment = await book(tenant, '12:00');
		const [delivery] = await delivered(trigger, 1);

		expect(delivery.body).toEqual({ event: 'booking_created', data: expect.objectContaining({ id: appointment.id }) });
		expect(trigger.executions).toEqual([[{ webhookType: 'booking_created', ...((delivery.body as IDataObject).data as IDataObject) }]]);
	});

	test('events of other kinds pass through as they come; events not chosen and bodies without an event start nothing', async () => {
		const { tenant, trigger } = await published({ events: ['form_submission', 'new_employee'] });
		const data = { id: 'form-1', formName: 'Contact us', answers: { Name: 'Ann Lee' } };

		expect(await world().control('POST', '/__sandbox/webhooks/emit', { companyId: tenant.companyId, webhookType: 'form_submission', data })).toEqual({ deliveries: 1 });
		await delivered(trigger, 1);
		await trigger.deliver({ webhookType: 'review_published', id: 'review-1' });
		await trigger.deliver({ id: 'no-event' });
		await trigger.deliver('not an object');

		expect(trigger.executions).toEqual([[{ webhookType: 'form_submission', ...data }]]);
		expect(await world().requests()).toEqual([]);
	});

	test('Filters: only bookings of the meeting type and the host start the workflow', async () => {
		const tenant = await freshTenant(world());
		const created = await call(tenant, 'POST', '/v4/meeting-type', { meetingInfo: { name: 'Intro', description: '', duration: 30, channel: 'phone' } });
		const other = await freshTenant(world());
		const trigger = await triggerOf(tenant, { events: ['booking_created'], bookingFilters: { meetingType: byId(String(created.id)) } });
		await trigger.activate();
		const byOtherHost = await triggerOf(tenant, { events: ['booking_created'], bookingFilters: { host: byId(other.userId) } });
		await byOtherHost.activate();
		const byHost = await triggerOf(tenant, { events: ['booking_created'], bookingFilters: { host: byId(tenant.userId), meetingType: { __rl: true, mode: 'list', value: '' } } });
		await byHost.activate();

		const intro = await book(tenant, '13:00', String(created.id));
		const plain = await book(tenant, '14:00');
		for (const each of [trigger, byOtherHost, byHost]) await delivered(each, 2);

		expect(trigger.executions).toEqual([[expect.objectContaining({ id: intro.id, meetingTypeId: created.id })]]);
		expect(byOtherHost.executions).toEqual([]);
		expect(byHost.executions.map(([item]) => item.id)).toEqual([intro.id, plain.id]);
	});

	test('a wrong filter ID from an expression stops the delivery with the field named', async () => {
		const { trigger } = await published({ events: ['booking_created'], bookingFilters: { host: byId('={{ "not-a-uuid" }}') } });

		const outcome = await trigger.deliver({ webhookType: 'booking_created', id: 'x', hostIds: [] });

		expect(outcome.error?.message).toBe('User ID must be in UUID form, such as 6f1c2a7e-1b2c-4d5e-8f90-123456789abc; "not-a-uuid" is not');
	});
});

describe('verification through the API', () => {
	/** Posts to the node's URL as anyone who knows it could: the answer and how long it took (webhook() may still be running). */
	async function forge(trigger: WebhookTrigger, body: IDataObject): Promise<{ status: number; body: unknown; ms: number }> {
		const started = Date.now();
		const response = await fetch(trigger.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
		const ms = Date.now() - started;
		return { status: response.status, body: await response.json(), ms };
	}

	/** Until every delivery that has arrived is done (its verification read included). */
	const settled = async () => await receiver.idle();

	/** The appointment as the API has it now; the request log cleared after. */
	async function apiRecord(tenant: Tenant, id: unknown): Promise<IDataObject> {
		const record = await call(tenant, 'GET', `/v4/appointment/${String(id)}`);
		await world().clearRequests();
		return record;
	}

	const RECEIVED = { message: 'Webhook call received' };
	const answeredByNode = { answer: { status: 200, body: RECEIVED, by: 'node', at: expect.any(Number) }, answeredTwice: false, unanswered: false };

	test('a delivery for an appointment the API does not know is answered at once, then dropped and logged (no execution)', async () => {
		const { tenant, trigger } = await published();
		const forged = { webhookType: 'booking_created', id: 'a0000000-0000-4000-8000-000000000001', start: '2027-03-02T09:00:00Z', hostIds: [tenant.userId] };

		const answer = await forge(trigger, forged);
		await settled();

		// The answer of every verified delivery, whatever the API says after: a sender learns nothing of the appointment.
		expect([answer.status, answer.body]).toEqual([200, RECEIVED]);
		expect(trigger.executions).toEqual([]);
		expect(await sent()).toEqual([{ method: 'GET', path: `/v4/appointment/${forged.id}`, query: '', headers: headers(tenant), body: null }]);
		expect(trigger.deliveries).toEqual([expect.objectContaining({ ...answeredByNode, result: { noWebhookResponse: true } })]);
		expect(trigger.deliveries[0].logs).toEqual([{ level: 'info', message: `A booking_created delivery for appointment ${forged.id} was dropped: the API does not know the appointment.` }]);
		// Nothing remembered of it: the subscription's ID is all the static data holds.
		expect(Object.keys(trigger.staticData)).toEqual(['subscriptionId']);
	});

	test('the workflow gets the API\'s appointment, not the delivery\'s: a change made since the delivery, and a body with another e-mail and location', async () => {
		const { tenant, trigger } = await published({ events: ['booking_created'] });
		// The delivery is held 1.5 s; meanwhile the appointment's notes change through the API.
		await world().control('POST', '/__sandbox/webhooks/delivery-faults', { delayMs: 1500 });
		const appointment = await book(tenant, '11:00');
		await world().control('POST', '/__sandbox/clock/advance', { seconds: 60 });
		await call(tenant, 'PATCH', `/v4/appointment/${String(appointment.id)}/notes`, { note: 'Bring the contract' });
		const [delivery] = await delivered(trigger, 1);
		const body = delivery.body as IDataObject;
		const record = await apiRecord(tenant, appointment.id);

		expect([record.notes, body.updatedAt === record.updatedAt]).toEqual(['Bring the contract', false]);
		// Exactly the API's appointment at delivery time, with the event's name and the API's moment of it.
		const createdAt = new Date(String(record.createdAt)).toISOString();
		expect(trigger.executions).toEqual([[{ webhookType: 'booking_created', eventTime: createdAt, ...record }]]);

		// The same delivery with another attendee e-mail and location (to another workflow's trigger, which has not seen it).
		const other = await triggerOf(tenant, { events: ['booking_created'] });
		const [attendee] = body.attendees as IDataObject[];
		const changed = { ...body, attendees: [{ ...attendee, email: 'someone.else@example.com' }], location: 'Changed Street 1' };
		expect((await forge(other, changed)).status).toBe(200);
		await settled();

		expect(other.executions).toEqual([[{ webhookType: 'booking_created', eventTime: createdAt, ...record }]]);
		expect([other.executions[0][0].location, (other.executions[0][0].attendees as IDataObject[])[0].email]).toEqual([null, 'ann.lee@example.com']);
	});

	test('a forged delivery naming a real appointment ID starts the workflow with the API\'s appointment only, none of its invented fields, and once', async () => {
		const { tenant, trigger } = await published({ events: ['booking_created'] });
		const appointment = await book(tenant, '12:30');
		await delivered(trigger, 1);
		const record = await apiRecord(tenant, appointment.id);
		const other = await triggerOf(tenant, { events: ['booking_created'] });
		const forged = {
			webhookType: 'booking_created',
			id: appointment.id,
			start: '2027-04-01T09:00:00Z',
			location: 'Somewhere else',
			attendees: [{ email: 'mallory@example.com', firstname: 'Mallory' }],
			hostIds: [tenant.userId],
			secret: 'forged',
			invented: 'field',
		};

		expect(await forge(other, forged)).toEqual({ status: 200, body: RECEIVED, ms: expect.any(Number) });
		await settled();

		// The event's moment is the API's too.
		expect(other.executions).toEqual([[{ webhookType: 'booking_created', eventTime: new Date(String(record.createdAt)).toISOString(), ...record }]]);
		expect(other.executions[0][0]).not.toHaveProperty('invented');
		expect(other.deliveries).toEqual([expect.objectContaining(answeredByNode)]);

		// Forged again with an updatedAt of its own (a new key for the delivery as it came): the API's key is the same, a repeat.
		await world().clearRequests();
		expect((await forge(other, { ...forged, updatedAt: '2027-01-01T00:00:00Z' })).status).toBe(200);
		await settled();
		expect(other.executions).toHaveLength(1);
		expect(other.deliveries[1].logs).toEqual([]);
		expect(await sent()).toEqual([expect.objectContaining({ method: 'GET', path: `/v4/appointment/${String(appointment.id)}` })]);
	});

	test('the Filters are checked again on the API\'s appointment: a delivery naming the filtered meeting type for another one\'s appointment is dropped', async () => {
		const tenant = await freshTenant(world());
		const intro = await call(tenant, 'POST', '/v4/meeting-type', { meetingInfo: { name: 'Intro', description: '', duration: 30, channel: 'phone' } });
		const plain = await book(tenant, '14:30');
		const trigger = await triggerOf(tenant, { events: ['booking_created'], bookingFilters: { meetingType: byId(String(intro.id)) } });
		await world().clearRequests();

		await forge(trigger, { webhookType: 'booking_created', id: plain.id, meetingTypeId: intro.id, updatedAt: plain.updatedAt });
		await settled();

		expect(trigger.executions).toEqual([]);
		expect((await sent()).map((request) => `${request.method} ${request.path}`)).toEqual([`GET /v4/appointment/${String(plain.id)}`]);
		expect(trigger.deliveries[0].logs).toEqual([
			{ level: 'info', message: `A booking_created delivery for appointment ${String(plain.id)} was dropped: the appointment is outside the trigger's Filters (meeting type or host).` },
		]);
	});

	test('a cancellation of an appointment that is not cancelled, and a reschedule to another time, are dropped', async () => {
		const { tenant, trigger } = await published();
		const appointment = await book(tenant, '15:00');
		const [created] = await delivered(trigger, 1);
		const body = created.body as IDataObject;

		await forge(trigger, { ...body, webhookType: 'booking_cancelled', isCancelled: true, updatedAt: '2027-03-01T06:05:00Z' });
		await forge(trigger, { ...body, webhookType: 'booking_rescheduled', start: '2027-03-02T16:00:00Z', rescheduledAt: '2027-03-01T06:05:00Z' });
		await settled();

		expect(trigger.executions.map((items) => items[0].webhookType)).toEqual(['booking_created']);
		expect(trigger.deliveries.slice(1).map((delivery) => delivery.logs[0]?.message).sort()).toEqual([
			`A booking_cancelled delivery for appointment ${String(appointment.id)} was dropped: the appointment is not cancelled.`,
			`A booking_rescheduled delivery for appointment ${String(appointment.id)} was dropped: the appointment starts at another time.`,
		]);
	});

	test('an attendee leaving a group booking is a cancellation the API confirms (the appointment itself stays)', async () => {
		const { tenant, trigger } = await published({ events: ['booking_cancelled'] });
		const group = await call(tenant, 'POST', '/v4/meeting-type', { meetingInfo: { name: 'Workshop', description: '', duration: 60, channel: 'phone' }, spots: 3 });
		await book(tenant, '09:00', String(group.id), 'Ann');
		const appointment = await book(tenant, '09:00', String(group.id), 'Bob');
		const bob = (appointment.attendees as IDataObject[]).find((attendee) => attendee.firstname === 'Bob')!;

		await call(tenant, 'POST', `/v4/appointment/${String(appointment.id)}/cancel`, { attendeeId: bob.id });
		await delivered(trigger, 1);

		expect(trigger.executions).toEqual([[expect.objectContaining({ webhookType: 'booking_cancelled', id: appointment.id, isCancelled: false })]]);
		// The API's record says who left.
		expect((trigger.executions[0][0].attendees as IDataObject[]).map((attendee) => [attendee.firstname, attendee.isCancelled])).toEqual([
			['Ann', false],
			['Bob', true],
		]);
	});

	test('with Verify Through the API off, nothing is read and the delivery starts the workflow as it came (answered the same way)', async () => {
		const { trigger } = await published({ events: ['booking_created'], options: { verifyThroughApi: false } });
		const forged = { webhookType: 'booking_created', id: 'a0000000-0000-4000-8000-000000000002', location: 'Anywhere' };

		expect(await forge(trigger, forged)).toEqual({ status: 200, body: RECEIVED, ms: expect.any(Number) });
		await settled();

		expect(trigger.executions).toEqual([[forged]]);
		expect(trigger.deliveries).toEqual([expect.objectContaining({ ...answeredByNode, result: { noWebhookResponse: true, workflowData: [[{ json: forged }]] } })]);
		expect(await sent()).toEqual([]);
	});

	test('what the workflow does not want is answered by n8n after webhook(), as before: an event not chosen, a booking outside the Filters, a repeat', async () => {
		const tenant = await freshTenant(world());
		const appointment = await book(tenant, '13:30');
		const trigger = await triggerOf(tenant, { events: ['booking_created'], bookingFilters: { host: byId(tenant.userId) } });
		const booking = { webhookType: 'booking_created', ...appointment };

		for (const body of [{ webhookType: 'form_submission', id: 'form-1' }, { ...booking, hostIds: [] }, booking, booking]) {
			expect((await forge(trigger, body)).body).toEqual(RECEIVED);
			await settled();
		}

		expect(trigger.executions).toEqual([[expect.objectContaining({ id: appointment.id })]]);
		expect(trigger.deliveries.map((delivery) => [delivery.answer?.by, delivery.answer?.status, delivery.answeredTwice, delivery.unanswered])).toEqual([
			['n8n', 200, false, false],
			['n8n', 200, false, false],
			['node', 200, false, false],
			['n8n', 200, false, false],
		]);
	});

	test('the answer goes out before the verification read: a read that takes 3 s, the answer at once', async () => {
		const { tenant, trigger } = await published({ events: ['booking_created'] });
		const appointment = await book(tenant, '16:30');
		const [delivery] = await delivered(trigger, 1);
		const other = await triggerOf(tenant, { events: ['booking_created'] });
		await world().control('POST', '/__sandbox/faults', { method: 'GET', path: `/v4/appointment/${String(appointment.id)}`, delayMs: 3000 });

		const answer = await forge(other, delivery.body as IDataObject);

		expect([answer.status, answer.body]).toEqual([200, RECEIVED]);
		expect(answer.ms).toBeLessThan(2000);
		expect(other.executions).toEqual([]);
		await settled();
		expect(other.executions).toEqual([[expect.objectContaining({ webhookType: 'booking_created', id: appointment.id })]]);
		const [outcome] = other.deliveries;
		expect(outcome).toMatchObject(answeredByNode);
		expect(outcome.returnedAt - outcome.answer!.at).toBeGreaterThanOrEqual(2900);
	});

	test('a burst at the credential\'s rate limit (60 a minute, burst 1) is answered at once; each delivery starts one execution with its record as the reads come through', async () => {
		const tenant = await freshTenant(world());
		const appointments = [];
		for (const time of ['09:00', '10:00', '11:00', '12:00']) appointments.push(await book(tenant, time));
		const limited = world().pat(tenant.token);
		limited.data = { ...limited.data, requestsPerMinute: 60, burst: 1 };
		const trigger = await world().webhookTrigger({ events: ['booking_created'] }, limited, receiver, { workflowName: WORKFLOW });
		await world().clearRequests();
		const started = Date.now();

		const answers = await Promise.all(appointments.map((appointment) => forge(trigger, { webhookType: 'booking_created', ...appointment })));
		await settled();
		const allDone = Date.now() - started;

		expect(answers.map((answer) => [answer.status, answer.body])).toEqual(Array(4).fill([200, RECEIVED]));
		// One read a second after the first: the last about 3 s later, every answer long before it.
		expect(allDone).toBeGreaterThanOrEqual(2900);
		const lastAnswer = Math.max(...trigger.deliveries.map((delivery) => delivery.answer!.at));
		expect(Math.max(...trigger.deliveries.map((delivery) => delivery.returnedAt)) - lastAnswer).toBeGreaterThanOrEqual(1500);
		expect(trigger.executions.map(([item]) => item.id).sort()).toEqual(appointments.map((appointment) => appointment.id).sort());
		for (const [item] of trigger.executions) {
			const appointment = appointments.find((a) => a.id === item.id)!;
			expect(item).toEqual({ webhookType: 'booking_created', eventTime: new Date(String(appointment.createdAt)).toISOString(), ...appointment });
		}
		const log = await world().requests();
		expect(log.map((request) => [request.method, request.status])).toEqual(Array(4).fill(['GET', 200]));
		expect(trigger.deliveries.every((delivery) => !delivery.answeredTwice && delivery.answer?.by === 'node')).toBe(true);
	});

	test('a 429 after the answer is retried within the credential\'s limit (its Retry-After), then the workflow starts', async () => {
		const { tenant, trigger } = await published({ events: ['booking_created'] });
		const appointment = await book(tenant, '15:30');
		const [delivery] = await delivered(trigger, 1);
		const other = await triggerOf(tenant, { events: ['booking_created'] });
		await world().clearRequests();
		const tooMany = { statusCode: 429, message: 'Too Many Requests', error: 'Too Many Requests' };
		await world().control('POST', '/__sandbox/faults', { method: 'GET', path: `/v4/appointment/${String(appointment.id)}`, status: 429, retryAfter: '1', body: tooMany });

		const outcome = await other.deliver(delivery.body);

		expect(outcome).toMatchObject(answeredByNode);
		expect(outcome.error).toBeUndefined();
		expect(other.executions).toEqual([[expect.objectContaining({ id: appointment.id })]]);
		expect((await world().requests()).map((request) => [request.method, request.status])).toEqual([
			['GET', 429],
			['GET', 200],
		]);
		expect(outcome.returnedAt - outcome.answer!.at).toBeGreaterThanOrEqual(900);
	});

	test('a read that fails after the answer (HTTP 500) is logged and starts nothing, without a second answer or an error; a repeat is checked again', async () => {
		const { tenant, trigger } = await published({ events: ['booking_created'] });
		const appointment = await book(tenant, '16:00');
		const [delivery] = await delivered(trigger, 1);
		const again = await triggerOf(tenant, { events: ['booking_created'] });
		await world().control('POST', '/__sandbox/faults', { method: 'GET', path: `/v4/appointment/${String(appointment.id)}`, status: 500, body: { statusCode: 500, message: 'Database unavailable', error: 'Internal Server Error' } });

		const answer = await forge(again, delivery.body as IDataObject);
		await settled();

		expect([answer.status, answer.body]).toEqual([200, RECEIVED]);
		const [failed] = again.deliveries;
		expect(failed).toMatchObject({ ...answeredByNode, result: { noWebhookResponse: true } });
		expect(failed.error).toBeUndefined();
		expect(failed.logs).toEqual([
			{
				level: 'error',
				message: expect.stringMatching(
					new RegExp(
						`^A booking_created delivery for appointment ${String(appointment.id)} could not be verified through the API and starts nothing: Database unavailable \\(HTTP 500\\) .+\\. It was answered 200 already, so the service will not send it again: unless it does, the event is lost for this workflow\\.$`,
					),
				),
			},
		]);
		expect(again.executions).toEqual([]);
		expect(again.staticData).toEqual({});

		const repeated = await again.deliver(delivery.body);
		expect(repeated).toMatchObject(answeredByNode);
		expect(again.executions).toEqual([[expect.objectContaining({ id: appointment.id })]]);
	});
});

describe('test events', () => {
	test('listening for a test event subscribes the test URL, takes the sample unverified, and unsubscribes', async () => {
		const tenant = await freshTenant(world());
		const trigger = await triggerOf(tenant, { events: ['booking_created'] }, { mode: 'manual' });
		expect(trigger.url).toContain('/webhook-test/');
		expect((await trigger.activate()).error).toBeUndefined();
		await world().clearRequests();

		expect(await world().control('POST', '/__sandbox/webhooks/emit', { companyId: tenant.companyId, webhookType: 'booking_created' })).toEqual({ deliveries: 1 });
		await delivered(trigger, 1);
		await trigger.deactivate();

		expect(trigger.executions).toEqual([[expect.objectContaining({ webhookType: 'booking_created', attendees: [expect.objectContaining({ email: 'jane.sample@example.com' })] })]]);
		expect((await sent()).map((request) => request.method)).toEqual(['DELETE']);
		expect(await subscriptionsOf(tenant)).toEqual([]);
	});

	test('a test event stores nothing: listening, a sample of each of the nine events and a booking\'s own body leave the tenant\'s records as they were', async () => {
		const tenant = await freshTenant(world());
		const appointment = await book(tenant, '10:00');
		await world().clearRequests();
		const before = await recordCounts(world(), tenant);
		expect(before).toMatchObject({ appointments: 1, contacts: 1, users: 1, webhooks: 0 });
		const events = (await getEngine()).nodeTypes.getByNameAndVersion(WEBHOOK_TRIGGER_NODE_TYPE).description.properties.find((property) => property.name === 'events')!;
		const all = (events.options as Array<{ value: string }>).map((option) => option.value);
		const trigger = await triggerOf(tenant, { events: all }, { mode: 'manual' });
		expect((await trigger.activate()).error).toBeUndefined();

		for (const webhookType of all) expect(await world().control('POST', '/__sandbox/webhooks/emit', { companyId: tenant.companyId, webhookType })).toEqual({ deliveries: 1 });
		expect(await world().control('POST', '/__sandbox/webhooks/emit', { webhookType: 'booking_cancelled', appointmentId: appointment.id })).toEqual({ deliveries: 1 });
		await delivered(trigger, all.length + 1);
		await trigger.deactivate();

		expect(trigger.executions.map(([item]) => item.webhookType)).toEqual([...all, 'booking_cancelled']);
		expect((await world().requests()).filter((request) => request.method !== 'GET').map((request) => `${request.method} ${request.path}`)).toEqual([
			'POST /webhooks',
			expect.stringMatching(/^DELETE \/webhooks\/\d+$/),
		]);
		expect(await recordCounts(world(), tenant)).toEqual(before);
		expect((await call(tenant, 'GET', `/v4/appointment/${String(appointment.id)}`)).isCancelled).toBe(false);
	});
});

test('the node type is registered with the webhook of n8n (POST, answered on receipt)', async () => {
	const description = (await getEngine()).nodeTypes.getByNameAndVersion(WEBHOOK_TRIGGER_NODE_TYPE).description;
	expect(description.webhooks).toEqual([{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }]);
	expect(description.properties.find((property) => property.name === 'events')).toMatchObject({ displayName: 'Events', type: 'multiOptions', required: true, default: ['booking_created'] });
});
