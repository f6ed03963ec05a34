import { mkdirSync, readFileSync, writeFileSync } from 'fs';
import { cpus, release, totalmem, type } from 'os';
import { dirname, join, resolve } from 'path';

import { startSandbox } from '../sandbox/server';
import { PACKAGE_DIR } from '../test/harness/engine';
import { NODE_TYPE, importAll, newUserFolder, parseExecution, realN8n, startN8n } from './realN8n';
import type { RealN8n } from './realN8n';

/**
 * `npm run bench` (README "Performance"): the packed package in the real n8n application against the
 * sandbox, side by side with n8n's own HTTP Request node, as a Markdown table on stdout and in a file.
 *
 * BENCH_N (default 1000) is the number of writes of P2; every other size scales with it (P2 1,000, P3 200
 * and 1,000, P4 2 × 300 and 3 × 300, P1 and Memory 10,000 at 1,000), and so does the burst of the at-the-limit cases,
 * while their rate stays 100 per minute: the short mode takes (N - burst) / 100 minutes per variant as well.
 * BENCH_CASES picks cases (default P1,P2,P3,P4; P1 includes Memory); BENCH_OUT names the file.
 */

interface Limit {
	perMinute: number;
	burst: number;
}

interface LoggedRequest {
	method: string;
	status: number | null;
}

interface NodeRun {
	/** Items in the node's first output; 0 when the node failed. */
	items: number;
	startTime: number;
	executionTime: number;
	error?: string;
	/** Peak resident memory of the n8n process while the node ran, and over the whole process, in MB. */
	peakRssMb: number;
	processPeakMb: number;
}

interface Row {
	case: string;
	variant: string;
	items?: number;
	requests?: number;
	share429?: number;
	failed?: number;
	applied?: number;
	wallMs?: number;
	measured: string;
	target?: string;
	pass?: boolean;
}

const BENCH_N = Number(process.env.BENCH_N ?? 1000);
const SCALE = BENCH_N / 1000;
const CASES = (process.env.BENCH_CASES ?? 'P1,P2,P3,P4').toUpperCase().split(',');
const OUT = resolve(process.env.BENCH_OUT ?? join(PACKAGE_DIR, 'bench/results.md'));
const sized = (full: number) => Math.max(1, Math.round(full * SCALE));

/** The API's limit (100 per minute, burst 200), with the burst scaled in the short mode. */
const AT_LIMIT: Limit = { perMinute: 100, burst: sized(200) };
/** "No server limit": the sandbox's and the credential's limit far above what a run sends. */
const NO_LIMIT: Limit = { perMinute: 1_000_000, burst: 1_000_000 };
const LIMIT_250 = 250;
const LATENCY_MS = 50;

const HTTP_NODE = { type: 'n8n-nodes-base.httpRequest', typeVersion: 4.3 };
const CREDENTIALS = {
	atLimit: { id: 'benchPatAtLimit1', name: 'PAT at the limit' },
	noLimit: { id: 'benchPatNoLimit1', name: 'PAT without limit' },
	header: { id: 'benchHeaderAuth1', name: 'PAT header' },
};
const EXCEPTION = { available: false, start: '2026-05-01T00:00:00Z', end: '2026-05-02T00:00:00Z' };

let sandboxUrl = '';
let host: RealN8n;
let userFolders: string[] = [];

async function control(method: string, path: string, body?: object): Promise<unknown> {
	const response = await fetch(`${sandboxUrl}/__sandbox${path}`, {
		method,
		headers: body ? { 'content-type': 'application/json' } : {},
		body: body ? JSON.stringify(body) : undefined,
	});
	if (!response.ok) throw new Error(`Sandbox ${method} ${path}: ${response.status} ${await response.text()}`);
	return response.json();
}

/** A clean request log and a full sandbox bucket with this limit. */
async function prepare(limit: Limit): Promise<void> {
	await control('DELETE', '/requests');
	await control('DELETE', '/faults');
	await control('POST', '/rate-limit', limit);
}

const requestLog = async () => (await control('GET', '/requests')) as LoggedRequest[];

// ---- workflows ----

/** Start → Make (a Code node making `items` items, each with its number i and the user ID) → Target. */
function workflow(id: string, items: number, target: object): object {
	const make = `return Array.from({ length: ${items} }, (_, i) => ({ json: { i, userId: ${JSON.stringify(seeded.userId)} } }));`;
	const nodes = [
		{ id: 'n1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
		{ id: 'n2', name: 'Make', type: 'n8n-nodes-base.code', typeVersion: 2, position: [200, 0], parameters: { jsCode: make } },
		{ id: 'n3', name: 'Target', position: [400, 0], ...target },
	];
	const link = (to: string) => ({ main: [[{ node: to, type: 'main', index: 0 }]] });
	return { id, name: id, active: false, settings: {}, nodes, connections: { Start: link('Make'), Make: link('Target') } };
}

function packageNode(credential: { id: string; name: string }, parameters: object): object {
	return { type: NODE_TYPE, typeVersion: 1, parameters, credentials: { schedulingPlatformPatApi: credential } };
}

function httpNode(parameters: object, settings: object = {}): object {
	const auth = { authentication: 'genericCredentialType', genericAuthType: 'httpHeaderAuth' };
	return { ...HTTP_NODE, ...settings, parameters: { ...auth, ...parameters }, credentials: { httpHeaderAuth: CREDENTIALS.header } };
}

/** What the seed made that the bench uses: the PAT, its owner and their default availability, the company's API key. */
const seeded = { userId: '', availabilityId: '', pat: '', apiKey: '' };

/** Availability Exception Create: repeatable, the same body each time but the title. */
const packageWrite = () =>
	packageNode(CREDENTIALS.atLimit, {
		resource: 'availabilityException',
		operation: 'create',
		availabilityId: { __rl: true, mode: 'id', value: seeded.availabilityId },
		type: EXCEPTION.available,
		start: EXCEPTION.start,
		end: EXCEPTION.end,
		additionalFields: { title: '={{ "Bench " + $json.i }}' },
	});

function httpWrite(options: object = {}, settings: object = {}): object {
	const body = JSON.stringify({ availabilityId: seeded.availabilityId, ...EXCEPTION });
	return httpNode(
		{ method: 'POST', url: `${sandboxUrl}/availability-exception`, sendBody: true, specifyBody: 'json', jsonBody: `={{ JSON.stringify({ ...${body}, title: "Bench " + $json.i }) }}`, options },
		settings,
	);
}

const packageRead = () => packageNode(CREDENTIALS.noLimit, { resource: 'user', operation: 'get', userId: { __rl: true, mode: 'id', value: '={{ $json.userId }}' } });
const httpRead = () => httpNode({ url: `=${sandboxUrl}/v4/user/{{ $json.userId }}`, options: {} });
const packageList = (limit?: number) =>
	packageNode(CREDENTIALS.noLimit, { resource: 'user', operation: 'getAll', ...(limit ? { returnAll: false, limit } : { returnAll: true }) });

/** HTTP Request batching at the limit: perMinute requests a minute, in the short mode's time scale. */
const BATCHING = { batching: { batch: { batchSize: sized(AT_LIMIT.perMinute), batchInterval: Math.round(60_000 * SCALE) } } };
const RETRY = { retryOnFail: true, maxTries: 5, waitBetweenTries: 5000 };

const SIZES = { p1Users: sized(10_000), p2: BENCH_N, p3Latency: sized(200), p3Plain: sized(1000), p4: sized(300) };

function workflows(): object[] {
	const write = packageWrite();
	return [
		workflow('benchP1ReturnAll', 1, packageList()),
		workflow('benchP1Limit', 1, packageList(LIMIT_250)),
		workflow('benchP2Package', SIZES.p2, write),
		workflow('benchP2Http', SIZES.p2, httpWrite()),
		workflow('benchP2HttpRetry', SIZES.p2, httpWrite({}, RETRY)),
		workflow('benchP2HttpBatching', SIZES.p2, httpWrite(BATCHING)),
		workflow('benchP3PackageLatency', SIZES.p3Latency, packageRead()),
		workflow('benchP3HttpLatency', SIZES.p3Latency, httpRead()),
		workflow('benchP3Package', SIZES.p3Plain, packageRead()),
		workflow('benchP3Http', SIZES.p3Plain, httpRead()),
		workflow('benchP4Package', SIZES.p4, write),
	];
}

function credentials(): object[] {
	const pat = (ref: { id: string; name: string }, limit: Limit) => ({
		...ref,
		type: 'schedulingPlatformPatApi',
		data: { baseUrl: sandboxUrl, token: seeded.pat, requestsPerMinute: limit.perMinute, burst: limit.burst },
	});
	const header = { ...CREDENTIALS.header, type: 'httpHeaderAuth', data: { name: 'Authorization', value: `Bearer ${seeded.pat}` } };
	return [pat(CREDENTIALS.atLimit, AT_LIMIT), pat(CREDENTIALS.noLimit, NO_LIMIT), header];
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

const minimumMs = (writes: number, limit: Limit) => (Math.max(0, writes - limit.burst) / limit.perMinute) * 60_000;
const ratio = (value: number, of: number) => (of > 0 ? value / of : Infinity);
const count = (log: LoggedRequest[], status: number) => log.filter((entry) => entry.status === status).length;

interface WriteTarget {
	text: string;
	maxTimes: number;
	max429Share?: number;
}

/** A row of writes: wall time against the token-bucket minimum, failed items, writes applied, 429s; checked when a target is given. */
function writeRow(caseName: string, variant: string, items: number, run: NodeRun, log: LoggedRequest[], minimumWallMs: number, target?: WriteTarget): Row {
	const times = ratio(run.executionTime, minimumWallMs);
	const failed = items - run.items;
	const share429 = ratio(count(log, 429), log.length);
	return {
		case: caseName,
		variant,
		items,
		requests: log.length,
		share429,
		failed,
		applied: count(log, 201),
		wallMs: run.executionTime,
		measured: run.error ? `stopped: ${run.error}` : `${times.toFixed(2)} × minimum (${formatMs(minimumWallMs)})`,
		target: target?.text,
		pass: target && times <= target.maxTimes && failed === 0 && share429 <= (target.max429Share ?? 1),
	};
}

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
		const headers = { authorization: `Bearer ${seeded.apiKey}`, 'content-type': 'application/json' };
		const response = await fetch(`${sandboxUrl}/v4/user`, { method: 'POST', headers, body: JSON.stringify(body) });
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
	const pairs: Array<[string, string, number, number, number]> = [
		['benchP3PackageLatency', 'benchP3HttpLatency', SIZES.p3Latency, LATENCY_MS, 1.0],
		['benchP3Package', 'benchP3Http', SIZES.p3Plain, 0, 0.8],
	];
	for (const [packageId, httpId, items, latency, target] of pairs) {
		const runs: Array<{ mine: ReadRun; theirs: ReadRun }> = [];
		for (let round = 0; round < P3_ROUNDS; round++) runs.push({ mine: await readRun(packageId, latency), theirs: await readRun(httpId, latency) });
		const mine = median(runs.map((pair) => pair.mine));
		const theirs = median(runs.map((pair) => pair.theirs));
		const times = ratio(speed(mine.run), speed(theirs.run));
		const label = `${items} reads, ${latency ? `${latency} ms latency` : 'no latency'}, median of ${P3_ROUNDS} runs`;
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

async function readRun(workflowId: string, latency: number): Promise<ReadRun> {
	await prepare(NO_LIMIT);
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
	const log = await requestLog();
	const start = Math.min(...runs.map((run) => run.startTime));
	const end = Math.max(...runs.map((run) => run.startTime + run.executionTime));
	const items = SIZES.p4 * runs.length;
	const run: NodeRun = { ...runs[0], items: runs.reduce((sum, one) => sum + one.items, 0), startTime: start, executionTime: end - start };
	run.error = runs.map((one) => one.error).filter(Boolean).join('; ') || undefined;
	const variant = `This package, ${runs.length} n8n processes × ${SIZES.p4} writes, one credential`;
	return writeRow('P4', variant, items, run, log, minimumMs(items, AT_LIMIT), { text: '0 failed, ≤ 1.15 × minimum', maxTimes: 1.15 });
}

// ---- table ----

function formatMs(ms: number): string {
	if (ms < 10_000) return `${(ms / 1000).toFixed(2)} s`;
	const seconds = Math.round(ms / 1000);
	return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

const cell = (value: number | undefined, format: (value: number) => string = String) => (value === undefined ? '' : format(value));
const verdict = (pass: boolean | undefined) => (pass === undefined ? '' : pass ? 'PASS' : 'FAIL');

/** A table cell: one line, pipes escaped. */
const escaped = (text: string) => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ');

function tableRow(row: Row): string {
	const cells = [
		row.case,
		row.variant,
		cell(row.items),
		cell(row.requests),
		cell(row.share429, (share) => `${(share * 100).toFixed(1)} %`),
		cell(row.failed),
		cell(row.applied),
		cell(row.wallMs, formatMs),
		row.measured,
		row.target ?? '',
		verdict(row.pass),
	];
	return `| ${cells.map(escaped).join(' | ')} |`;
}

function table(rows: Row[], header: string): string {
	const lines = [
		'| Case | Node, variant | Items | Requests | 429s | Failed items | Writes applied | Wall time | Measured | Target | |',
		'|---|---|---:|---:|---:|---:|---:|---:|---|---|---|',
		...rows.map(tableRow),
	];
	return `${header}\n\n${lines.join('\n')}\n`;
}

function header(version: string): string {
	const cpu = cpus();
	const machine = `${cpu.length} × ${cpu[0]?.model.trim() ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GB, ${type()} ${release()}, Node ${process.version}`;
	const mode = BENCH_N === 1000 ? 'full' : 'short';
	return [
		`Benchmark ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, n8n ${version}, BENCH_N=${BENCH_N} (${mode} mode)`,
		`Machine: ${machine}`,
		`At the limit: ${AT_LIMIT.perMinute} requests per minute, burst ${AT_LIMIT.burst} (sandbox and credential); minimum = (writes - burst) / ${AT_LIMIT.perMinute} min.`,
	].map((line) => `${line}  `).join('\n');
}

const STEPS: Record<string, () => Promise<Row[]>> = { P1: benchP1, P2: benchP2, P3: benchP3, P4: benchP4 };

async function main(): Promise<void> {
	if (!(BENCH_N >= 1)) throw new Error('BENCH_N must be a number of at least 1');
	const unknown = CASES.filter((name) => !STEPS[name]);
	if (unknown.length) throw new Error(`BENCH_CASES: unknown ${unknown.join(', ')}; the cases are ${Object.keys(STEPS).join(', ')}`);
	host = realN8n();
	const { version } = host;
	const sandbox = await startSandbox();
	sandboxUrl = sandbox.url;
	const seed = (await control('POST', '/seed')) as { users: { owner: { id: string } }; credentials: { ownerPat: string; apiKey: string } };
	const availabilities = await fetch(`${sandboxUrl}/availability`, { headers: { authorization: `Bearer ${seed.credentials.ownerPat}` } });
	const [availability] = (await availabilities.json()) as Array<{ id: string }>;
	Object.assign(seeded, { userId: seed.users.owner.id, availabilityId: availability.id, pat: seed.credentials.ownerPat, apiKey: seed.credentials.apiKey });

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
