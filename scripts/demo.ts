import type { IDataObject, INode } from 'n8n-workflow';

import { startSandbox } from '../sandbox/server';
import { ITEMS_NODE_TYPE, NODE_TYPE, getEngine, runWorkflow } from './engine';

/**
 * The main job for now: the sandbox with demo data, and a demo workflow run through the compiled
 * nodes by n8n's engine: create a user with the API key, list that user's meeting types acting as
 * the new user, find the first open slot of the next week and book it for a client, then read the
 * token owner with the Personal Access Token.
 */

function node(name: string, x: number, parameters: INode['parameters'], credentialType: string): INode {
	return { id: name, name, type: NODE_TYPE, typeVersion: 1, position: [x, 0], parameters, credentials: { [credentialType]: { id: credentialType, name: credentialType } } };
}

/** The open slots of a week are many: show how many, and the first one (the one booked next). */
function slotSummary(answer: IDataObject): IDataObject {
	const dates = answer.dates as Array<{ spots: Array<{ startTime: string }> }>;
	return { earliestAvailableDate: answer.earliestAvailableDate, firstSlot: dates[0]?.spots[0]?.startTime, openSlots: dates.reduce((sum, date) => sum + date.spots.length, 0) };
}

async function main(): Promise<void> {
	const sandbox = await startSandbox();
	const seed = (await (await fetch(`${sandbox.url}/__sandbox/seed`, { method: 'POST' })).json()) as { credentials: { ownerPat: string; apiKey: string } };
	const engine = await getEngine();
	await engine.credentialsHelper.save('schedulingPlatformApiKeyApi', 'schedulingPlatformApiKeyApi', { baseUrl: sandbox.url, apiKey: seed.credentials.apiKey, actingUserId: '' });
	await engine.credentialsHelper.save('schedulingPlatformPatApi', 'schedulingPlatformPatApi', { baseUrl: sandbox.url, token: seed.credentials.ownerPat });

	const newUser = { __rl: true, mode: 'id', value: "={{ $('Create User').item.json.userId }}" };
	const nodes: INode[] = [
		{ id: 'start', name: 'New Hires', type: ITEMS_NODE_TYPE, typeVersion: 1, position: [0, 0], parameters: { items: JSON.stringify([{ email: 'grace@example.com', first: 'Grace', last: 'Hopper', zone: 'America/New_York' }]) } },
		node('Create User', 200, { authentication: 'apiKey', resource: 'user', operation: 'create', email: '={{ $json.email }}', givenName: '={{ $json.first }}', familyName: '={{ $json.last }}', timezone: '={{ $json.zone }}' }, 'schedulingPlatformApiKeyApi'),
		node('Their Meeting Types', 400, { authentication: 'apiKey', actAsUser: newUser, resource: 'meetingType', operation: 'getAll', returnAll: true }, 'schedulingPlatformApiKeyApi'),
		node('Find Slots', 600, { authentication: 'apiKey', actAsUser: newUser, resource: 'booking', operation: 'getSlots', meetingTypeId: { __rl: true, mode: 'id', value: '={{ $json.id }}' }, start: "={{ $now.plus(1, 'day').toISODate() }}", end: "={{ $now.plus(7, 'days').toISODate() }}", output: 'raw' }, 'schedulingPlatformApiKeyApi'),
		node('Book First Slot', 800, { authentication: 'apiKey', actAsUser: newUser, resource: 'booking', operation: 'create', meetingTypeId: { __rl: true, mode: 'id', value: "={{ $('Their Meeting Types').item.json.id }}" }, start: '={{ $json.dates[0].spots[0].startTime }}', email: 'ada@client.example', firstName: 'Ada', lastName: 'Lovelace' }, 'schedulingPlatformApiKeyApi'),
		{ ...node('Who Am I', 1000, { authentication: 'personalAccessToken', resource: 'user', operation: 'getMe' }, 'schedulingPlatformPatApi'), executeOnce: true },
	];
	const link = (to: string) => ({ main: [[{ node: to, type: 'main' as const, index: 0 }]] });
	const run = await runWorkflow({ nodes, connections: {
		'New Hires': link('Create User'),
		'Create User': link('Their Meeting Types'),
		'Their Meeting Types': link('Find Slots'),
		'Find Slots': link('Book First Slot'),
		'Book First Slot': link('Who Am I'),
	} });

	process.stdout.write(`Sandbox API: ${sandbox.url}\n\n`);
	for (const name of ['Create User', 'Their Meeting Types', 'Find Slots', 'Book First Slot', 'Who Am I']) {
		const task = run.data.resultData.runData[name]?.[0];
		const items = task?.data?.main?.[0]?.map((item) => item.json);
		const output = task?.error ? { error: task.error.message } : name === 'Find Slots' ? items?.map(slotSummary) : items;
		process.stdout.write(`${name}:\n${JSON.stringify(output, null, 2)}\n\n`);
	}
	await sandbox.close();
	process.exit(run.data.resultData.error ? 1 : 0);
}

void main();
