import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'fs';
import type { IDataObject } from 'n8n-workflow';
import { tmpdir } from 'os';
import { join } from 'path';
import { setTimeout as sleep } from 'timers/promises';

import { sandboxCall } from '../sandbox/client';
import { bench, control, formatMs, minimumMs, patCredential, prepare, requestLog } from './benchParts';
import type { Limit, LoggedRequest, Row } from './benchParts';
import { startQueueMode } from './queueMode';
import type { QueueMode } from './queueMode';
import { logEnds, outputOf, publishWorkflow, runDataOf } from './queueWorkflows';
import { N8N_V1, N8N_V2, WEBHOOK_TRIGGER_NODE_TYPE, freePort, importAll, n8n, newUserFolder, ownerSession, realN8n, startN8n } from './realN8n';
import type { CliResult, CliRun, RealN8n, RestClient } from './realN8n';

/**
 * W1 of `npm run bench` (docs/performance.md): a burst of booking deliveries to the Webhook Trigger at the API's
 * limit, in the real n8n, with Verify Through the API on and off side by side: two published workflows (a trigger
 * alone, Booking Created), each in a company of its own (a tenant with its own PAT, credential and appointments), so
 * that each burst reaches one workflow. The same n8n takes the burst of the workflow without verification first (n8n's
 * own floor: nothing is read), then the same burst to the one with it, which answers before its read and reads at the
 * credential's limit (100 a minute, burst 200, in the sandbox and the credential). Per variant: the time from the
 * delivery to its answer (the sandbox's log: the POST to the receiver's status line) and to the start of its execution
 * (the Trigger's start in the execution's run data), as median, p95 and worst; deliveries not answered 200 within the
 * service's 30 s; lost events (a delivery without an execution) and duplicated ones (more than one). Both in regular
 * mode (the bench's n8n, `n8n start`) and in queue mode (n8n 2.41 set up by scripts/queueMode.ts: PostgreSQL, Redis,
 * main, two workers and the webhook processor that receives the deliveries behind the loopback router).
 */

export type WebhookMode = 'regular' | 'queue';

export interface WebhookBenchOptions {
	/** Booking deliveries in the burst to each workflow. */
	deliveries: number;
	/** The burst's deliveries go out evenly over this time. */
	windowMs: number;
	limit: Limit;
	modes: WebhookMode[];
	/** The n8n of regular mode (the bench's). */
	regularHost: RealN8n;
}

/** The service gives a receiver this long to answer (api-reference §9). */
const ANSWER_LIMIT_MS = 30_000;
const LOGIN = { email: 'bench@example.com', password: 'Bench-Password-1', firstName: 'Bench', lastName: 'Owner' };
const ENDED = ['success', 'error', 'crashed', 'canceled'];

/** In the order of their bursts: n8n's floor first. */
const VARIANTS = [
	{ key: 'off', verify: false, label: 'Verify Through the API off', workflowId: 'benchHookPlain01', webhookId: '7d1c5b9e-0a4f-4c2b-9e61-5a3f2b1c0d02' },
	{ key: 'on', verify: true, label: 'Verify Through the API on', workflowId: 'benchHookVerify1', webhookId: '7d1c5b9e-0a4f-4c2b-9e61-5a3f2b1c0d01' },
] as const;
type Variant = (typeof VARIANTS)[number];
type VariantKey = Variant['key'];

/** The company a variant's workflow subscribes for: its owner's PAT and the appointments its burst delivers. */
interface Tenant {
	token: string;
	appointmentIds: string[];
}
type Tenants = Record<VariantKey, Tenant>;

/** A running n8n with both workflows published: its REST API, the workflows' IDs and webhook URLs, how to stop it. */
interface Instance {
	label: string;
	host: RealN8n;
	rest: RestClient;
	workflowIds: Record<VariantKey, string>;
	endpoint(variant: Variant): string;
	/** The end of n8n's output, for an error message. */
	output(): string;
	/** All the log of the n8n processes that receive the deliveries (the node's log lines land there). */
	receiverLog(): string;
	/** CPU seconds each process (with what it started) has used so far. */
	cpu(): Record<string, number>;
	stop(): Promise<void>;
}

interface SandboxDelivery {
	endpoint: string;
	body: IDataObject;
	status: number | null;
	error: string | null;
	postedAtMs: number | null;
	answeredInMs: number | null;
}

/** The workflow of a variant: the trigger alone (its execution starts with the item and ends). */
function hookWorkflow(variant: Variant, credential: { id: string; name: string }): IDataObject {
	const trigger = {
		id: `${variant.workflowId}-t`,
		name: 'Trigger',
		type: WEBHOOK_TRIGGER_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		webhookId: variant.webhookId,
		parameters: { events: ['booking_created'], options: { verifyThroughApi: variant.verify } },
		credentials: { schedulingPlatformPatApi: credential },
	};
	return { name: `Bench W1: ${variant.label}`, settings: {}, nodes: [trigger], connections: {} };
}

// ---- the API side ----

const api = async (token: string, method: string, path: string) => await sandboxCall(bench.sandboxUrl, method, path, { token });

/**
 * A company for each variant (its owner, a PAT, `count` appointments made through the control API, every 30 minutes
 * from tomorrow on), before any subscription exists, so that no delivery goes out yet.
 */
async function seedTenants(count: number): Promise<Tenants> {
	const tenant = async (variant: Variant): Promise<Tenant> => {
		const company = (await control('POST', '/companies', { name: `Bench W1 ${variant.key}` })) as { id: string };
		const email = `w1-${variant.key}-${Date.now()}@bench.example`;
		const user = (await control('POST', '/users', { companyId: company.id, email, givenName: 'Bench', familyName: `W1 ${variant.key}` })) as { id: string };
		const { token } = (await control('POST', '/pats', { userId: user.id })) as { token: string };
		const [meetingType] = (await api(token, 'GET', '/v4/meeting-type')) as IDataObject[];
		const tomorrow = Math.ceil(Date.now() / 86_400_000) * 86_400_000;
		const starts = Array.from({ length: count }, (_, n) => new Date(tomorrow + n * 30 * 60_000).toISOString());
		const { ids } = (await control('POST', '/appointments', { meetingTypeId: meetingType.id, starts, email: 'burst@example.com' })) as { ids: string[] };
		return { token, appointmentIds: ids };
	};
	const [off, on] = [await tenant(VARIANTS[0]), await tenant(VARIANTS[1])];
	return { off, on };
}

async function subscriptions(tenant: Tenant): Promise<Array<{ id: number; endpoint: string }>> {
	return (await api(tenant.token, 'GET', '/webhooks')) as Array<{ id: number; endpoint: string }>;
}

/** No subscription left in the tenants' companies (n8n keeps its own when it stops). */
async function unsubscribeAll(tenants: Tenants): Promise<void> {
	for (const tenant of Object.values(tenants)) for (const subscription of await subscriptions(tenant)) await api(tenant.token, 'DELETE', `/webhooks/${subscription.id}`);
}

/** Waits until `ready` holds, asking every `everyMs` (n8n is busy enough). */
async function until(what: string, ready: () => Promise<boolean>, timeoutMs: number, details: () => string = () => '', everyMs = 1000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await ready())) {
		if (Date.now() > deadline) throw new Error(`bench W1: timed out waiting for ${what}\n${details()}`);
		await sleep(everyMs);
	}
}

// ---- n8n ----

/** CPU seconds (user and system) of the processes `which` picks by process ID and process group, from /proc. */
function cpuSeconds(which: (pid: number, group: number) => boolean): number {
	let ticks = 0;
	for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			if (which(Number(entry), Number(fields[2]))) ticks += Number(fields[11]) + Number(fields[12]);
		} catch {
			// It ended meanwhile.
		}
	}
	return ticks / 100;
}

/** This process's CPU seconds: the sandbox, its deliveries and, in queue mode, the router. */
const benchCpu = () => {
	const { user, system } = process.cpuUsage();
	return (user + system) / 1e6;
};

/** The bench's n8n alone (`n8n start`, SQLite), the workflows imported and activated (published) before it starts. */
async function startRegular(host: RealN8n, limit: Limit, tenants: Tenants): Promise<Instance> {
	const folder = newUserFolder('n8n-bench-hook-');
	const credentialOf = (variant: Variant) => ({ id: `benchHookPat${variant.key.padEnd(4, '0')}`, name: `PAT at the limit (webhook, ${variant.key})` });
	const workflows = VARIANTS.map((variant) => ({ id: variant.workflowId, active: false, ...hookWorkflow(variant, credentialOf(variant)) }));
	const credentials = VARIANTS.map((variant) => patCredential(credentialOf(variant), limit, tenants[variant.key].token));
	await importAll(host, folder, credentials, workflows);
	for (const { workflowId } of VARIANTS) {
		await n8n(host, folder, ...(host.version === N8N_V1 ? ['update:workflow', `--id=${workflowId}`, '--active=true'] : ['publish:workflow', `--id=${workflowId}`]));
	}
	const url = `http://127.0.0.1:${await freePort()}`;
	const env = { N8N_PORT: url.split(':')[2], N8N_LISTEN_ADDRESS: '127.0.0.1', WEBHOOK_URL: `${url}/`, N8N_SECURE_COOKIE: 'false', N8N_PERSONALIZATION_ENABLED: 'false' };
	const server: CliRun = await startN8n(host, folder, ['start'], 0, env);
	const output: Buffer[] = [];
	server.child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
	server.child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
	let exited: CliResult | undefined;
	void server.done.then((result) => (exited = result));
	const rest = await ownerSession(url, LOGIN, () => exited);
	return {
		label: `regular mode (n8n ${host.version})`,
		host,
		rest,
		workflowIds: { off: VARIANTS[0].workflowId, on: VARIANTS[1].workflowId },
		endpoint: (variant) => `${url}/webhook/${variant.webhookId}/webhook`,
		output: () => Buffer.concat(output).toString('utf8').slice(-4000),
		receiverLog: () => Buffer.concat(output).toString('utf8'),
		cpu: () => ({ n8n: cpuSeconds((pid) => pid === server.child.pid), bench: benchCpu() }),
		stop: async () => {
			if (server.child.exitCode === null) server.child.kill('SIGTERM');
			await server.done;
			rmSync(folder, { recursive: true, force: true });
		},
	};
}

/** n8n 2.41 in queue mode (scripts/queueMode.ts, two workers): the credential and workflows made through main's REST API. */
async function startQueue(limit: Limit, tenants: Tenants): Promise<Instance> {
	const host = realN8n(N8N_V2, true);
	const folder = mkdtempSync(join(tmpdir(), 'n8n-bench-hook-queue-'));
	const progress = (line: string) => process.stderr.write(`${line}\n`);
	let queue: QueueMode | undefined;
	try {
		queue = await startQueueMode({ host, folder, workers: 2, progress });
		const rest = await ownerSession(queue.url, LOGIN);
		const ids = [];
		for (const variant of VARIANTS) {
			const name = `PAT at the limit (webhook, ${variant.key})`;
			const created = await rest('POST', '/rest/credentials', patCredential({ name }, limit, tenants[variant.key].token));
			if (created.status !== 200) throw new Error(`Creating the credential: HTTP ${created.status} ${JSON.stringify(created.body)}`);
			ids.push(await publishWorkflow(rest, hookWorkflow(variant, { id: String((created.body.data as IDataObject).id), name })));
		}
		const running = queue;
		return {
			label: `queue mode (n8n ${host.version}, webhook processor, 2 workers)`,
			host,
			rest,
			workflowIds: { off: ids[0], on: ids[1] },
			endpoint: (variant) => `${running.url}/webhook/${variant.webhookId}/webhook`,
			output: () => logEnds(running),
			receiverLog: () => running.byRole('webhook').map((p) => running.logOf(p.name)).join('\n'),
			cpu: () => ({
				...Object.fromEntries(running.processes.map((p) => [p.name, cpuSeconds((_, group) => group === p.pid)])),
				bench: benchCpu(),
			}),
			stop: async () => {
				await running.stop();
				rmSync(folder, { recursive: true, force: true });
			},
		};
	} catch (error) {
		await queue?.stop();
		rmSync(folder, { recursive: true, force: true });
		throw error;
	}
}

/**
 * Every execution of a workflow, each once (n8n's list has pages of at most 100: 1.x by lastId, 2.x by its cursor, whose
 * first page also holds the running ones).
 */
async function allExecutions(rest: RestClient, workflowId: string, since: number): Promise<IDataObject[]> {
	const page = async (filter: IDataObject) => {
		const answer = await rest('GET', `/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId, ...filter }))}&limit=100`);
		if (answer.status !== 200) throw new Error(`Executions of ${workflowId}: HTTP ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
		return answer.body.data as { results: IDataObject[]; count: number };
	};
	const byId = new Map<string, IDataObject>();
	// Neither n8n line pages this list by something a page can continue from in both (1.x by "below the last id",
	// which skips executions while the list is ordered by start; 2.x only by cursor): read it by windows of start time
	// (both ends included), each split in two while it is a full page.
	const read = async (from: number, to: number): Promise<void> => {
		const { results } = await page({ startedAfter: new Date(from).toISOString(), startedBefore: new Date(to).toISOString() });
		if (results.length >= 100 && to - from > 1) {
			const middle = Math.floor((from + to) / 2);
			await read(from, middle);
			await read(middle, to);
			return;
		}
		for (const execution of results) byId.set(String(execution.id), execution);
	};
	await read(since - 60_000, Date.now() + 60_000);
	return [...byId.values()];
}

/** How many executions of a workflow have ended (one short page: n8n counts them), cheap enough to ask every few seconds. */
async function endedCount(rest: RestClient, workflowId: string): Promise<number> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId, status: ENDED }));
	const answer = await rest('GET', `/rest/executions?filter=${filter}&limit=1`);
	if (answer.status !== 200) throw new Error(`Executions of ${workflowId}: HTTP ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
	return Number((answer.body.data as { count?: number }).count ?? 0);
}

/** For each appointment, the moments its executions started (the Trigger's start in the run data). */
async function executionStarts(instance: Instance, workflowId: string, since: number): Promise<{ starts: Map<string, number[]>; statuses: Record<string, number> }> {
	const executions = await allExecutions(instance.rest, workflowId, since);
	const statuses = tally(executions.map((execution) => String(execution.status)));
	const starts = new Map<string, number[]>();
	const queue = [...executions];
	const worker = async () => {
		for (let execution = queue.shift(); execution; execution = queue.shift()) {
			const { runData } = await runDataOf(instance.rest, instance.host, String(execution.id));
			const startTime = runData.Trigger?.[0]?.startTime ?? NaN;
			for (const item of outputOf(runData, 'Trigger')) {
				const id = String(item.json.id);
				starts.set(id, [...(starts.get(id) ?? []), startTime]);
			}
		}
	};
	await Promise.all(Array.from({ length: 8 }, worker));
	return { starts, statuses };
}

/** How often each text occurs. */
function tally(texts: string[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const text of texts) counts[text] = (counts[text] ?? 0) + 1;
	return counts;
}

const tallied = (counts: Record<string, number>) =>
	Object.entries(counts)
		.map(([text, count]) => `${text} ×${count}`)
		.join(', ');

// ---- one burst ----

const percentile = (sorted: number[], share: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))];

interface Figures {
	median: number;
	p95: number;
	worst: number;
}

function figures(values: number[]): Figures | undefined {
	const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
	return sorted.length ? { median: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), worst: sorted[sorted.length - 1] } : undefined;
}

/** Under a second in whole milliseconds, else as the table's other times. */
const time = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : formatMs(ms));
const shown = (name: string, values?: Figures) => (values ? `${name} median ${time(values.median)}, p95 ${time(values.p95)}, worst ${time(values.worst)}` : `${name}: none`);

interface VariantResult {
	variant: Variant;
	/** CPU seconds each process used during the burst (from its first delivery until its executions were counted). */
	cpu: Record<string, number>;
	/** The node's log lines of note during the burst, by kind. */
	logLines: Record<string, number>;
	/** Why deliveries got no 200 in time, and the executions' statuses other than success. */
	failures: Record<string, number>;
	statuses: Record<string, number>;
	answers?: Figures;
	starts?: Figures;
	unanswered: number;
	lost: number;
	duplicated: number;
	firstPost: number;
	lastStart: number;
}

function resultOf(variant: Variant, ids: string[], deliveries: SandboxDelivery[], { starts, statuses }: { starts: Map<string, number[]>; statuses: Record<string, number> }): VariantResult {
	const postedAt = new Map(deliveries.map((delivery) => [String(delivery.body.id), delivery.postedAtMs ?? NaN]));
	const answered = (delivery: SandboxDelivery) => delivery.status === 200 && delivery.answeredInMs !== null && delivery.answeredInMs <= ANSWER_LIMIT_MS;
	const firstStarts = ids.map((id) => Math.min(...(starts.get(id) ?? [Infinity])));
	const failed = deliveries.filter((delivery) => !answered(delivery));
	const reasons = failed.map((delivery) => delivery.error ?? (delivery.status === 200 ? 'answered after 30 s' : `HTTP ${String(delivery.status)}`));
	const missing = ids.length - deliveries.length;
	const otherStatuses = Object.fromEntries(Object.entries(statuses).filter(([status]) => status !== 'success'));
	return {
		variant,
		cpu: {},
		logLines: {},
		failures: missing ? { ...tally(reasons), 'not sent': missing } : tally(reasons),
		statuses: otherStatuses,
		answers: figures(deliveries.map((delivery) => delivery.answeredInMs ?? NaN)),
		starts: figures(ids.map((id, n) => firstStarts[n] - (postedAt.get(id) ?? NaN))),
		unanswered: ids.length - deliveries.filter(answered).length,
		lost: ids.filter((id) => !starts.get(id)?.length).length,
		duplicated: ids.reduce((sum, id) => sum + Math.max(0, (starts.get(id)?.length ?? 0) - 1), 0),
		firstPost: Math.min(...deliveries.map((delivery) => delivery.postedAtMs ?? Infinity)),
		lastStart: Math.max(...firstStarts.filter(Number.isFinite)),
	};
}

/** The node's log lines a burst reports, by the words they contain. */
const NOTED: Array<[string, string]> = [
	['not verified', 'could not be verified through the API'],
	['dropped', 'was dropped:'],
	['claim not reached', 'could not reach its own process'],
	['claim overwritten', "claim was overwritten"],
];

/** One variant's burst: its deliveries, evenly over the window, and its measures once its executions are through. */
async function burst(instance: Instance, variant: Variant, tenant: Tenant, options: WebhookBenchOptions): Promise<{ result: VariantResult; reads: LoggedRequest[] }> {
	const ids = tenant.appointmentIds;
	const endpoint = instance.endpoint(variant);
	let seen: unknown;
	const subscribed = async () => {
		seen = await subscriptions(tenant);
		return (seen as Array<{ endpoint: string }>).some((subscription) => subscription.endpoint === endpoint);
	};
	await until(`the subscription of ${variant.label}`, subscribed, 120_000, () => `${JSON.stringify(seen)}\n${instance.output()}`);
	await prepare(options.limit);
	await control('DELETE', '/webhooks/deliveries');
	process.stderr.write(`bench: W1 ${instance.label}, ${variant.label}: ${ids.length} deliveries over ${formatMs(options.windowMs)}...\n`);

	const cpuBefore = instance.cpu();
	const logBefore = instance.receiverLog().length;
	const begin = Date.now();
	for (const [n, id] of ids.entries()) {
		const due = begin + (n * options.windowMs) / ids.length;
		if (due > Date.now()) await sleep(due - Date.now());
		await control('POST', '/webhooks/emit', { webhookType: 'booking_created', appointmentId: id });
	}
	const log = async () => (await control('GET', '/webhooks/deliveries')) as SandboxDelivery[];
	await until('every delivery to be answered or to fail', async () => (await log()).length >= ids.length, ANSWER_LIMIT_MS + 60_000, undefined, 2000);
	const deadline = options.windowMs + 1.5 * minimumMs(ids.length, options.limit) + 3 * 60_000;
	const workflowId = instance.workflowIds[variant.key];
	try {
		await until('the executions', async () => (await endedCount(instance.rest, workflowId)) >= ids.length, deadline, undefined, 5000);
		// Duplicates would come within these seconds.
		await sleep(5000);
	} catch {
		process.stderr.write('bench: W1: not every event started an execution in time; counting what did\n');
	}
	const cpuAfter = instance.cpu();
	const cpu = Object.fromEntries(Object.entries(cpuAfter).map(([name, seconds]) => [name, seconds - (cpuBefore[name] ?? 0)]));
	const logText = instance.receiverLog().slice(logBefore);
	const logLines = Object.fromEntries(NOTED.map(([kind, text]) => [kind, logText.split(text).length - 1]).filter(([, count]) => count));
	const reads = (await requestLog()).filter((request) => request.method === 'GET' && request.path.startsWith('/v4/appointment/'));
	const mine = (await log()).filter((delivery) => delivery.endpoint === endpoint);
	return { result: { ...resultOf(variant, ids, mine, await executionStarts(instance, workflowId, begin)), cpu, logLines }, reads };
}

/** The rows of a mode: both variants' bursts, one after the other, in the same n8n. */
async function bursts(instance: Instance, tenants: Tenants, options: WebhookBenchOptions): Promise<Row[]> {
	const readsMs = minimumMs(options.deliveries, options.limit);
	const measured: Array<{ result: VariantResult; reads: LoggedRequest[] }> = [];
	for (const variant of VARIANTS) measured.push(await burst(instance, variant, tenants[variant.key], options));
	const [off, on] = measured.map((one) => one.result);
	const matches = (a?: Figures, b?: Figures) => a !== undefined && b !== undefined && a.median <= 1.5 * b.median + 50 && a.p95 <= 1.5 * b.p95 + 50;
	return measured.map(({ result, reads }) => {
		const isOn = result.variant.key === 'on';
		const text = [
			shown('answer', result.answers),
			shown('execution start', result.starts),
			`${result.unanswered} not answered 200 within 30 s${result.unanswered ? ` (${tallied(result.failures)})` : ''}, ${result.lost} lost, ${result.duplicated} duplicated`,
			...(Object.keys(result.statuses).length ? [`executions not successful: ${tallied(result.statuses)}`] : []),
			...(Object.keys(result.logLines).length ? [`node log: ${tallied(result.logLines)}`] : []),
			`CPU s during the burst: ${Object.entries(result.cpu).map(([name, seconds]) => `${name} ${seconds.toFixed(0)}`).join(', ')}`,
			...(isOn ? [`last start ${formatMs(result.lastStart - result.firstPost)} after the first delivery = ${((result.lastStart - result.firstPost) / (readsMs || 1)).toFixed(2)} × the reads' minimum (${formatMs(readsMs)})`] : []),
		].join('; ');
		const pass = isOn ? matches(on.answers, off.answers) && on.unanswered === 0 && on.lost === 0 && on.duplicated === 0 && on.lastStart - on.firstPost <= 1.1 * readsMs + 30_000 : undefined;
		return {
			case: 'W1',
			variant: `Webhook Trigger, ${result.variant.label}, ${instance.label}`,
			items: options.deliveries,
			requests: reads.length,
			share429: reads.length ? reads.filter((request) => request.status === 429).length / reads.length : undefined,
			failed: result.lost,
			wallMs: Number.isFinite(result.lastStart) ? result.lastStart - result.firstPost : undefined,
			measured: text,
			target: isOn ? "answer median and p95 ≤ 1.5 × Verify off's + 50 ms; 0 not answered, lost or duplicated; last start ≤ 1.1 × the reads' minimum + 30 s" : undefined,
			pass,
		};
	});
}

/** W1 in each mode: the tenants and their appointments once, then per mode an n8n with both workflows, the bursts, the rows. */
export async function benchWebhook(options: WebhookBenchOptions): Promise<Row[]> {
	const tenants = await seedTenants(options.deliveries);
	const rows: Row[] = [];
	for (const mode of options.modes) {
		await unsubscribeAll(tenants);
		const instance = mode === 'regular' ? await startRegular(options.regularHost, options.limit, tenants) : await startQueue(options.limit, tenants);
		try {
			rows.push(...(await bursts(instance, tenants, options)));
		} finally {
			await instance.stop();
			await unsubscribeAll(tenants);
		}
	}
	return rows;
}
