import { randomUUID } from 'crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'fs';
import type { IDataObject } from 'n8n-workflow';
import { tmpdir } from 'os';
import { dirname, join, resolve } from 'path';

import { REPO_DIR } from './packageDir';
import {
	RETRY,
	batching,
	bench,
	combined,
	control,
	formatMs,
	headerCredential,
	headerLines,
	httpWrite,
	machine,
	minimumMs,
	packageWrite,
	patCredential,
	prepare,
	requestLog,
	startBenchSandbox,
	table,
	workflow,
	writeRow,
} from './benchParts';
import type { Limit, Row, TargetRun, WriteTarget } from './benchParts';
import { startQueueMode } from './queueMode';
import type { QueueMode } from './queueMode';
import { callWebhook, endedExecutions, logEnds, publishWorkflow, runDataOf, webhookNode, workersThatRan } from './queueWorkflows';
import { N8N_V2, ownerSession, realN8n } from './realN8n';
import type { RealN8n, RestClient } from './realN8n';

/**
 * `npm run bench:queue` (docs/performance.md, docs/queue-mode.md): the at-the-limit cases of `npm run bench` (P2: one
 * process writing, P4: several processes on one credential) in n8n 2.41 in queue mode, set up by scripts/queueMode.ts
 * as `npm run start:queue` sets it up (PostgreSQL, Redis, main, a webhook processor) with three workers of one job at
 * a time. One, two and three workers write at once, each 500 Availability Exception Create with one credential
 * at the API's limit (100 per minute, burst 200, in the sandbox and in the credential), through this package and,
 * side by side in the same set-up, through n8n's HTTP Request node (defaults, Retry On Fail, batching at the limit).
 * A case is a workflow Webhook → Make (Code) → Target, published through main's REST API and called once per worker
 * at once: with one job per worker, each call runs on another worker (their logs say which, and the row names them).
 * Every case has a credential of its own (a new PAT of the seed's owner), so that no worker's bucket starts with what
 * an earlier case taught it. Wall time runs from the first Target start to the last Target end (the run data of
 * main's execution view); the minimum is (writes - burst) / rate.
 * `--short` runs the same cases five times as fast: the limit is 500 per minute (burst 200), so the same writes take a
 * fifth of the time. The package's rate limiter counts its times in tokens of the limit, so it meets the same
 * situations; "after the first minute" becomes after the first 12 s (100 tokens either way), and HTTP Request's
 * batching is the same 100 items per 12 s. Only the API's Retry-After, in whole seconds, weighs five times as much.
 * The table goes to stdout and to bench/queue-results.md (BENCH_QUEUE_OUT names another file); the last line says,
 * for this package on three workers, `queue bench: <failed items> failed, <wall time / minimum>× minimum`.
 */

const SHORT = process.argv.includes('--short');
const WRITES = 500;
/** The API's limit; five times the rate in the short mode. */
const AT_LIMIT: Limit = { perMinute: SHORT ? 500 : 100, burst: 200 };
/** The first minute at the API's rate (100 tokens), whose 429s the target leaves out: the workers share out the burst. */
const START_MS = (100 / AT_LIMIT.perMinute) * 60_000;
const START_TEXT = SHORT ? `the first ${formatMs(START_MS)}` : 'the first minute';
/** BENCH_QUEUE_WORKERS (e.g. `3`) and BENCH_QUEUE_VARIANTS (e.g. `package`) pick cases for a quicker look; the default is all. */
const WORKERS = (process.env.BENCH_QUEUE_WORKERS ?? '1,2,3').split(',').map(Number);
const OUT = resolve(process.env.BENCH_QUEUE_OUT ?? join(REPO_DIR, 'bench/queue-results.md'));
const LOGIN = { email: 'bench@example.com', password: 'Bench-Password-1', firstName: 'Bench', lastName: 'Owner' };
/** HTTP Request batching at the limit: 100 items per minute at the API's rate (per workflow). */
const BATCHING = batching(100, START_MS);

interface Variant {
	name: string;
	label: string;
	/** The Target node, with the case's own credential. */
	target(credential: { id: string; name: string }): object;
	credential(token: string, name: string): object;
}

const VARIANTS: Variant[] = [
	{ name: 'package', label: 'This package', target: (credential) => packageWrite(credential), credential: (token, name) => patCredential({ name }, AT_LIMIT, token) },
	{ name: 'http', label: 'HTTP Request, defaults', target: (credential) => httpWrite(credential), credential: (token, name) => headerCredential({ name }, token) },
	{
		name: 'httpRetry',
		label: `HTTP Request, Retry On Fail (${RETRY.maxTries} tries, ${RETRY.waitBetweenTries / 1000} s apart)`,
		target: (credential) => httpWrite(credential, {}, RETRY),
		credential: (token, name) => headerCredential({ name }, token),
	},
	{
		name: 'httpBatching',
		label: `HTTP Request, batching ${BATCHING.batching.batch.batchSize} items per ${BATCHING.batching.batch.batchInterval / 1000} s in each workflow`,
		target: (credential) => httpWrite(credential, BATCHING),
		credential: (token, name) => headerCredential({ name }, token),
	},
];

let host: RealN8n;
let queue: QueueMode;
let rest: RestClient;

/** A new PAT of the seed's owner and an n8n credential with it: a bucket no worker has seen. */
async function newCredential(variant: Variant, name: string): Promise<{ id: string; name: string }> {
	const { token } = (await control('POST', '/pats', { userId: bench.userId })) as { token: string };
	const created = await rest('POST', '/rest/credentials', variant.credential(token, name));
	if (created.status !== 200) throw new Error(`Creating credential ${name}: HTTP ${created.status} ${JSON.stringify(created.body)}`);
	return { id: String((created.body.data as IDataObject).id), name };
}

/** The Target node's run in an execution (its error when the node or the execution failed). */
async function targetRun(executionId: string): Promise<TargetRun> {
	const { runData, error } = await runDataOf(rest, host, executionId);
	const task = runData.Target?.[0];
	if (!task) return { items: 0, startTime: Date.now(), executionTime: 0, error: error?.message ?? 'Target did not run' };
	return { items: task.data?.main?.[0]?.length ?? 0, startTime: task.startTime, executionTime: task.executionTime, error: task.error?.message };
}

function targetOf(variant: Variant, workers: number): WriteTarget | undefined {
	if (variant.name !== 'package') return undefined;
	if (workers === 1) return { text: '≤ 1.05 × minimum, 0 failed, ≤ 1 % 429', maxTimes: 1.05, max429Share: 0.01 };
	return { text: `≤ 1.15 × minimum, 0 failed, ≤ 1 % 429 after ${START_TEXT}`, maxTimes: 1.15, max429ShareLater: 0.01 };
}

/** `workers` executions of the variant's workflow at once, one per worker; the row. */
async function runCase(variant: Variant, workers: number): Promise<Row> {
	const name = `Bench queue ${variant.name} ${workers}`;
	const path = `bench-queue-${variant.name.toLowerCase()}-${workers}`;
	const credential = await newCredential(variant, name);
	const start = webhookNode(path, randomUUID());
	const workflowId = await publishWorkflow(rest, workflow(name, WRITES, variant.target(credential), start) as IDataObject);
	await prepare(AT_LIMIT);
	process.stderr.write(`bench:queue: ${variant.label}, ${workers} worker(s) × ${WRITES} writes...\n`);
	await callWebhook(queue.url, path, Array.from({ length: workers }, (_, run) => ({ run })));
	const items = WRITES * workers;
	const timeoutMs = 3 * minimumMs(items, AT_LIMIT) + 10 * 60_000;
	const executions = await endedExecutions(rest, workflowId, workers, timeoutMs, () => logEnds(queue));
	const ids = executions.map((execution) => String(execution.id));
	const runs = await Promise.all(ids.map(targetRun));
	const ranOn = (await Promise.all(ids.map((id) => workersThatRan(queue, id)))).flat().sort();
	const label = `${variant.label}, ${workers} worker${workers > 1 ? 's' : ''} × ${WRITES} writes, one credential (ran on ${ranOn.join(', ') || 'no worker'})`;
	return writeRow(workers === 1 ? 'P2' : 'P4', label, items, combined(runs), await requestLog(), minimumMs(items, AT_LIMIT), targetOf(variant, workers), START_MS);
}

function header(): string {
	return headerLines([
		`Queue benchmark ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, n8n ${host.version} in queue mode (PostgreSQL, Redis, main, webhook processor, 3 workers of 1 job each), ${SHORT ? 'short' : 'full'} mode`,
		`Machine: ${machine()}`,
		`At the limit: ${AT_LIMIT.perMinute} requests per minute, burst ${AT_LIMIT.burst} (sandbox and credential)${SHORT ? ', five times the API\'s rate' : ''}; minimum = (writes - burst) / ${AT_LIMIT.perMinute} min; 429s after ${START_TEXT}: of the requests the sandbox received later than that after the first.`,
	]);
}

/** The summary line of this package on three workers. */
function summary(rows: Row[]): string {
	const row = rows.find((candidate) => candidate.case === 'P4' && candidate.variant.startsWith(`${VARIANTS[0].label}, 3 workers`));
	if (!row) return 'queue bench: the three-worker case of this package did not run';
	const times = (row.wallMs ?? 0) / minimumMs(row.items ?? 0, AT_LIMIT);
	return `queue bench: ${row.failed} failed, ${times.toFixed(2)}× minimum`;
}

async function main(): Promise<void> {
	host = realN8n(N8N_V2, true);
	const sandbox = await startBenchSandbox();
	const folder = mkdtempSync(join(tmpdir(), 'n8n-bench-queue-'));
	const progress = (line: string) => process.stderr.write(`${line}\n`);
	try {
		queue = await startQueueMode({ host, folder, workers: Math.max(...WORKERS), concurrency: 1, progress });
		rest = await ownerSession(queue.url, LOGIN);
		const rows: Row[] = [];
		const picked = process.env.BENCH_QUEUE_VARIANTS?.split(',');
		for (const workers of WORKERS) {
			for (const variant of VARIANTS.filter((candidate) => !picked || picked.includes(candidate.name))) rows.push(await runCase(variant, workers));
		}
		const output = table(rows, header(), `429s after ${START_TEXT}`);
		mkdirSync(dirname(OUT), { recursive: true });
		writeFileSync(OUT, output);
		process.stdout.write(`${output}\nWritten to ${OUT}\n${summary(rows)}\n`);
	} finally {
		await queue?.stop();
		await sandbox.close();
		rmSync(folder, { recursive: true, force: true });
	}
}

main().catch((error: unknown) => {
	process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
	process.exit(1);
});
