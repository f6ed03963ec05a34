import type { INode } from 'n8n-workflow';

import { startSandbox } from '../sandbox/server';
import { ITEMS_NODE_TYPE, NODE_TYPE, getEngine, runWorkflow } from '../test/harness/engine';

/**
 * The main job for now: the sandbox with demo data, and a demo workflow run through the compiled
 * nodes by n8n's engine: create a user with the API key, then list that user's meeting types,
 * acting as the new user, then read the token owner with the Personal Access Token.
 */

function node(name: string, x: number, parameters: INode['parameters'], credentialType: string): INode {
	return { id: name, name, type: NODE_TYPE, typeVersion: 1, position: [x, 0], parameters, credentials: { [credentialType]: { id: credentialType, name: credentialType } } };
}

async function main(): Promise<void> {
	const sandbox = await startSandbox();
	const seed = (await (await fetch(`${sandbox.url}/__sandbox/seed`, { method: 'POST' })).json()) as { credentials: { ownerPat: string; apiKey: string } };
	const engine = await getEngine();
	await engine.credentialsHelper.save('schedulingPlatformApiKeyApi', 'schedulingPlatformApiKeyApi', { baseUrl: sandbox.url, apiKey: seed.credentials.apiKey, actingUserId: '' });
	await engine.credentialsHelper.save('schedulingPlatformPatApi', 'schedulingPlatformPatApi', { baseUrl: sandbox.url, token: seed.credentials.ownerPat });

	const nodes: INode[] = [
		{ id: 'start', name: 'New Hires', type: ITEMS_NODE_TYPE, typeVersion: 1, position: [0, 0], parameters: { items: JSON.stringify([{ email: 'grace@example.com', first: 'Grace', last: 'Hopper', zone: 'America/New_York' }]) } },
		node('Create User', 200, { authentication: 'apiKey', resource: 'user', operation: 'create', email: '={{ $json.email }}', givenName: '={{ $json.first }}', familyName: '={{ $json.last }}', timezone: '={{ $json.zone }}' }, 'schedulingPlatformApiKeyApi'),
		node('Their Meeting Types', 400, { authentication: 'apiKey', actAsUser: { __rl: true, mode: 'id', value: '={{ $json.userId }}' }, resource: 'meetingType', operation: 'getAll', returnAll: true }, 'schedulingPlatformApiKeyApi'),
		{ ...node('Who Am I', 600, { authentication: 'personalAccessToken', resource: 'user', operation: 'getMe' }, 'schedulingPlatformPatApi'), executeOnce: true },
	];
	const link = (to: string) => ({ main: [[{ node: to, type: 'main' as const, index: 0 }]] });
	const run = await runWorkflow({ nodes, connections: { 'New Hires': link('Create User'), 'Create User': link('Their Meeting Types'), 'Their Meeting Types': link('Who Am I') } });

	process.stdout.write(`Sandbox API: ${sandbox.url}\n\n`);
	for (const name of ['Create User', 'Their Meeting Types', 'Who Am I']) {
		const task = run.data.resultData.runData[name]?.[0];
		const output = task?.error ? { error: task.error.message } : task?.data?.main?.[0]?.map((item) => item.json);
		process.stdout.write(`${name}:\n${JSON.stringify(output, null, 2)}\n\n`);
	}
	await sandbox.close();
	process.exit(run.data.resultData.error ? 1 : 0);
}

void main();
