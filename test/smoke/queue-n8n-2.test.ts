import { mkdtempSync, rmSync } from 'fs';
import { createRequire } from 'module';
import type { IDataObject } from 'n8n-workflow';
import { tmpdir } from 'os';
import { join } from 'path';
import { setTimeout as sleep } from 'timers/promises';

import { startSandbox } from '../../sandbox/server';
import { startQueueMode } from '../../scripts/queueMode';
import type { QueueMode } from '../../scripts/queueMode';
import { CRM_NODE_TYPE, INVOICING_NODE_TYPE, N8N_V2, NODE_TYPE, TRIGGER_NODE_TYPE, ownerSession, realN8n } from '../../scripts/realN8n';
import type { RealN8n, RestClient } from '../../scripts/realN8n';
import { World } from './triggerWorld';

/**
 * The package in n8n 2.41 in queue mode, set up by scripts/queueMode.ts as `npm run start:queue` sets it up:
 * PostgreSQL 17, Redis, the main instance, two workers (one job at a time each, so that two executions at once
 * must go to both), a webhook processor, each n8n process with the package in its own user folder, and the router
 * in front (`/webhook/*` to the webhook processor). Workflows are made and published through main's REST API as
 * the editor does.
 * 1. Webhook → Wait 5 s → CRM Contact Create → Invoicing Document Create → Finalise → Download PDF, called twice at
 *    once at its production URL: the webhook processor answers both (it loads the workflow, so it loads the package)
 *    and enqueues them; each runs on another worker (their logs), none on main; main's execution view
 *    (GET /rest/executions/:id) shows every node's output, and the PDF (binary data in the database) comes from
 *    main byte for byte as the sandbox serves it; each write reached the sandbox once.
 * 2. The polling trigger (New Booking, every 15 s) published in queue mode: main polls, a worker runs the execution,
 *    and each booking is written once, also over the later polls.
 */

jest.setTimeout(6 * 60_000);

const LOGIN = { email: 'owner@example.com', password: 'Queue-Password-1', firstName: 'Queue', lastName: 'Owner' };
const WEBHOOK_PATH = 'queue-smoke';
const LINES = [{ description: 'Onboarding workshop', quantity: 2, unitPrice: 150 }];
/** Polls every 15 s: n8n 2.x refuses a poll time more often than once a minute, so four poll times, one a minute each. */
const EVERY_15_S = { item: [0, 15, 30, 45].map((second) => ({ mode: 'custom', cronExpression: `${second} * * * * *` })) };
const NOTE = 'Seen in queue mode';

let host: RealN8n;
let world: World;
let queue: QueueMode;
let folder: string;
let rest: RestClient;
let credentials: { schedulingPlatformPatApi: { id: string; name: string } };

interface RunData {
	[node: string]: Array<{ data: { main: Array<Array<{ json: IDataObject; binary?: Record<string, IDataObject> }>> } }>;
}

const byId = (expression: string) => ({ __rl: true, mode: 'id', value: `={{ ${expression} }}` });

/** Waits until `ready` holds; on timeout fails with the ends of the n8n logs. */
async function until(what: string, ready: () => Promise<boolean>, timeoutMs = 90_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await ready())) {
		if (Date.now() > deadline) {
			const logs = queue.processes.filter((p) => p.userFolder).map((p) => `--- ${p.name}\n${queue.logOf(p.name).slice(-2000)}`);
			throw new Error(`Timed out waiting for ${what}\n${logs.join('\n')}`);
		}
		await sleep(500);
	}
}

/** Makes a workflow through main's REST API and publishes it as the editor's Publish button does; its ID. */
async function publish(workflow: IDataObject): Promise<string> {
	const created = await rest('POST', '/rest/workflows', workflow);
	expect(created.status).toBe(200);
	const { id, versionId } = created.body.data as { id: string; versionId: string };
	expect((await rest('POST', `/rest/workflows/${id}/activate`, { versionId })).status).toBe(200);
	let status: IDataObject | undefined;
	await until(`workflow ${id} to be published`, async () => {
		status = (await rest('GET', `/rest/workflows/${id}/publication-status`)).body.data as IDataObject | undefined;
		return ['published', 'partial', 'failed'].includes(String(status?.status));
	});
	expect(status).toMatchObject({ status: 'published' });
	return id;
}

async function executionsOf(workflowId: string): Promise<IDataObject[]> {
	const answer = await rest('GET', `/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}`);
	expect(answer.status).toBe(200);
	return (answer.body.data as { results: IDataObject[] }).results;
}

/** The run data of an execution as main's execution view gets it (GET /rest/executions/:id; n8n stores it "flatted"). */
async function runDataOf(executionId: string): Promise<RunData> {
	const answer = await rest('GET', `/rest/executions/${executionId}`);
	expect(answer.status).toBe(200);
	const flatted = createRequire(join(host.dir, 'node_modules/n8n/package.json'))('flatted') as { parse(text: string): unknown };
	const data = flatted.parse((answer.body.data as { data: string }).data) as { resultData: { runData: RunData; error?: unknown } };
	expect(data.resultData.error).toBeUndefined();
	return data.resultData.runData;
}

const output = (runData: RunData, node: string) => runData[node][0].data.main[0];

/** The workers whose log says they ran the execution (start and finish). */
function workersThatRan(executionId: string): string[] {
	return queue
		.byRole('worker')
		.filter((worker) => queue.logOf(worker.name).includes(`Worker started execution ${executionId} (job`) && queue.logOf(worker.name).includes(`Worker finished execution ${executionId} (job`))
		.map((worker) => worker.name);
}

/** A session cookie of the owner, for the binary-data download (the REST client reads JSON only). */
async function ownerCookie(): Promise<string> {
	const answer = await fetch(`${queue.url}/rest/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ emailOrLdapLoginId: LOGIN.email, password: LOGIN.password }) });
	return (answer.headers.getSetCookie().find((cookie) => cookie.startsWith('n8n-auth=')) as string).split(';')[0];
}

beforeAll(async () => {
	host = realN8n(N8N_V2);
	world = new World(await startSandbox());
	await world.reseed();
	folder = mkdtempSync(join(tmpdir(), 'n8n-queue-'));
	queue = await startQueueMode({ host, folder, workers: 2, concurrency: 1 });
	rest = await ownerSession(queue.url, LOGIN);
	const created = await rest('POST', '/rest/credentials', { name: 'PAT', type: 'schedulingPlatformPatApi', data: { baseUrl: world.sandbox.url, token: world.seed.credentials.ownerPat } });
	expect(created.status).toBe(200);
	credentials = { schedulingPlatformPatApi: { id: String((created.body.data as IDataObject).id), name: 'PAT' } };
});

afterAll(async () => {
	await queue?.stop();
	await world?.sandbox.close();
	if (folder) rmSync(folder, { recursive: true, force: true });
});

test('n8n 2.41 in queue mode runs the CRM and Invoicing nodes on the workers for production webhooks, and main shows their outputs and the PDF', async () => {
	const node = (name: string, type: string, x: number, parameters: IDataObject) => ({ id: name, name, type, typeVersion: 1, position: [x, 0], parameters, credentials });
	const chain = ['Webhook', 'Wait', 'Contact', 'Invoice', 'Finalise', 'PDF'];
	const workflowId = await publish({
		name: 'Queue: webhook to CRM and invoice',
		settings: {},
		connections: Object.fromEntries(chain.slice(0, -1).map((name, i) => [name, { main: [[{ node: chain[i + 1], type: 'main', index: 0 }]] }])),
		nodes: [
			{ id: 'Webhook', name: 'Webhook', type: 'n8n-nodes-base.webhook', typeVersion: 2, position: [0, 0], webhookId: '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b', parameters: { httpMethod: 'POST', path: WEBHOOK_PATH, options: {} } },
			{ id: 'Wait', name: 'Wait', type: 'n8n-nodes-base.wait', typeVersion: 1.1, position: [200, 0], parameters: { resume: 'timeInterval', amount: 5, unit: 'seconds' } },
			node('Contact', CRM_NODE_TYPE, 400, {
				resource: 'contact',
				operation: 'create',
				contactFields: { mappingMode: 'defineBelow', value: { email: "={{ $('Webhook').item.json.body.email }}", firstName: "={{ $('Webhook').item.json.body.firstName }}" } },
			}),
			node('Invoice', INVOICING_NODE_TYPE, 600, { resource: 'document', operation: 'create', type: 'invoice', contactId: byId('$json.id'), lineItemsMode: 'json', lineItemsJson: JSON.stringify(LINES) }),
			node('Finalise', INVOICING_NODE_TYPE, 800, { resource: 'document', operation: 'finalise', documentId: byId('$json.id') }),
			node('PDF', INVOICING_NODE_TYPE, 1000, { resource: 'document', operation: 'downloadPdf', documentId: byId('$json.id') }),
		],
	});
	await world.control('DELETE', '/requests');

	const people = [{ email: 'grace@example.com', firstName: 'Grace' }, { email: 'katherine@example.com', firstName: 'Katherine' }];
	const answers = await Promise.all(
		people.map(async (person) => await fetch(`${queue.url}/webhook/${WEBHOOK_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(person) })),
	);
	expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
	const ended = (execution: IDataObject) => ['success', 'error', 'crashed', 'canceled'].includes(String(execution.status));
	await until('both executions to end', async () => (await executionsOf(workflowId)).filter(ended).length === 2);
	const executions = await executionsOf(workflowId);
	expect(executions.map((execution) => `${String(execution.mode)} ${String(execution.status)}`)).toEqual(['webhook success', 'webhook success']);

	// Where they ran: enqueued by the webhook processor, each run by another worker, none by main.
	const ids = executions.map((execution) => String(execution.id));
	for (const id of ids) expect(queue.logOf('webhook-1')).toContain(`Enqueued execution ${id} (job`);
	expect(ids.map(workersThatRan).sort()).toEqual([['worker-1'], ['worker-2']]);
	expect(queue.logOf('main')).not.toContain('Worker started execution');
	// The executions live in Postgres, which main's execution view reads.
	const rows = await queue.sql<{ id: number; mode: string; status: string }>('SELECT id, mode, status FROM execution_entity WHERE "workflowId" = $1 ORDER BY id', [workflowId]);
	expect(rows.map((row) => `${row.id} ${row.mode} ${row.status}`).sort()).toEqual(ids.map((id) => `${id} webhook success`).sort());

	const cookie = await ownerCookie();
	const seen: string[] = [];
	for (const id of ids) {
		const runData = await runDataOf(id);
		const email = String((output(runData, 'Webhook')[0].json.body as IDataObject).email);
		seen.push(email);
		const [contact] = output(runData, 'Contact');
		expect(contact.json).toMatchObject({ email, id: expect.any(String) });
		const [invoice] = output(runData, 'Invoice');
		expect(invoice.json).toMatchObject({ type: 'invoice', status: 'draft', contactId: contact.json.id, netTotal: 300 });
		const [finalised] = output(runData, 'Finalise');
		expect(finalised.json).toMatchObject({ id: invoice.json.id, status: 'finalised', number: expect.stringMatching(/^INV-\d{4}-\d{4}$/) });
		const [pdf] = output(runData, 'PDF');
		const number = String(finalised.json.number);
		expect(pdf.json).toEqual({ documentId: invoice.json.id, fileName: `${number}.pdf`, mimeType: 'application/pdf', fileSize: expect.any(Number) });
		const binary = (pdf.binary as Record<string, IDataObject>).data;
		expect(binary).toMatchObject({ fileName: `${number}.pdf`, mimeType: 'application/pdf', id: expect.stringMatching(/^database:/) });
		// The bytes a worker stored, read back through main, as the sandbox serves them.
		const download = await fetch(`${queue.url}/rest/binary-data?id=${encodeURIComponent(String(binary.id))}&action=download`, { headers: { cookie } });
		expect(download.status).toBe(200);
		const bytes = Buffer.from(await download.arrayBuffer());
		const original = Buffer.from(await (await fetch(`${world.sandbox.url}/invoicing/documents/${String(invoice.json.id)}/pdf`, { headers: { authorization: `Bearer ${world.seed.credentials.ownerPat}` } })).arrayBuffer());
		expect(bytes.length).toBe(pdf.json.fileSize);
		expect(bytes.equals(original)).toBe(true);
	}
	expect(seen.sort()).toEqual(people.map((person) => person.email));

	// Each write reached the API once.
	const writes = (await world.log()).filter((request) => request.method !== 'GET' && request.status !== null).map((request) => `${request.method} ${request.path.replace(/\/[0-9a-f-]{36}/g, '/:id')} ${String(request.status)}`);
	expect(writes.sort()).toEqual(['POST /crm 201', 'POST /crm 201', 'POST /invoicing/documents 201', 'POST /invoicing/documents 201', 'POST /invoicing/documents/:id/finalise 200', 'POST /invoicing/documents/:id/finalise 200']);
});

test('n8n 2.41 in queue mode: the polling trigger, published on main, has each new booking written once, by a worker', async () => {
	const workflowId = await publish({
		name: 'Queue: new bookings to notes',
		settings: {},
		connections: { Trigger: { main: [[{ node: 'Mark', type: 'main', index: 0 }]] } },
		nodes: [
			{ id: 'Trigger', name: 'Trigger', type: TRIGGER_NODE_TYPE, typeVersion: 1, position: [0, 0], parameters: { event: 'newBooking', pollTimes: EVERY_15_S }, credentials },
			{
				id: 'Mark',
				name: 'Mark',
				type: NODE_TYPE,
				typeVersion: 1,
				position: [200, 0],
				parameters: { resource: 'appointment', operation: 'updateNotes', appointmentId: byId('$json.id'), note: NOTE },
				credentials,
			},
		],
	});
	await world.control('DELETE', '/requests');
	const booked = await world.book(await world.openSlots(2), 'queue');
	const expected = booked.map((id) => `/v4/appointment/${id}/notes ${NOTE}`).sort();
	await until('both bookings to be noted', async () => (await world.notes()).length >= 2, 60_000);
	const polls = (await world.appointmentLists()).length;
	// Two more polls (31 s): nothing is written again.
	await sleep(31_000);
	expect((await world.appointmentLists()).length).toBeGreaterThan(polls);
	expect(await world.notes()).toEqual(expected);

	const executions = await executionsOf(workflowId);
	expect(executions.length).toBeGreaterThan(0);
	for (const execution of executions) {
		expect(`${String(execution.mode)} ${String(execution.status)}`).toBe('trigger success');
		expect(workersThatRan(String(execution.id))).toHaveLength(1);
	}
	expect(queue.logOf('main')).not.toContain('Worker started execution');
});
