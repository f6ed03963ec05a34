import { join, relative } from 'path';

import { startSandbox } from '../sandbox/server';
import { PACKAGE_NAME, REPO_DIR } from './packageDir';
import { startPorts } from '../sandbox/ports';
import { startQueueMode } from './queueMode';
import type { QueueMode, QueueProcess, QueueRole } from './queueMode';
import { N8N_V2, realN8n, setUpOwner, waitForRest } from './realN8n';
import { LOGIN, demoCredentials, exampleWorkflows, importExamples, seedDemo } from './start';

/**
 * `npm run start:queue`: what `npm start` starts (the sandbox with demo data, the demo credentials, the examples, the
 * owner account), with n8n 2.x in queue mode (scripts/queueMode.ts): PostgreSQL, Redis, the main instance, two
 * workers and a webhook processor, each n8n process with the package in its own user folder under
 * `.n8n-start-queue/` (or QUEUE_DIR). Ctrl+C stops every process it started.
 */

const FOLDER = process.env.QUEUE_DIR ?? join(REPO_DIR, '.n8n-start-queue');

const PORT_KINDS: Record<QueueRole, string> = { postgres: '', redis: '', main: 'HTTP ', worker: 'health ', webhook: 'HTTP ' };

const USES: Record<QueueRole, string> = {
	postgres: 'PostgreSQL 17: the database of every n8n process',
	redis: 'Redis: the queue',
	main: 'main: editor and REST API, triggers, enqueues executions',
	worker: 'worker: runs executions',
	webhook: 'webhook processor: production webhooks',
};

function row(service: QueueProcess, memory: Record<string, number>): string {
	const ports = `${PORT_KINDS[service.role]}${service.port}${service.brokerPort ? `, runner broker ${service.brokerPort}` : ''}`;
	const where = service.userFolder ? `; user folder ${relative(process.cwd(), service.userFolder)}` : '';
	return `    ${service.name.padEnd(10)} pid ${String(service.pid).padEnd(7)} ${ports.padEnd(34)} ${String(memory[service.name]).padStart(4)} MiB  ${USES[service.role]}${where}`;
}

function instructions(queue: QueueMode, sandboxUrl: string, version: string): string {
	const memory = queue.memory();
	const total = Object.values(memory).reduce((sum, mib) => sum + mib, 0);
	const settings = Object.entries(queue.settings).map(([name, value]) => `${name}=${value}`);
	return `
n8n ${version} is running in queue mode with ${PACKAGE_NAME} and the sandbox API.

  Editor:       ${queue.url}
  Log in with:  ${LOGIN.email} / ${LOGIN.password}
  Sandbox API:  ${sandboxUrl} (demo data, fresh on every start)

  What runs where (${total} MiB in all; logs in ${relative(process.cwd(), join(FOLDER, 'logs'))}/):
${queue.processes.map((service) => row(service, memory)).join('\n')}
    The editor's address is a router on loopback, as n8n's docs ask for a load balancer: /webhook/* goes to the
    webhook processor, everything else (editor, REST API, test webhooks) to main.

  Settings of every n8n process (beside its own port, runner broker port and user folder, and one
  N8N_ENCRYPTION_KEY for all):
    ${settings.join('\n    ')}
  Main also has N8N_DISABLE_PRODUCTION_MAIN_PROCESS=true and OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS=true: "Execute
  workflow" in the editor runs on a worker too (the worker's log says "Worker started execution ...").

  The ${exampleWorkflows().length} example workflows and the demo credentials are set up as with \`npm start\`.
  Ctrl+C stops every process above and the sandbox.
`;
}

async function main(): Promise<void> {
	const { n8nPort, sandboxPort } = await startPorts(process.env, 'npm run start:queue');
	const host = realN8n(process.env.N8N_VERSION ?? N8N_V2, true);
	const sandbox = await startSandbox({ port: sandboxPort });
	let queue: QueueMode | undefined;
	let stopping = false;
	const stop = async () => {
		await queue?.stop();
		await sandbox.close();
	};
	// While starting, an exit ends what has started (startQueueMode kills its processes when this process exits).
	const onSignal = (): void => {
		if (stopping) return;
		stopping = true;
		process.stdout.write('\nStopping n8n, Redis, PostgreSQL and the sandbox...\n');
		if (!queue) process.exit(130);
		void stop().then(() => process.exit(0));
	};
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, onSignal);
	try {
		const credentials = demoCredentials(sandbox.url, await seedDemo(sandbox.url));
		queue = await startQueueMode({
			host,
			folder: FOLDER,
			port: n8nPort,
			hostname: 'localhost',
			env: { GENERIC_TIMEZONE: Intl.DateTimeFormat().resolvedOptions().timeZone },
			progress: (line) => process.stdout.write(`${line}\n`),
			prepare: async ({ userFolder, settings }) => {
				process.stdout.write('Importing the demo credentials and the examples...\n');
				await importExamples(host, userFolder, credentials, settings);
			},
		});
		await setUpOwner(queue.url, await waitForRest(queue.url, () => undefined), LOGIN);
		process.stdout.write(instructions(queue, sandbox.url, host.version));
	} catch (error) {
		await stop();
		throw error;
	}
}

main().catch((error: Error) => {
	process.stderr.write(`${error.message}\n`);
	process.exit(1);
});
