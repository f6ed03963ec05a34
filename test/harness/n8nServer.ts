import { createRequire } from 'module';
import { join } from 'path';
import { setTimeout as sleep } from 'timers/promises';

import { N8N_V1, freePort, ownerSession, startN8n } from '../../scripts/realN8n';
import type { CliResult, CliRun, OwnerLogin, RealN8n, RestAnswer, RestClient } from '../../scripts/realN8n';

/**
 * A running `n8n start` (the real application, scripts/realN8n.ts) with its owner's REST session, and what the
 * tests that install the package do through n8n's REST API: credentials, workflows, activation, manual runs,
 * executions, static data and the node types the editor gets. The REST API differs between the lines where noted
 * (activation and manual runs).
 */

export const OWNER: OwnerLogin = { email: 'owner@example.com', password: 'Owner-Password-1', firstName: 'Olivia', lastName: 'Owner' };

export interface N8nServer {
	host: RealN8n;
	userFolder: string;
	editorUrl: string;
	rest: RestClient;
	/** Stops n8n (SIGTERM) and returns its output. */
	stop(): Promise<CliResult>;
}

/** Starts n8n in a user folder on a free port of 127.0.0.1 (`env`: more of its environment) and logs in as the owner (set up on first start). */
export async function startServer(host: RealN8n, userFolder: string, env: Record<string, string> = {}): Promise<N8nServer> {
	const port = await freePort();
	const editorUrl = `http://localhost:${port}`;
	const run: CliRun = await startN8n(host, userFolder, ['start'], 0, {
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: 'localhost',
		N8N_SECURE_COOKIE: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_LOG_LEVEL: 'warn',
		...env,
	});
	let exited: CliResult | undefined;
	void run.done.then((result) => (exited = result));
	const stop = async (): Promise<CliResult> => {
		if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGTERM');
		return await run.done;
	};
	try {
		const rest = await ownerSession(editorUrl, OWNER, () => exited);
		return { host, userFolder, editorUrl, rest, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}

/** Asks until `check` gives a value; fails naming `what` after `timeoutMs`. */
export async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 60_000, everyMs = 500): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await check();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`Waited ${Math.round(timeoutMs / 1000)} s for ${what}`);
		await sleep(everyMs);
	}
}

/** The data of a successful REST answer; any other answer throws with its status and message. */
export function dataOf<T>(answer: RestAnswer, what: string): T {
	if (answer.status >= 300) throw new Error(`${what}: HTTP ${answer.status} ${answer.body.message ?? JSON.stringify(answer.body).slice(0, 500)}`);
	return answer.body.data as T;
}

/** The node types the editor loads (/types/nodes.json), by name. */
export async function nodeTypeNames(server: N8nServer): Promise<string[]> {
	const answer = await server.rest('GET', '/types/nodes.json');
	if (answer.status !== 200) throw new Error(`/types/nodes.json: HTTP ${answer.status}`);
	return (answer.body as unknown as Array<{ name: string }>).map((type) => type.name);
}

export async function createCredential(server: N8nServer, credential: { name: string; type: string; data: Record<string, string> }): Promise<{ id: string; name: string }> {
	const { id } = dataOf<{ id: string }>(await server.rest('POST', '/rest/credentials', credential), 'create credential');
	return { id, name: credential.name };
}

export interface StoredWorkflow {
	id: string;
	versionId: string;
	name: string;
	active: boolean;
	nodes: object[];
	connections: object;
	settings?: object;
	staticData?: Record<string, unknown> | null;
}

export async function createWorkflow(server: N8nServer, workflow: { name: string; nodes: object[]; connections: object }): Promise<StoredWorkflow> {
	return dataOf<StoredWorkflow>(await server.rest('POST', '/rest/workflows', { ...workflow, active: false, settings: {} }), `create workflow ${workflow.name}`);
}

export async function getWorkflow(server: N8nServer, id: string): Promise<StoredWorkflow> {
	return dataOf<StoredWorkflow>(await server.rest('GET', `/rest/workflows/${id}`), `get workflow ${id}`);
}

/** Activates a workflow as the editor does: 1.x saves it with `active: true`, 2.x publishes its current version. */
export async function activateWorkflow(server: N8nServer, workflow: StoredWorkflow): Promise<void> {
	const answer =
		server.host.version === N8N_V1
			? await server.rest('PATCH', `/rest/workflows/${workflow.id}`, { active: true, versionId: workflow.versionId })
			: await server.rest('POST', `/rest/workflows/${workflow.id}/activate`, { versionId: workflow.versionId });
	const active = dataOf<StoredWorkflow>(answer, `activate workflow ${workflow.name}`);
	if (!active.active) throw new Error(`Workflow ${workflow.name} is not active after activation`);
}

/** One node's run in an execution: its output items (first output). */
export interface NodeRun {
	items: Array<{ json: Record<string, unknown> }>;
	error?: { message?: string };
}

export interface Execution {
	id: string;
	status: string;
	mode: string;
	/** Each node's runs, by node name. */
	runs: Record<string, NodeRun[]>;
	error?: { message?: string };
}

interface StoredExecution {
	id: string;
	status: string;
	mode: string;
	finished: boolean;
	data: string;
}

/** n8n stores an execution's data as `flatted` JSON; the installed n8n's own copy of the library reads it. */
function readRunData(host: RealN8n, data: string): { resultData: { runData?: Record<string, Array<{ data?: { main?: NodeRun['items'][] }; error?: NodeRun['error'] }>>; error?: { message?: string } } } {
	const flatted = createRequire(join(host.dir, 'package.json'))('flatted') as { parse(text: string): unknown };
	return flatted.parse(data) as ReturnType<typeof readRunData>;
}

/** An execution, once it has ended. */
export async function finishedExecution(server: N8nServer, id: string, timeoutMs = 60_000): Promise<Execution> {
	// Ended, and its run data saved: under load n8n may report the end a moment before the data can be read.
	const { stored, resultData } = await until(
		`execution ${id} to end with its data saved`,
		async () => {
			const execution = dataOf<StoredExecution>(await server.rest('GET', `/rest/executions/${id}`), `execution ${id}`);
			if (['new', 'running', 'waiting'].includes(execution.status) || typeof execution.data !== 'string') return undefined;
			const data = readRunData(server.host, execution.data);
			return data?.resultData ? { stored: execution, resultData: data.resultData } : undefined;
		},
		timeoutMs,
	);
	const runs = Object.fromEntries(
		Object.entries(resultData.runData ?? {}).map(([node, nodeRuns]) => [node, nodeRuns.map((run) => ({ items: run.data?.main?.[0] ?? [], error: run.error }))]),
	);
	return { id: stored.id, status: stored.status, mode: stored.mode, runs, error: resultData.error };
}

/** The IDs of a workflow's executions, newest first. */
export async function executionIds(server: N8nServer, workflowId: string): Promise<string[]> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const { results } = dataOf<{ results: Array<{ id: string }> }>(await server.rest('GET', `/rest/executions?filter=${filter}&limit=50`), 'list executions');
	return results.map((execution) => execution.id);
}

/**
 * Runs a workflow from its Manual Trigger as the editor's "Execute workflow" does and returns the ended execution:
 * 1.x sends the workflow along, 2.x names the trigger to start from.
 */
export async function runWorkflow(server: N8nServer, workflow: StoredWorkflow, trigger: string): Promise<Execution> {
	const triggerToStartFrom = { name: trigger };
	const body = server.host.version === N8N_V1 ? { workflowData: await getWorkflow(server, workflow.id), triggerToStartFrom } : { triggerToStartFrom };
	const { executionId } = dataOf<{ executionId: string }>(await server.rest('POST', `/rest/workflows/${workflow.id}/run`, body), `run workflow ${workflow.name}`);
	return await finishedExecution(server, executionId);
}

/** The community packages n8n has installed (Settings → Community Nodes reads the same list). */
export async function installedPackages(server: N8nServer): Promise<Array<{ packageName: string; installedVersion: string; updateAvailable?: string; installedNodes: Array<{ type: string }> }>> {
	return dataOf(await server.rest('GET', '/rest/community-packages'), 'list community packages');
}
