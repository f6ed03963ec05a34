import { readFileSync, writeFileSync } from 'fs';
import type { IDataObject } from 'n8n-workflow';
import { join } from 'path';

import { sandboxRequest } from '../../sandbox/client';
import { startSandbox } from '../../sandbox/server';
import type { Sandbox } from '../../sandbox/server';
import { CRM_NODE_TYPE, INVOICING_NODE_TYPE, NODE_TYPE, SIGNATURES_NODE_TYPE, filesFolder, importAll as importInto, n8n as n8nCli, newUserFolder, parseExecution, realN8n } from '../../scripts/realN8n';
import { makePdf, pageCount } from '../harness/signatures';
import type { RealN8n } from '../../scripts/realN8n';

/**
 * The packed package in the real n8n application, installed the README's way into
 * <user folder>/.n8n/nodes, running workflows with `n8n execute` against the sandbox (scripts/realN8n.ts).
 * One file per n8n line (n8n-1.test.ts, n8n-2.test.ts) runs this suite, so both lines run in parallel.
 */
export function smokeSuite(version: string): void {
	jest.setTimeout(20 * 60_000);

	let sandbox: Sandbox;
	let seed: { credentials: { ownerPat: string; apiKey: string }; users: { owner: { id: string } }; companies: { acme: { id: string } } };
	let host: RealN8n;
	let userFolder: string;

	const n8n = (...args: string[]): Promise<string> => n8nCli(host, userFolder, ...args);
	const importAll = (credentials: object[], workflows: object[]): Promise<void> => importInto(host, userFolder, credentials, workflows);

	beforeAll(async () => {
		host = realN8n(version);
		userFolder = newUserFolder('n8n-smoke-');
		sandbox = await startSandbox();
		seed = (await (await fetch(`${sandbox.url}/__sandbox/seed`, { method: 'POST' })).json()) as typeof seed;
	});

	afterAll(async () => {
		await sandbox?.close();
	});

	test(`n8n ${version} loads the package and runs create user (API key), list meeting types, find the first open slot and book it (PAT)`, async () => {
		const credentials = [
			{ id: 'spApiKey0000001', name: 'API key', type: 'schedulingPlatformApiKeyApi', data: { baseUrl: sandbox.url, apiKey: seed.credentials.apiKey, actingUserId: '' } },
			{ id: 'spPat0000000001', name: 'PAT', type: 'schedulingPlatformPatApi', data: { baseUrl: sandbox.url, token: seed.credentials.ownerPat } },
		];
		const node = NODE_TYPE;
		const workflow = {
			id: 'spSmokeWorkflow1',
			name: 'Smoke',
			active: false,
			settings: {},
			connections: {
				Start: { main: [[{ node: 'Create User', type: 'main', index: 0 }]] },
				'Create User': { main: [[{ node: 'List Meeting Types', type: 'main', index: 0 }]] },
				'List Meeting Types': { main: [[{ node: 'Find Slots', type: 'main', index: 0 }]] },
				'Find Slots': { main: [[{ node: 'Book First Slot', type: 'main', index: 0 }]] },
			},
			nodes: [
				{ id: 'a1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
				{
					id: 'a2', name: 'Create User', type: node, typeVersion: 1, position: [200, 0],
					parameters: { authentication: 'apiKey', resource: 'user', operation: 'create', email: 'smoke@example.com', givenName: 'Smoke', familyName: 'Test', timezone: 'Europe/Berlin' },
					credentials: { schedulingPlatformApiKeyApi: { id: 'spApiKey0000001', name: 'API key' } },
				},
				{
					id: 'a3', name: 'List Meeting Types', type: node, typeVersion: 1, position: [400, 0],
					parameters: { resource: 'meetingType', operation: 'getAll', returnAll: true },
					credentials: { schedulingPlatformPatApi: { id: 'spPat0000000001', name: 'PAT' } },
				},
				{
					id: 'a4', name: 'Find Slots', type: node, typeVersion: 1, position: [600, 0], executeOnce: true,
					parameters: {
						resource: 'booking', operation: 'getSlots', meetingTypeId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
						start: "={{ $now.plus(1, 'day').toISODate() }}", end: "={{ $now.plus(7, 'days').toISODate() }}", output: 'raw',
					},
					credentials: { schedulingPlatformPatApi: { id: 'spPat0000000001', name: 'PAT' } },
				},
				{
					id: 'a5', name: 'Book First Slot', type: node, typeVersion: 1, position: [800, 0],
					parameters: {
						resource: 'booking', operation: 'create', meetingTypeId: { __rl: true, mode: 'id', value: "={{ $('List Meeting Types').first().json.id }}" },
						start: '={{ $json.dates[0].spots[0].startTime }}', email: 'client@example.com', firstName: 'Cli', lastName: 'Ent',
					},
					credentials: { schedulingPlatformPatApi: { id: 'spPat0000000001', name: 'PAT' } },
				},
			],
		};
		await importAll(credentials, [workflow]);
		const stdout = await n8n('execute', '--id=spSmokeWorkflow1', '--rawOutput');

		expect(stdout).not.toContain(seed.credentials.apiKey);
		expect(stdout).not.toContain(seed.credentials.ownerPat);
		const result = parseExecution(stdout);
		expect(result.data.resultData.error).toBeUndefined();
		const runData = result.data.resultData.runData;
		const created = runData['Create User'][0].data.main[0];
		expect(created).toHaveLength(1);
		expect(created[0].json).toEqual(expect.objectContaining({ userId: expect.any(String), bookingUrl: expect.any(String) }));
		const meetingTypes = runData['List Meeting Types'][0].data.main[0];
		expect(meetingTypes.length).toBeGreaterThan(0);
		expect(meetingTypes[0].json).toEqual(expect.objectContaining({ id: expect.any(String), meetingInfo: expect.any(Object) }));

		const log = (await (await fetch(`${sandbox.url}/__sandbox/requests`)).json()) as Array<{ method: string; path: string; headers: Record<string, string>; body: unknown }>;
		const firstSlot = runData['Find Slots'][0].data.main[0][0].json.dates[0].spots[0].startTime;
		expect(runData['Book First Slot'][0].data.main[0].map((item: { json: unknown }) => item.json)).toEqual([
			expect.objectContaining({ status: 'booked', appointmentId: expect.any(String), secret: expect.any(String), start: expect.any(String), attendees: expect.any(Array) }),
		]);
		const meetingTypeId = meetingTypes[0].json.id;
		expect(log.map((r) => `${r.method} ${r.path}`)).toEqual([
			'POST /v4/user',
			'GET /v4/meeting-type',
			`GET /v4/meeting-type/${meetingTypeId}`,
			'GET /v4/booking-availability',
			`GET /v4/meeting-type/${meetingTypeId}`,
			'POST /v4/booking',
			`GET /v4/appointment/${String(runData['Book First Slot'][0].data.main[0][0].json.appointmentId)}`,
		]);
		expect(log[5].body).toEqual({
			meetingTypeId,
			start: firstSlot,
			hostIds: [seed.users.owner.id],
			attendee: { email: 'client@example.com', firstname: 'Cli', lastname: 'Ent', receiveReminders: true, notes: {} },
		});
		expect(log[0].headers.authorization).toBe(`Bearer ${seed.credentials.apiKey}`);
		expect(log[0].headers['x-service-api-user-id']).toBeUndefined();
		expect(log[0].body).toEqual({ email: 'smoke@example.com', givenName: 'Smoke', familyName: 'Test', timezone: 'Europe/Berlin' });
		expect(log[1].headers.authorization).toBe(`Bearer ${seed.credentials.ownerPat}`);
		expect(log[1].headers['x-service-api-user-id']).toBeUndefined();
	});

	test(`n8n ${version} sends a failed item to the error output under "Continue (using error output)"`, async () => {
		const credentials = [
			{ id: 'spPat0000000002', name: 'PAT', type: 'schedulingPlatformPatApi', data: { baseUrl: sandbox.url, token: seed.credentials.ownerPat } },
		];
		const missing = '0b7e6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f';
		const workflow = {
			id: 'spSmokeErrorOut1',
			name: 'Smoke error output',
			active: false,
			settings: {},
			connections: { Start: { main: [[{ node: 'Get Users', type: 'main', index: 0 }]] } },
			nodes: [
				{ id: 'b1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
				{
					id: 'b2', name: 'Get Users', type: NODE_TYPE, typeVersion: 1, position: [200, 0], onError: 'continueErrorOutput',
					parameters: { resource: 'user', operation: 'get', userId: { __rl: true, mode: 'id', value: missing } },
					credentials: { schedulingPlatformPatApi: { id: 'spPat0000000002', name: 'PAT' } },
				},
			],
		};
		await importAll(credentials, [workflow]);
		const stdout = await n8n('execute', '--id=spSmokeErrorOut1', '--rawOutput');
		const result = parseExecution(stdout);
		expect(result.data.resultData.error).toBeUndefined();
		const [success, failed] = result.data.resultData.runData['Get Users'][0].data.main;
		expect(success).toEqual([]);
		expect(failed.map((item: { json: unknown }) => item.json)).toEqual([
			{
				error: 'User not found (HTTP 404)',
				message: 'The API could not find the requested resource. The API says: User not found. Check the ID: the resource may have been deleted, or it belongs to a user the credential cannot see.',
			},
		]);
	});

	test(`n8n ${version} runs the CRM node: Create or Update maps input fields automatically, and a second run writes nothing`, async () => {
		const credentials = [
			{ id: 'spPat0000000003', name: 'PAT', type: 'schedulingPlatformPatApi', data: { baseUrl: sandbox.url, token: seed.credentials.ownerPat } },
		];
		const rows = [
			{ email: 'Grace@Example.com', firstName: 'Grace', lastName: 'Hopper' },
			{ email: 'alan@example.com', firstName: 'Alan', lastName: 'Turing' },
		];
		const workflow = {
			id: 'spSmokeCrmSync01',
			name: 'Smoke CRM sync',
			active: false,
			settings: {},
			connections: {
				Start: { main: [[{ node: 'Rows', type: 'main', index: 0 }]] },
				Rows: { main: [[{ node: 'Sync Contacts', type: 'main', index: 0 }]] },
			},
			nodes: [
				{ id: 'c1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
				{
					id: 'c2', name: 'Rows', type: 'n8n-nodes-base.code', typeVersion: 2, position: [200, 0],
					parameters: { jsCode: `return ${JSON.stringify(rows)}.map((json) => ({ json }));` },
				},
				{
					id: 'c3', name: 'Sync Contacts', type: CRM_NODE_TYPE, typeVersion: 1, position: [400, 0],
					parameters: { resource: 'contact', operation: 'upsert', contactFields: { mappingMode: 'autoMapInputData', value: null } },
					credentials: { schedulingPlatformPatApi: { id: 'spPat0000000003', name: 'PAT' } },
				},
			],
		};
		await importAll(credentials, [workflow]);
		const run = async () => {
			await fetch(`${sandbox.url}/__sandbox/requests`, { method: 'DELETE' });
			const result = parseExecution(await n8n('execute', '--id=spSmokeCrmSync01', '--rawOutput'));
			expect(result.data.resultData.error).toBeUndefined();
			const log = (await (await fetch(`${sandbox.url}/__sandbox/requests`)).json()) as Array<{ method: string; path: string }>;
			const items = result.data.resultData.runData['Sync Contacts'][0].data.main[0] as Array<{ json: { email: string; outcome: string } }>;
			return { outcomes: items.map((item) => `${item.json.email} ${item.json.outcome}`), writes: log.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`) };
		};
		expect(await run()).toEqual({
			outcomes: ['Grace@Example.com created', 'alan@example.com created'],
			writes: ['POST /crm', 'POST /crm'],
		});
		expect(await run()).toEqual({ outcomes: ['Grace@Example.com unchanged', 'alan@example.com unchanged'], writes: [] });
	});

	test(`n8n ${version} sends a PDF read from disk for signature and, once signed, writes the signed PDF to disk`, async () => {
		const credentials = [
			{ id: 'spPat0000000004', name: 'PAT', type: 'schedulingPlatformPatApi', data: { baseUrl: sandbox.url, token: seed.credentials.ownerPat } },
		];
		const pat = { schedulingPlatformPatApi: { id: 'spPat0000000004', name: 'PAT' } };
		const files = filesFolder(userFolder);
		const original = await makePdf(2, 'Smoke contract');
		writeFileSync(join(files, 'contract.pdf'), original);
		const trigger = { id: 'd1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} };
		const send = {
			id: 'spSmokeSignSend1', name: 'Smoke signature send', active: false, settings: {},
			connections: { Start: { main: [[{ node: 'Read Contract', type: 'main', index: 0 }]] }, 'Read Contract': { main: [[{ node: 'Send for Signature', type: 'main', index: 0 }]] } },
			nodes: [
				trigger,
				{ id: 'd2', name: 'Read Contract', type: 'n8n-nodes-base.readWriteFile', typeVersion: 1, position: [200, 0], parameters: { fileSelector: join(files, 'contract.pdf'), options: {} } },
				{
					id: 'd3', name: 'Send for Signature', type: SIGNATURES_NODE_TYPE, typeVersion: 1, position: [400, 0], credentials: pat,
					parameters: { resource: 'signatureRequest', operation: 'create', title: 'Smoke contract', signers: { signer: [{ name: 'Ana Lima', email: 'ana@example.com', order: 1 }] } },
				},
			],
		};
		await importAll(credentials, [send]);
		await fetch(`${sandbox.url}/__sandbox/requests`, { method: 'DELETE' });
		const sent = parseExecution(await n8n('execute', '--id=spSmokeSignSend1', '--rawOutput'));
		expect(sent.data.resultData.error).toBeUndefined();
		const request = sent.data.resultData.runData['Send for Signature'][0].data.main[0][0].json;
		expect(request).toMatchObject({ title: 'Smoke contract', status: 'pending' });
		const [post] = (await (await fetch(`${sandbox.url}/__sandbox/requests`)).json()) as Array<{ method: string; path: string; body: { document: IDataObject } }>;
		expect(`${post.method} ${post.path}`).toBe('POST /v4/signatures');
		expect(post.body.document).toEqual({ fileName: 'contract.pdf', contentType: 'application/pdf', content: original.toString('base64') });

		const signed = await fetch(`${sandbox.url}/__sandbox/signatures/${String(request.id)}/sign`, {
			method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'ana@example.com' }),
		});
		expect(signed.status).toBe(200);
		const file = {
			id: 'spSmokeSignFile1', name: 'Smoke signature file', active: false, settings: {},
			connections: { Start: { main: [[{ node: 'Download Signed PDF', type: 'main', index: 0 }]] }, 'Download Signed PDF': { main: [[{ node: 'Write Signed PDF', type: 'main', index: 0 }]] } },
			nodes: [
				trigger,
				{
					id: 'd4', name: 'Download Signed PDF', type: SIGNATURES_NODE_TYPE, typeVersion: 1, position: [200, 0], credentials: pat,
					parameters: { resource: 'signatureRequest', operation: 'downloadDocument', signatureRequestId: { __rl: true, mode: 'id', value: String(request.id) } },
				},
				{ id: 'd5', name: 'Write Signed PDF', type: 'n8n-nodes-base.readWriteFile', typeVersion: 1, position: [400, 0], parameters: { operation: 'write', fileName: join(files, 'contract-signed.pdf'), dataPropertyName: 'data', options: {} } },
			],
		};
		await importAll([], [file]);
		const filed = parseExecution(await n8n('execute', '--id=spSmokeSignFile1', '--rawOutput'));
		expect(filed.data.resultData.error).toBeUndefined();
		const binary = filed.data.resultData.runData['Download Signed PDF'][0].data.main[0][0].binary.data;
		expect(binary).toMatchObject({ fileName: 'contract-signed.pdf', mimeType: 'application/pdf' });
		const written = readFileSync(join(files, 'contract-signed.pdf'));
		expect(written.subarray(0, 5).toString('latin1')).toBe('%PDF-');
		expect(await pageCount(written)).toBe(3);
	});

	test(`n8n ${version} runs the monthly invoicing workflow: billing run → finalise → send, and the dunning sweep; a second run bills and reminds nothing`, async () => {
		const credentials = [
			{ id: 'spPat0000000005', name: 'PAT', type: 'schedulingPlatformPatApi', data: { baseUrl: sandbox.url, token: seed.credentials.ownerPat } },
		];
		const pat = { schedulingPlatformPatApi: { id: 'spPat0000000005', name: 'PAT' } };
		const api = async (method: string, path: string, body?: unknown) => (await sandboxRequest<IDataObject>(sandbox.url, method, path, { token: seed.credentials.ownerPat, body })).body;
		const contact = async (email: string) =>
			(await (await fetch(`${sandbox.url}/__sandbox/crm-parents`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ companyId: seed.companies.acme.id, kind: 'contact', name: email }) })).json()) as { id: string };
		const today = new Date().toISOString().slice(0, 10);
		const subscriber = await contact('subscriber@example.com');
		await api('POST', '/invoicing/recurring', { name: 'Smoke plan', contactId: subscriber.id, lineItems: [{ description: 'Plan', quantity: 1, unitPrice: 50 }], interval: 'monthly', startDate: today });
		const late = await contact('late@example.com');
		const old = await api('POST', '/invoicing/documents', { type: 'invoice', contactId: late.id, issueDate: '2026-01-05', dueDate: '2026-01-19', lineItems: [{ description: 'January', quantity: 1, unitPrice: 80 }] });
		await api('POST', `/invoicing/documents/${String(old.id)}/finalise`);
		await api('POST', `/invoicing/documents/${String(old.id)}/send`, {});
		const byId = (expression: string) => ({ __rl: true, mode: 'id', value: `={{ ${expression} }}` });
		const node = (id: string, name: string, x: number, y: number, parameters: IDataObject) => ({ id, name, type: INVOICING_NODE_TYPE, typeVersion: 1, position: [x, y], credentials: pat, parameters });
		const workflow = {
			id: 'spSmokeMonthly01', name: 'Smoke monthly billing', active: false, settings: {},
			connections: {
				Start: { main: [[{ node: 'Billing Run', type: 'main', index: 0 }, { node: 'Overdue Invoices', type: 'main', index: 0 }]] },
				'Billing Run': { main: [[{ node: 'Finalise', type: 'main', index: 0 }]] },
				Finalise: { main: [[{ node: 'Send', type: 'main', index: 0 }]] },
				'Overdue Invoices': { main: [[{ node: 'Send Dunning', type: 'main', index: 0 }]] },
			},
			nodes: [
				{ id: 'e1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
				node('e2', 'Billing Run', 200, 0, { resource: 'billingRun', operation: 'start', output: 'documents' }),
				node('e3', 'Finalise', 400, 0, { resource: 'document', operation: 'finalise', documentId: byId('$json.documentId') }),
				node('e4', 'Send', 600, 0, { resource: 'document', operation: 'send', documentId: byId('$json.id'), sendOptions: { attachEInvoice: true } }),
				node('e5', 'Overdue Invoices', 200, 200, { resource: 'document', operation: 'getAll', returnAll: true, filters: { type: 'invoice', status: 'overdue' } }),
				node('e6', 'Send Dunning', 400, 200, { resource: 'document', operation: 'sendDunning', documentId: byId('$json.id'), dunningOptions: { fee: 5 } }),
			],
		};
		await importAll(credentials, [workflow]);
		const items = (run: { data: { resultData: { runData: Record<string, Array<{ data: { main: Array<Array<{ json: IDataObject }>> } }>> } } }, name: string) =>
			(run.data.resultData.runData[name]?.[0]?.data.main[0] ?? []).map((item) => item.json);

		const first = parseExecution(await n8n('execute', '--id=spSmokeMonthly01', '--rawOutput'));
		expect(first.data.resultData.error).toBeUndefined();
		expect(items(first, 'Billing Run')).toHaveLength(1);
		expect(items(first, 'Send')).toEqual([expect.objectContaining({ status: 'sent', contactId: subscriber.id, number: expect.stringMatching(/^INV-\d{4}-\d{4}$/), grossTotal: 59.5 })]);
		expect(items(first, 'Send Dunning')).toEqual([expect.objectContaining({ documentId: old.id, dunningLevel: 1, fee: 5 })]);

		const second = parseExecution(await n8n('execute', '--id=spSmokeMonthly01', '--rawOutput'));
		expect(second.data.resultData.error).toBeUndefined();
		expect(items(second, 'Billing Run')).toEqual([]);
		expect(items(second, 'Send')).toEqual([]);
		expect(items(second, 'Send Dunning')).toEqual([expect.objectContaining({ documentId: old.id, dunningLevel: 1, skipped: true })]);
		const outbox = (await (await fetch(`${sandbox.url}/__sandbox/invoicing/${seed.companies.acme.id}/outbox`)).json()) as IDataObject[];
		// The set-up's mail, then one per branch (in the order the n8n line runs branches).
		expect(outbox.map((mail) => `${String(mail.kind)} ${String(mail.to)}`).sort()).toEqual(['document late@example.com', 'document subscriber@example.com', 'dunning late@example.com']);
	});
}
