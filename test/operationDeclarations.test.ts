import type { INodeProperties, INodePropertyCollection, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

import type { OperationDefinition, ParamSource, ResourceDefinitions } from '../package/nodes/shared/types';
import { getEngine, latestVersion } from '../scripts/engine';
import { definitions } from './harness/definitions';

/**
 * Each operation of each action node, at every version, is declared in one piece that the description and the
 * executor agree on: every Operation option a resource offers has a definition, every definition is offered, and
 * every node parameter a definition reads (its path, query, body and values) is a field shown for that operation,
 * down to the option inside a collection (`options.archived`).
 */

type Shown = { resource: string; operation: string; version: number };

/** Whether a displayOptions value list admits a value (n8n's `_cnd` comparisons included, for versions). */
function admits(list: unknown[] | undefined, value: string | number): boolean {
	if (list === undefined) return true;
	return list.some((entry) => {
		if (entry === value) return true;
		const condition = (entry as { _cnd?: Record<string, number> } | null)?._cnd;
		if (!condition || typeof value !== 'number') return false;
		const [[kind, bound]] = Object.entries(condition);
		return { gte: value >= bound, lte: value <= bound, gt: value > bound, lt: value < bound, eq: value === bound }[kind] ?? false;
	});
}

/** Whether a property may be shown for the resource, operation and version (other conditions may still hide it). */
function shownFor(property: { displayOptions?: INodeProperties['displayOptions'] }, { resource, operation, version }: Shown): boolean {
	const { show = {}, hide = {} } = property.displayOptions ?? {};
	if (!admits(show.resource, resource) || !admits(show.operation, operation) || !admits(show['@version'], version)) return false;
	const hidden = (key: string, value: string | number) => hide[key] !== undefined && admits(hide[key], value);
	return !hidden('resource', resource) && !hidden('operation', operation) && !hidden('@version', version);
}

/** The node parameter a ParamSource reads: its dotted path (`options.archived`). */
const paramOf = (source: ParamSource) => (typeof source === 'string' ? source : source.param);

/** The node parameters a definition reads: its path's placeholders, query, body and values. */
function paramsOf(definition: OperationDefinition): string[] {
	return [definition.pathParams, definition.query, definition.body, definition.values].flatMap((sources) => Object.values(sources ?? {}).map(paramOf));
}

/** Whether a dotted parameter is a field shown for the operation: its first part a property, each next part an option. */
function declares(properties: INodeProperties[], param: string, shown: Shown): boolean {
	const [root, ...rest] = param.split('.');
	return properties.some((property) => property.name === root && shownFor(property, shown) && reaches(property, rest));
}

function reaches(property: INodeProperties, rest: string[]): boolean {
	if (!rest.length) return true;
	const [next, ...after] = rest;
	const options = (property.options ?? []) as Array<INodeProperties | INodePropertyCollection | INodePropertyOptions>;
	// A fixed collection's rows (name → values) or a collection's options (name → property).
	return options.some((option) => {
		if (option.name !== next) return false;
		if (!('values' in option)) return reaches(option as INodeProperties, after);
		return after.length === 0 || option.values.some((value) => value.name === after[0] && reaches(value, after.slice(1)));
	});
}

/** Every action node's description at each of its versions, with its resources' values. */
async function actionNodes(): Promise<Array<{ name: string; version: number; description: INodeTypeDescription; resources: string[] }>> {
	const { nodeTypes, loader } = await getEngine();
	return loader.types.nodes
		.filter((node) => !node.polling && !node.webhooks)
		.flatMap((node) =>
			[node.version].flat().map((version) => {
				const { description } = nodeTypes.getByNameAndVersion(`n8n-nodes-scheduling-platform.${node.name}`, version);
				const resource = description.properties.find((property) => property.name === 'resource' && shownFor(property, { resource: '', operation: '', version }));
				const resources = ((resource?.options ?? []) as INodePropertyOptions[]).map((option) => String(option.value));
				return { name: node.name, version, description, resources };
			}),
		);
}

/** The Operation options a resource offers at a version. */
function operationsOf(description: INodeTypeDescription, resource: string, version: number): string[] {
	return description.properties
		.filter((property) => property.name === 'operation' && shownFor(property, { resource, operation: '', version }) && admits(property.displayOptions?.show?.resource, resource))
		.flatMap((property) => ((property.options ?? []) as INodePropertyOptions[]).map((option) => String(option.value)));
}

let byResource: Map<string, ResourceDefinitions>;

beforeAll(async () => {
	byResource = new Map((await definitions()).map(({ resource, operations }) => [resource, operations]));
});

test('every Operation option of every resource, at every node version, has a definition, and every definition is offered', async () => {
	const nodes = await actionNodes();
	expect(nodes.map(({ name }) => name).sort()).toEqual(expect.arrayContaining(['schedulingPlatform', 'schedulingPlatformCrm', 'schedulingPlatformInvoicing']));
	const missing: string[] = [];
	const offered = new Set<string>();
	for (const { name, version, description, resources } of nodes) {
		for (const resource of resources) {
			for (const operation of operationsOf(description, resource, version)) {
				offered.add(`${resource}.${operation}`);
				if (!byResource.get(resource)?.[operation]) missing.push(`${name} ${version}: ${resource} → ${operation}`);
			}
		}
	}
	expect(missing).toEqual([]);
	const unoffered = [...byResource].flatMap(([resource, operations]) => Object.keys(operations).filter((operation) => !offered.has(`${resource}.${operation}`)).map((operation) => `${resource}.${operation}`));
	expect(unoffered).toEqual([]);
	expect(offered.size).toBeGreaterThan(100);
});

test('every parameter a definition reads is a field shown for its operation (at every version that offers it)', async () => {
	const undeclared: string[] = [];
	let checked = 0;
	for (const { name, version, description, resources } of await actionNodes()) {
		for (const resource of resources) {
			for (const operation of operationsOf(description, resource, version)) {
				const definition = byResource.get(resource)?.[operation];
				for (const param of definition ? paramsOf(definition) : []) {
					checked++;
					if (!declares(description.properties, param, { resource, operation, version })) undeclared.push(`${name} ${version}: ${resource} → ${operation} reads "${param}"`);
				}
			}
		}
	}
	expect(undeclared).toEqual([]);
	expect(checked).toBeGreaterThan(300);
});

test('the check sees a parameter no field declares, and an option inside a collection', () => {
	const properties: INodeProperties[] = [
		{ displayName: 'Key', name: 'key', type: 'string', default: '', displayOptions: { show: { resource: ['lostReason'], operation: ['upsert'] } } },
		{ displayName: 'Options', name: 'options', type: 'collection', default: {}, displayOptions: { show: { resource: ['lostReason'] } }, options: [{ displayName: 'Archived', name: 'archived', type: 'boolean', default: false }] },
	];
	const shown = { resource: 'lostReason', operation: 'upsert', version: latestVersion({ version: 1 }) };
	expect(['key', 'options.archived', 'label', 'options.label'].map((param) => declares(properties, param, shown))).toEqual([true, true, false, false]);
	expect(declares(properties, 'key', { ...shown, operation: 'archive' })).toBe(false);
});
