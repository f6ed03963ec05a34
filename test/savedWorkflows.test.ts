import { existsSync, readFileSync, writeFileSync } from 'fs';
import type { IDataObject, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';
import { join } from 'path';

import { PACKAGE_NAME, getEngine } from '../scripts/engine';
import { REPO_DIR } from '../scripts/packageDir';
import { useWorld } from './harness/world';

/**
 * A workflow saved today loads and runs the same after a change of the package's layout (issue 34): a node of every
 * action node type at every version for each resource's Get Many (Limit 2), and every polling trigger at every version
 * polling its first event (the first poll of a published workflow, and the state it stores), run against the seeded
 * sandbox. What each did when this fixture was recorded is in test/fixtures/saved-nodes.json: the requests (method,
 * path with IDs as {id}, query keys), the items it put out (their number and keys), its error, and the stored state's
 * shape. Recording: `RECORD_SAVED_NODES=1 npx jest test/savedWorkflows.test.ts` (only when the behaviour is meant to
 * change, and say so in the commit).
 */

const FIXTURE = join(REPO_DIR, 'test/fixtures/saved-nodes.json');
const RECORD = process.env.RECORD_SAVED_NODES === '1';

interface Saved {
	type: string;
	typeVersion: number;
	parameters: IDataObject;
	ran: Ran;
}

interface Ran {
	requests: string[];
	items: number;
	keys: string[];
	error?: string;
	state?: unknown;
}

const world = useWorld();

/** A text with what differs from run to run (IDs, moments) written as {id} and {date}. */
const normalised = (text: string) =>
	text.replace(/\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?/g, '{date}').replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\b\d{3,}\b/gi, '{id}');

/** The shape of stored data: objects by key, arrays by their first element, values by type. */
function shapeOf(value: unknown): unknown {
	if (Array.isArray(value)) return value.length ? [shapeOf(value[0])] : [];
	if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value as IDataObject).sort(([a], [b]) => a.localeCompare(b)).map(([key, inner]) => [key, shapeOf(inner)]));
	return typeof value;
}

async function sentRequests(): Promise<string[]> {
	const requests = await world().requests();
	await world().clearRequests();
	return requests.map((request) => `${request.method} ${normalised(request.path)}${request.query ? `?${[...new URLSearchParams(request.query).keys()].sort().join('&')}` : ''}`);
}

const optionValues = (options: unknown) => ((options ?? []) as INodePropertyOptions[]).map((option) => String(option.value));
const shownAt = (description: INodeTypeDescription, version: number) => description.properties.filter((property) => [property.displayOptions?.show?.['@version'] ?? [version]].flat().includes(version));

/** Every node this test saves: Get Many of each resource of each action node version, the first event of each polling trigger version. */
async function savedNodes(): Promise<Array<Omit<Saved, 'ran'>>> {
	const { loader, nodeTypes } = await getEngine();
	const saved: Array<Omit<Saved, 'ran'>> = [];
	for (const node of loader.types.nodes.filter((each) => !each.webhooks)) {
		for (const typeVersion of [node.version].flat()) {
			const type = `${PACKAGE_NAME}.${node.name}`;
			const shown = shownAt(nodeTypes.getByNameAndVersion(type, typeVersion).description, typeVersion);
			if (node.polling) {
				const [event] = optionValues(shown.find((property) => property.name === 'event')?.options);
				saved.push({ type, typeVersion, parameters: { event } });
				continue;
			}
			for (const resource of optionValues(shown.find((property) => property.name === 'resource')?.options)) {
				const operations = shown.filter((property) => property.name === 'operation' && property.displayOptions?.show?.resource?.includes(resource));
				if (operations.some((property) => optionValues(property.options).includes('getAll'))) saved.push({ type, typeVersion, parameters: { resource, operation: 'getAll', returnAll: false, limit: 2 } });
			}
		}
	}
	return saved;
}

async function run(node: Omit<Saved, 'ran'>, polling: boolean): Promise<Ran> {
	await world().clearRequests();
	const version = { type: node.type, version: node.typeVersion };
	if (polling) {
		const outcome = await world().poll(node.parameters, world().pat(), { node: version });
		return { requests: await sentRequests(), items: outcome.items?.length ?? 0, keys: [], error: outcome.error && normalised(outcome.error.message), state: shapeOf(outcome.staticData) };
	}
	try {
		const { items, error } = await world().runNode(node.parameters, world().pat(), { version: node.typeVersion });
		return { requests: await sentRequests(), items: items.length, keys: [...new Set(items.flatMap((item) => Object.keys(item)))].sort(), error: error && normalised(error.message) };
	} catch (error) {
		// n8n refuses to run the workflow (a required field left empty): that too must stay as it was.
		return { requests: await sentRequests(), items: 0, keys: [], error: normalised((error as Error).message) };
	}
}

test('a node of every type and version, saved as the editor saves it, runs as it did when recorded: the same requests, items and stored state', async () => {
	const { loader } = await getEngine();
	const polling = new Set(loader.types.nodes.filter((node) => node.polling).map((node) => `${PACKAGE_NAME}.${node.name}`));
	const nodes = await savedNodes();
	const ran: Saved[] = [];
	for (const node of nodes) ran.push({ ...node, ran: await run(node, polling.has(node.type)) });
	if (RECORD) writeFileSync(FIXTURE, `${JSON.stringify(ran, null, '\t')}\n`);
	expect(existsSync(FIXTURE)).toBe(true);
	const recorded = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Saved[];

	// Every node saved then is still there and runs the same; nodes added since are new lines, not changes.
	const now = new Map(ran.map((node) => [JSON.stringify([node.type, node.typeVersion, node.parameters]), node.ran]));
	expect(recorded.map((node) => ({ node: [node.type, node.typeVersion, node.parameters], ran: now.get(JSON.stringify([node.type, node.typeVersion, node.parameters])) }))).toEqual(
		recorded.map((node) => ({ node: [node.type, node.typeVersion, node.parameters], ran: node.ran })),
	);
	expect(recorded.length).toBeGreaterThan(40);
	expect(recorded.filter((node) => node.ran.error === undefined).length).toBeGreaterThan(30);
});
