import { mkdtempSync, rmSync } from 'fs';
import type { IDataObject } from 'n8n-workflow';
import { tmpdir } from 'os';
import { join } from 'path';
import { setTimeout as sleep } from 'timers/promises';

import { startSandbox } from '../../sandbox/server';
import { startQueueMode } from '../../scripts/queueMode';
import type { QueueMode } from '../../scripts/queueMode';
import {
	CRM_NODE_TYPE,
	INVOICING_NODE_TYPE,
	N8N_V2,
	NODE_TYPE,
	SIGNATURES_NODE_TYPE,
	TRIGGER_NODE_TYPE,
	WEBHOOK_TRIGGER_NODE_TYPE,
	ownerSession,
	realN8n,
} from '../../scripts/realN8n';
import type { RealN8n, RestClient } from '../../scripts/realN8n';
import { executionsOf as listExecutions, logEnds, publishWorkflow, runDataOf as readExecution, until as waitUntil, webhookNode, workersThatRan as workersThatRanIn } from '../../scripts/queueWorkflows';
import type { RunData, RunItem } from '../../scripts/queueWorkflows';
import { pageCount } from '../harness/signatures';
import { World } from './triggerWorld';
import type { Logged } from './triggerWorld';

/**
 * The package in n8n 2.41 in queue mode, set up by scripts/queueMode.ts as `npm run start:queue` sets it up:
 * PostgreSQL 17, Redis, the main instance, two workers (one job at a time each, so that two executions at once
 * must go to both), a webhook processor, each n8n process with the package in its own user folder, and the router
 * in front (`/webhook/*` to the webhook processor). Workflows are made and published through main's REST API as
 * the editor does. Bull's lock on a job and its check for stalled jobs are shortened (STALL_CHECK) so that a killed
 * worker's job is found in seconds rather than in one or two minutes.
 * 1. Webhook → Wait 5 s → CRM Contact Create → Invoicing Document Create → Finalise → Download PDF, called twice at
 *    once at its production URL: the webhook processor answers both (it loads the workflow, so it loads the package)
 *    and enqueues them; each runs on another worker (their logs), none on main; main's execution view
 *    (GET /rest/executions/:id) shows every node's output, and the PDF (binary data in the database) comes from
 *    main byte for byte as the sandbox serves it; each write reached the sandbox once.
 * 2. Signatures and the e-invoice on a worker: an invoice is finalised, its XRechnung and its PDF downloaded, the PDF
 *    (binary data a node stored on the worker) sent for signature by the next node, signed through the sandbox's
 *    signing route (an HTTP Request node in place of the signer), the signed PDF downloaded; each file also passed on
 *    to a No Operation node. Main's execution view serves every file byte for byte as the sandbox does.
 * 3. The Webhook Trigger: published, it is subscribed at the API once (by main, not by every process); each booking,
 *    delivered three times, starts one execution (the webhook processor takes the deliveries, a worker runs them);
 *    unpublished, its subscription is deleted.
 * 4. The polling trigger (New Booking, every 15 s): main polls, a worker runs each execution. Main is killed
 *    (SIGKILL) between polls and started again on the same database and user folder: the booking made before, the one
 *    made while main was down and the one made after each start exactly one execution and one write, also over the
 *    later polls; the trigger's state is in the workflow's static data in the database, where n8n saved it.
 * 5. A worker killed (SIGKILL) with contact writes in flight: n8n reports the execution failed as it reports a job
 *    whose worker died, and never runs it again; the other worker finishes its execution and takes the next; no
 *    contact is written twice.
 */

jest.setTimeout(6 * 60_000);

const LOGIN = { email: 'owner@example.com', password: 'Queue-Password-1', firstName: 'Queue', lastName: 'Owner' };
const WEBHOOK_PATH = 'queue-smoke';
const DOCUMENTS_PATH = 'queue-documents';
const BULK_PATH = 'queue-bulk';
const HOOK_ID = '0c9e4a51-7d2b-4c3e-9f1a-5b6c7d8e9f01';
const LINES = [{ description: 'Onboarding workshop', quantity: 2, unitPrice: 150 }];
/** Polls every 15 s: n8n 2.x refuses a poll time more often than once a minute, so four poll times, one a minute each. */
const EVERY_15_S = { item: [0, 15, 30, 45].map((second) => ({ mode: 'custom', cronExpression: `${second} * * * * *` })) };
const NOTE = 'Seen in queue mode';
const HOOK_NOTE = 'Delivered in queue mode';
/**
 * Bull's lock on a running job (renewed by its worker) and the check for jobs whose lock ran out, which the other
 * workers run (n8n's defaults: 60 s, 10 s, 30 s).
 */
const STALL_CHECK = { QUEUE_WORKER_LOCK_DURATION: '15000', QUEUE_WORKER_LOCK_RENEW_TIME: '3000', QUEUE_WORKER_STALLED_INTERVAL: '5000' };
/** Contacts of one bulk execution, and how long the sandbox holds each contact write (5 in flight at a time: ~12 s). */
const BULK = { contacts: 80, delayMs: 750 };

let host: RealN8n;
let world: World;
let queue: QueueMode;
let folder: string;
let rest: RestClient;
let credentials: { schedulingPlatformPatApi: { id: string; name: string } };

type Item = RunItem;

const byId = (expression: string) => ({ __rl: true, mode: 'id', value: `={{ ${expression} }}` });

const packageNode = (name: string, type: string, x: number, parameters: IDataObject) => ({ id: name, name, type, typeVersion: 1, position: [x, 0], parameters, credentials });

const baseNode = (name: string, type: string, typeVersion: number, x: number, parameters: IDataObject) => ({ id: name, name, type, typeVersion, position: [x, 0], parameters });

const contactNode = (x: number, email: string, firstName: string) =>
	packageNode('Contact', CRM_NODE_TYPE, x, { resource: 'contact', operation: 'create', contactFields: { mappingMode: 'defineBelow', value: { email, firstName } } });

/** The connections of nodes one after the other. */
const chained = (names: string[]) => Object.fromEntries(names.slice(0, -1).map((name, i) => [name, { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] }]));

/** The action that writes each appointment's notes. */
const markNode = (note: string) => packageNode('Mark', NODE_TYPE, 200, { resource: 'appointment', operation: 'updateNotes', appointmentId: byId('$json.id'), note });

/** Waits until `ready` holds; on timeout fails with the ends of the n8n logs. */
const until = (what: string, ready: () => Promise<boolean>, timeoutMs = 90_000) => waitUntil(what, ready, timeoutMs, () => logEnds(queue));

/** Makes a workflow through main's REST API and publishes it as the editor's Publish button does; its ID. */
const publish = async (workflow: IDataObject) => await publishWorkflow(rest, { settings: {}, ...workflow });

async function unpublish(workflowId: string): Promise<void> {
	expect((await rest('POST', `/rest/workflows/${workflowId}/deactivate`, {})).status).toBe(200);
}

async function callWebhook(path: string, body: unknown): Promise<number> {
	const answer = await fetch(`${queue.url}/webhook/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
	return answer.status;
}

const executionsOf = async (workflowId: string) => await listExecutions(rest, workflowId);

const ended = (execution: IDataObject) => ['success', 'error', 'crashed', 'canceled'].includes(String(execution.status));

/** An execution as main's execution view gets it: status, run data, error. */
const executionOf = async (executionId: string) => await readExecution(rest, host, executionId);

/** The run data of a successful execution, as main's execution view gets it. */
async function runDataOf(executionId: string): Promise<RunData> {
	const { runData, error } = await executionOf(executionId);
	expect(error).toBeUndefined();
	return runData;
}

const output = (runData: RunData, node: string) => runData[node][0].data!.main[0];

const workersThatRan = (executionId: string) => workersThatRanIn(queue, executionId);

/** The workers whose log says they started the execution. */
const workersThatStarted = (executionId: string) => queue.byRole('worker').filter((worker) => queue.logOf(worker.name).includes(`Worker started execution ${executionId} (job`)).map((worker) => worker.name);

/** A session cookie of the owner, for the binary-data download (the REST client reads JSON only). */
async function ownerCookie(): Promise<string> {
	const answer = await fetch(`${queue.url}/rest/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ emailOrLdapLoginId: LOGIN.email, password: LOGIN.password }) });
	return (answer.headers.getSetCookie().find((cookie) => cookie.startsWith('n8n-auth=')) as string).split(';')[0];
}

/** The bytes of an item's binary data as main serves them to the execution view (binary data in the database). */
async function bytesFromMain(item: Item, property = 'data'): Promise<Buffer> {
	const binary = (item.binary as Record<string, IDataObject>)[property];
	expect(binary.id).toMatch(/^database:/);
	const download = await fetch(`${queue.url}/rest/binary-data?id=${encodeURIComponent(String(binary.id))}&action=download`, { headers: { cookie: await ownerCookie() } });
	expect(download.status).toBe(200);
	return Buffer.from(await download.arrayBuffer());
}

/** A file as the sandbox serves it to the owner's token. */
async function fromSandbox(path: string): Promise<Buffer> {
	const answer = await fetch(`${world.sandbox.url}${path}`, { headers: { authorization: `Bearer ${world.seed.credentials.ownerPat}` } });
	expect(answer.status).toBe(200);
	return Buffer.from(await answer.arrayBuffer());
}

/** The writes the sandbox answered, as "METHOD /path status" with IDs as :id. */
const writesIn = (log: Logged[]) =>
	log.filter((request) => request.method !== 'GET' && request.status !== null).map((request) => `${request.method} ${request.path.replace(/\/[0-9a-f-]{36}/g, '/:id')} ${String(request.status)}`);

beforeAll(async () => {
	host = realN8n(N8N_V2);
	world = new World(await startSandbox());
	await world.reseed();
	folder = mkdtempSync(join(tmpdir(), 'n8n-queue-'));
	queue = await startQueueMode({ host, folder, workers: 2, concurrency: 1, env: STALL_CHECK });
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
	const workflowId = await publish({
		name: 'Queue: webhook to CRM and invoice',
		connections: chained(['Webhook', 'Wait', 'Contact', 'Invoice', 'Finalise', 'PDF']),
		nodes: [
			webhookNode(WEBHOOK_PATH, '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b'),
			baseNode('Wait', 'n8n-nodes-base.wait', 1.1, 200, { resume: 'timeInterval', amount: 5, unit: 'seconds' }),
			contactNode(400, "={{ $('Webhook').item.json.body.email }}", "={{ $('Webhook').item.json.body.firstName }}"),
			packageNode('Invoice', INVOICING_NODE_TYPE, 600, { resource: 'document', operation: 'create', type: 'invoice', contactId: byId('$json.id'), lineItemsMode: 'json', lineItemsJson: JSON.stringify(LINES) }),
			packageNode('Finalise', INVOICING_NODE_TYPE, 800, { resource: 'document', operation: 'finalise', documentId: byId('$json.id') }),
			packageNode('PDF', INVOICING_NODE_TYPE, 1000, { resource: 'document', operation: 'downloadPdf', documentId: byId('$json.id') }),
		],
	});
	await world.control('DELETE', '/requests');

	const people = [{ email: 'grace@example.com', firstName: 'Grace' }, { email: 'katherine@example.com', firstName: 'Katherine' }];
	expect(await Promise.all(people.map(async (person) => await callWebhook(WEBHOOK_PATH, person)))).toEqual([200, 200]);
	await until('both executions to end', async () => (await executionsOf(workflowId)).filter(ended).length === 2);
	const executions = await executionsOf(workflowId);
	expect(executions.map((execution) => `${String(execution.mode)} ${String(execution.status)}`)).toEqual(['webhook success', 'webhook success']);

	// Where they ran: enqueued by the webhook processor, each run by another worker, none by main.
	const ids = executions.map((execution) => String(execution.id));
	for (const id of ids) expect(queue.logOf('webhook-1')).toContain(`Enqueued execution ${id} (job`);
	expect((await Promise.all(ids.map(workersThatRan))).sort()).toEqual([['worker-1'], ['worker-2']]);
	expect(queue.logOf('main')).not.toContain('Worker started execution');
	// The executions live in Postgres, which main's execution view reads.
	const rows = await queue.sql<{ id: number; mode: string; status: string }>('SELECT id, mode, status FROM execution_entity WHERE "workflowId" = $1 ORDER BY id', [workflowId]);
	expect(rows.map((row) => `${row.id} ${row.mode} ${row.status}`).sort()).toEqual(ids.map((id) => `${id} webhook success`).sort());

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
		expect(pdf.binary?.data).toMatchObject({ fileName: `${number}.pdf`, mimeType: 'application/pdf' });
		// The bytes a worker stored, read back through main, as the sandbox serves them.
		const bytes = await bytesFromMain(pdf);
		expect(bytes.length).toBe(pdf.json.fileSize);
		expect(bytes.equals(await fromSandbox(`/invoicing/documents/${String(invoice.json.id)}/pdf`))).toBe(true);
	}
	expect(seen.sort()).toEqual(people.map((person) => person.email));

	// Each write reached the API once.
	expect(writesIn(await world.log()).sort()).toEqual([
		'POST /crm 201',
		'POST /crm 201',
		'POST /invoicing/documents 201',
		'POST /invoicing/documents 201',
		'POST /invoicing/documents/:id/finalise 200',
		'POST /invoicing/documents/:id/finalise 200',
	]);
});

test('n8n 2.41 in queue mode: Signatures and the e-invoice on a worker, each file passed to the next node and served by main byte for byte', async () => {
	const names = ['Webhook', 'Contact', 'Invoice', 'Finalise', 'E-Invoice', 'Keep E-Invoice', 'PDF', 'Signature', 'Sign', 'Signed PDF', 'Keep Signed PDF'];
	const workflowId = await publish({
		name: 'Queue: invoice, e-invoice and signed PDF',
		connections: chained(names),
		nodes: [
			webhookNode(DOCUMENTS_PATH, '3a7c1e2d-5b4f-4a6e-8c9d-0e1f2a3b4c5d'),
			contactNode(200, '={{ $json.body.email }}', '={{ $json.body.firstName }}'),
			packageNode('Invoice', INVOICING_NODE_TYPE, 400, { resource: 'document', operation: 'create', type: 'invoice', contactId: byId('$json.id'), lineItemsMode: 'json', lineItemsJson: JSON.stringify(LINES) }),
			packageNode('Finalise', INVOICING_NODE_TYPE, 600, { resource: 'document', operation: 'finalise', documentId: byId('$json.id') }),
			packageNode('E-Invoice', INVOICING_NODE_TYPE, 800, { resource: 'document', operation: 'downloadEInvoice', documentId: byId('$json.id'), eInvoiceFormat: 'xrechnung' }),
			baseNode('Keep E-Invoice', 'n8n-nodes-base.noOp', 1, 1000, {}),
			packageNode('PDF', INVOICING_NODE_TYPE, 1200, { resource: 'document', operation: 'downloadPdf', documentId: byId('$json.documentId') }),
			packageNode('Signature', SIGNATURES_NODE_TYPE, 1400, {
				resource: 'signatureRequest',
				operation: 'create',
				title: "={{ 'Invoice ' + $('Finalise').item.json.number }}",
				signers: { signer: [{ name: "={{ $('Webhook').item.json.body.firstName }}", email: "={{ $('Webhook').item.json.body.email }}", order: 1 }] },
			}),
			// The signer, as the sandbox's signing page posts it.
			baseNode('Sign', 'n8n-nodes-base.httpRequest', 4.2, 1600, {
				method: 'POST',
				url: `=${world.sandbox.url}/__sandbox/signatures/{{ $json.id }}/sign`,
				sendBody: true,
				specifyBody: 'json',
				jsonBody: '={{ JSON.stringify({ email: $json.signers[0].email }) }}',
				options: {},
			}),
			packageNode('Signed PDF', SIGNATURES_NODE_TYPE, 1800, { resource: 'signatureRequest', operation: 'downloadDocument', signatureRequestId: byId("$('Signature').item.json.id") }),
			baseNode('Keep Signed PDF', 'n8n-nodes-base.noOp', 1, 2000, {}),
		],
	});
	await world.control('DELETE', '/requests');

	expect(await callWebhook(DOCUMENTS_PATH, { email: 'ada@example.com', firstName: 'Ada' })).toBe(200);
	await until('the execution to end', async () => (await executionsOf(workflowId)).some(ended));
	const [execution] = await executionsOf(workflowId);
	expect(`${String(execution.mode)} ${String(execution.status)}`).toBe('webhook success');
	const id = String(execution.id);
	expect(await workersThatRan(id)).toHaveLength(1);
	expect(queue.logOf('main')).not.toContain(`Worker started execution ${id} (`);
	const log = await world.log();
	expect(writesIn(log)).toEqual(['POST /crm 201', 'POST /invoicing/documents 201', 'POST /invoicing/documents/:id/finalise 200', 'POST /v4/signatures 201']);

	const runData = await runDataOf(id);
	expect(Object.keys(runData).sort()).toEqual([...names].sort());
	const [finalised] = output(runData, 'Finalise');
	const [documentId, number] = [String(finalised.json.id), String(finalised.json.number)];

	// The e-invoice, downloaded on the worker and passed on: the same bytes from both nodes' outputs.
	const xml = await fromSandbox(`/invoicing/documents/${documentId}/e-invoice?format=xrechnung`);
	const [eInvoice] = output(runData, 'E-Invoice');
	expect(eInvoice.json).toEqual({ documentId, format: 'xrechnung', fileName: `${number}.xml`, mimeType: 'application/xml', fileSize: xml.length });
	const [keptEInvoice] = output(runData, 'Keep E-Invoice');
	expect(keptEInvoice.binary?.data).toMatchObject({ fileName: `${number}.xml`, mimeType: 'application/xml' });
	for (const item of [eInvoice, keptEInvoice]) expect((await bytesFromMain(item)).equals(xml)).toBe(true);

	// The PDF, stored by one node on the worker, sent for signature by the next as the API's base64 document.
	const pdf = await fromSandbox(`/invoicing/documents/${documentId}/pdf`);
	expect((await bytesFromMain(output(runData, 'PDF')[0])).equals(pdf)).toBe(true);
	const [sent] = log.filter((request) => request.path === '/v4/signatures');
	expect(sent.body.document).toEqual({ fileName: `${number}.pdf`, contentType: 'application/pdf', content: pdf.toString('base64') });
	const [signature] = output(runData, 'Signature');
	expect(signature.json).toMatchObject({ title: `Invoice ${number}`, status: 'pending' });
	expect(output(runData, 'Sign')[0].json).toMatchObject({ id: signature.json.id, status: 'completed' });

	// The signed PDF: the invoice's pages and the signature page, the same bytes from both nodes' outputs.
	const signed = await fromSandbox(`/v4/signatures/${String(signature.json.id)}/document`);
	expect(await pageCount(signed)).toBe((await pageCount(pdf)) + 1);
	const [signedPdf] = output(runData, 'Signed PDF');
	expect(signedPdf.json).toEqual({ signatureRequestId: signature.json.id, version: 'signed', fileName: `${number}-signed.pdf`, mimeType: 'application/pdf', fileSize: signed.length });
	const [keptSignedPdf] = output(runData, 'Keep Signed PDF');
	expect(keptSignedPdf.binary?.data).toMatchObject({ fileName: `${number}-signed.pdf`, mimeType: 'application/pdf' });
	for (const item of [signedPdf, keptSignedPdf]) expect((await bytesFromMain(item)).equals(signed)).toBe(true);
});

test('n8n 2.41 in queue mode: the Webhook Trigger is subscribed once, each booking delivered three times starts one execution on a worker, and unpublishing deletes the subscription', async () => {
	const subscriptions = async () => (await world.api('GET', '/webhooks')) as unknown as Array<{ id: number; endpoint: string; eventTypes: string[] }>;
	const endpoint = `${queue.url}/webhook/${HOOK_ID}/webhook`;
	const deliveries = async () => ((await world.control('GET', '/webhooks/deliveries')) as Array<{ endpoint: string; status: number | null; error: string | null }>).filter((delivery) => delivery.endpoint === endpoint);
	const name = 'Queue: booking webhooks to notes';
	await world.control('DELETE', '/requests');
	const workflowId = await publish({
		name,
		connections: chained(['Trigger', 'Mark']),
		nodes: [{ ...packageNode('Trigger', WEBHOOK_TRIGGER_NODE_TYPE, 0, { events: ['booking_created'] }), webhookId: HOOK_ID }, markNode(HOOK_NOTE)],
	});
	// Whatever another process would add would show by now.
	await sleep(3000);
	const posts = (await world.log()).filter((request) => request.method === 'POST' && request.path === '/webhooks');
	expect(posts.map(({ body, status }) => ({ body, status }))).toEqual([{ body: { endpoint, eventTypes: ['booking_created'], description: `n8n workflow ${name}` }, status: 201 }]);
	expect(await subscriptions()).toEqual([expect.objectContaining({ endpoint, eventTypes: ['booking_created'] })]);

	await world.control('POST', '/webhooks/delivery-faults', { repeat: 3, delayMs: 1000, times: 2 });
	await world.control('DELETE', '/requests');
	const booked = await world.book(await world.openSlots(2), 'hook');
	await until('six deliveries', async () => (await deliveries()).length >= 6);
	await until('two writes', async () => (await world.notes()).length >= 2);
	// A repeat that started an execution would write within these seconds.
	await sleep(5000);
	expect((await deliveries()).map(({ status, error }) => ({ status, error }))).toEqual(Array.from({ length: 6 }, () => ({ status: 200, error: null })));
	expect(await world.notes()).toEqual(booked.map((id) => `/v4/appointment/${id}/notes ${HOOK_NOTE}`).sort());
	const executions = await executionsOf(workflowId);
	expect(executions.map((execution) => `${String(execution.mode)} ${String(execution.status)}`)).toEqual(['webhook success', 'webhook success']);
	const delivered: string[] = [];
	for (const execution of executions) {
		const id = String(execution.id);
		expect(queue.logOf('webhook-1')).toContain(`Enqueued execution ${id} (job`);
		expect(await workersThatRan(id)).toHaveLength(1);
		delivered.push(...output(await runDataOf(id), 'Trigger').map((item) => `${String(item.json.webhookType)} ${String(item.json.id)}`));
	}
	expect(delivered.sort()).toEqual(booked.map((id) => `booking_created ${id}`).sort());

	const [subscription] = await subscriptions();
	await world.control('DELETE', '/requests');
	await unpublish(workflowId);
	await until('the subscription to be deleted', async () => (await subscriptions()).length === 0);
	const deletes = (await world.log()).filter((request) => request.method === 'DELETE');
	expect(deletes.map(({ path, status }) => `${path} ${String(status)}`)).toEqual([`/webhooks/${subscription.id} 204`]);
});

test('n8n 2.41 in queue mode: the polling trigger has each new booking run once, by a worker, also when main is killed and started again between polls', async () => {
	const workflowId = await publish({
		name: 'Queue: new bookings to notes',
		connections: chained(['Trigger', 'Mark']),
		nodes: [packageNode('Trigger', TRIGGER_NODE_TYPE, 0, { event: 'newBooking', pollTimes: EVERY_15_S }), markNode(NOTE)],
	});
	await world.control('DELETE', '/requests');
	const notesOf = (ids: string[]) => ids.map((id) => `/v4/appointment/${id}/notes ${NOTE}`).sort();
	const booked = await world.book(await world.openSlots(2), 'queue');
	await until('the bookings made before to be noted', async () => (await world.notes()).length >= 2, 60_000);

	// Between polls (the next is 15 s after one), main dies as in a crash; a booking is made while it is down.
	const polls = (await world.appointmentLists()).length;
	await until('the next poll', async () => (await world.appointmentLists()).length > polls, 30_000);
	await sleep(2000);
	await queue.kill('main');
	booked.push(...(await world.book(await world.openSlots(1), 'down')));
	await queue.restart('main');
	rest = await ownerSession(queue.url, LOGIN);
	await until('the booking made while main was down to be noted', async () => (await world.notes()).length >= 3);
	booked.push(...(await world.book(await world.openSlots(1), 'after')));
	await until('the booking made after the restart to be noted', async () => (await world.notes()).length >= 4, 60_000);

	// Two more polls (31 s): nothing is written again.
	const settled = (await world.appointmentLists()).length;
	await sleep(31_000);
	expect((await world.appointmentLists()).length).toBeGreaterThan(settled);
	expect(await world.notes()).toEqual(notesOf(booked));

	// Each booking came out of the trigger once: in one execution, run by one worker.
	const emitted: string[] = [];
	for (const execution of await executionsOf(workflowId)) {
		const id = String(execution.id);
		expect(`${String(execution.mode)} ${String(execution.status)}`).toBe('trigger success');
		expect(await workersThatRan(id)).toHaveLength(1);
		emitted.push(...output(await runDataOf(id), 'Trigger').map((item) => String(item.json.id)));
	}
	expect(emitted.sort()).toEqual([...booked].sort());
	expect(queue.logOf('main')).not.toContain('Worker started execution');
	// What the trigger remembers is the node's static data, saved by n8n in the workflow's row.
	const [row] = await queue.sql<{ staticData: IDataObject | null }>('SELECT "staticData" FROM workflow_entity WHERE id = $1', [workflowId]);
	expect(Object.keys(row.staticData ?? {})).toEqual(['node:Trigger']);
	await unpublish(workflowId);
});

test('n8n 2.41 in queue mode: a worker killed with writes in flight has its execution reported failed and never run again; the other worker goes on; no contact is written twice', async () => {
	const workflowId = await publish({
		name: 'Queue: contacts in bulk',
		connections: chained(['Webhook', 'Split', 'Contact']),
		nodes: [
			webhookNode(BULK_PATH, '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a'),
			baseNode('Split', 'n8n-nodes-base.splitOut', 1, 200, { fieldToSplitOut: 'body.people', options: {} }),
			contactNode(400, '={{ $json.email }}', '={{ $json.firstName }}'),
		],
	});
	await world.control('POST', '/faults', { method: 'POST', path: '/crm', delayMs: BULK.delayMs, times: 10 * BULK.contacts });
	await world.control('DELETE', '/requests');
	const people = (tag: string, count: number) => Array.from({ length: count }, (_, i) => ({ email: `${tag}-${i}@example.com`, firstName: `${tag} ${i}` }));
	const contactWrites = async (tag = '') => (await world.log()).filter((request) => request.method === 'POST' && request.path === '/crm' && String(request.body?.email).startsWith(tag));
	const executionIds = async () => (await executionsOf(workflowId)).map((execution) => String(execution.id));

	expect(await callWebhook(BULK_PATH, { people: people('doomed', BULK.contacts) })).toBe(200);
	await until('the first execution to write', async () => (await contactWrites('doomed-')).length >= 5);
	const [doomed] = await executionIds();
	const [victim] = workersThatStarted(doomed);
	const survivor = queue.byRole('worker').find((worker) => worker.name !== victim)!.name;
	expect(await callWebhook(BULK_PATH, { people: people('spared', BULK.contacts) })).toBe(200);
	await until('the second execution to write', async () => (await contactWrites('spared-')).length >= 5);
	const inFlight = (await contactWrites('doomed-')).filter((request) => request.status === null);
	await queue.kill(victim);
	const doomedSent = (await contactWrites('doomed-')).length;
	expect(inFlight.length).toBeGreaterThan(0);
	expect(doomedSent).toBeLessThan(BULK.contacts);

	// The surviving worker finishes its execution, then takes the next one.
	expect(await callWebhook(BULK_PATH, { people: people('next', 3) })).toBe(200);
	await until('the three executions to be listed', async () => (await executionIds()).length === 3);
	const [spared, next] = (await executionIds()).filter((id) => id !== doomed).sort((a, b) => Number(a) - Number(b));
	await until('the other executions to end', async () => (await executionsOf(workflowId)).filter((execution) => String(execution.id) !== doomed && ended(execution)).length === 2);
	for (const id of [spared, next]) {
		expect((await executionOf(id)).status).toBe('success');
		expect(await workersThatRan(id)).toEqual([survivor]);
	}

	// n8n's report: Bull finds the job's lock gone and fails the job (n8n 2.x never puts a stalled job back in the
	// queue); the webhook processor, which enqueued it, waits 30 s for a late result, then marks the execution failed.
	await until("the killed worker's execution to be reported", async () => (await executionsOf(workflowId)).some((execution) => String(execution.id) === doomed && ended(execution)), 180_000);
	const report = await executionOf(doomed);
	expect({ status: report.status, message: report.error?.message }).toEqual({
		status: 'error',
		message: expect.stringMatching(/^This execution failed to be processed too many times and will no longer retry/),
	});
	expect(queue.logOf('webhook-1')).toContain(`Problem with execution ${doomed}: This execution failed to be processed too many times`);
	// Two stall checks later: nobody ran it again, and nothing more was sent for it.
	await sleep(2 * Number(STALL_CHECK.QUEUE_WORKER_STALLED_INTERVAL));
	expect(workersThatStarted(doomed)).toEqual([victim]);
	expect(await contactWrites('doomed-')).toHaveLength(doomedSent);
	// Each contact written once (a write the API refused with 429 is no write; the node sends it again).
	const written = (await contactWrites()).filter((request) => request.status !== 429).map((request) => String(request.body.email));
	expect(written.filter((email) => email.startsWith('spared-'))).toHaveLength(BULK.contacts);
	expect(written.filter((email) => email.startsWith('next-'))).toHaveLength(3);
	expect(new Set(written).size).toBe(written.length);
	await world.control('DELETE', '/faults');
	await unpublish(workflowId);
});
