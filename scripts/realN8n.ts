import { execFileSync, spawn } from 'child_process';
import type { ChildProcess } from 'child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { PACKAGE_DIR, PACKAGE_NAME } from '../test/harness/engine';

/**
 * The real n8n application (1.123 line) with the packed package, for the smoke test and the benchmark:
 * installed once into a cache folder outside the repository (scripts/install-real-n8n.sh, N8N_SMOKE_DIR
 * overrides), the package loaded as a community package from <user folder>/.n8n/nodes/node_modules,
 * and the n8n CLI run without blocking this process, which may also serve the sandbox n8n calls.
 */

export const NODE_TYPE = `${PACKAGE_NAME}.schedulingPlatform`;
export const CRM_NODE_TYPE = `${PACKAGE_NAME}.schedulingPlatformCrm`;

/** Installs n8n if needed (minutes, once) and returns its folder. */
export function realN8nDir(): string {
	const output = execFileSync('bash', [join(PACKAGE_DIR, 'scripts/install-real-n8n.sh')], { encoding: 'utf8', timeout: 15 * 60_000 });
	return output.trim().split('\n').pop() as string;
}

/** A new n8n user folder with the packed package (run `npm run build` first) installed in it. */
export function newUserFolder(prefix: string): string {
	const userFolder = mkdtempSync(join(tmpdir(), prefix));
	const packDir = mkdtempSync(join(tmpdir(), 'sp-pack-'));
	const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', packDir], { cwd: PACKAGE_DIR, encoding: 'utf8' }).trim().split('\n').pop() as string;
	const target = join(userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
	mkdirSync(target, { recursive: true });
	execFileSync('tar', ['xzf', join(packDir, tarball), '-C', target, '--strip-components=1']);
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

/** Starts an n8n CLI command in a user folder; `done` settles when it exits, whatever its exit code. */
export function startN8n(n8nDir: string, userFolder: string, args: string[], timeoutMs = 5 * 60_000): CliRun {
	const child = spawn(process.execPath, [join(n8nDir, 'node_modules/n8n/bin/n8n'), ...args], {
		timeout: timeoutMs,
		env: {
			PATH: process.env.PATH,
			HOME: process.env.HOME,
			N8N_USER_FOLDER: userFolder,
			N8N_ENCRYPTION_KEY: 'smoke-test-key',
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_RUNNERS_ENABLED: 'false',
			N8N_LOG_LEVEL: 'info',
			N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
		},
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

/** Runs an n8n CLI command and returns its output; a non-zero exit throws with the ends of both outputs. */
export async function n8n(n8nDir: string, userFolder: string, ...args: string[]): Promise<string> {
	const { code, stdout, stderr } = await startN8n(n8nDir, userFolder, args).done;
	if (code !== 0) throw new Error(`n8n ${args[0]} failed (exit ${String(code)}):\n${stderr.slice(-3000)}\n${stdout.slice(-3000)}`);
	return stdout;
}

/** Imports credentials and workflows (lists as `n8n import:*` reads them) into a user folder. */
export async function importAll(n8nDir: string, userFolder: string, credentials: object[], workflows: object[]): Promise<void> {
	const files = mkdtempSync(join(tmpdir(), 'n8n-import-'));
	writeFileSync(join(files, 'credentials.json'), JSON.stringify(credentials));
	writeFileSync(join(files, 'workflows.json'), JSON.stringify(workflows));
	await n8n(n8nDir, userFolder, 'import:credentials', `--input=${join(files, 'credentials.json')}`);
	await n8n(n8nDir, userFolder, 'import:workflow', `--input=${join(files, 'workflows.json')}`);
}

/**
 * The execution printed by `n8n execute --rawOutput`: from the first line that is `{` to the last that is `}`.
 * A failed execution is printed the same way, between log lines.
 */
export function parseExecution(stdout: string) {
	const start = stdout.startsWith('{') ? 0 : stdout.indexOf('\n{') + 1;
	return JSON.parse(stdout.slice(start, stdout.lastIndexOf('\n}') + 2));
}
