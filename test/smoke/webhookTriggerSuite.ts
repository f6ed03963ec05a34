import type { IDataObject } from 'n8n-workflow';
import { setTimeout as sleep } from 'timers/promises';

import { sandboxCall } from '../../sandbox/client';
import { startSandbox } from '../../sandbox/server';
import type { Sandbox } from '../../sandbox/server';
import type { Seed } from '../../sandbox/seed';
import type { CliResult, CliRun, RealN8n, RestClient } from '../../scripts/realN8n';
import { outputOf, runDataOf } from '../../scripts/queueWorkflows';
import { N8N_V1, NODE_TYPE, WEBHOOK_TRIGGER_NODE_TYPE, freePort, importAll, n8n, newUserFolder, ownerSession, realN8n, startN8n } from '../../scripts/realN8n';

/**
 * The Scheduling Platform Webhook Trigger in the real n8n (1.123: webhook-trigger-n8n-1.test.ts, 2.41:
 * webhook-trigger-n8n-2.test.ts), installed the README's way, with the sandbox delivering real webhooks to n8n's
 * production URL (WEBHOOK_URL is n8n's own loopback http address, which the node accepts for local tests).
 *
 * A workflow (Booking Created → the booking's notes written once per item) is activated while n8n is stopped (1.x
 * `n8n update:workflow --active=true`, 2.x `n8n publish:workflow`), then `n8n start`:
 * 1. n8n subscribes exactly once: one POST /webhooks, and GET /webhooks lists one subscription, for n8n's
 *    production webhook URL of the node.
 * 2. A booking made through the API and delivered three times (a delivery fault) starts one execution: one write in
 *    the sandbox's log and one execution in n8n, and n8n answered each delivery 200.
 * 2a. A forged delivery naming that appointment's real ID, with an invented e-mail and location, is answered 200 and
 *    reaches the workflow only as the API's appointment (the Trigger's output item in the execution's run data).
 * 2b. A burst of 10 bookings' deliveries while every appointment read takes 3 s: n8n answers each within 1.5 s (the
 *    node answers before its read), and each booking then runs once with its API record.
 *    Through n8n's own webhook server, both lines' executeWebhook (`noWebhookResponse` after the node's answer).
 * 3. With the company at its 6 subscriptions (the active one and 5 made through the API), activating a second
 *    webhook-trigger workflow through n8n's REST API as the editor does (1.x PATCH /rest/workflows/:id
 *    { active: true }, whose 400 answer the editor shows; 2.x POST /rest/workflows/:id/activate, which publishes in
 *    the background and reports the trigger's error in GET /rest/workflows/:id/publication-status and the push
 *    message the editor shows) fails with the node's explanation: the limit, the company's subscriptions and how to
 *    free one. No 7th subscription is made.
 * 4. Deactivating (unpublishing) the first workflow through the REST API (1.x PATCH { active: false }, 2.x POST
 *    /rest/workflows/:id/deactivate) deletes its subscription.
 */

const CREDENTIAL_ID = 'spHookPat0000001';
const CREDENTIAL = { schedulingPlatformPatApi: { id: CREDENTIAL_ID, name: 'PAT' } };
const LOGIN = { email: 'owner@example.com', password: 'Smoke-Password-1', firstName: 'Smoke', lastName: 'Owner' };
const NOTE = 'Seen by the webhook trigger';
const BOOKINGS = { id: 'spHookBookings01', name: 'Bookings to notes', webhookId: '5b0e4a4e-3c57-4f4a-9d55-7c1f0b6a9e01' };
const SEVENTH = { id: 'spHookSeventh001', name: 'One subscription too many', webhookId: '5b0e4a4e-3c57-4f4a-9d55-7c1f0b6a9e02' };

interface Logged {
	method: string;
	path: string;
	body: IDataObject;
	status: number | null;
}

interface Delivery {
	endpoint: string;
	status: number | null;
	error: string | null;
	body: IDataObject;
	answeredInMs: number | null;
}

/** A workflow whose Webhook Trigger (Booking Created) writes each booking's notes. */
function bookingsWorkflow({ id, name, webhookId }: typeof BOOKINGS): object {
	return {
		id,
		name,
		active: false,
		settings: {},
		connections: { Trigger: { main: [[{ node: 'Mark', type: 'main', index: 0 }]] } },
		nodes: [
			{ id: `${id}-t`, name: 'Trigger', type: WEBHOOK_TRIGGER_NODE_TYPE, typeVersion: 1, position: [0, 0], webhookId, parameters: { events: ['booking_created'] }, credentials: CREDENTIAL },
			{
				id: `${id}-m`,
				name: 'Mark',
				type: NODE_TYPE,
				typeVersion: 1,
				position: [200, 0],
				parameters: { resource: 'appointment', operation: 'updateNotes', appointmentId: { __rl: true, mode: 'id', value: '={{ $json.id }}' }, note: NOTE },
				credentials: CREDENTIAL,
			},
		],
	};
}

export function webhookTriggerSmoke(version: string): void {
	jest.setTimeout(10 * 60_000);
	const v1 = version === N8N_V1;

	let sandbox: Sandbox;
	let seed: Seed;
	let host: RealN8n;
	let server: CliRun | undefined;
	let exited: CliResult | undefined;
	let rest: RestClient;
	let editorUrl: string;

	const productionUrl = (webhookId: string) => `${editorUrl}/webhook/${webhookId}/webhook`;

	const api = async (method: string, path: string, body?: unknown) => await sandboxCall(sandbox.url, method, path, { token: seed.credentials.ownerPat, body });
	const control = async (method: string, path: string, body?: unknown) => await sandboxCall(sandbox.url, method, `/__sandbox${path}`, { body });

	const log = async () => (await control('GET', '/requests')) as Logged[];
	const requestsTo = async (method: string, path: RegExp) => (await log()).filter((request) => request.method === method && path.test(request.path));
	const subscriptions = async () => (await api('GET', '/webhooks')) as Array<{ id: number; endpoint: string; eventTypes: string[]; description: string | null }>;
	const deliveriesTo = async (endpoint: string) => ((await control('GET', '/webhooks/deliveries')) as Delivery[]).filter((delivery) => delivery.endpoint === endpoint);

	async function until(what: string, ready: () => Promise<boolean>, timeoutMs = 90_000): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		while (!(await ready())) {
			if (Date.now() > deadline || exited) {
				const output = exited ?? (await stopN8n());
				const requests = (await log()).map((request) => `${request.method} ${request.path} ${String(request.status)}`);
				throw new Error(`Timed out waiting for ${what}: ${JSON.stringify(requests)}\n${output?.stdout.slice(-3000) ?? ''}\n${output?.stderr.slice(-3000) ?? ''}`);
			}
			await sleep(500);
		}
	}

	async function stopN8n(): Promise<CliResult | undefined> {
		if (server && server.child.exitCode === null) server.child.kill('SIGTERM');
		return await server?.done;
	}

	/** The workflow as the editor has it: n8n's answer to GET /rest/workflows/:id. */
	async function workflow(id: string): Promise<IDataObject> {
		const answer = await rest('GET', `/rest/workflows/${id}`);
		expect(answer.status).toBe(200);
		return answer.body.data as IDataObject;
	}

	/** Activates (publishes) or deactivates (unpublishes) a workflow as the editor's switch or Publish button does. */
	async function setActive(id: string, active: boolean) {
		const { versionId } = await workflow(id);
		if (v1) return await rest('PATCH', `/rest/workflows/${id}`, { active, versionId });
		return active ? await rest('POST', `/rest/workflows/${id}/activate`, { versionId }) : await rest('POST', `/rest/workflows/${id}/deactivate`, {});
	}

	async function executionsOf(id: string): Promise<IDataObject[]> {
		const answer = await rest('GET', `/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId: id }))}`);
		expect(answer.status).toBe(200);
		return (answer.body.data as { results: IDataObject[] }).results;
	}

	/** Books the first open slot of the owner's first meeting type in the coming week, through the API; the appointment's ID. */
	async function book(email: string): Promise<string> {
		const [meetingType] = (await api('GET', '/v4/meeting-type')) as IDataObject[];
		const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
		const query = `meetingTypeId=${String(meetingType.id)}&start=${day(1)}&end=${day(8)}&hostIds=${seed.users.owner.id}`;
		const slots = (await api('GET', `/v4/booking-availability?${query}`)) as { dates: Array<{ spots: Array<{ startTime: string }> }> };
		const start = slots.dates.flatMap((date) => date.spots)[0].startTime;
		const attendee = { email, firstname: 'Web', lastname: 'Hook', receiveReminders: true, notes: {} };
		const booked = (await api('POST', '/v4/booking', { meetingTypeId: meetingType.id, start, hostIds: [seed.users.owner.id], attendee })) as IDataObject;
		return String(booked.appointmentId);
	}

	const succeeded = async (id: string) => (await executionsOf(id)).filter((execution) => execution.status === 'success').length;

	/** The items the Trigger handed to each execution of a workflow, newest execution first. */
	async function triggerItems(id: string): Promise<IDataObject[][]> {
		const items: IDataObject[][] = [];
		for (const execution of await executionsOf(id)) items.push(outputOf((await runDataOf(rest, host, String(execution.id))).runData, 'Trigger').map((item) => item.json));
		return items;
	}

	beforeAll(async () => {
		host = realN8n(version);
		const userFolder = newUserFolder('n8n-webhook-trigger-');
		sandbox = await startSandbox();
		seed = (await control('POST', '/seed')) as Seed;
		const credentials = [{ id: CREDENTIAL_ID, name: 'PAT', type: 'schedulingPlatformPatApi', data: { baseUrl: sandbox.url, token: seed.credentials.ownerPat } }];
		await importAll(host, userFolder, credentials, [bookingsWorkflow(BOOKINGS), bookingsWorkflow(SEVENTH)]);
		await n8n(host, userFolder, ...(v1 ? ['update:workflow', `--id=${BOOKINGS.id}`, '--active=true'] : ['publish:workflow', `--id=${BOOKINGS.id}`]));
		await control('DELETE', '/requests');

		const port = await freePort();
		editorUrl = `http://127.0.0.1:${port}`;
		server = await startN8n(host, userFolder, ['start'], 0, {
			N8N_PORT: String(port),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			WEBHOOK_URL: `${editorUrl}/`,
			N8N_SECURE_COOKIE: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
		});
		void server.done.then((result) => (exited = result));
		rest = await ownerSession(editorUrl, LOGIN, () => exited);
	});

	afterAll(async () => {
		await stopN8n();
		await sandbox?.close();
	});

	test(`n8n ${version} subscribes the active workflow once, for its production webhook URL`, async () => {
		await until('the subscription', async () => (await requestsTo('POST', /^\/webhooks$/)).some((request) => request.status !== null));
		// Whatever n8n repeats at startup would show now.
		await sleep(3000);
		const posts = await requestsTo('POST', /^\/webhooks$/);
		expect(posts.map((request) => ({ body: request.body, status: request.status }))).toEqual([
			{ body: { endpoint: productionUrl(BOOKINGS.webhookId), eventTypes: ['booking_created'], description: `n8n workflow ${BOOKINGS.name}` }, status: 201 },
		]);
		expect(await subscriptions()).toEqual([expect.objectContaining({ endpoint: productionUrl(BOOKINGS.webhookId), eventTypes: ['booking_created'] })]);
	});

	test(`n8n ${version} runs the workflow once for a booking delivered three times, and answers each delivery 200`, async () => {
		await control('POST', '/webhooks/delivery-faults', { repeat: 3, delayMs: 1000, times: 1 });
		await control('DELETE', '/requests');
		const appointmentId = await book('web.hook@example.com');

		const url = productionUrl(BOOKINGS.webhookId);
		await until('three deliveries', async () => (await deliveriesTo(url)).length >= 3);
		await until('the write', async () => (await requestsTo('PATCH', /\/notes$/)).length >= 1);
		// A repeat that started an execution would write within these seconds.
		await sleep(5000);
		expect((await deliveriesTo(url)).map(({ status, error }) => ({ status, error }))).toEqual([1, 2, 3].map(() => ({ status: 200, error: null })));
		const writes = await requestsTo('PATCH', /\/notes$/);
		expect(writes.map((request) => ({ path: request.path, body: request.body, status: request.status }))).toEqual([{ path: `/v4/appointment/${appointmentId}/notes`, body: { note: NOTE }, status: 200 }]);
		// Verified through the API once: the repeats were dropped before.
		expect((await requestsTo('GET', /^\/v4\/appointment\//)).map((request) => request.path)).toEqual([`/v4/appointment/${appointmentId}`]);
		const executions = await executionsOf(BOOKINGS.id);
		expect(executions.map((execution) => ({ mode: execution.mode, status: execution.status }))).toEqual([{ mode: 'webhook', status: 'success' }]);
	});

	test(`n8n ${version} hands the workflow a forged delivery naming a real appointment only as the API's record, and once`, async () => {
		// A booking whose own delivery is lost: the forged one is the first the workflow hears of it.
		await control('POST', '/webhooks/delivery-faults', { drop: true, times: 1 });
		const appointmentId = await book('forged@example.com');
		const record = (await api('GET', `/v4/appointment/${appointmentId}`)) as IDataObject;
		const before = await succeeded(BOOKINGS.id);
		const forged = { webhookType: 'booking_created', id: appointmentId, location: 'Forged Street 1', attendees: [{ email: 'mallory@example.com' }], invented: 'field', updatedAt: '2027-01-01T00:00:00Z' };
		const post = async (body: IDataObject) => await fetch(productionUrl(BOOKINGS.webhookId), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

		const answer = await post(forged);

		expect([answer.status, await answer.json()]).toEqual([200, { message: 'Webhook call received' }]);
		await until('the forged delivery\'s execution', async () => (await succeeded(BOOKINGS.id)) > before);
		const [newest] = await triggerItems(BOOKINGS.id);
		// Everything is the API's, the event's moment included.
		expect(newest).toEqual([{ webhookType: 'booking_created', eventTime: new Date(String(record.createdAt)).toISOString(), ...record }]);
		// Another forged copy with another updatedAt is a repeat of the same event: the API's key is recorded.
		expect((await post({ ...forged, updatedAt: '2027-01-02T00:00:00Z' })).status).toBe(200);
		await sleep(5000);
		expect(await succeeded(BOOKINGS.id)).toBe(before + 1);
	});

	test(`n8n ${version} answers a burst of deliveries at once while each verification read takes 3 s, and runs each booking once with its API record`, async () => {
		const BURST = 10;
		// Bookings whose own deliveries are dropped: the burst delivers them afterwards, all at once.
		await control('POST', '/webhooks/delivery-faults', { drop: true, times: BURST });
		const ids: string[] = [];
		for (let n = 0; n < BURST; n++) ids.push(await book(`burst.${n}@example.com`));
		const records = await Promise.all(ids.map(async (id) => (await api('GET', `/v4/appointment/${id}`)) as IDataObject));
		await control('DELETE', '/webhooks/deliveries');
		await control('DELETE', '/requests');
		await control('POST', '/faults', { method: 'GET', path: '/v4/appointment/*', delayMs: 3000, times: BURST });
		const before = await succeeded(BOOKINGS.id);

		for (const id of ids) await control('POST', '/webhooks/emit', { webhookType: 'booking_created', appointmentId: id });
		const url = productionUrl(BOOKINGS.webhookId);
		await until('the burst to be answered', async () => (await deliveriesTo(url)).length >= BURST, 30_000);
		await until('the burst\'s executions', async () => (await succeeded(BOOKINGS.id)) >= before + BURST);

		const deliveries = await deliveriesTo(url);
		expect(deliveries.map(({ status, error }) => ({ status, error }))).toEqual(Array.from({ length: BURST }, () => ({ status: 200, error: null })));
		// Answered before the 3 s read: well within 1.5 s each.
		expect(Math.max(...deliveries.map((delivery) => delivery.answeredInMs ?? Infinity))).toBeLessThan(1500);
		expect((await requestsTo('PATCH', /\/notes$/)).map((request) => request.path).sort()).toEqual(ids.map((id) => `/v4/appointment/${id}/notes`).sort());
		const items = (await triggerItems(BOOKINGS.id)).slice(0, BURST).flat();
		expect(items.map((item) => item.id).sort()).toEqual([...ids].sort());
		for (const item of items) {
			const record = records[ids.indexOf(String(item.id))];
			expect(item).toEqual({ webhookType: 'booking_created', eventTime: new Date(String(record.createdAt)).toISOString(), ...record });
		}
	});

	/** The error n8n reports for the trigger of a workflow it could not activate, as the editor shows it. */
	async function activationError(id: string): Promise<string> {
		const answer = await setActive(id, true);
		if (v1) {
			expect(answer.status).toBe(400);
			return String(answer.body.message);
		}
		expect(answer.status).toBe(200);
		let status: { status: string; triggers: Array<{ status: string; errorMessage: string | null }> } | undefined;
		await until('the publication to fail', async () => {
			status = (await rest('GET', `/rest/workflows/${id}/publication-status`)).body.data as typeof status;
			return status?.status === 'failed';
		});
		expect(status!.triggers).toEqual([expect.objectContaining({ status: 'failed' })]);
		return String(status!.triggers[0].errorMessage);
	}

	test(`n8n ${version} refuses a 7th subscription with the node's explanation: the limit, the subscriptions and how to free one`, async () => {
		for (let n = 1; n <= 5; n++) await api('POST', '/webhooks', { endpoint: `https://hooks.example.com/receiver-${n}`, eventTypes: ['form_submission'], description: `Receiver ${n}` });
		const six = await subscriptions();
		expect(six).toHaveLength(6);
		await control('DELETE', '/requests');

		const message = await activationError(SEVENTH.id);

		expect(message).toContain("The company's limit of 6 webhook subscriptions is reached");
		for (const subscription of six) expect(message).toContain(`ID ${subscription.id}`);
		expect(message).toContain(`${editorUrl}/webhook/${BOOKINGS.webhookId.slice(0, 8)}…/webhook`);
		expect(message).toContain('https://hooks.example.com/receiver-5');
		expect(message).toMatch(/delete a subscription .*or deactivate \(unpublish\) another n8n workflow/);
		// Refused by the API (406), never made.
		const posts = await requestsTo('POST', /^\/webhooks$/);
		expect(posts.length).toBeGreaterThan(0);
		expect(posts.every((request) => request.status === 406)).toBe(true);
		expect(await subscriptions()).toEqual(six);
	});

	test(`n8n ${version} deletes the subscription when the workflow is deactivated (unpublished)`, async () => {
		const [active] = (await subscriptions()).filter((subscription) => subscription.endpoint === productionUrl(BOOKINGS.webhookId));
		await control('DELETE', '/requests');

		const answer = await setActive(BOOKINGS.id, false);

		expect(answer.status).toBe(200);
		await until('the subscription to be deleted', async () => !(await subscriptions()).some((subscription) => subscription.id === active.id));
		expect((await requestsTo('DELETE', /^\/webhooks\//)).map((request) => ({ path: request.path, status: request.status }))).toEqual([{ path: `/webhooks/${active.id}`, status: 204 }]);
		expect((await subscriptions()).map((subscription) => subscription.endpoint)).toEqual([1, 2, 3, 4, 5].map((n) => `https://hooks.example.com/receiver-${n}`));
	});
}
