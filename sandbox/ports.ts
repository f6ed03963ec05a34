import { createServer } from 'net';

/**
 * The fixed ports of the start scripts (`npm start`, `npm run start:queue`, `npm run sandbox`), each set by an
 * environment variable. They are checked before anything starts: a port in use is named with its variable and a
 * free port to start with instead, not left to a bare `listen EADDRINUSE` minutes later.
 */

export interface PortSetting {
	/** The environment variable that sets it, e.g. N8N_PORT. */
	variable: string;
	port: number;
}

/**
 * The port an environment variable sets, else `fallback`; a value that is not a port number is refused by name.
 * `anyFree`: 0 is allowed and picks a free port (the sandbox's URL is read after it listens; n8n's editor URL is not).
 */
export function portSetting(env: NodeJS.ProcessEnv, variable: string, fallback: number, anyFree = false): PortSetting {
	const text = env[variable]?.trim() || String(fallback);
	const port = Number(text);
	const lowest = anyFree ? 0 : 1;
	if (!/^\d+$/.test(text) || port < lowest || port > 65535) throw new Error(`${variable}=${text} is not a port: give a number from ${lowest} to 65535${anyFree ? ' (0: any free port)' : ''}`);
	return { variable, port };
}

/** Whether a server can listen on the port at 127.0.0.1, where the scripts listen (a listener on all addresses takes it too). */
async function isFree(port: number): Promise<boolean> {
	const server = createServer();
	return await new Promise((resolve, reject) => {
		server.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? resolve(false) : reject(error)));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}

/** The first free port above `port` that is not one of `taken`. */
async function freePortAbove(port: number, taken: number[]): Promise<number> {
	let next = port + 1;
	while (taken.includes(next) || !(await isFree(next))) next++;
	return next;
}

/**
 * Fails when two settings name the same port or a port is in use (0, any free port, is not checked), e.g. `Port 5678
 * (N8N_PORT) is in use: stop what uses it or start with N8N_PORT=5679 npm start` (`command`: how the script started).
 */
export async function checkPorts(all: PortSetting[], command: string): Promise<void> {
	const settings = all.filter((setting) => setting.port !== 0);
	const ports = settings.map((setting) => setting.port);
	const twice = settings.find((setting, index) => ports.indexOf(setting.port) !== index);
	if (twice) {
		const both = settings.filter((setting) => setting.port === twice.port).map((setting) => setting.variable);
		throw new Error(`${both.join(' and ')} are both ${twice.port}: give each its own port`);
	}
	const busy: PortSetting[] = [];
	for (const setting of settings) if (!(await isFree(setting.port))) busy.push(setting);
	if (!busy.length) return;
	const instead: string[] = [];
	for (const { variable, port } of busy) {
		const other = await freePortAbove(port, ports);
		ports.push(other);
		instead.push(`${variable}=${other}`);
	}
	const named = busy.map(({ variable, port }) => `${port} (${variable})`).join(' and ');
	const [noun, verb, pronoun] = busy.length > 1 ? ['Ports', 'are', 'them'] : ['Port', 'is', 'it'];
	throw new Error(`${noun} ${named} ${verb} in use: stop what uses ${pronoun} or start with ${instead.join(' ')} ${command}`);
}

/**
 * The ports of `npm start` and `npm run start:queue`, checked: the editor's (N8N_PORT, 5678) and the sandbox API's
 * (SANDBOX_PORT, 4010; 0 picks a free one). n8n's task-runner broker and the processes of queue mode get free ports.
 */
export async function startPorts(env: NodeJS.ProcessEnv, command: string): Promise<{ n8nPort: number; sandboxPort: number }> {
	const n8n = portSetting(env, 'N8N_PORT', 5678);
	const sandbox = portSetting(env, 'SANDBOX_PORT', 4010, true);
	await checkPorts([n8n, sandbox], command);
	return { n8nPort: n8n.port, sandboxPort: sandbox.port };
}
