import { cpus, release, totalmem, type } from 'os';

import { sandboxCall } from '../sandbox/client';
import { startSandbox } from '../sandbox/server';
import type { Sandbox } from '../sandbox/server';
import { NODE_TYPE } from './realN8n';

/**
 * What `npm run bench` (scripts/bench.ts) and `npm run bench:queue` (scripts/benchQueue.ts) share: the sandbox as
 * the benchmarks drive it (its limit, its request log, the seed's owner and availability), the write both measure
 * (Availability Exception Create, through this package or n8n's HTTP Request node with the same token), the runs of
 * the node under test, and the table of rows with their targets.
 */

export interface Limit {
	perMinute: number;
	burst: number;
}

export interface LoggedRequest {
	method: string;
	path: string;
	status: number | null;
	/** When the sandbox received it (ms since the epoch). */
	receivedAt: number;
}

/** One run of the node under test (or several at once, combined), read from the execution's run data. */
export interface TargetRun {
	/** Items in the node's first output; 0 when the node failed. */
	items: number;
	startTime: number;
	executionTime: number;
	error?: string;
}

export interface Row {
	case: string;
	variant: string;
	items?: number;
	requests?: number;
	share429?: number;
	/** The share of 429 answers among the requests after the start of the run (see writeRow). */
	share429Later?: number;
	failed?: number;
	applied?: number;
	wallMs?: number;
	measured: string;
	target?: string;
	pass?: boolean;
}

export interface WriteTarget {
	text: string;
	maxTimes: number;
	max429Share?: number;
	/** At most this share of 429 answers after the start (see writeRow). */
	max429ShareLater?: number;
}

export const HTTP_NODE = { type: 'n8n-nodes-base.httpRequest', typeVersion: 4.3 };
export const RETRY = { retryOnFail: true, maxTries: 5, waitBetweenTries: 5000 };
const EXCEPTION = { available: false, start: '2026-05-01T00:00:00Z', end: '2026-05-02T00:00:00Z' };

/** The sandbox the benchmark runs against, and what its seed made that the writes use. */
export const bench = { sandboxUrl: '', userId: '', availabilityId: '', pat: '', apiKey: '' };

export async function control(method: string, path: string, body?: object): Promise<unknown> {
	return await sandboxCall(bench.sandboxUrl, method, `/__sandbox${path}`, { body });
}

/** A clean request log and a full sandbox bucket with this limit. */
export async function prepare(limit: Limit): Promise<void> {
	await control('DELETE', '/requests');
	await control('DELETE', '/faults');
	await control('POST', '/rate-limit', limit);
}

export const requestLog = async () => (await control('GET', '/requests')) as LoggedRequest[];

/** Starts and seeds the sandbox; `bench` then holds its URL, the owner's PAT and ID, their availability, the API key. */
export async function startBenchSandbox(): Promise<Sandbox> {
	const sandbox = await startSandbox();
	bench.sandboxUrl = sandbox.url;
	const seed = (await control('POST', '/seed')) as { users: { owner: { id: string } }; credentials: { ownerPat: string; apiKey: string } };
	const availabilities = await fetch(`${sandbox.url}/availability`, { headers: { authorization: `Bearer ${seed.credentials.ownerPat}` } });
	const [availability] = (await availabilities.json()) as Array<{ id: string }>;
	Object.assign(bench, { userId: seed.users.owner.id, availabilityId: availability.id, pat: seed.credentials.ownerPat, apiKey: seed.credentials.apiKey });
	return sandbox;
}

/** A PAT credential of the seed's owner with this Requests per Minute and Burst, as `n8n import:credentials` and the REST API take it. */
export function patCredential(ref: { id?: string; name: string }, limit: Limit, token = bench.pat): object {
	return { ...ref, type: 'schedulingPlatformPatApi', data: { baseUrl: bench.sandboxUrl, token, requestsPerMinute: limit.perMinute, burst: limit.burst } };
}

/** A Header Auth credential with the owner's PAT, for the HTTP Request node. */
export function headerCredential(ref: { id?: string; name: string }, token = bench.pat): object {
	return { ...ref, type: 'httpHeaderAuth', data: { name: 'Authorization', value: `Bearer ${token}` } };
}

/** A start node → Make (a Code node making `items` items, each with its number i and the user ID) → Target. */
export function workflow(name: string, items: number, target: object, start: { name: string } & object): object {
	const make = `return Array.from({ length: ${items} }, (_, i) => ({ json: { i, userId: ${JSON.stringify(bench.userId)} } }));`;
	const nodes = [
		{ position: [0, 0], ...start },
		{ id: 'n2', name: 'Make', type: 'n8n-nodes-base.code', typeVersion: 2, position: [200, 0], parameters: { jsCode: make } },
		{ id: 'n3', name: 'Target', position: [400, 0], ...target },
	];
	const link = (to: string) => ({ main: [[{ node: to, type: 'main', index: 0 }]] });
	return { name, settings: {}, nodes, connections: { [start.name]: link('Make'), Make: link('Target') } };
}

export function packageNode(credential: { id: string; name: string }, parameters: object): object {
	return { type: NODE_TYPE, typeVersion: 1, parameters, credentials: { schedulingPlatformPatApi: credential } };
}

export function httpNode(credential: { id: string; name: string }, parameters: object, settings: object = {}): object {
	const auth = { authentication: 'genericCredentialType', genericAuthType: 'httpHeaderAuth' };
	return { ...HTTP_NODE, ...settings, parameters: { ...auth, ...parameters }, credentials: { httpHeaderAuth: credential } };
}

/** Availability Exception Create: repeatable, the same body each time but the title. */
export function packageWrite(credential: { id: string; name: string }): object {
	return packageNode(credential, {
		resource: 'availabilityException',
		operation: 'create',
		availabilityId: { __rl: true, mode: 'id', value: bench.availabilityId },
		type: EXCEPTION.available,
		start: EXCEPTION.start,
		end: EXCEPTION.end,
		additionalFields: { title: '={{ "Bench " + $json.i }}' },
	});
}

/** The same write with n8n's HTTP Request node. */
export function httpWrite(credential: { id: string; name: string }, options: object = {}, settings: object = {}): object {
	const body = JSON.stringify({ availabilityId: bench.availabilityId, ...EXCEPTION });
	return httpNode(
		credential,
		{ method: 'POST', url: `${bench.sandboxUrl}/availability-exception`, sendBody: true, specifyBody: 'json', jsonBody: `={{ JSON.stringify({ ...${body}, title: "Bench " + $json.i }) }}`, options },
		settings,
	);
}

/** HTTP Request's batching: `batchSize` items, then a pause of `batchInterval` ms. */
export function batching(batchSize: number, batchInterval: number) {
	return { batching: { batch: { batchSize, batchInterval } } };
}

// ---- measuring ----

/** The token-bucket minimum of `writes` requests: what the burst does not cover, at the rate. */
export const minimumMs = (writes: number, limit: Limit) => (Math.max(0, writes - limit.burst) / limit.perMinute) * 60_000;
export const ratio = (value: number, of: number) => (of > 0 ? value / of : Infinity);
export const count = (log: LoggedRequest[], status: number) => log.filter((entry) => entry.status === status).length;

/** Runs of the node at once as one: from the first start to the last end, their items added up, their errors joined. */
export function combined(runs: TargetRun[]): TargetRun {
	const startTime = Math.min(...runs.map((run) => run.startTime));
	const end = Math.max(...runs.map((run) => run.startTime + run.executionTime));
	const error = runs.map((run) => run.error).filter(Boolean).join('; ') || undefined;
	return { items: runs.reduce((sum, run) => sum + run.items, 0), startTime, executionTime: end - startTime, error };
}

/** The requests the sandbox received later than `startMs` after the first one. */
function afterStart(log: LoggedRequest[], startMs: number): LoggedRequest[] {
	const first = Math.min(...log.map((entry) => entry.receivedAt));
	return log.filter((entry) => entry.receivedAt >= first + startMs);
}

/**
 * A row of writes: wall time against the token-bucket minimum, failed items, writes applied, 429s, of them those
 * after the first `startMs` (default a minute); checked when a target is given.
 */
export function writeRow(caseName: string, variant: string, items: number, run: TargetRun, log: LoggedRequest[], minimumWallMs: number, target?: WriteTarget, startMs = 60_000): Row {
	const times = ratio(run.executionTime, minimumWallMs);
	const failed = items - run.items;
	const share429 = ratio(count(log, 429), log.length);
	const later = afterStart(log, startMs);
	const share429Later = later.length ? count(later, 429) / later.length : undefined;
	return {
		case: caseName,
		variant,
		items,
		requests: log.length,
		share429,
		share429Later,
		failed,
		applied: count(log, 201),
		wallMs: run.executionTime,
		measured: run.error ? `stopped: ${run.error}` : `${times.toFixed(2)} × minimum (${formatMs(minimumWallMs)})`,
		target: target?.text,
		pass: target && times <= target.maxTimes && failed === 0 && share429 <= (target.max429Share ?? 1) && (share429Later ?? 0) <= (target.max429ShareLater ?? 1),
	};
}

// ---- table ----

export function formatMs(ms: number): string {
	if (ms < 10_000) return `${(ms / 1000).toFixed(2)} s`;
	const seconds = Math.round(ms / 1000);
	return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

const cell = (value: number | undefined, format: (value: number) => string = String) => (value === undefined ? '' : format(value));
const percent = (share: number) => `${(share * 100).toFixed(1)} %`;
const verdict = (pass: boolean | undefined) => (pass === undefined ? '' : pass ? 'PASS' : 'FAIL');

/** A table cell: one line, pipes escaped. */
const escaped = (text: string) => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ');

/** The Markdown table of the rows under `header`, with the column of 429s after the start when it is given a title. */
export function table(rows: Row[], header: string, later?: string): string {
	const line = (row: Row) => {
		const cells = [row.case, row.variant, cell(row.items), cell(row.requests), cell(row.share429, percent)];
		if (later) cells.push(cell(row.share429Later, percent));
		cells.push(cell(row.failed), cell(row.applied), cell(row.wallMs, formatMs), row.measured, row.target ?? '', verdict(row.pass));
		return `| ${cells.map(escaped).join(' | ')} |`;
	};
	const lines = [
		`| Case | Node, variant | Items | Requests | 429s |${later ? ` ${later} |` : ''} Failed items | Writes applied | Wall time | Measured | Target | |`,
		`|---|---|---:|---:|---:|${later ? '---:|' : ''}---:|---:|---:|---|---|---|`,
		...rows.map(line),
	];
	return `${header}\n\n${lines.join('\n')}\n`;
}

/** The machine the benchmark runs on: cores, memory, system, Node. */
export function machine(): string {
	const cpu = cpus();
	return `${cpu.length} × ${cpu[0]?.model.trim() ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GB, ${type()} ${release()}, Node ${process.version}`;
}

/** Header lines, each ending in a Markdown line break. */
export const headerLines = (lines: string[]) => lines.map((line) => `${line}  `).join('\n');
