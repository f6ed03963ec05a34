import { mkdtempSync, rmSync } from 'fs';
import type { IDataObject } from 'n8n-workflow';
import { tmpdir } from 'os';
import { join } from 'path';

import { startSandbox } from '../../sandbox/server';
import { startQueueMode } from '../../scripts/queueMode';
import type { QueueMode } from '../../scripts/queueMode';
import { callWebhook, endedExecutions, logEnds, outputOf, publishWorkflow, runDataOf, webhookNode, workersThatRan } from '../../scripts/queueWorkflows';
import { CRM_NODE_TYPE, N8N_V2, ownerSession, realN8n } from '../../scripts/realN8n';
import type { RealN8n, RestClient } from '../../scripts/realN8n';
import { World } from './triggerWorld';

/**
 * Three queue-mode workers writing on one credential at the API's limit at the same time (issue 26): n8n 2.41 in
 * queue mode as scripts/queueMode.ts sets it up, with three workers of one job at a time each, so that three
 * executions at once run on the three. The workflow, Webhook → Code (500 items, each a new email) → CRM Contact
 * Create, is called three times at once at its production URL. Contact Create is a write the API does not
 * deduplicate (api-reference §3: a second create with the same email makes a second contact), so a write sent twice
 * would show as a second contact in the sandbox's store.
 * The limit is scaled so that the run takes about a minute and a half: the sandbox's bucket for the credential and the
 * credential's own Requests per Minute and Burst are both 900 per minute with a burst of 30, so the 1,500 writes
 * need at least (1,500 - 30) / 900 minutes, and three processes each starting with a full bucket of 30 must meet
 * 429s. Proven: every execution succeeded on its own worker with no failed item, the executions' outputs report
 * each of the 1,500 contacts once, the API was asked to create each email exactly once (1,500 answers 201, the
 * others 429) and its store holds each email once; and the API did answer 429, so the run was at the limit.
 */

jest.setTimeout(12 * 60_000);

const LOGIN = { email: 'owner@example.com', password: 'Queue-Password-1', firstName: 'Queue', lastName: 'Owner' };
const WEBHOOK_PATH = 'queue-writes';
const WORKERS = 3;
const WRITES = 500;
const LIMIT = { perMinute: 900, burst: 30 };
const DOMAIN = 'writes.example';

let host: RealN8n;
let world: World;
let queue: QueueMode;
let folder: string;
let rest: RestClient;

const emailOf = (run: number, item: number) => `w${run}-${item}@${DOMAIN}`;

/** Every contact of the sandbox's store with an email of this test: one page of 100 after the other, without limit. */
async function storedEmails(): Promise<string[]> {
	await world.control('POST', '/rate-limit', { perMinute: 1_000_000, burst: 1_000_000 });
	const emails: string[] = [];
	for (let page = 1; ; page++) {
		const answer = await world.api('GET', `/crm?searchTerm=${DOMAIN}&limit=100&page=${page}`);
		emails.push(...(answer.result as Array<{ item: { email: string } }>).map((row) => row.item.email));
		if (page >= Number(answer.totalPages)) return emails;
	}
}

beforeAll(async () => {
	host = realN8n(N8N_V2);
	world = new World(await startSandbox());
	await world.reseed();
	folder = mkdtempSync(join(tmpdir(), 'n8n-queue-writes-'));
	queue = await startQueueMode({ host, folder, workers: WORKERS, concurrency: 1 });
	rest = await ownerSession(queue.url, LOGIN);
});

afterAll(async () => {
	await queue?.stop();
	await world?.sandbox.close();
	if (folder) rmSync(folder, { recursive: true, force: true });
});

test('three workers write 500 contacts each on one credential at the limit: no failed item, no write twice, every item reported', async () => {
	const data = { baseUrl: world.sandbox.url, token: world.seed.credentials.ownerPat, requestsPerMinute: LIMIT.perMinute, burst: LIMIT.burst };
	const created = await rest('POST', '/rest/credentials', { name: 'PAT at the limit', type: 'schedulingPlatformPatApi', data });
	expect(created.status).toBe(200);
	const credentials = { schedulingPlatformPatApi: { id: String((created.body.data as IDataObject).id), name: 'PAT at the limit' } };
	const make = `const run = $('Webhook').first().json.body.run;\nreturn Array.from({ length: ${WRITES} }, (_, i) => ({ json: { email: \`w\${run}-\${i}@${DOMAIN}\`, firstName: \`Writer \${run}\` } }));`;
	const workflowId = await publishWorkflow(rest, {
		name: 'Queue: 500 contacts at the limit',
		settings: {},
		connections: { Webhook: { main: [[{ node: 'Make', type: 'main', index: 0 }]] }, Make: { main: [[{ node: 'Contact', type: 'main', index: 0 }]] } },
		nodes: [
			webhookNode(WEBHOOK_PATH, '0c6f3a52-7d41-4e8b-9a3f-2b5c8d1e4f70'),
			{ id: 'Make', name: 'Make', type: 'n8n-nodes-base.code', typeVersion: 2, position: [200, 0], parameters: { jsCode: make } },
			{
				id: 'Contact',
				name: 'Contact',
				type: CRM_NODE_TYPE,
				typeVersion: 1,
				position: [400, 0],
				parameters: { resource: 'contact', operation: 'create', contactFields: { mappingMode: 'defineBelow', value: { email: '={{ $json.email }}', firstName: '={{ $json.firstName }}' } } },
				credentials,
			},
		],
	});
	await world.control('POST', '/rate-limit', LIMIT);
	await world.control('DELETE', '/requests');

	await callWebhook(queue.url, WEBHOOK_PATH, [1, 2, 3].map((run) => ({ run })));
	const executions = await endedExecutions(rest, workflowId, WORKERS, 8 * 60_000, () => logEnds(queue));
	expect(executions.map((execution) => `${String(execution.mode)} ${String(execution.status)}`)).toEqual(Array(WORKERS).fill('webhook success'));
	// One execution on each worker, all at once.
	const ids = executions.map((execution) => String(execution.id));
	expect((await Promise.all(ids.map((id) => workersThatRan(queue, id)))).flat().sort()).toEqual(['worker-1', 'worker-2', 'worker-3']);

	// Every item reported: each execution's Contact node gave one contact per input item, with the API's ID.
	const reported: string[] = [];
	for (const id of ids) {
		const { runData, error } = await runDataOf(rest, host, id);
		expect(error).toBeUndefined();
		const run = Number((outputOf(runData, 'Webhook')[0].json.body as IDataObject).run);
		const contacts = outputOf(runData, 'Contact');
		expect(contacts.map((contact) => contact.json.email)).toEqual(Array.from({ length: WRITES }, (_, item) => emailOf(run, item)));
		expect(contacts.every((contact) => typeof contact.json.id === 'string')).toBe(true);
		reported.push(...contacts.map((contact) => String(contact.json.id)));
	}
	expect(new Set(reported).size).toBe(WORKERS * WRITES);

	// At the limit: the API answered 429s; each email was created once (201), and nothing else was answered.
	const creates = (await world.log()).filter((request) => request.method === 'POST' && request.path === '/crm');
	const statuses = creates.map((request) => request.status);
	expect(statuses.filter((status) => status !== 201 && status !== 429)).toEqual([]);
	expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
	const applied = creates.filter((request) => request.status === 201).map((request) => String(request.body.email));
	const expected = [1, 2, 3].flatMap((run) => Array.from({ length: WRITES }, (_, item) => emailOf(run, item))).sort();
	expect(applied.sort()).toEqual(expected);
	// The store holds each contact once.
	expect((await storedEmails()).sort()).toEqual(expected);
});
