import { createRequire } from 'module';
import type { IDataObject } from 'n8n-workflow';
import { join } from 'path';
import { setTimeout as sleep } from 'timers/promises';

import type { QueueMode } from './queueMode';
import type { RealN8n, RestClient } from './realN8n';

/**
 * Workflows in queue mode (scripts/queueMode.ts) through main's REST API, as the editor makes and shows them:
 * published, started at their production webhook (the webhook processors queue them for the workers), their
 * executions, the run data of main's execution view, and the worker that ran each (its log). For the queue-mode
 * smoke tests and `npm run bench:queue`.
 */

/** An output item: its JSON and, when a node made files, their references (binary data lives apart). */
export type RunItem = { json: IDataObject; binary?: Record<string, IDataObject> };

export interface NodeRunData {
	startTime: number;
	executionTime: number;
	error?: { message?: string };
	data?: { main: RunItem[][] };
}

export type RunData = Record<string, NodeRunData[]>;

/** An execution's error as n8n stores it: a message and what else the error carried. */
export type ExecutionError = IDataObject & { message?: string };

const ENDED = ['success', 'error', 'crashed', 'canceled'];

/** Fails when `answer` is not 200, with what n8n said. */
function ok(answer: { status: number; body: unknown }, what: string): void {
	if (answer.status !== 200) throw new Error(`${what}: HTTP ${answer.status} ${JSON.stringify(answer.body).slice(0, 500)}`);
}

/** Waits until `ready` holds, checking every half second; fails after `timeoutMs` with `what`, and `details` when given. */
export async function until(what: string, ready: () => Promise<boolean>, timeoutMs: number, details: () => string = () => ''): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await ready())) {
		if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}\n${details()}`);
		await sleep(500);
	}
}

/** Makes a workflow and publishes it as the editor's Publish button does; its ID once every process has it. */
export async function publishWorkflow(rest: RestClient, workflow: IDataObject): Promise<string> {
	const created = await rest('POST', '/rest/workflows', workflow);
	ok(created, `Creating workflow "${String(workflow.name)}"`);
	const { id, versionId } = created.body.data as { id: string; versionId: string };
	ok(await rest('POST', `/rest/workflows/${id}/activate`, { versionId }), `Publishing workflow ${id}`);
	let status = '';
	await until(`workflow ${id} to be published`, async () => {
		status = String(((await rest('GET', `/rest/workflows/${id}/publication-status`)).body.data as IDataObject | undefined)?.status);
		return ['published', 'partial', 'failed'].includes(status);
	}, 90_000);
	if (status !== 'published') throw new Error(`Workflow ${id} was not published: ${status}`);
	return id;
}

/** The executions of a workflow, newest first (id, mode, status, ...). */
export async function executionsOf(rest: RestClient, workflowId: string): Promise<IDataObject[]> {
	const answer = await rest('GET', `/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}`);
	ok(answer, `Executions of workflow ${workflowId}`);
	return (answer.body.data as { results: IDataObject[] }).results;
}

/** Waits until `count` executions of the workflow have ended; returns them. */
export async function endedExecutions(rest: RestClient, workflowId: string, count: number, timeoutMs: number, details?: () => string): Promise<IDataObject[]> {
	let ended: IDataObject[] = [];
	await until(`${count} executions of workflow ${workflowId} to end`, async () => {
		ended = (await executionsOf(rest, workflowId)).filter((execution) => ENDED.includes(String(execution.status)));
		return ended.length >= count;
	}, timeoutMs, details);
	return ended;
}

/**
 * An execution as main's execution view gets it (GET /rest/executions/:id; n8n stores its data "flatted"): its
 * status, the run data and the execution's error.
 */
export async function runDataOf(rest: RestClient, host: RealN8n, executionId: string): Promise<{ status: string; runData: RunData; error?: ExecutionError }> {
	const answer = await rest('GET', `/rest/executions/${executionId}`);
	ok(answer, `Execution ${executionId}`);
	const execution = answer.body.data as { status: string; data: string };
	const flatted = createRequire(join(host.dir, 'node_modules/n8n/package.json'))('flatted') as { parse(text: string): unknown };
	const data = flatted.parse(execution.data) as { resultData: { runData: RunData; error?: ExecutionError } };
	return { status: execution.status, ...data.resultData };
}

/** The output items of a node's first run (none when it failed). */
export function outputOf(runData: RunData, node: string): RunItem[] {
	return runData[node]?.[0]?.data?.main?.[0] ?? [];
}

/** The workers whose log says they ran the execution (start and finish) at this moment. */
function workersWhoseLogSays(queue: QueueMode, executionId: string): string[] {
	return queue
		.byRole('worker')
		.filter((worker) => {
			const log = queue.logOf(worker.name);
			return log.includes(`Worker started execution ${executionId} (job`) && log.includes(`Worker finished execution ${executionId} (job`);
		})
		.map((worker) => worker.name);
}

/**
 * The workers whose log says they ran the execution (start and finish). A worker writes "finished" to its log after it
 * has saved the execution as ended, so the line may come a moment after main reports the end: waits for it (up to
 * `timeoutMs`) and gives none only when no worker says so by then.
 */
export async function workersThatRan(queue: QueueMode, executionId: string, timeoutMs = 15_000): Promise<string[]> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const workers = workersWhoseLogSays(queue, executionId);
		if (workers.length || Date.now() > deadline) return workers;
		await sleep(250);
	}
}

/** The ends of every n8n process's log, for an error message. */
export function logEnds(queue: QueueMode, characters = 2000): string {
	return queue.processes
		.filter((p) => p.userFolder)
		.map((p) => `--- ${p.name}\n${queue.logOf(p.name).slice(-characters)}`)
		.join('\n');
}

/** A Webhook node answering at once (the execution runs on a worker afterwards), at POST /webhook/<path>. */
export function webhookNode(path: string, webhookId: string, position: [number, number] = [0, 0]): IDataObject & { name: string } {
	return { id: 'Webhook', name: 'Webhook', type: 'n8n-nodes-base.webhook', typeVersion: 2, position, webhookId, parameters: { httpMethod: 'POST', path, options: {} } };
}

/** Calls a production webhook once per body, all at once; fails unless each answers 200. */
export async function callWebhook(url: string, path: string, bodies: IDataObject[]): Promise<void> {
	const answers = await Promise.all(
		bodies.map(async (body) => await fetch(`${url}/webhook/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })),
	);
	const statuses = answers.map((answer) => answer.status);
	if (statuses.some((status) => status !== 200)) throw new Error(`Webhook ${path} answered ${statuses.join(', ')}`);
}
