import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { InputProblem, inputProblem } from './inputChecks';
import { fetchMany } from './transport/pagination';
import type { ApiRequest } from './transport/request';
import { apiRequest } from './transport/request';
import type { OperationCall, OperationDefinition, ParamSource, ResourceDefinitions } from './types';

/**
 * The one executor: runs the definition of the chosen resource and operation for every input item
 * through the transport, keeping pairedItem and honouring Continue On Fail.
 */

function sourceOf(source: ParamSource): Exclude<ParamSource, string> {
	return typeof source === 'string' ? { param: source } : source;
}

function label(properties: INodeProperties[], param: string): string {
	const top = param.split('.');
	const owner = properties.find((p) => p.name === top[0]);
	const inner = top[1] && owner?.options?.find((o) => 'name' in o && o.name === top[1]);
	return (inner && 'displayName' in inner ? inner.displayName : owner?.displayName) ?? param;
}

/** The properties shown for the resource and operation: names repeat across resources, labels must not mix. */
function shownFor(properties: INodeProperties[], resource: string, operation: string): INodeProperties[] {
	return properties.filter(({ displayOptions }) => {
		const show = displayOptions?.show;
		return (!show?.resource || show.resource.includes(resource)) && (!show?.operation || show.operation.includes(operation));
	});
}

function setPath(target: IDataObject, path: string, value: unknown): void {
	const keys = path.split('.');
	let node = target;
	for (const key of keys.slice(0, -1)) {
		node = (node[key] ??= {}) as IDataObject;
	}
	node[keys[keys.length - 1]] = value as IDataObject[string];
}

/** Answers of lookups in one node run, by request and acting user. A failed lookup is not kept. */
type Lookups = Map<string, Promise<unknown>>;

class ItemRun {
	constructor(
		private readonly ctx: IExecuteFunctions,
		private readonly itemIndex: number,
		private readonly properties: INodeProperties[],
		private readonly lookups: Lookups,
	) {}

	/** A parameter of this item; unset (null, or no value in a collection) reads as undefined. */
	read(param: string): unknown {
		const value = this.ctx.getNodeParameter(param, this.itemIndex, null, { extractValue: true }) ?? undefined;
		return typeof value === 'string' ? value.trim() : value;
	}

	value(source: ParamSource): unknown {
		const { param, check, convert, sendEmpty } = sourceOf(source);
		const value = this.read(param);
		const problem = [check ?? []].flat().map((name) => inputProblem(name, value)).find(Boolean);
		if (problem) this.refuse(`${label(this.properties, param)} ${problem}`, param);
		if (value === '' && !sendEmpty) return undefined;
		if (!convert || value === undefined) return value;
		try {
			return convert(value, { read: (name) => this.read(name), timezone: this.ctx.getTimezone() });
		} catch (error) {
			if (error instanceof InputProblem) this.refuse(`${label(this.properties, param)} ${error.message}`, param);
			throw new NodeOperationError(this.ctx.getNode(), error as Error, { itemIndex: this.itemIndex });
		}
	}

	/** Stops the item before anything is sent. */
	refuse(message: string, param?: string): never {
		const field = param ? `the value of "${label(this.properties, param)}"` : 'the values named above';
		throw new NodeOperationError(this.ctx.getNode(), message, {
			itemIndex: this.itemIndex,
			description: `Item ${this.itemIndex + 1}: fix ${field} and run the node again.`,
		});
	}

	collect(mapping: Record<string, ParamSource> = {}): IDataObject {
		const result: IDataObject = {};
		for (const [key, source] of Object.entries(mapping)) {
			const value = this.value(source);
			if (value !== undefined) setPath(result, key, value);
		}
		return result;
	}

	pathParams(mapping: Record<string, ParamSource> = {}): Record<string, string> {
		const required = Object.fromEntries(
			Object.entries(mapping).map(([key, source]) => [key, { check: 'required' as const, ...sourceOf(source) }]),
		);
		return Object.fromEntries(Object.entries(required).map(([key, source]) => [key, String(this.value(source))]));
	}

	private async lookup(request: ApiRequest): Promise<unknown> {
		const actingUser = this.ctx.getNodeParameter('actAsUser', this.itemIndex, '');
		const key = JSON.stringify([request.path, request.pathParams, request.qs, actingUser]);
		let answer = this.lookups.get(key);
		if (!answer) {
			answer = apiRequest(this.ctx, this.itemIndex, { ...request, method: 'GET' });
			this.lookups.set(key, answer);
			answer.catch(() => this.lookups.delete(key));
		}
		return await answer;
	}

	async run(definition: OperationDefinition): Promise<IDataObject[]> {
		const call: OperationCall = {
			request: {
				method: definition.method,
				path: definition.path,
				pathParams: this.pathParams(definition.pathParams),
				qs: this.collect(definition.query),
				body: definition.method === 'GET' || definition.method === 'DELETE' ? undefined : this.collect(definition.body),
				needsUserContext: definition.needsUserContext,
			},
			read: (name) => this.read(name),
			timezone: this.ctx.getTimezone(),
			lookup: async (request) => await this.lookup(request),
		};
		const problem = definition.check?.(call.request);
		if (problem) this.refuse(problem);
		await definition.prepare?.(call);
		if (definition.pagination) {
			const returnAll = this.ctx.getNodeParameter('returnAll', this.itemIndex, false) as boolean;
			const limit = returnAll ? undefined : (this.ctx.getNodeParameter('limit', this.itemIndex, 50) as number);
			return await fetchMany(this.ctx, this.itemIndex, call.request, definition.pagination, limit);
		}
		const answer = await apiRequest(this.ctx, this.itemIndex, call.request);
		if (definition.output) return definition.output(answer, call);
		return (Array.isArray(answer) ? answer : [answer ?? {}]) as IDataObject[];
	}
}

function asNodeError(ctx: IExecuteFunctions, error: Error, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(ctx.getNode(), error, { itemIndex });
}

export async function executeDefinitions(
	ctx: IExecuteFunctions,
	resources: Record<string, ResourceDefinitions>,
	properties: INodeProperties[],
): Promise<INodeExecutionData[][]> {
	const items = ctx.getInputData();
	const output: INodeExecutionData[] = [];
	const lookups: Lookups = new Map();
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const pairedItem = { item: itemIndex };
		try {
			const resource = ctx.getNodeParameter('resource', itemIndex) as string;
			const operation = ctx.getNodeParameter('operation', itemIndex) as string;
			const definition = resources[resource]?.[operation];
			if (!definition) {
				throw new NodeOperationError(ctx.getNode(), `The operation "${operation}" of "${resource}" is not supported`, { itemIndex });
			}
			const results = await new ItemRun(ctx, itemIndex, shownFor(properties, resource, operation), lookups).run(definition);
			output.push(...results.map((json) => ({ json, pairedItem })));
		} catch (error) {
			if (!ctx.continueOnFail()) throw asNodeError(ctx, error, itemIndex);
			const json = error.description ? { error: error.message, description: error.description } : { error: error.message };
			output.push({ json, pairedItem });
		}
	}
	return [output];
}
