import { readFileSync } from 'fs';
import type { IDataObject } from 'n8n-workflow';
import { join } from 'path';
import { setTimeout as sleep } from 'timers/promises';

import { sandboxCall } from '../../sandbox/client';
import { startSandbox } from '../../sandbox/server';
import type { Sandbox } from '../../sandbox/server';
import type { CliRun, RealN8n } from '../../scripts/realN8n';
import { REPO_DIR } from '../../scripts/packageDir';
import { MESSENGER_NODE_TYPE, N8N_V1, NODE_TYPE, POLLING_TRIGGER_NODE_TYPES, TRIGGER_NODE_TYPE, freePort, importAll, n8n, newUserFolder, realN8n, startN8n } from '../../scripts/realN8n';

/**
 * The Scheduling Platform Trigger in the real n8n (1.123: trigger-n8n-1.test.ts, 2.41: trigger-n8n-2.test.ts),
 * installed the README's way, polling the sandbox: two workflows (New Booking, New Conversation) activated while
 * n8n is stopped (1.x `n8n update:workflow --active=true`, 2.x `n8n publish:workflow`), then `n8n start`. Each workflow writes once per item it gets (the booking's notes, the conversation's label), so the
 * sandbox's request log counts the items of every execution: the activation's poll must bring none, the poll
 * after three bookings and one new conversation exactly one each, and later polls nothing more. On 1.x the polls
 * run every 10 s (a custom cron without "*" in the seconds field, which 1.x accepts) to keep the test short; 2.x
 * refuses polls more often than once a minute, so there it polls every minute.
 */

const EVERY_10_S = { item: [{ mode: 'custom', cronExpression: '0,10,20,30,40,50 * * * * *' }] };
const EVERY_MINUTE = { item: [{ mode: 'everyMinute' }] };
const CREDENTIAL = { schedulingPlatformPatApi: { id: 'spTriggerPat0001', name: 'PAT' } };

export function triggerSmoke(version: string): void {
	jest.setTimeout(10 * 60_000);
	const pollTimes = version === N8N_V1 ? EVERY_10_S : EVERY_MINUTE;
	const waitMs = version === N8N_V1 ? 90_000 : 150_000;

	let sandbox: Sandbox;
	let seed: { credentials: { ownerPat: string }; users: { owner: { id: string } } };
	let host: RealN8n;
	let userFolder: string;
	let server: CliRun | undefined;

	function watching(id: string, name: string, event: string, then: IDataObject): object {
		return {
			id,
			name,
			active: false,
			settings: {},
			connections: { Trigger: { main: [[{ node: 'Mark', type: 'main', index: 0 }]] } },
			nodes: [
				{ id: `${id}-t`, name: 'Trigger', type: TRIGGER_NODE_TYPE, typeVersion: 1, position: [0, 0], parameters: { event, pollTimes }, credentials: CREDENTIAL },
				{ id: `${id}-m`, name: 'Mark', typeVersion: 1, position: [200, 0], credentials: CREDENTIAL, ...then },
			],
		};
	}

	async function api(method: string, path: string, body?: unknown): Promise<IDataObject> {
		return await sandboxCall<IDataObject>(sandbox.url, method, path, { token: seed.credentials.ownerPat, body });
	}

	async function log(): Promise<Array<{ method: string; path: string; body: IDataObject }>> {
		return (await (await fetch(`${sandbox.url}/__sandbox/requests`)).json()) as Array<{ method: string; path: string; body: IDataObject }>;
	}

	/** The writes of the workflows so far: each is one item of one execution. */
	async function marks(): Promise<string[]> {
		return (await log()).filter((request) => request.method === 'PATCH').map((request) => request.path).sort();
	}

	async function until(what: string, ready: () => Promise<boolean>, timeoutMs = waitMs): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		while (!(await ready())) {
			if (Date.now() > deadline) {
				server?.child.kill('SIGTERM');
				const output = await server?.done;
				throw new Error(`Timed out waiting for ${what}: ${JSON.stringify((await log()).map((r) => `${r.method} ${r.path}`))}\n${output?.stdout.slice(-3000) ?? ''}\n${output?.stderr.slice(-3000) ?? ''}`);
			}
			await sleep(500);
		}
	}

	/** The first open slots of the owner's first meeting type in the coming week. */
	async function openSlots(count: number): Promise<string[]> {
		const [meetingType] = (await api('GET', '/v4/meeting-type')) as unknown as IDataObject[];
		const from = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
		const to = new Date(Date.now() + 8 * 86_400_000).toISOString().slice(0, 10);
		const slots = await api('GET', `/v4/booking-availability?meetingTypeId=${String(meetingType.id)}&start=${from}&end=${to}&hostIds=${seed.users.owner.id}`);
		return (slots.dates as Array<{ spots: Array<{ startTime: string }> }>).flatMap((day) => day.spots.map((spot) => spot.startTime)).slice(0, count);
	}

	/** A message from a phone, as the messenger channel delivers it (a new phone opens a conversation). */
	async function inboundFrom(phone: string, text: string, contactName?: string): Promise<{ conversation: { id: string } }> {
		const answer = await fetch(`${sandbox.url}/__sandbox/messenger/inbound`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ phone, text, contactName }) });
		return (await answer.json()) as { conversation: { id: string } };
	}

	beforeAll(async () => {
		host = realN8n(version);
		userFolder = newUserFolder('n8n-trigger-');
		sandbox = await startSandbox();
		seed = (await (await fetch(`${sandbox.url}/__sandbox/seed`, { method: 'POST' })).json()) as typeof seed;
	});

	afterAll(async () => {
		if (server && server.child.exitCode === null) server.child.kill('SIGTERM');
		await server?.done;
		await sandbox?.close();
	});

	test(`n8n ${version} activates the trigger, emits nothing for what was there, then one item per new booking and conversation, once`, async () => {
		const credentials = [{ id: 'spTriggerPat0001', name: 'PAT', type: 'schedulingPlatformPatApi', data: { baseUrl: sandbox.url, token: seed.credentials.ownerPat } }];
		const bookings = watching('spTriggerBook001', 'New bookings', 'newBooking', {
			type: NODE_TYPE,
			parameters: { resource: 'appointment', operation: 'updateNotes', appointmentId: { __rl: true, mode: 'id', value: '={{ $json.id }}' }, note: 'Seen by the trigger' },
		});
		const conversations = watching('spTriggerConv001', 'New conversations', 'newConversation', {
			type: MESSENGER_NODE_TYPE,
			parameters: { resource: 'conversation', operation: 'update', conversationId: { __rl: true, mode: 'id', value: '={{ $json.id }}' }, updateFields: { labels: ['seen'] } },
		});
		await importAll(host, userFolder, credentials, [bookings, conversations]);
		for (const id of ['spTriggerBook001', 'spTriggerConv001']) {
			await n8n(host, userFolder, ...(version === N8N_V1 ? ['update:workflow', `--id=${id}`, '--active=true'] : ['publish:workflow', `--id=${id}`]));
		}
		await fetch(`${sandbox.url}/__sandbox/requests`, { method: 'DELETE' });

		server = await startN8n(host, userFolder, ['start'], 0, { N8N_PORT: String(await freePort()), N8N_LISTEN_ADDRESS: '127.0.0.1' });
		// The poll at activation: one list request per trigger, nothing emitted.
		await until('the activation polls', async () => {
			const paths = (await log()).map((request) => request.path);
			return paths.includes('/v4/appointment/paginated') && paths.includes('/v4/messenger/conversations');
		});

		// Nothing written before the records are made (a poll may run while they are made, so not checked after them;
		// the last check below would show any write of an old record).
		expect(await marks()).toEqual([]);
		const [meetingType] = (await api('GET', '/v4/meeting-type')) as unknown as IDataObject[];
		const starts = await openSlots(3);
		const booked: string[] = [];
		for (const [i, start] of starts.entries()) {
			const attendee = { email: `trigger${i}@example.com`, firstname: 'Tri', lastname: `Gger ${i}`, receiveReminders: true, notes: {} };
			booked.push(String((await api('POST', '/v4/booking', { meetingTypeId: meetingType.id, start, hostIds: [seed.users.owner.id], attendee })).appointmentId));
		}
		const inbound = await inboundFrom('+4915790001234', 'Hello from a new lead');

		const expected = [...booked.map((id) => `/v4/appointment/${id}/notes`), `/v4/messenger/conversations/${inbound.conversation.id}`].sort();
		await until('one write per new record', async () => (await marks()).length >= expected.length);
		// More polls of each trigger (two on 1.x, one on 2.x): nothing is repeated.
		const polls = async () => (await log()).filter((request) => request.path === '/v4/appointment/paginated').length;
		const after = await polls();
		await until('more polls', async () => (await polls()) >= after + (version === N8N_V1 ? 2 : 1));
		expect(await marks()).toEqual(expected);
		const written = (await log()).filter((request) => request.method === 'PATCH' && request.path.endsWith('/notes')).map((request) => request.body);
		expect(written).toEqual(booked.map(() => ({ note: 'Seen by the trigger' })));
	});

	/** An example workflow of examples/ as `npm start` imports it, polling as this suite polls. */
	function example(file: string): IDataObject {
		const workflow = JSON.parse(readFileSync(join(REPO_DIR, 'examples', file), 'utf8')) as { nodes: IDataObject[] };
		for (const node of workflow.nodes) if (POLLING_TRIGGER_NODE_TYPES.includes(String(node.type))) (node.parameters as IDataObject).pollTimes = pollTimes;
		return workflow as unknown as IDataObject;
	}

	// On 1.x only: its 10-second polls keep this short (2.x polls once a minute at most).
	if (version !== N8N_V1) return;
	test(`n8n ${version} runs the trigger examples when activated: a booking becomes a contact, a deal and a template message; each new conversation is labelled and logged`, async () => {
		if (server && server.child.exitCode === null) server.child.kill('SIGTERM');
		await server?.done;
		userFolder = newUserFolder('n8n-trigger-examples-');
		await fetch(`${sandbox.url}/__sandbox/seed`, { method: 'POST' }).then(async (answer) => (seed = (await answer.json()) as typeof seed));
		const credentials = [{ id: 'spDemoOwnerPat01', name: 'Demo Token (Ada Admin)', type: 'schedulingPlatformPatApi', data: { baseUrl: sandbox.url, token: seed.credentials.ownerPat } }];
		await importAll(host, userFolder, credentials, [example('new-booking-to-crm-deal.json'), example('new-conversation-to-crm.json')]);
		for (const id of ['spExampleDeal001', 'spExampleConv001']) await n8n(host, userFolder, 'update:workflow', `--id=${id}`, '--active=true');
		await fetch(`${sandbox.url}/__sandbox/requests`, { method: 'DELETE' });
		server = await startN8n(host, userFolder, ['start'], 0, { N8N_PORT: String(await freePort()), N8N_LISTEN_ADDRESS: '127.0.0.1' });
		await until('the activation polls', async () => {
			const paths = (await log()).map((request) => request.path);
			return paths.includes('/v4/appointment/paginated') && paths.includes('/v4/messenger/conversations');
		});

		const [start] = await openSlots(1);
		const attendee = { email: 'lena.lead@example.com', firstname: 'Lena', lastname: 'Lead', phone: '+4915790005555', receiveReminders: true, notes: {} };
		const [meetingType] = (await api('GET', '/v4/meeting-type')) as unknown as IDataObject[];
		await api('POST', '/v4/booking', { meetingTypeId: meetingType.id, start, hostIds: [seed.users.owner.id], attendee });
		const { conversation } = await inboundFrom('+4915790006666', 'Do you have time next week?', 'Nora Newcomer');

		// The examples' writes (not this test's booking). The template message to the attendee's phone opens a
		// conversation too, so the conversation example runs twice: for Nora's message and for that one. That phone is
		// Lena's contact's (the booking made it), so Create or Update finds it: one new contact, Nora's.
		const writes = async () =>
			(await log()).filter((request) => request.method !== 'GET' && request.path !== '/v4/booking').map((request) => ({ method: request.method, path: request.path, body: request.body }));
		await until('the examples\' writes', async () => (await writes()).length >= 7);
		const polls = async () => (await log()).filter((request) => request.path === '/v4/appointment/paginated').length;
		const after = await polls();
		await until('two more polls', async () => (await polls()) >= after + 2);
		const done = await writes();
		const conversations = (await api('GET', '/v4/messenger/conversations?sortBy=createdAt&sortOrder=desc&limit=2')).conversations as IDataObject[];
		const opened = conversations.find((other) => other.phone === attendee.phone)!;
		expect(done.map((write) => `${write.method} ${write.path}`).sort()).toEqual(
			[
				`PATCH /v4/messenger/conversations/${conversation.id}`,
				`PATCH /v4/messenger/conversations/${String(opened.id)}`,
				'POST /crm',
				'POST /crm/communications',
				'POST /crm/communications',
				'POST /crm/deals',
				'POST /v4/messenger/messages',
			].sort(),
		);
		const bodies = (path: string) => done.filter((write) => write.path === path).map((write) => write.body);
		expect(bodies(`/v4/messenger/conversations/${conversation.id}`)).toEqual([{ labels: ['new'] }]);
		expect(bodies('/crm')).toEqual([{ phoneNumber: '+4915790006666', firstName: 'Nora', lastName: 'Newcomer' }]);
		const lena = (await api('GET', `/crm?searchTerm=${encodeURIComponent(attendee.email)}`)).result as Array<{ item: IDataObject }>;
		expect(bodies('/crm/communications')).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ type: 'messenger', direction: 'inbound', body: 'Do you have time next week?', externalId: conversation.id }),
				expect.objectContaining({ type: 'messenger', direction: 'outbound', contactId: lena[0].item.id, externalId: opened.id }),
			]),
		);
		const body = (path: string) => bodies(path)[0];
		expect(body('/crm/deals')).toEqual(expect.objectContaining({ name: `${String((meetingType.meetingInfo as IDataObject).name)} with Lena Lead`, contactId: lena[0].item.id, notes: expect.stringMatching(/\(appointment [0-9a-f-]{36}\)$/) }));
		expect(body('/v4/messenger/messages')).toEqual(expect.objectContaining({ phone: '+4915790005555', type: 'template', template: expect.objectContaining({ name: 'appointment_reminder', language: 'en' }) }));
	});
}
