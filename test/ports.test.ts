import { createServer } from 'net';
import type { Server } from 'net';

import { checkPorts, portSetting, startPorts } from '../sandbox/ports';

/**
 * The start scripts' fixed ports (npm start: N8N_PORT and SANDBOX_PORT): one in use is named with the variable that
 * moves it and a port that is free, before anything starts.
 */

const servers: Server[] = [];

/** A port something listens on (at `address`), as another n8n or sandbox would. */
async function occupied(address = '127.0.0.1', port = 0): Promise<number> {
	const server = createServer();
	servers.push(server);
	await new Promise<void>((resolve) => server.listen(port, address, resolve));
	return (server.address() as { port: number }).port;
}

/** Whether a server can listen on the port now. */
async function canListen(port: number): Promise<boolean> {
	const server = createServer();
	return await new Promise((resolve) => {
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
	const port = await occupied();
	await new Promise((resolve) => servers.pop()!.close(resolve));
	return port;
}

afterEach(async () => {
	await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** The message of a failed start, and the port it offers instead of each busy one. */
async function refusal(start: Promise<unknown>): Promise<{ message: string; instead: Record<string, number> }> {
	const error = (await start.then(() => undefined, (reason: Error) => reason)) as Error;
	expect(error).toBeInstanceOf(Error);
	const instead = Object.fromEntries([...error.message.matchAll(/\b([A-Z][A-Z0-9_]*)=(\d+)\b/g)].map(([, variable, port]) => [variable, Number(port)]));
	return { message: error.message, instead };
}

test('npm start with N8N_PORT in use names the port and its variable, and offers a free port above it', async () => {
	const busy = await occupied();
	const sandboxPort = await freePort();
	const { message, instead } = await refusal(startPorts({ N8N_PORT: String(busy), SANDBOX_PORT: String(sandboxPort) }, 'npm start'));
	expect(message).toBe(`Port ${busy} (N8N_PORT) is in use: stop what uses it or start with N8N_PORT=${instead.N8N_PORT} npm start`);
	expect(instead.N8N_PORT).toBeGreaterThan(busy);
	expect(instead.N8N_PORT).not.toBe(sandboxPort);
	expect(await canListen(instead.N8N_PORT)).toBe(true);
});

test('a port taken on all addresses (as n8n in Docker publishes 5678) counts as in use', async () => {
	const busy = await occupied('0.0.0.0');
	const { message } = await refusal(startPorts({ N8N_PORT: String(await freePort()), SANDBOX_PORT: String(busy) }, 'npm run start:queue'));
	expect(message).toMatch(new RegExp(`^Port ${busy} \\(SANDBOX_PORT\\) is in use: stop what uses it or start with SANDBOX_PORT=\\d+ npm run start:queue$`));
});

test('both ports in use: one message names both, with one command that moves both', async () => {
	const n8nPort = await occupied();
	const sandboxPort = await occupied();
	const { message, instead } = await refusal(startPorts({ N8N_PORT: String(n8nPort), SANDBOX_PORT: String(sandboxPort) }, 'npm start'));
	expect(message).toBe(
		`Ports ${n8nPort} (N8N_PORT) and ${sandboxPort} (SANDBOX_PORT) are in use: stop what uses them or start with N8N_PORT=${instead.N8N_PORT} SANDBOX_PORT=${instead.SANDBOX_PORT} npm start`,
	);
	for (const port of Object.values(instead)) expect(await canListen(port)).toBe(true);
});

test('the port offered instead skips the other setting\'s port', async () => {
	// n8n's port in use, the one right above it free but the sandbox's: n8n is offered neither.
	let busy = await occupied();
	while (!(await canListen(busy + 1))) busy = await occupied();
	const { instead } = await refusal(checkPorts([{ variable: 'N8N_PORT', port: busy }, { variable: 'SANDBOX_PORT', port: busy + 1 }], 'npm start'));
	expect(instead.N8N_PORT).toBeGreaterThan(busy + 1);
});

test('two busy ports next to each other are not both offered the same free port', async () => {
	let n8nPort = await occupied();
	while (!(await canListen(n8nPort + 1))) n8nPort = await occupied();
	const sandboxPort = await occupied('127.0.0.1', n8nPort + 1);
	const { instead } = await refusal(startPorts({ N8N_PORT: String(n8nPort), SANDBOX_PORT: String(sandboxPort) }, 'npm start'));
	expect(instead.N8N_PORT).not.toBe(instead.SANDBOX_PORT);
});

test('free ports start; the defaults are 5678 and 4010; a value that is no port, or one port for both, is refused by name; the sandbox may take any free port', async () => {
	const [n8nPort, sandboxPort] = [await freePort(), await freePort()];
	expect(await startPorts({ N8N_PORT: String(n8nPort), SANDBOX_PORT: String(sandboxPort) }, 'npm start')).toEqual({ n8nPort, sandboxPort });
	expect([portSetting({}, 'N8N_PORT', 5678), portSetting({ SANDBOX_PORT: '' }, 'SANDBOX_PORT', 4010)]).toEqual([
		{ variable: 'N8N_PORT', port: 5678 },
		{ variable: 'SANDBOX_PORT', port: 4010 },
	]);
	for (const value of ['abc', '56 78', '0', '70000', '-1']) {
		expect(() => portSetting({ N8N_PORT: value }, 'N8N_PORT', 5678)).toThrow(`N8N_PORT=${value} is not a port: give a number from 1 to 65535`);
	}
	// The sandbox may take any free port (0), as before.
	expect(() => portSetting({ SANDBOX_PORT: 'x' }, 'SANDBOX_PORT', 4010, true)).toThrow('SANDBOX_PORT=x is not a port: give a number from 0 to 65535 (0: any free port)');
	expect(await startPorts({ N8N_PORT: String(n8nPort), SANDBOX_PORT: '0' }, 'npm start')).toEqual({ n8nPort, sandboxPort: 0 });
	await expect(startPorts({ N8N_PORT: String(n8nPort), SANDBOX_PORT: String(n8nPort) }, 'npm start')).rejects.toThrow(`N8N_PORT and SANDBOX_PORT are both ${n8nPort}: give each its own port`);
});
