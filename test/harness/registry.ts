import { execFile, execFileSync, spawn } from 'child_process';
import type { ChildProcess } from 'child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'fs';
import { createServer as createHttpServer, request as httpRequest } from 'http';
import type { Server } from 'http';
import { tmpdir } from 'os';
import { join } from 'path';
import { setTimeout as sleep } from 'timers/promises';
import { TLSSocket, createSecureContext } from 'tls';
import { promisify } from 'util';

import { freePort } from '../../scripts/realN8n';
import { REPO_DIR } from '../../scripts/packageDir';

/**
 * A local npm registry for the tests that install the package the way users do (test/registry/): Verdaccio
 * (scripts/install-registry.sh installs it once into the cache folder outside the repository) with its storage and
 * config in a temp folder, listening on 127.0.0.1 at a free port, without uplinks (it knows only what the test
 * publishes), publishing allowed to one test user made through the registry's adduser API.
 */

export interface LocalRegistry {
	/** http://127.0.0.1:<port>, without a trailing slash. */
	url: string;
	/** Publishes a packed tarball as the test user (its version becomes `latest`); async, so this process's servers keep answering. */
	publish(tarball: string): Promise<void>;
	/** The registry's record of a package (its `dist-tags` and `versions`), as npm reads it. */
	packument(name: string): Promise<{ 'dist-tags': Record<string, string>; versions: Record<string, unknown> }>;
	stop(): Promise<void>;
}

const execFileAsync = promisify(execFile);

const USER = { name: 'registry-test', password: 'registry-test-password' };

/** The environment of npm and Verdaccio here: this machine's PATH and HOME, none of the npm_config_* an `npm test` passes on. */
export function plainEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
	return { PATH: process.env.PATH, HOME: process.env.HOME, ...extra };
}

/** Installs Verdaccio if needed (once, about ten seconds) and returns its folder. */
export function registryDir(): string {
	const output = execFileSync('bash', [join(REPO_DIR, 'scripts/install-registry.sh')], { encoding: 'utf8', timeout: 10 * 60_000, stdio: ['ignore', 'pipe', 'pipe'] });
	return output.trim().split('\n').pop() as string;
}

function config(folder: string): string {
	// No uplinks: nothing is fetched from elsewhere. Reading is open to all; publishing needs a logged-in user, and
	// the htpasswd file takes one (the test user, made by adduser below).
	return [
		`storage: ${join(folder, 'storage')}`,
		'auth:',
		'  htpasswd:',
		`    file: ${join(folder, 'htpasswd')}`,
		'    max_users: 1',
		'uplinks: {}',
		'packages:',
		"  '**':",
		'    access: $all',
		'    publish: $authenticated',
		'    unpublish: $authenticated',
		'web:',
		'  enable: false',
		'log: { type: stdout, format: json, level: warn }',
		'',
	].join('\n');
}

/** Starts Verdaccio on a free port of 127.0.0.1 and adds the test user. */
export async function startRegistry(): Promise<LocalRegistry> {
	const dir = registryDir();
	const folder = mkdtempSync(join(tmpdir(), 'sp-registry-'));
	writeFileSync(join(folder, 'config.yaml'), config(folder));
	// A port picked free may be taken before Verdaccio listens: then it stops at once, and another port is tried.
	for (let attempt = 1; ; attempt++) {
		const port = await freePort();
		const url = `http://127.0.0.1:${port}`;
		const child = spawn(process.execPath, [join(dir, 'node_modules/verdaccio/bin/verdaccio'), '--config', join(folder, 'config.yaml'), '--listen', `127.0.0.1:${port}`], {
			env: plainEnv(),
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		const output: Buffer[] = [];
		child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
		child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
		const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
		let code: number | null | undefined;
		void exited.then((exitCode) => (code = exitCode));
		const deadline = Date.now() + 60_000;
		while (code === undefined && Date.now() < deadline) {
			const ping = await fetch(`${url}/-/ping`).catch(() => undefined);
			if (ping?.ok) break;
			await sleep(200);
		}
		if (code !== undefined) {
			if (attempt < 3) continue;
			throw new Error(`Verdaccio stopped (exit ${String(code)}):\n${Buffer.concat(output).toString('utf8').slice(-3000)}`);
		}
		if (Date.now() >= deadline) {
			child.kill('SIGTERM');
			throw new Error(`Verdaccio did not answer at ${url} within a minute:\n${Buffer.concat(output).toString('utf8').slice(-3000)}`);
		}
		try {
			return await withUser(url, child, exited);
		} catch (error) {
			child.kill('SIGTERM');
			throw error;
		}
	}
}

async function withUser(url: string, child: ChildProcess, exited: Promise<number | null>): Promise<LocalRegistry> {
	const added = await fetch(`${url}/-/user/org.couchdb.user:${USER.name}`, {
		method: 'PUT',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ name: USER.name, password: USER.password }),
	});
	if (!added.ok) throw new Error(`Verdaccio refused the test user (HTTP ${added.status}): ${await added.text()}`);
	const { token } = (await added.json()) as { token: string };
	const authKey = `${url.replace(/^https?:/, '')}/:_authToken`;
	return {
		url,
		async publish(tarball) {
			await execFileAsync('npm', ['publish', tarball, `--registry=${url}/`, `--${authKey}=${token}`, '--tag=latest', '--access=public', '--loglevel=error'], { env: plainEnv(), timeout: 60_000 });
		},
		async packument(name) {
			const answer = await fetch(`${url}/${encodeURIComponent(name)}`);
			if (!answer.ok) throw new Error(`GET ${name} from the local registry: HTTP ${answer.status}`);
			return (await answer.json()) as Awaited<ReturnType<LocalRegistry['packument']>>;
		},
		async stop() {
			if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
			await exited;
		},
	};
}

/**
 * The packed package as another version: the tarball unpacked into a temp folder (a copy of package/ as npm
 * publishes it), its package.json's version changed, packed again. package/package.json is left as it is.
 */
export function repackAs(tarball: string, version: string): string {
	const folder = mkdtempSync(join(tmpdir(), `sp-pack-${version}-`));
	execFileSync('tar', ['-xzf', tarball, '-C', folder]);
	const manifestPath = join(folder, 'package', 'package.json');
	const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { version: string };
	manifest.version = version;
	writeFileSync(manifestPath, `${JSON.stringify(manifest, null, '\t')}\n`);
	const out = join(folder, 'out');
	mkdirSync(out);
	const name = execFileSync('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', out], { cwd: join(folder, 'package'), encoding: 'utf8', env: plainEnv() }).trim().split('\n').pop() as string;
	return join(out, name);
}

/**
 * n8n installs community packages from https://registry.npmjs.org unless its license has the feature
 * `feat:communityNodes:customRegistry` (CommunityPackagesService.getNpmRegistry in n8n's
 * dist/modules/community-packages/community-packages.service.js, 1.123 and 2.41 alike): an instance without a license
 * refuses N8N_COMMUNITY_PACKAGES_REGISTRY. So that Settings → Community Nodes installs from the local registry all
 * the same, this stands it in for registry.npmjs.org on loopback: an HTTPS proxy (n8n and the npm it runs get
 * HTTPS_PROXY) that answers CONNECT registry.npmjs.org:443 itself, with a certificate of a CA made for this run
 * (NODE_EXTRA_CA_CERTS), and passes the requests on to Verdaccio. Every other host is refused (n8n asks api.n8n.io
 * whether a package is banned, and installs when there is no answer): nothing leaves this machine.
 */
export interface PublicRegistryStandIn {
	/**
	 * The environment n8n runs with, passed on to the npm it runs: HTTPS_PROXY, NO_PROXY (loopback goes direct), the CA
	 * for n8n (NODE_EXTRA_CA_CERTS) and for npm (npm_config_cafile: npm does not read Node's variable), and an npm cache
	 * of this run's own, so that the stand-in's answers for registry.npmjs.org stay out of this machine's npm cache.
	 */
	env: Record<string, string>;
	/** `METHOD path` of each request passed on to the local registry, in order. */
	requests: string[];
	close(): Promise<void>;
}

const PUBLIC_REGISTRY = 'registry.npmjs.org';

/** A CA for this run and a certificate for registry.npmjs.org signed by it (openssl; a few milliseconds with EC keys). */
function certificates(folder: string): { ca: string; key: string; cert: string } {
	const file = (name: string) => join(folder, name);
	const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
	const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
	openssl('req', '-x509', ...ec, '-keyout', file('ca.key'), '-out', file('ca.pem'), '-days', '2', '-subj', '/CN=n8n-nodes-scheduling-platform test CA', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
	openssl('req', ...ec, '-keyout', file('registry.key'), '-out', file('registry.csr'), '-subj', `/CN=${PUBLIC_REGISTRY}`);
	writeFileSync(file('registry.ext'), `subjectAltName=DNS:${PUBLIC_REGISTRY}\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n`);
	openssl('x509', '-req', '-in', file('registry.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key'), '-CAcreateserial', '-out', file('registry.pem'), '-days', '2', '-extfile', file('registry.ext'));
	return { ca: file('ca.pem'), key: file('registry.key'), cert: file('registry.pem') };
}

export async function standInForPublicRegistry(registry: LocalRegistry): Promise<PublicRegistryStandIn> {
	const folder = mkdtempSync(join(tmpdir(), 'sp-registry-tls-'));
	const { ca, key, cert } = certificates(folder);
	const secureContext = createSecureContext({ key: readFileSync(key), cert: readFileSync(cert) });
	const target = new URL(registry.url);
	const requests: string[] = [];

	// Requests arriving through the tunnel, passed on to Verdaccio as registry.npmjs.org's (it builds the tarball URLs
	// of its answers from the host and protocol it is given, so npm fetches them through the proxy again).
	const registryFace = createHttpServer((req, res) => {
		requests.push(`${req.method ?? 'GET'} ${req.url ?? '/'}`);
		const upstream = httpRequest(
			{ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: PUBLIC_REGISTRY, 'x-forwarded-proto': 'https' } },
			(answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
			},
		);
		upstream.on('error', (error) => {
			res.writeHead(502);
			res.end(String(error));
		});
		req.pipe(upstream);
	});

	const proxy: Server = createHttpServer((_req, res) => {
		// Plain-HTTP proxying is not offered: only HTTPS_PROXY points here.
		res.writeHead(403);
		res.end();
	});
	proxy.on('connect', (req, socket, head) => {
		if (req.url !== `${PUBLIC_REGISTRY}:443`) {
			socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
			return;
		}
		socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
		if (head.length) socket.unshift(head);
		const tls = new TLSSocket(socket, { isServer: true, secureContext });
		tls.on('error', () => socket.destroy());
		registryFace.emit('connection', tls);
	});
	proxy.on('clientError', (_error, socket) => socket.destroy());
	const port = await freePort();
	await new Promise<void>((resolve) => proxy.listen(port, '127.0.0.1', resolve));

	return {
		env: { HTTPS_PROXY: `http://127.0.0.1:${port}`, NO_PROXY: 'localhost,127.0.0.1', NODE_EXTRA_CA_CERTS: ca, npm_config_cafile: ca, npm_config_cache: join(folder, 'npm-cache') },
		requests,
		async close() {
			proxy.closeAllConnections();
			registryFace.closeAllConnections();
			await new Promise((resolve) => proxy.close(resolve));
		},
	};
}

export interface NpmResult {
	code: number;
	stdout: string;
	stderr: string;
}

/**
 * npm in a folder as a person runs it there (this machine's npm config, none of an `npm test`'s npm_config_*), with an
 * npm cache of this run's own; resolves with the exit code and output (`npm outdated` exits 1 when something is).
 */
export async function npmIn(folder: string, args: string[], cache: string): Promise<NpmResult> {
	try {
		const { stdout, stderr } = await execFileAsync('npm', [...args, `--cache=${cache}`, '--no-audit', '--no-fund', '--loglevel=error'], { cwd: folder, env: plainEnv(), timeout: 2 * 60_000 });
		return { code: 0, stdout, stderr };
	} catch (error) {
		const failed = error as { code?: number; stdout?: string; stderr?: string };
		if (typeof failed.code !== 'number') throw error;
		return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
	}
}
