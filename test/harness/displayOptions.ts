import type { INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

import { getEngine } from '../../scripts/engine';

/** A resource, operation and node version a property may be shown for. */
export type Shown = { resource: string; operation: string; version: number };

/** Whether a displayOptions value list admits a value (n8n's `_cnd` comparisons included, for versions). */
export function admits(list: unknown[] | undefined, value: string | number): boolean {
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
export function shownFor(property: { displayOptions?: INodeProperties['displayOptions'] }, { resource, operation, version }: Shown): boolean {
	const { show = {}, hide = {} } = property.displayOptions ?? {};
	if (!admits(show.resource, resource) || !admits(show.operation, operation) || !admits(show['@version'], version)) return false;
	const hidden = (key: string, value: string | number) => hide[key] !== undefined && admits(hide[key], value);
	return !hidden('resource', resource) && !hidden('operation', operation) && !hidden('@version', version);
}

/** Every action node's description at each of its versions, with its resources' values. */
export async function actionNodes(): Promise<Array<{ name: string; version: number; description: INodeTypeDescription; resources: string[] }>> {
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
export function operationsOf(description: INodeTypeDescription, resource: string, version: number): string[] {
	return description.properties
		.filter((property) => property.name === 'operation' && shownFor(property, { resource, operation: '', version }) && admits(property.displayOptions?.show?.resource, resource))
		.flatMap((property) => ((property.options ?? []) as INodePropertyOptions[]).map((option) => String(option.value)));
}
