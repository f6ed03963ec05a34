import { execFileSync, spawn, spawnSync } from 'child_process';
import type { ChildProcess } from 'child_process';
import { chmodSync, chownSync, closeSync, cpSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync } from 'fs';
import { createServer, request } from 'http';
import type { IncomingMessage } from 'http';
import { createRequire } from 'module';
import { connect } from 'net';
import type { Socket } from 'net';
import { join } from 'path';
import { setTimeout as sleep } from 'timers/promises';

import { REPO_DIR } from './packageDir';
import { freePort, installPackage, n8nEnvironment, packPackage } from './realN8n';
import type { RealN8n } from './realN8n';

/**
 * n8n 2.x in queue mode on loopback, for `npm run start:queue`, the queue-mode smoke tests and the benchmark: a
 * PostgreSQL cluster and a Redis server in a folder of their own, the main instance with the editor, `n8n worker`
 * processes and `n8n webhook` processors (one by default), each n8n process with this package installed in its own user
 * folder, and in front of them the router n8n's docs ask for (`/webhook/*` to the webhook processors in turn, everything
 * else, the test webhooks included, to main). What it needs beside n8n it installs itself (scripts/install-queue-services.sh).
 * The settings follow n8n's queue-mode docs; `queueSettings` lists them, and docs/queue-mode.md says why.
 */

/** What one n8n process of each kind holds in memory here (measured, resident, runner child included), for the budget check. */
const MEMORY_MIB = { main: 730, worker: 640, webhook: 520, services: 40 };
const READY_TIMEOUT_MS = 4 * 60_000;
/** How long a process may take to stop on SIGTERM (n8n's graceful shutdown defaults to 30 s) before it is killed. */
const STOP_GRACE_MS = 35_000;
const DATABASE = 'n8n';

export type QueueRole = 'postgres' | 'redis' | 'main' | 'worker' | 'webhook';

export interface QueueProcess {
	name: string;
	role: QueueRole;
	pid: number;
	/** Postgres, Redis, main and webhook: the port it serves; a worker: its health-check port. */
	port: number;
	/** n8n processes: the port of their task-runner broker. */
	brokerPort?: number;
	/** n8n processes: the user folder, with the package in `.n8n/nodes`. */
	userFolder?: string;
	/** Its stdout and stderr. */
	log: string;
	child: ChildProcess;
	exited: Promise<void>;
}

export interface QueueModeOptions {
	/** An n8n 2.x install (realN8n); queue mode is set up the 2.x way. */
	host: RealN8n;
	/** The folder everything lives in: postgres/, redis/, n8n/<process>/ (user folders), logs/. Reused when it exists. */
	folder: string;
	/** `n8n worker` processes; default 2. */
	workers?: number;
	/** `n8n webhook` processors; default 1. Each has its own port (QueueProcess.port); the router sends `/webhook/*` to them in turn. */
	webhooks?: number;
	/** Jobs each worker runs at once (`n8n worker --concurrency`); default n8n's 10. */
	concurrency?: number;
	/** The port of the entry (editor, REST API and webhooks); default a free one. */
	port?: number;
	/** The host name of the entry's URL; default 127.0.0.1 (the router listens there either way). */
	hostname?: string;
	/** More environment for every n8n process (GENERIC_TIMEZONE, N8N_LOG_LEVEL, ...). */
	env?: Record<string, string>;
	/** The packed package to install; default `npm pack` of the build. */
	tarball?: string;
	/** Runs once Postgres and Redis are up, before n8n starts: `n8n import:*` with these settings lands in the shared database. */
	prepare?: (setUp: { userFolder: string; settings: Record<string, string> }) => Promise<void>;
	/** Says what happens, for `npm run start:queue`. */
	progress?: (line: string) => void;
}

export interface QueueMode {
	/** The entry: editor, REST API, test webhooks (main) and production webhooks (webhook processors). */
	url: string;
	/** Every process, in start order: postgres, redis, main, worker-1, ..., webhook-1, ... */
	processes: QueueProcess[];
	/** The processes of one role, in start order. */
	byRole(role: QueueRole): QueueProcess[];
	/** What a process wrote since it started. */
	logOf(name: string): string;
	/** Resident memory in MiB of each process with its children (task runners, PostgreSQL backends). */
	memory(): Record<string, number>;
	/** Sends `signal` (default SIGKILL: a crash) to a process and its children, and waits until they have ended. */
	kill(name: string, signal?: NodeJS.Signals): Promise<void>;
	/** Starts a stopped n8n process again: the same user folder, settings and ports, its log continued; resolves when it is ready. */
	restart(name: string): Promise<QueueProcess>;
	/** A query on n8n's database. */
	sql<Row = Record<string, unknown>>(query: string, values?: unknown[]): Promise<Row[]>;
	/** The settings every n8n process runs with (beside its own port, broker port and user folder). */
	settings: Record<string, string>;
	/** Stops every process it started: n8n first, then Redis and PostgreSQL. */
	stop(): Promise<void>;
}

/** Installs Redis (Debian) and PostgreSQL 17 (npm registry) when missing; the folder of the PostgreSQL binaries. */
export function installQueueServices(showProgress = false): string {
	const output = execFileSync('bash', [join(REPO_DIR, 'scripts/install-queue-services.sh')], {
		encoding: 'utf8',
		timeout: 10 * 60_000,
		stdio: ['ignore', 'pipe', showProgress ? 'inherit' : 'pipe'],
	});
	return output.trim().split('\n').pop() as string;
}

/**
 * The settings of queue mode, the same for every n8n process (n8n's docs: "Configuring workers", "Webhook
 * processors"): one encryption key (n8nEnvironment's), the queue in Redis, the database in Postgres, binary data
 * in the database (n8n 2.x's default in queue mode, set here explicitly: the filesystem mode does not work across
 * processes), health checks on, and the webhook URL at the entry, so that production URLs reach the webhook
 * processors (N8N_WEBHOOK_URL; WEBHOOK_URL before n8n 2.x, deprecated since).
 */
export function queueSettings(ports: { postgres: number; redis: number }, url: string): Record<string, string> {
	return {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(ports.redis),
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(ports.postgres),
		DB_POSTGRESDB_DATABASE: DATABASE,
		DB_POSTGRESDB_USER: 'n8n',
		N8N_DEFAULT_BINARY_DATA_MODE: 'database',
		QUEUE_HEALTH_CHECK_ACTIVE: 'true',
		N8N_WEBHOOK_URL: `${url}/`,
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
		N8N_SECURE_COOKIE: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
	};
}

/** Postgres refuses to run as root: then it runs as `nobody`. Undefined when this process is not root. */
function serverUser(): { uid: number; gid: number } | undefined {
	if (process.getuid?.() !== 0) return undefined;
	const id = (flag: string) => Number(execFileSync('id', [flag, 'nobody'], { encoding: 'utf8' }).trim());
	return { uid: id('-u'), gid: id('-g') };
}

/** Checks the server user can reach `folder`, which the root-only cache and temp folders of mkdtemp may not let it. */
function checkReachable(folder: string, user: { uid: number; gid: number } | undefined): void {
	if (!user || spawnSync('test', ['-x', folder], user).status === 0) return;
	throw new Error(`PostgreSQL refuses to run as root, so it runs as user nobody, who cannot open ${folder}: choose a folder every user can open (QUEUE_DIR).`);
}

/** Starts `command` in a process group of its own, its output going to `log`; `exited` settles when it ends. */
function spawnLogged(command: string, args: string[], log: string, options: { env?: NodeJS.ProcessEnv; uid?: number; gid?: number; input?: boolean; append?: boolean } = {}) {
	const fd = openSync(log, options.append ? 'a' : 'w');
	const child = spawn(command, args, { env: options.env, uid: options.uid, gid: options.gid, detached: true, stdio: ['ignore', fd, fd] });
	closeSync(fd);
	const exited = new Promise<void>((resolve) => {
		child.once('exit', () => resolve());
		child.once('error', () => resolve());
	});
	return { child, exited };
}

function tail(log: string): string {
	return existsSync(log) ? readFileSync(log, 'utf8').slice(-4000) : '';
}

function running(service: QueueProcess): boolean {
	return service.child.exitCode === null && service.child.signalCode === null;
}

/** Waits until `ready()` holds; fails with the end of the log if the process ends first or time runs out. */
async function waitFor(service: QueueProcess, what: string, ready: () => Promise<boolean> | boolean): Promise<void> {
	const deadline = Date.now() + READY_TIMEOUT_MS;
	while (!(await ready())) {
		if (!running(service)) throw new Error(`${service.name} stopped before ${what}:\n${tail(service.log)}`);
		if (Date.now() > deadline) throw new Error(`${service.name}: no ${what} within ${READY_TIMEOUT_MS / 60_000} minutes:\n${tail(service.log)}`);
		await sleep(300);
	}
}

const answers200 = (url: string) => async () => (await fetch(url).catch(() => undefined))?.status === 200;
const logSays = (log: string, text: string) => () => tail(log).includes(text);

function signalGroup(service: QueueProcess, signal: NodeJS.Signals): void {
	try {
		process.kill(-service.pid, signal);
	} catch {
		// The group is gone.
	}
}

/** Sends `signal` to the process group, waits, then kills what is left of the group. */
async function stopProcess(service: QueueProcess, signal: NodeJS.Signals): Promise<void> {
	if (running(service)) {
		signalGroup(service, signal);
		await Promise.race([service.exited, sleep(STOP_GRACE_MS, undefined, { ref: false })]);
	}
	signalGroup(service, 'SIGKILL');
	await service.exited;
}

/** Hard-links (or copies) the PostgreSQL binaries into `target` when the server user cannot open them where they are. */
function postgresBinaries(native: string, target: string, user: { uid: number; gid: number } | undefined): string {
	if (!user || spawnSync('test', ['-x', join(native, 'bin', 'postgres')], user).status === 0) return native;
	if (!existsSync(target)) {
		if (spawnSync('cp', ['-al', native, target]).status !== 0) execFileSync('cp', ['-a', native, target]);
	}
	return target;
}

/** A cluster of its own in <folder>/postgres (made on first use: user n8n, database n8n, trust on loopback). */
async function startPostgres(folder: string, native: string, log: string): Promise<QueueProcess> {
	const user = serverUser();
	const root = join(folder, 'postgres');
	mkdirSync(root, { recursive: true });
	chmodSync(root, 0o755);
	checkReachable(root, user);
	const bin = join(postgresBinaries(native, join(root, 'pg'), user), 'bin');
	const data = join(root, 'data');
	if (!existsSync(join(data, 'PG_VERSION'))) {
		mkdirSync(data, { recursive: true });
		if (user) chownSync(data, user.uid, user.gid);
		execFileSync(join(bin, 'initdb'), ['-D', data, '-U', 'n8n', '--auth=trust', '-E', 'UTF8', '--no-locale'], { ...user, stdio: 'pipe' });
		execFileSync(join(bin, 'postgres'), ['--single', '-D', data, 'postgres'], { ...user, input: `CREATE DATABASE ${DATABASE};\n`, stdio: ['pipe', 'pipe', 'pipe'] });
	}
	const port = await freePort();
	const settings = ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'synchronous_commit=off'];
	const { child, exited } = spawnLogged(join(bin, 'postgres'), ['-D', data, '-p', String(port), ...settings], log, user);
	const server: QueueProcess = { name: 'postgres', role: 'postgres', pid: child.pid as number, port, log, child, exited };
	await waitFor(server, 'accepting connections', logSays(log, 'database system is ready to accept connections'));
	return server;
}

/** Redis on loopback without persistence (the queue lives only as long as this set-up). */
async function startRedis(folder: string, log: string): Promise<QueueProcess> {
	const dir = join(folder, 'redis');
	mkdirSync(dir, { recursive: true });
	const port = await freePort();
	const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no'];
	const { child, exited } = spawnLogged('redis-server', args, log);
	const server: QueueProcess = { name: 'redis', role: 'redis', pid: child.pid as number, port, log, child, exited };
	await waitFor(server, 'accepting connections', logSays(log, 'Ready to accept connections'));
	return server;
}

/**
 * The load balancer of n8n's docs on loopback: `/webhook/*` to the webhook processors (in turn), everything else
 * (editor, REST API, push connection, `/webhook-test/*`) to main. `close` also ends open connections, the editor's
 * push connection among them.
 */
async function startRouter(port: number, mainPort: number, webhookPorts: number[]): Promise<{ close(): Promise<void> }> {
	let turn = 0;
	const target = (url = '') => (url.startsWith('/webhook/') ? webhookPorts[turn++ % webhookPorts.length] : mainPort);
	const tunnels = new Set<Socket>();
	const server = createServer((req, res) => {
		const upstream = request({ host: '127.0.0.1', port: target(req.url), method: req.method, path: req.url, headers: req.headers }, (answer) => {
			res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
			answer.pipe(res);
		});
		upstream.once('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
		req.pipe(upstream);
	});
	server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
		const upstream = connect(target(req.url), '127.0.0.1', () => {
			const headers = req.rawHeaders.reduce((lines, value, index) => lines + (index % 2 ? `${value}\r\n` : `${value}: `), '');
			upstream.write(`${req.method} ${req.url} HTTP/${req.httpVersion}\r\n${headers}\r\n`);
			upstream.write(head);
			socket.pipe(upstream).pipe(socket);
		});
		for (const end of [socket, upstream]) {
			tunnels.add(end);
			end.once('close', () => tunnels.delete(end));
			end.once('error', () => (end === socket ? upstream : socket).destroy());
		}
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', resolve);
	});
	return {
		close: async () => {
			const closed = new Promise((resolve) => server.close(resolve));
			server.closeAllConnections();
			tunnels.forEach((socket) => socket.destroy());
			await closed;
		},
	};
}

/** Resident memory (MiB) of every process in the process group `group`. */
function groupMemory(group: number): number {
	let kib = 0;
	for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
		try {
			const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
			if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) !== group) continue;
			kib += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
		} catch {
			// It ended meanwhile.
		}
	}
	return Math.round(kib / 1024);
}

/** Memory this machine can give now (MiB), from /proc/meminfo. */
function availableMemory(): number {
	return Math.round(Number(/MemAvailable:\s+(\d+)/.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1] ?? 0) / 1024);
}

/** Installs the package into the first user folder the README's by-hand way, and the same nodes folder into the others. */
function installEverywhere(userFolders: string[], tarball = packPackage()): void {
	const [first, ...others] = userFolders;
	installPackage(first, tarball);
	for (const other of others) {
		const nodes = join(other, '.n8n', 'nodes');
		rmSync(nodes, { recursive: true, force: true });
		cpSync(join(first, '.n8n', 'nodes'), nodes, { recursive: true });
	}
}

interface N8nProcessSpec {
	name: string;
	role: 'main' | 'worker' | 'webhook';
	args: string[];
	/** The HTTP port (main, webhook) or health-check port (worker). */
	portVariable: 'N8N_PORT' | 'QUEUE_HEALTH_CHECK_PORT';
	env?: Record<string, string>;
}

/**
 * Main (production webhooks left to the webhook processors, as n8n's docs advise with webhook processors; editor runs
 * sent to the workers, which n8n 3 will always do), the workers and the webhook processors.
 */
function n8nProcesses(workers: number, webhooks: number, concurrency: number | undefined, url: string): N8nProcessSpec[] {
	return [
		{ name: 'main', role: 'main', args: ['start'], portVariable: 'N8N_PORT', env: { N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true', OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true', N8N_EDITOR_BASE_URL: url } },
		...Array.from({ length: workers }, (_, i): N8nProcessSpec => ({
			name: `worker-${i + 1}`,
			role: 'worker',
			args: ['worker', ...(concurrency ? [`--concurrency=${concurrency}`] : [])],
			portVariable: 'QUEUE_HEALTH_CHECK_PORT',
		})),
		...Array.from({ length: webhooks }, (_, i): N8nProcessSpec => ({ name: `webhook-${i + 1}`, role: 'webhook', args: ['webhook'], portVariable: 'N8N_PORT' })),
	];
}

/**
 * Starts one n8n process with its own port and task-runner broker port, and waits until it says it is ready. A restart
 * (`earlier`: the ended process) takes its place, its ports and its log.
 */
async function startN8nProcess(host: RealN8n, spec: N8nProcessSpec, userFolder: string, settings: Record<string, string>, log: string, processes: QueueProcess[], earlier?: QueueProcess): Promise<QueueProcess> {
	const port = earlier?.port ?? (await freePort());
	const brokerPort = earlier?.brokerPort ?? (await freePort());
	const env = n8nEnvironment(userFolder, { ...settings, ...spec.env, [spec.portVariable]: String(port), N8N_RUNNERS_BROKER_PORT: String(brokerPort) });
	const { child, exited } = spawnLogged(host.node, [join(host.dir, 'node_modules/n8n/bin/n8n'), ...spec.args], log, { env, append: Boolean(earlier) });
	const started: QueueProcess = { name: spec.name, role: spec.role, pid: child.pid as number, port, brokerPort, userFolder, log, child, exited };
	if (earlier) processes[processes.indexOf(earlier)] = started;
	else processes.push(started);
	await waitFor(started, 'readiness', answers200(`http://127.0.0.1:${port}/healthz/readiness`));
	return started;
}

/** A query on n8n's database through the `pg` driver of the n8n install (the package itself has no dependencies). */
function sqlClient(host: RealN8n, port: number): QueueMode['sql'] {
	const pg = createRequire(join(host.dir, 'node_modules/n8n/package.json'))('pg') as { Client: new (config: object) => PgClient };
	return async (query, values) => {
		const client = new pg.Client({ host: '127.0.0.1', port, user: 'n8n', database: DATABASE });
		await client.connect();
		try {
			return (await client.query(query, values)).rows as never[];
		} finally {
			await client.end();
		}
	};
}

/** Stops the router, then the n8n processes (they finish their jobs), then Redis and PostgreSQL. */
async function stopAll(processes: QueueProcess[], router: { close(): Promise<void> } | undefined): Promise<void> {
	await router?.close();
	const services = processes.filter((p) => p.role === 'postgres' || p.role === 'redis');
	await Promise.all(processes.filter((p) => !services.includes(p)).map((p) => stopProcess(p, 'SIGTERM')));
	// SIGINT is PostgreSQL's fast shutdown.
	await Promise.all(services.map((p) => stopProcess(p, p.role === 'postgres' ? 'SIGINT' : 'SIGTERM')));
}

export async function startQueueMode(options: QueueModeOptions): Promise<QueueMode> {
	const { host, folder, workers = 2, webhooks = 1, progress = () => undefined } = options;
	if (!host.version.startsWith('2.')) throw new Error(`Queue mode is set up for n8n 2.x, not ${host.version}`);
	const budget = MEMORY_MIB.main + workers * MEMORY_MIB.worker + webhooks * MEMORY_MIB.webhook + MEMORY_MIB.services;
	if (availableMemory() < budget) progress(`Warning: about ${budget} MiB are needed and ${availableMemory()} MiB are available.`);
	// An install's progress goes to the terminal of the start scripts (they pass `progress`), not into the tests' output.
	const native = installQueueServices(options.progress !== undefined);
	const logs = join(folder, 'logs');
	mkdirSync(logs, { recursive: true });
	chmodSync(folder, 0o755);

	const processes: QueueProcess[] = [];
	// Should this process end without stopping them (an error, Ctrl+C while starting), they end with it.
	const killAll = () => processes.forEach((p) => signalGroup(p, 'SIGKILL'));
	process.once('exit', killAll);
	let router: { close(): Promise<void> } | undefined;
	const stop = async () => {
		await stopAll(processes, router);
		process.removeListener('exit', killAll);
	};
	try {
		progress('Starting PostgreSQL and Redis...');
		const [postgres, redis] = await Promise.all([startPostgres(folder, native, join(logs, 'postgres.log')), startRedis(folder, join(logs, 'redis.log'))]);
		processes.push(postgres, redis);
		const port = options.port ?? (await freePort());
		const url = `http://${options.hostname ?? '127.0.0.1'}:${port}`;
		const settings = { ...queueSettings({ postgres: postgres.port, redis: redis.port }, url), ...options.env };
		const specs = n8nProcesses(workers, webhooks, options.concurrency, url);
		const userFolder = (spec: N8nProcessSpec) => join(folder, 'n8n', spec.name);
		progress(`Installing the package into the user folder of each n8n process (${specs.map((spec) => spec.name).join(', ')})...`);
		installEverywhere(specs.map(userFolder), options.tarball);
		await options.prepare?.({ userFolder: userFolder(specs[0]), settings });

		const startOne = (spec: N8nProcessSpec) => startN8nProcess(host, spec, userFolder(spec), settings, join(logs, `${spec.name}.log`), processes);
		progress('Starting the n8n main instance (the first start creates the database tables)...');
		const main = await startOne(specs[0]);
		progress(`Starting ${workers} workers and ${webhooks === 1 ? 'the webhook processor' : `${webhooks} webhook processors`}...`);
		const others = await Promise.all(specs.slice(1).map(startOne));
		router = await startRouter(port, main.port, others.filter((p) => p.role === 'webhook').map((p) => p.port));
		const named = (name: string) => processes.find((p) => p.name === name) as QueueProcess;
		const restart = async (name: string) => {
			const [spec, earlier] = [specs.find((candidate) => candidate.name === name), named(name)];
			if (!spec || running(earlier)) throw new Error(`${name} is no stopped n8n process`);
			return await startN8nProcess(host, spec, userFolder(spec), settings, earlier.log, processes, earlier);
		};
		return {
			url,
			processes,
			byRole: (role) => processes.filter((p) => p.role === role),
			logOf: (name) => readFileSync(named(name).log, 'utf8'),
			memory: () => Object.fromEntries(processes.map((p) => [p.name, running(p) ? groupMemory(p.pid) : 0])),
			kill: (name, signal = 'SIGKILL') => stopProcess(named(name), signal),
			restart,
			sql: sqlClient(host, postgres.port),
			settings,
			stop,
		};
	} catch (error) {
		await stop();
		throw error;
	}
}

interface PgClient {
	connect(): Promise<void>;
	query(query: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
	end(): Promise<void>;
}
