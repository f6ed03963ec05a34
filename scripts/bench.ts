import { mkdirSync, readFileSync, writeFileSync } from 'fs';
import { dirname, join, resolve } from 'path';

import { REPO_DIR } from './packageDir';
import {
	RETRY,
	batching,
	bench,
	combined,
	control,
	headerCredential,
	headerLines,
	httpNode,
	httpWrite,
	machine,
	minimumMs,
	packageNode,
	packageWrite,
	patCredential,
	prepare,
	ratio,
	requestLog,
	startBenchSandbox,
	table,
	workflow,
	writeRow,
} from './benchParts';
import type { Limit, Row, TargetRun } from './benchParts';
import { benchWebhook } from './benchWebhook';
import type { WebhookMode } from './benchWebhook';
import { importAll, newUserFolder, parseExecution, realN8n, startN8n } from './realN8n';
import type { RealN8n } from './realN8n';

/**
 * `npm run bench` (docs/performance.md): the packed package in the real n8n application against the
 * sandbox, side by side with n8n's own HTTP Request node, as a Markdown table on stdout and in a file.
 *
 * BENCH_N (default 1000) is the number of writes of P2; every other size scales with it (P2 1,000, P3 200
 * and 1,000, P4 2 × 300 and 3 × 300, P1 and Memory 10,000 at 1,000, W1 500 deliveries), and so does the burst of the
 * at-the-limit cases, while their rate stays 100 per minute: the short mode takes (N - burst) / 100 minutes per variant
 * as well. BENCH_CASES picks cases (default P1,P2,P3,P4,W1; P1 includes Memory); BENCH_OUT names the file.
 * W1 (scripts/benchWebhook.ts) runs in regular mode with this n8n and in queue mode with n8n 2.41 (BENCH_WEBHOOK_MODES,
 * `regular`, `queue`, picks one), its deliveries at BENCH_WEBHOOK_PER_MINUTE (default 200) to each workflow.
 */

interface NodeRun extends TargetRun {
	/** Peak resident memory of the n8n process while the node ran, and over the whole process, in MB. */
	peakRssMb: number;
	processPeakMb: number;
}

const BENCH_N = Number(process.env.BENCH_N ?? 1000);
const SCALE = BENCH_N / 1000;
const CASES = (process.env.BENCH_CASES ?? 'P1,P2,P3,P4,W1').toUpperCase().split(',');
const WEBHOOK_MODES = (process.env.BENCH_WEBHOOK_MODES ?? 'regular,queue').split(',') as WebhookMode[];
/**
 * W1's deliveries a minute to each workflow (BENCH_WEBHOOK_PER_MINUTE), the same in the short mode: the default is what
 * n8n itself keeps up with on the 2-core machines of this project in both modes (docs/performance.md).
 */
const W1_PER_MINUTE = Number(process.env.BENCH_WEBHOOK_PER_MINUTE ?? 200);
const OUT = resolve(process.env.BENCH_OUT ?? join(REPO_DIR, 'bench/results.md'));
const sized = (full: number) => Math.max(1, Math.round(full * SCALE));

/** The API's limit (100 per minute, burst 200), with the burst scaled in the short mode. */
const AT_LIMIT: Limit = { perMinute: 100, burst: sized(200) };
/** "No server limit": the sandbox's and the credential's limit far above what a run sends. */
const NO_LIMIT: Limit = { perMinute: 1_000_000, burst: 1_000_000 };
const LIMIT_250 = 250;
const LATENCY_MS = 50;

const CREDENTIALS = {
	atLimit: { id: 'benchPatAtLimit1', name: 'PAT at the limit' },
	noLimit: { id: 'benchPatNoLimit1', name: 'PAT without limit' },
	header: { id: 'benchHeaderAuth1', name: 'PAT header' },
};

let host: RealN8n;
let userFolders: string[] = [];

// ---- workflows ----

const START = { id: 'n1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {} };
const manualWorkflow = (id: string, items: number, target: object) => ({ id, active: false, ...workflow(id, items, target, START) });

const packageRead = (credential = CREDENTIALS.noLimit) => packageNode(credential, { resource: 'user', operation: 'get', userId: { __rl: true, mode: 'id', value: '={{ $json.userId }}' } });
const httpRead = () => httpNode(CREDENTIALS.header, { url: `=${bench.sandboxUrl}/v4/user/{{ $json.userId }}`, options: {} });
const packageList = (limit?: number) =>
	packageNode(CREDENTIALS.noLimit, { resource: 'user', operation: 'getAll', ...(limit ? { returnAll: false, limit } : { returnAll: true }) });

/** HTTP Request batching at the limit: perMinute requests a minute, in the short mode's time scale. */
const BATCHING = batching(sized(AT_LIMIT.perMinute), Math.round(60_000 * SCALE));

const SIZES = { p1Users: sized(10_000), p2: BENCH_N, p3Latency: sized(200), p3Plain: sized(1000), p4: sized(300), w1: sized(500), w1WindowMs: Math.round((sized(500) / W1_PER_MINUTE) * 60_000) };

function workflows(): object[] {
	const write = packageWrite(CREDENTIALS.atLimit);
	return [
		manualWorkflow('benchP1ReturnAll', 1, packageList()),
		manualWorkflow('benchP1Limit', 1, packageList(LIMIT_250)),
		manualWorkflow('benchP2Package', SIZES.p2, write),
		manualWorkflow('benchP2Http', SIZES.p2, httpWrite(CREDENTIALS.header)),
		manualWorkflow('benchP2HttpRetry', SIZES.p2, httpWrite(CREDENTIALS.header, {}, RETRY)),
		manualWorkflow('benchP2HttpBatching', SIZES.p2, httpWrite(CREDENTIALS.header, BATCHING)),
		manualWorkflow('benchP3PackageLatency', SIZES.p3Latency, packageRead()),
		manualWorkflow('benchP3HttpLatency', SIZES.p3Latency, httpRead()),
		manualWorkflow('benchP3PackageAtLimit', SIZES.p3Latency, packageRead(CREDENTIALS.atLimit)),
		manualWorkflow('benchP3Package', SIZES.p3Plain, packageRead()),
		manualWorkflow('benchP3Http', SIZES.p3Plain, httpRead()),
		manualWorkflow('benchP4Package', SIZES.p4, write),
	];
}

function credentials(): object[] {
	return [patCredential(CREDENTIALS.atLimit, AT_LIMIT), patCredential(CREDENTIALS.noLimit, NO_LIMIT), headerCredential(CREDENTIALS.header)];
}

// ---- running ----

function memoryMb(pid: number | undefined, field: 'VmRSS' | 'VmHWM'): number {
	try {
		const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((text) => text.startsWith(`${field}:`));
		return line ? Number(line.split(/\s+/)[1]) / 1024 : 0;
	} catch {
		return 0;
	}
}

/** Executes a workflow in a user folder, polling the process's memory, and reads the Target node's run. */
async function execute(workflowId: string, userFolder = userFolders[0]): Promise<NodeRun> {
	const run = await startN8n(host, userFolder, ['execute', `--id=${workflowId}`, '--rawOutput'], 90 * 60_000);
	const samples: Array<{ at: number; rss: number }> = [];
	let processPeakMb = 0;
	const poll = setInterval(() => {
		samples.push({ at: Date.now(), rss: memoryMb(run.child.pid, 'VmRSS') });
		processPeakMb = Math.max(processPeakMb, memoryMb(run.child.pid, 'VmHWM'));
	}, 100);
	const { stdout, stderr } = await run.done.finally(() => clearInterval(poll));
	if (!stdout.includes('\n}')) throw new Error(`n8n execute ${workflowId} printed no execution:\n${stderr.slice(-2000)}\n${stdout.slice(-2000)}`);
	const task = parseExecution(stdout).data.resultData.runData.Target[0];
	const end = task.startTime + task.executionTime;
	const during = samples.filter((sample) => sample.at >= task.startTime && sample.at <= end + 100).map((sample) => sample.rss);
	return {
		items: task.data?.main?.[0]?.length ?? 0,
		startTime: task.startTime,
		executionTime: task.executionTime,
		error: task.error?.message,
		peakRssMb: Math.max(0, ...during),
		processPeakMb,
	};
}

// ---- cases ----

async function benchP1(): Promise<Row[]> {
	await seedUsers(SIZES.p1Users - 2); // the seed's company has its owner and one member already
	const rows: Row[] = [];
	const baseline = await listRun('benchP1Limit', Math.min(LIMIT_250, SIZES.p1Users), `Limit ${LIMIT_250}`, rows);
	const all = await listRun('benchP1ReturnAll', SIZES.p1Users, 'Return All', rows);
	rows.push({
		case: 'Memory',
		variant: 'This package, Get Many Return All',
		items: SIZES.p1Users,
		wallMs: all.executionTime,
		measured: `peak RSS ${all.peakRssMb.toFixed(0)} MB while the node ran (Limit ${LIMIT_250} run: ${baseline.peakRssMb.toFixed(0)} MB); process peak ${all.processPeakMb.toFixed(0)} MB, with writing the result`,
	});
	return rows;
}

/**
 * Users through the API's User Create with the API key, 50 at a time without a limit. Each gets its own meeting
 * type slug: the default one would make the sandbox search for a free "30-minute-meeting-<n>" every time.
 */
async function seedUsers(count: number): Promise<void> {
	await prepare(NO_LIMIT);
	const create = async (k: number) => {
		const body = { email: `bench${k}@acme.example`, givenName: 'Bench', familyName: `User ${k}`, timezone: 'UTC', meetingType: { slug: `bench-${k}` } };
		const headers = { authorization: `Bearer ${bench.apiKey}`, 'content-type': 'application/json' };
		const response = await fetch(`${bench.sandboxUrl}/v4/user`, { method: 'POST', headers, body: JSON.stringify(body) });
		if (response.status !== 201) throw new Error(`Seeding user ${k}: ${response.status} ${await response.text()}`);
	};
	for (let first = 0; first < count; first += 50) {
		await Promise.all(Array.from({ length: Math.min(50, count - first) }, (_, offset) => create(first + offset)));
	}
}

async function listRun(workflowId: string, expected: number, variant: string, rows: Row[]): Promise<NodeRun> {
	await prepare(NO_LIMIT);
	const run = await execute(workflowId);
	const log = await requestLog();
	const minimum = Math.ceil(expected / 100);
	rows.push({
		case: 'P1',
		variant: `This package, ${variant}`,
		items: run.items,
		requests: log.length,
		failed: expected - run.items,
		wallMs: run.executionTime,
		measured: `${log.length} requests, minimum ${minimum}`,
		target: '= minimum',
		pass: log.length === minimum && run.items === expected,
	});
	return run;
}

async function benchP2(): Promise<Row[]> {
	const minimum = minimumMs(SIZES.p2, AT_LIMIT);
	const variants: Array<[string, string]> = [
		['benchP2Package', 'This package'],
		['benchP2Http', 'HTTP Request, defaults'],
		['benchP2HttpRetry', `HTTP Request, Retry On Fail (${RETRY.maxTries} tries, ${RETRY.waitBetweenTries / 1000} s apart)`],
		['benchP2HttpBatching', `HTTP Request, batching ${BATCHING.batching.batch.batchSize} items per ${BATCHING.batching.batch.batchInterval / 1000} s`],
	];
	const rows: Row[] = [];
	for (const [workflowId, variant] of variants) {
		await prepare(AT_LIMIT);
		const run = await execute(workflowId);
		const target = workflowId === 'benchP2Package' ? { text: '≤ 1.05 × minimum, 0 failed, ≤ 1 % 429', maxTimes: 1.05, max429Share: 0.01 } : undefined;
		rows.push(writeRow('P2', variant, SIZES.p2, run, await requestLog(), minimum, target));
	}
	return rows;
}

async function benchP3(): Promise<Row[]> {
	const rows: Row[] = [];
	// The third pair reads within the API's own limit and the credential's defaults (burst 200): a workflow alone on its
	// credential spends the burst at once (this package once paced it at ten times the rate: 0.15 × HTTP Request).
	const pairs: Array<[string, string, number, number, number, Limit]> = [
		['benchP3PackageLatency', 'benchP3HttpLatency', SIZES.p3Latency, LATENCY_MS, 1.0, NO_LIMIT],
		['benchP3Package', 'benchP3Http', SIZES.p3Plain, 0, 0.8, NO_LIMIT],
		['benchP3PackageAtLimit', 'benchP3HttpLatency', SIZES.p3Latency, LATENCY_MS, 1.0, AT_LIMIT],
	];
	for (const [packageId, httpId, items, latency, target, limit] of pairs) {
		const runs: Array<{ mine: ReadRun; theirs: ReadRun }> = [];
		for (let round = 0; round < P3_ROUNDS; round++) runs.push({ mine: await readRun(packageId, latency, limit), theirs: await readRun(httpId, latency, limit) });
		const mine = median(runs.map((pair) => pair.mine));
		const theirs = median(runs.map((pair) => pair.theirs));
		const times = ratio(speed(mine.run), speed(theirs.run));
		const within = limit === AT_LIMIT ? `, at the API's limit (${limit.perMinute} per minute, burst ${limit.burst})` : '';
		const label = `${items} reads, ${latency ? `${latency} ms latency` : 'no latency'}${within}, median of ${P3_ROUNDS} runs`;
		const row = (variant: string, { run, requests }: ReadRun): Row => ({
			case: 'P3',
			variant: `${variant}: ${label}`,
			items,
			requests,
			failed: items - run.items,
			wallMs: run.executionTime,
			measured: `${speed(run).toFixed(1)} items/s`,
		});
		rows.push(
			{ ...row('This package', mine), measured: `${speed(mine.run).toFixed(1)} items/s = ${times.toFixed(2)} × HTTP Request`, target: `≥ ${target.toFixed(1)} × HTTP Request`, pass: times >= target && mine.run.items === items },
			row('HTTP Request, defaults', theirs),
		);
	}
	return rows;
}

interface ReadRun {
	run: NodeRun;
	requests: number;
}

/** Runs alternate between the two nodes, and the median of each counts: the machine may be shared. */
const P3_ROUNDS = 3;
const speed = (run: NodeRun) => run.items / (run.executionTime / 1000);
const median = (runs: ReadRun[]) => [...runs].sort((a, b) => speed(a.run) - speed(b.run))[Math.floor(runs.length / 2)];

async function readRun(workflowId: string, latency: number, limit: Limit): Promise<ReadRun> {
	await prepare(limit);
	if (latency) await control('POST', '/faults', { path: '/*', delayMs: latency, times: 1_000_000 });
	const run = await execute(workflowId);
	return { run, requests: (await requestLog()).length };
}

/** Two, then three n8n processes writing with one credential at the API's limit. */
async function benchP4(): Promise<Row[]> {
	const rows: Row[] = [];
	for (const processes of [2, 3]) rows.push(await benchProcesses(userFolders.slice(0, processes)));
	return rows;
}

async function benchProcesses(folders: string[]): Promise<Row> {
	await prepare(AT_LIMIT);
	const runs = await Promise.all(folders.map((folder) => execute('benchP4Package', folder)));
	const items = SIZES.p4 * runs.length;
	const variant = `This package, ${runs.length} n8n processes × ${SIZES.p4} writes, one credential`;
	return writeRow('P4', variant, items, combined(runs), await requestLog(), minimumMs(items, AT_LIMIT), { text: '0 failed, ≤ 1.15 × minimum', maxTimes: 1.15 });
}

/** A burst of booking deliveries to the Webhook Trigger, Verify Through the API on and off side by side (scripts/benchWebhook.ts). */
async function benchW1(): Promise<Row[]> {
	const unknown = WEBHOOK_MODES.filter((mode) => mode !== 'regular' && mode !== 'queue');
	if (unknown.length) throw new Error(`BENCH_WEBHOOK_MODES: unknown ${unknown.join(', ')}; the modes are regular, queue`);
	return await benchWebhook({ deliveries: SIZES.w1, windowMs: SIZES.w1WindowMs, limit: AT_LIMIT, modes: WEBHOOK_MODES, regularHost: host });
}

// ---- table ----

function header(version: string): string {
	const mode = BENCH_N === 1000 ? 'full' : 'short';
	return headerLines([
		`Benchmark ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, n8n ${version}, BENCH_N=${BENCH_N} (${mode} mode)`,
		`Machine: ${machine()}`,
		`At the limit: ${AT_LIMIT.perMinute} requests per minute, burst ${AT_LIMIT.burst} (sandbox and credential); minimum = (writes - burst) / ${AT_LIMIT.perMinute} min.`,
		...(CASES.includes('W1')
			? [`W1: ${SIZES.w1} booking deliveries, ${W1_PER_MINUTE} a minute (over ${SIZES.w1WindowMs / 1000} s), to each of two workflows, one burst after the other (verification off, then on); the reads' minimum = (deliveries - burst) / ${AT_LIMIT.perMinute} min.`]
			: []),
	]);
}

const STEPS: Record<string, () => Promise<Row[]>> = { P1: benchP1, P2: benchP2, P3: benchP3, P4: benchP4, W1: benchW1 };

async function main(): Promise<void> {
	if (!(BENCH_N >= 1)) throw new Error('BENCH_N must be a number of at least 1');
	const unknown = CASES.filter((name) => !STEPS[name]);
	if (unknown.length) throw new Error(`BENCH_CASES: unknown ${unknown.join(', ')}; the cases are ${Object.keys(STEPS).join(', ')}`);
	host = realN8n();
	const { version } = host;
	const sandbox = await startBenchSandbox();

	userFolders = [newUserFolder('n8n-bench-a-'), newUserFolder('n8n-bench-b-'), newUserFolder('n8n-bench-c-')];
	await Promise.all(userFolders.map((folder) => importAll(host, folder, credentials(), workflows())));
	const rows: Row[] = [];
	for (const name of CASES) {
		process.stderr.write(`bench: ${name}...\n`);
		rows.push(...(await STEPS[name]()));
	}
	await sandbox.close();
	const output = table(rows, header(version));
	mkdirSync(dirname(OUT), { recursive: true });
	writeFileSync(OUT, output);
	process.stdout.write(`${output}\nWritten to ${OUT}\n`);
}

main().catch((error: unknown) => {
	process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
	process.exit(1);
});
