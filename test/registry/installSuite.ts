import { existsSync, mkdtempSync, readFileSync } from 'fs';
import { tmpdir } from 'os';
import { basename, join } from 'path';

import { startSandbox } from '../../sandbox/server';
import type { Sandbox } from '../../sandbox/server';
import { NODE_TYPE, TRIGGER_NODE_TYPE, packPackage } from '../../scripts/realN8n';
import { PACKAGE_DIR, PACKAGE_NAME } from '../../scripts/packageDir';
import { repackAs, startRegistry } from '../harness/registry';
import type { LocalRegistry } from '../harness/registry';
import { createCredential, createWorkflow, executionIds, finishedExecution, getWorkflow, nodeTypeNames, until } from '../harness/n8nServer';
import type { Execution, N8nServer, StoredWorkflow } from '../harness/n8nServer';

/**
 * What the tests of test/registry share: the package published to a local registry as users get it from npm, and
 * what is checked in n8n once it is installed from there (install-n8n-2.test.ts through Settings → Community Nodes,
 * install-n8n-1.test.ts by hand with npm). The scene: the sandbox API with its seed, Verdaccio with 0.1.0 published
 * (the packed package/), and 0.1.1 packed (a copy with only the version changed) for a test to publish later.
 */

export const V010 = '0.1.0';
export const V011 = '0.1.1';
/** Every poll at second 0 of a minute (n8n 2.x allows nothing more often): a test knows when none can happen. */
export const POLL_EVERY_MINUTE = { item: [{ mode: 'custom', cronExpression: '0 * * * * *' }] };

export interface Scene {
	sandbox: Sandbox;
	ownerPat: string;
	ownerId: string;
	registry: LocalRegistry;
	/** The packed package/ (0.1.0), published at the start. */
	tarball: string;
	/** The same package as 0.1.1, published by a test. */
	nextTarball: string;
}

export async function setUpScene(): Promise<Scene> {
	const sandbox = await startSandbox();
	try {
		const seed = (await (await fetch(`${sandbox.url}/__sandbox/seed`, { method: 'POST' })).json()) as { credentials: { ownerPat: string }; users: { owner: { id: string } } };
		const registry = await startRegistry();
		try {
			const tarball = packPackage();
			await registry.publish(tarball);
			const nextTarball = repackAs(tarball, V011);
			return { sandbox, ownerPat: seed.credentials.ownerPat, ownerId: seed.users.owner.id, registry, tarball, nextTarball };
		} catch (error) {
			await registry.stop();
			throw error;
		}
	} catch (error) {
		await sandbox.close();
		throw error;
	}
}

export async function tearDownScene(scene: Scene | undefined): Promise<void> {
	await scene?.registry.stop();
	await scene?.sandbox.close();
}

/** A fresh n8n user folder. */
export function newUserFolder(prefix: string): string {
	return mkdtempSync(join(tmpdir(), prefix));
}

/** The node types the package declares (package.json's n8n.nodes), as n8n names them once installed. */
export function packageNodeTypes(): string[] {
	const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { n8n: { nodes: string[] } };
	return manifest.n8n.nodes.map((file) => {
		const name = basename(file, '.node.js');
		return `${PACKAGE_NAME}.${name[0].toLowerCase()}${name.slice(1)}`;
	});
}

/** Of the package's node types, those n8n's editor gets (/types/nodes.json). */
export async function loadedPackageTypes(server: N8nServer): Promise<string[]> {
	const loaded = new Set(await nodeTypeNames(server));
	return packageNodeTypes().filter((type) => loaded.has(type));
}

/** The version of the package in the user folder's nodes folder, where n8n loads community packages from (undefined: none). */
export function versionOnDisk(userFolder: string): string | undefined {
	const manifest = join(userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME, 'package.json');
	return existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version : undefined;
}

/** The PAT credential of the sandbox's owner, made as the editor makes it. */
export async function ownerCredential(server: N8nServer, scene: Scene): Promise<{ id: string; name: string }> {
	return await createCredential(server, { name: 'Scheduling Platform PAT (installed test)', type: 'schedulingPlatformPatApi', data: { baseUrl: scene.sandbox.url, token: scene.ownerPat } });
}

/** Manual Trigger → the package's node listing the meeting types (a read). */
export async function createReadWorkflow(server: N8nServer, credential: { id: string; name: string }): Promise<StoredWorkflow> {
	return await createWorkflow(server, {
		name: 'List meeting types (installed package)',
		connections: { Start: { main: [[{ node: 'List Meeting Types', type: 'main', index: 0 }]] } },
		nodes: [
			{ id: 'read-start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: 'read-list',
				name: 'List Meeting Types',
				type: NODE_TYPE,
				typeVersion: 1,
				position: [220, 0],
				parameters: { resource: 'meetingType', operation: 'getAll', returnAll: true },
				credentials: { schedulingPlatformPatApi: credential },
			},
		],
	});
}

export const TRIGGER_NODE = 'New Booking';

/** The Scheduling Platform Trigger alone, watching new bookings (a test activates it). */
export async function createTriggerWorkflow(server: N8nServer, credential: { id: string; name: string }): Promise<StoredWorkflow> {
	return await createWorkflow(server, {
		name: 'New bookings (installed package)',
		connections: {},
		nodes: [
			{
				id: 'trigger-booking',
				name: TRIGGER_NODE,
				type: TRIGGER_NODE_TYPE,
				typeVersion: 2,
				position: [0, 0],
				parameters: { event: 'newBooking', pollTimes: POLL_EVERY_MINUTE },
				credentials: { schedulingPlatformPatApi: credential },
			},
		],
	});
}

/** The trigger's position as it stores it in the workflow's static data (undefined: none yet). */
export async function triggerState(server: N8nServer, workflowId: string): Promise<{ watch: string; since: string } | undefined> {
	const { staticData } = await getWorkflow(server, workflowId);
	const node = staticData?.[`node:${TRIGGER_NODE}`] as { state?: { watch: string; since: string } } | undefined;
	return node?.state;
}

interface LoggedRequest {
	method: string;
	path: string;
	query: string;
	headers: Record<string, string>;
}

/** Marks the requests a test makes itself (to set the scene or compare), which sandboxRequests leaves out. */
const OWN_REQUEST = 'x-registry-test';

/** The requests n8n made to the sandbox, in order (the test's own left out). */
export async function sandboxRequests(scene: Scene): Promise<LoggedRequest[]> {
	const requests = (await (await fetch(`${scene.sandbox.url}/__sandbox/requests`)).json()) as LoggedRequest[];
	return requests.filter((request) => request.headers[OWN_REQUEST] === undefined);
}

export async function clearSandboxRequests(scene: Scene): Promise<void> {
	await fetch(`${scene.sandbox.url}/__sandbox/requests`, { method: 'DELETE' });
}

/** How many times a New Booking trigger has polled (read the appointments list). */
export async function bookingPolls(scene: Scene): Promise<number> {
	return (await sandboxRequests(scene)).filter((request) => request.method === 'GET' && request.path === '/v4/appointment/paginated').length;
}

async function ownerApi(scene: Scene, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
	const answer = await fetch(`${scene.sandbox.url}${path}`, {
		method,
		headers: { authorization: `Bearer ${scene.ownerPat}`, [OWN_REQUEST]: '1', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	if (!answer.ok) throw new Error(`${method} ${path}: HTTP ${answer.status} ${await answer.text()}`);
	return (await answer.json()) as Record<string, unknown>;
}

/** Books the first open slot of the owner's first meeting type in the coming week (the n-th one, for several); returns the appointment's ID. */
export async function book(scene: Scene, firstname: string, slot = 0): Promise<string> {
	const [meetingType] = (await ownerApi(scene, 'GET', '/v4/meeting-type')) as unknown as Array<{ id: string }>;
	const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
	const slots = (await ownerApi(scene, 'GET', `/v4/booking-availability?meetingTypeId=${meetingType.id}&hostIds=${scene.ownerId}&start=${day(1)}&end=${day(8)}`)) as unknown as {
		dates: Array<{ spots: Array<{ startTime: string }> }>;
	};
	const start = slots.dates.flatMap((date) => date.spots)[slot].startTime;
	const attendee = { email: `${firstname.toLowerCase()}@client.example`, firstname, lastname: 'Installed', receiveReminders: true, notes: {} };
	const booked = await ownerApi(scene, 'POST', '/v4/booking', { meetingTypeId: meetingType.id, start, hostIds: [scene.ownerId], attendee });
	return String(booked.appointmentId);
}

/** The meeting types the read workflow's node put out, by name; and the requests it made, with the token it sent. */
export function meetingTypeNames(execution: Execution): string[] {
	return (execution.runs['List Meeting Types']?.[0]?.items ?? []).map((item) => String((item.json.meetingInfo as { name?: string } | undefined)?.name ?? item.json.name)).sort();
}

/** The names of the meeting types the owner's token lists (the API's own answer, for comparison). */
export async function ownerMeetingTypeNames(scene: Scene): Promise<string[]> {
	const types = (await ownerApi(scene, 'GET', '/v4/meeting-type')) as unknown as Array<{ meetingInfo: { name: string } }>;
	return types.map((type) => type.meetingInfo.name).sort();
}

/** The appointment IDs a trigger execution emitted. */
export function emittedIds(execution: Execution): string[] {
	return (execution.runs[TRIGGER_NODE]?.[0]?.items ?? []).map((item) => String(item.json.id));
}

/** Waits for the trigger workflow's next execution (a poll that found something), past the ones `seen`. */
export async function nextTriggerExecution(server: N8nServer, workflowId: string, seen: string[], timeoutMs: number): Promise<Execution> {
	return await until(
		'the trigger to emit',
		async () => {
			const ids = (await executionIds(server, workflowId)).filter((id) => !seen.includes(id));
			return ids.length ? await finishedExecution(server, ids[ids.length - 1]) : undefined;
		},
		timeoutMs,
		1000,
	);
}
