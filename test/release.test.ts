import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';

import { PACKAGE_DIR, PACKAGE_NAME, REPO_DIR } from '../scripts/packageDir';

/**
 * How the package ships (docs/releasing.md): GitHub Actions publish a version tag to npm with provenance only after
 * the same checks as CI; n8n's own CLI (`n8n-node`) builds, lints (strict, with n8n's default config) and serves the
 * package as it is laid out. `npm run lint` runs the workflow linter (actionlint) on both workflows, `n8n-node lint`
 * and n8n's scanner (scripts/scan-package.mjs).
 */

type Step = { uses?: string; run?: string; with?: Record<string, unknown>; 'working-directory'?: string };
type Job = { uses?: string; needs?: string | string[]; permissions?: Record<string, string>; steps?: Step[] };
type Workflow = { on: Record<string, unknown>; permissions?: Record<string, string>; jobs: Record<string, Job> };

const workflow = (name: string) => parse(readFileSync(join(REPO_DIR, '.github/workflows', name), 'utf8')) as Workflow;
const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { scripts: Record<string, string>; n8n: { strict: boolean }; repository: { url: string; directory: string } };

test('CI runs .ci/run on pushes and pull requests, and can be called by the release workflow', () => {
	const ci = workflow('ci.yml');
	expect(Object.keys(ci.on).sort()).toEqual(['pull_request', 'push', 'workflow_call']);
	expect(ci.permissions).toEqual({ contents: 'read' });
	const runs = Object.values(ci.jobs).flatMap((job) => job.steps ?? []).map((step) => step.run);
	expect(runs).toContain('bash .ci/run');
});

test('a version tag is published with provenance, only after the CI workflow passed', () => {
	const publish = workflow('publish.yml');
	expect(publish.on).toEqual({ push: { tags: ['v*.*.*'] } });
	expect(publish.permissions).toEqual({ contents: 'read' });
	const [checksName, checks] = Object.entries(publish.jobs).find(([, job]) => job.uses !== undefined) as [string, Job];
	expect(checks.uses).toBe('./.github/workflows/ci.yml');
	const job = publish.jobs.publish;
	expect(job.needs).toBe(checksName);
	expect(job.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
	const steps = job.steps ?? [];
	const publishStep = steps.find((step) => step.run?.startsWith('npm publish')) as Step;
	expect(publishStep).toEqual(expect.objectContaining({ run: 'npm publish --provenance --access public', 'working-directory': 'package' }));
	// The tag must name the version, and the package is built and linted by n8n's CLI right before it is published.
	const before = steps.slice(0, steps.indexOf(publishStep)).map((step) => step.run ?? '');
	expect(before.some((run) => run.includes('"v$version"'))).toBe(true);
	expect(before).toEqual(expect.arrayContaining(['npm run build', 'npm run lint --workspace package']));
});

test('the package is n8n-node\'s own layout: strict mode with the default lint config, built and linted by n8n-node', () => {
	const template = readFileSync(join(REPO_DIR, 'node_modules/@n8n/node-cli/dist/template/templates/shared/default/eslint.config.mjs'), 'utf8');
	const normalised = (text: string) => text.replace(/\s+/g, ' ').trim();
	expect(normalised(readFileSync(join(PACKAGE_DIR, 'eslint.config.mjs'), 'utf8'))).toBe(normalised(template));
	expect(manifest.n8n.strict).toBe(true);
	expect(manifest.scripts).toEqual({ build: 'n8n-node build', dev: 'n8n-node dev', lint: 'n8n-node lint' });
	// Provenance ties the package to its folder of this repository (the scanner finds it there by its name).
	expect(manifest.repository).toEqual({ type: 'git', url: 'git+https://github.com/scheduling-platform/n8n-nodes-scheduling-platform.git', directory: 'package' });
	// n8n-node build copies the icons beside the compiled code, where n8n loads them.
	expect(existsSync(join(PACKAGE_DIR, 'dist/icons/schedulingPlatform.svg'))).toBe(true);
});

test('the tarball holds the compiled package, its manifest, README and licence, nothing else', () => {
	const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: PACKAGE_DIR, encoding: 'utf8' })) as Array<{ files: Array<{ path: string }> }>;
	const outside = packed.files.map((file) => file.path).filter((path) => !path.startsWith('dist/'));
	expect(outside.sort()).toEqual(['LICENSE', 'README.md', 'package.json']);
	expect(packed.files.map((file) => file.path)).toContain('dist/nodes/SchedulingPlatform/SchedulingPlatform.node.js');
	// The licence ships in the package folder and stands at the repository's root for GitHub: one text.
	expect(readFileSync(join(PACKAGE_DIR, 'LICENSE'), 'utf8')).toBe(readFileSync(join(REPO_DIR, 'LICENSE'), 'utf8'));
});

/** A copy of the package's sources (its watch build must not rewrite the dist/ other tests are loading), with the workspace's modules. */
function packageCopy(into: string): string {
	const copy = join(into, 'package');
	for (const entry of ['package.json', 'tsconfig.json', 'eslint.config.mjs', 'nodes', 'credentials', 'icons']) cpSync(join(PACKAGE_DIR, entry), join(copy, entry), { recursive: true });
	symlinkSync(join(REPO_DIR, 'node_modules'), join(copy, 'node_modules'));
	return copy;
}

test('n8n-node dev links the package into an n8n user folder and compiles it in watch mode', async () => {
	const work = mkdtempSync(join(tmpdir(), 'n8n-node-dev-'));
	const userFolder = join(work, 'user');
	const copy = packageCopy(work);
	const dev = spawn('npx', ['n8n-node', 'dev', '--external-n8n', '--custom-user-folder', userFolder], { cwd: copy, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
	let output = '';
	try {
		await new Promise<void>((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error(`n8n-node dev did not finish compiling in 90 s:\n${output}`)), 90_000);
			const read = (chunk: Buffer) => {
				output += chunk.toString();
				if (/Found 0 errors\. Watching for file changes/.test(output)) {
					clearTimeout(timer);
					resolve();
				}
				if (/Found [1-9]\d* errors?/.test(output)) {
					clearTimeout(timer);
					reject(new Error(`n8n-node dev found errors:\n${output}`));
				}
			};
			dev.stdout.on('data', read);
			dev.stderr.on('data', read);
		});
		expect(readlinkSync(join(userFolder, '.n8n/custom/node_modules', PACKAGE_NAME))).toBe(copy);
		expect(existsSync(join(copy, 'dist/nodes/SchedulingPlatform/SchedulingPlatform.node.js'))).toBe(true);
		expect(existsSync(join(copy, 'dist/icons/schedulingPlatform.svg'))).toBe(true);
	} finally {
		process.kill(-(dev.pid as number), 'SIGKILL');
		rmSync(work, { recursive: true, force: true });
	}
}, 120_000);
