import type { INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';

import type { OperationDefinition, ParamSource, ResourceDefinitions } from '../package/nodes/shared/types';
import { latestVersion } from '../scripts/engine';
import { definitions } from './harness/definitions';
import type { Shown } from './harness/displayOptions';
import { actionNodes, operationsOf, shownFor } from './harness/displayOptions';

/**
 * Each operation of each action node, at every version, is declared in one piece that the description and the
 * executor agree on: every Operation option a resource offers has a definition, every definition is offered, and
 * every node parameter a definition reads (its path, query, body and values) is a field shown for that operation,
 * down to the option inside a collection (`options.archived`).
 */

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
