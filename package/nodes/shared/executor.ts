import type {
	IBinaryKeyData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { FileAnswer, FileUpload } from './binary';
import { downloadedItem, readUpload } from './binary';
import { checkedParameter, InputProblem, inputProblem, isEmpty, memberProblem, propertyOf } from './inputChecks';
import { inParallel, otherItemsReport, PARALLEL_READS, PARALLEL_WRITES } from './parallel';
import { simplified } from './simplify';
import { fetchMany } from './transport/pagination';
import { asNodeError, withHints } from './transport/errors';
import type { ApiRequest } from './transport/request';
import { apiRequest, pathValueProblem } from './transport/request';
import type { ActionNode, InputReader, ModeResolvers, OperationCall, OperationDefinition, ParamSource, ResourceDefinitions } from './types';

/**
 * The one executor: runs the definition of the chosen resource and operation for every input item
 * through the transport, several items at once (parallel.ts), output in input order with pairedItem, and
 * honouring Continue On Fail.
 */

function sourceOf(source: ParamSource): Exclude<ParamSource, string> {
	return typeof source === 'string' ? { param: source } : source;
}

/** Whether a `@version` display condition (a version, or `{ _cnd: { gte | lt } }`) holds for the node's version. */
function versionShown(conditions: unknown[] | undefined, version: number): boolean {
	if (!conditions) return true;
	return conditions.some((condition) => {
		if (typeof condition === 'number') return condition === version;
		const { gte, lt } = (condition as { _cnd?: { gte?: number; lt?: number } })._cnd ?? {};
		return (gte === undefined || version >= gte) && (lt === undefined || version < lt);
	});
}

/**
 * The properties shown for the resource, operation and node version: names repeat across resources (and across
 * versions, where a field changed its type), labels and checks must not mix.
 */
function shownFor(properties: INodeProperties[], resource: string, operation: string, version: number): INodeProperties[] {
	return properties.filter(({ displayOptions }) => {
		const show = displayOptions?.show;
		return (!show?.resource || show.resource.includes(resource)) && (!show?.operation || show.operation.includes(operation)) && versionShown(show?.['@version'], version);
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

/** An output item of one input item: its JSON, and its binary data when the answer was a file. */
interface Output {
	json: IDataObject;
	binary?: IBinaryKeyData;
}

/** Answers of lookups in one node run, by request and acting user. A failed lookup is not kept. */
type Lookups = Map<string, Promise<unknown>>;

/** The resource locators among the shown properties, and those in their collections ("filters.contactId"). */
function locatorParams(properties: INodeProperties[]): string[] {
	return properties.flatMap((property) => {
		if (property.type === 'resourceLocator') return [property.name];
		if (property.type !== 'collection') return [];
		const options = (property.options ?? []) as INodeProperties[];
		return options.filter((option) => option.type === 'resourceLocator').map((option) => `${property.name}.${option.name}`);
	});
}

class ItemRun {
	/** IDs of resource locators in a mode that names the record another way (a contact By Email), by parameter. */
	private readonly resolved = new Map<string, string>();

	constructor(
		private readonly ctx: IExecuteFunctions,
		private readonly itemIndex: number,
		private readonly properties: INodeProperties[],
		private readonly lookups: Lookups,
		private readonly resolvers: ModeResolvers,
	) {}

	label(param: string): string {
		return propertyOf(this.properties, param)?.displayName ?? param;
	}

	/** How an ID field is named: a resource locator "Meeting Type" is "Meeting Type ID". */
	idLabel(param: string): string {
		const label = this.label(param);
		return propertyOf(this.properties, param)?.type === 'resourceLocator' && !/\bID$/.test(label) ? `${label} ID` : label;
	}

	/**
	 * A parameter of this item as its field's type (inputChecks.ts), unset as undefined; a required field left
	 * empty, a value of the wrong type or an ID its resource locator mode refuses stops the item. A parameter that
	 * displayOptions hide is unset: n8n keeps only shown parameters, and cannot extract the value of a hidden one.
	 */
	read(param: string): unknown {
		if (this.ctx.getNodeParameter(param, this.itemIndex, null, { rawExpressions: true }) === null) return undefined;
		const property = propertyOf(this.properties, param);
		const raw = this.ctx.getNodeParameter(param, this.itemIndex, null, { extractValue: true });
		const locator = property?.type === 'resourceLocator' ? (this.ctx.getNodeParameter(param, this.itemIndex, null) as { mode?: string } | null) : null;
		const { value, problem } = checkedParameter(property, this.label(param), raw, locator?.mode);
		if (problem) this.refuse(problem, param);
		if (property?.required && isEmpty(value)) this.refuse(`${this.label(param)} is required`, param);
		return this.resolved.get(param) ?? value;
	}

	/**
	 * Finds the ID of each locator whose mode names the record another way (the node's resolvers: a contact By Email), before
	 * anything reads it: `read` gives the ID from then on. The search is kept for the node run (`lookup`).
	 */
	private async resolveLocators(): Promise<void> {
		for (const param of locatorParams(this.properties)) {
			const locator = this.ctx.getNodeParameter(param, this.itemIndex, null) as { mode?: string } | null;
			const resolve = locator?.mode === undefined ? undefined : this.resolvers[locator.mode];
			const value = resolve && this.read(param);
			if (!resolve || isEmpty(value)) continue;
			const call = { lookup: async (request: ApiRequest) => await this.lookup(request), fail: (message: string, advice: string) => this.stop(message, advice) };
			this.resolved.set(param, await resolve(String(value), call, this.label(param)));
		}
	}

	value(source: ParamSource): unknown {
		const { param, check, memberChecks, convert, sendEmpty } = sourceOf(source);
		const value = this.read(param);
		const problem =
			[check ?? []].flat().map((name) => inputProblem(name, value)).find(Boolean) ??
			(memberChecks && value !== undefined ? memberProblem(propertyOf(this.properties, param)!, value as IDataObject, memberChecks) : undefined);
		if (problem) this.refuse(`${this.label(param)} ${problem}`, param);
		if (value === '' && !sendEmpty) return undefined;
		if (!convert || value === undefined) return value;
		return this.naming(param, () => convert(value, this.reader()));
	}

	/** What converters and hooks may read besides their own value. */
	reader(): InputReader {
		return {
			read: (name) => this.read(name),
			label: (name) => this.label(name),
			timezone: this.ctx.getTimezone(),
			item: this.ctx.getInputData()[this.itemIndex]?.json ?? {},
		};
	}

	/** Runs a rule or converter of the field: an InputProblem becomes a refusal naming the field. */
	private naming<T>(param: string, run: () => T): T {
		try {
			return run();
		} catch (error) {
			if (error instanceof InputProblem) this.refuse(`${this.label(param)} ${error.message}`, param);
			throw asNodeError(this.ctx, error, this.itemIndex);
		}
	}

	/** Stops the item before anything is sent. */
	refuse(message: string, param?: string): never {
		const field = param ? `the value of "${this.label(param)}"` : 'the values named above';
		this.stop(message, `fix ${field} and run the node again.`);
	}

	/** Stops the item: what happened, and what to do about it. */
	stop(message: string, advice: string): never {
		throw new NodeOperationError(this.ctx.getNode(), message, { itemIndex: this.itemIndex, description: `Item ${this.itemIndex + 1}: ${advice}` });
	}

	collect(mapping: Record<string, ParamSource> = {}): IDataObject {
		const result: IDataObject = {};
		for (const [key, source] of Object.entries(mapping)) {
			const value = this.value(source);
			if (value !== undefined) setPath(result, key, value);
		}
		return result;
	}

	/** The definition's path: fixed, or chosen by the item's inputs (Queue Get Many: the company's or a workspace's). */
	private path(definition: OperationDefinition): string {
		return typeof definition.path === 'function' ? definition.path(this.reader()) : definition.path;
	}

	/**
	 * The IDs of the path's placeholders: required, and never empty or only dots (which would change the path once URLs
	 * are normalised; the transport's path builder refuses them too, this names the field).
	 */
	pathParams(path: string, mapping: Record<string, ParamSource> = {}): Record<string, string> {
		const params: Record<string, string> = {};
		for (const [key, source] of Object.entries(mapping).filter(([name]) => path.includes(`{${name}}`))) {
			const { param } = sourceOf(source);
			const value = String(this.value({ check: 'required', ...sourceOf(source) }) ?? '');
			const problem = pathValueProblem(value);
			if (problem) this.refuse(`${this.idLabel(param)} ${problem}: enter the ID of an existing item`, param);
			params[key] = value;
		}
		return params;
	}

	/** The name of a binary property from its parameter (Input Binary Field, Put Output File in Field): required. */
	private binaryProperty(param: string): string {
		return String(this.value({ param, check: 'required' }) ?? '').trim();
	}

	/** The input item's file (binary.ts), checked, into the body: a problem stops the item naming the field. */
	private async upload(body: IDataObject, upload: FileUpload): Promise<void> {
		const property = this.binaryProperty(upload.param);
		const file = await readUpload(this.ctx, this.itemIndex, upload, property).catch((error: Error) => error);
		if (file instanceof InputProblem) this.refuse(`${this.label(upload.param)} ${file.message}`, upload.param);
		if (file instanceof Error) throw asNodeError(this.ctx, file, this.itemIndex);
		setPath(body, upload.content, file.base64);
		if (upload.fileName) setPath(body, upload.fileName, file.fileName);
		if (upload.contentType) setPath(body, upload.contentType, file.mimeType);
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

	/** Return All and Limit of a Get Many (shown for its operation), read with the rest so a bad Limit stops the item before any request. */
	private limit(): number | undefined {
		if (!this.properties.some(({ name }) => name === 'returnAll')) return undefined;
		return this.read('returnAll') === true ? undefined : (this.read('limit') as number);
	}

	/** The item's call: its request built, checked and prepared, not sent yet. */
	async prepared(definition: OperationDefinition): Promise<OperationCall> {
		await this.resolveLocators();
		const path = this.path(definition);
		const call: OperationCall = {
			request: {
				method: definition.method,
				path,
				pathParams: this.pathParams(path, definition.pathParams),
				qs: this.collect(definition.query),
				body: definition.method === 'GET' || definition.method === 'DELETE' ? undefined : this.collect(definition.body),
				needsUserContext: definition.needsUserContext,
				callsPerMinute: definition.callsPerMinute,
			},
			values: this.collect(definition.values),
			limit: this.limit(),
			...this.reader(),
			lookup: async (request) => await this.lookup(request),
			fail: (message, advice) => this.stop(message, advice),
			send: async (request) => await apiRequest(this.ctx, this.itemIndex, request),
		};
		if (definition.upload) await this.upload((call.request.body ??= {}), definition.upload);
		const problem = definition.check?.(call.request, call);
		if (problem) this.refuse(problem);
		await definition.prepare?.(call);
		return call;
	}

	async run(definition: OperationDefinition): Promise<Output[]> {
		const call = await this.prepared(definition);
		if (definition.download) {
			// The answer is a file: asked for as bytes, output as binary data under the property the user names.
			const property = this.binaryProperty(definition.download.param);
			const answer = (await apiRequest(this.ctx, this.itemIndex, { ...call.request, fileAccept: definition.download.accept })) as FileAnswer;
			const request = { pathParams: call.request.pathParams ?? {}, qs: call.request.qs };
			return [await downloadedItem(this.ctx, answer, definition.download, property, request, this.itemIndex)];
		}
		const fields = definition.simplify && this.read('simple') === true ? definition.simplify : undefined;
		const items = await this.answer(definition, call);
		return items.map((json) => ({ json: fields ? simplified(json, fields) : json }));
	}

	private async answer(definition: OperationDefinition, call: OperationCall): Promise<IDataObject[]> {
		if (definition.perform) return await definition.perform(call);
		if (definition.pagination) {
			return await fetchMany(this.ctx, this.itemIndex, call.request, definition.pagination, call.limit);
		}
		const answer = definition.readOnce ? await call.lookup(call.request) : await apiRequest(this.ctx, this.itemIndex, call.request);
		// A DELETE answers 204 with no body: the node says what happened itself.
		if (definition.method === 'DELETE') return [{ deleted: true }];
		if (definition.output) return definition.output(answer, call);
		return (Array.isArray(answer) ? answer : [answer ?? {}]) as IDataObject[];
	}
}

/** An item's output, or the error that stopped it. */
type Outcome = { items: INodeExecutionData[] } | { error: NodeApiError | NodeOperationError };

function definitionOf(ctx: IExecuteFunctions, resources: Record<string, ResourceDefinitions>): { resource: string; operation: string; definition: OperationDefinition } {
	const resource = ctx.getNodeParameter('resource', 0) as string;
	const operation = ctx.getNodeParameter('operation', 0) as string;
	const definition = resources[resource]?.[operation];
	if (!definition) throw new NodeOperationError(ctx.getNode(), `The operation "${operation}" of "${resource}" is not supported`);
	return { resource, operation, definition };
}

/** The failed item as Continue On Fail outputs it. */
function errorItem(error: NodeApiError | NodeOperationError, itemIndex: number): INodeExecutionData {
	// Only `error` and `message`: n8n (1.x and 2.x) sends such an item to the error output under
	// "Continue (using error output)"; any other key would keep it on the success output.
	const json = error.description ? { error: error.message, message: error.description } : { error: error.message };
	return { json, pairedItem: { item: itemIndex } };
}

/** The first failure stops the node; its error also says what became of the other items. */
function firstFailure(outcomes: Array<Outcome | undefined>): NodeApiError | NodeOperationError | undefined {
	const failed = outcomes.findIndex((outcome) => outcome && 'error' in outcome);
	if (failed < 0) return undefined;
	const error = (outcomes[failed] as { error: NodeApiError | NodeOperationError }).error;
	if (outcomes.length > 1) {
		const failures = outcomes.map((outcome) => (outcome === undefined ? undefined : 'error' in outcome ? outcome.error.message : null));
		error.description = `${error.description ?? ''} Of the other items: ${otherItemsReport(failures, failed)}.`.trim();
	}
	return error;
}

/** Runs the node's operation for every input item: `node` is the action node's declarations (types.ts ActionNode). */
export async function executeDefinitions(ctx: IExecuteFunctions, node: ActionNode): Promise<INodeExecutionData[][]> {
	const count = ctx.getInputData().length;
	if (!count) return [[]];
	const { resource, operation, definition } = definitionOf(ctx, node.resources);
	const shown = shownFor(node.properties, resource, operation, ctx.getNode().typeVersion);
	const lookups: Lookups = new Map();
	const itemRun = (itemIndex: number) => new ItemRun(ctx, itemIndex, shown, lookups, node.resolvers ?? {});
	const failed = (error: unknown, itemIndex: number) => withHints(asNodeError(ctx, error as Error, itemIndex), node.hints ?? []);
	const reads = definition.method === 'GET';
	const parallel = itemRun(0).read(reads ? 'requestOptions.parallelReads' : 'requestOptions.parallelWrites');
	const limit = (parallel as number | undefined) ?? (reads ? PARALLEL_READS : PARALLEL_WRITES);
	const continueOnFail = ctx.continueOnFail();
	if (definition.batch) return await runBatches(ctx, definition, count, itemRun, failed, continueOnFail);
	let stopped = false;
	const outcomes = await inParallel<Outcome>(count, limit, async (itemIndex) => {
		try {
			const results = await itemRun(itemIndex).run(definition);
			return { items: results.map((result) => ({ ...result, pairedItem: { item: itemIndex } })) };
		} catch (error) {
			stopped = !continueOnFail;
			return { error: failed(error, itemIndex) };
		}
	}, () => stopped);
	const failure = continueOnFail ? undefined : firstFailure(outcomes);
	if (failure) throw failure;
	return [outcomes.flatMap((outcome, itemIndex) => (outcome && 'error' in outcome ? [errorItem(outcome.error, itemIndex)] : (outcome?.items ?? [])))];
}

/** Requests of up to `size` items, in input order; items of another `group` go in requests of their own. */
function chunks<T extends { call: OperationCall }>(calls: T[], size: number, group?: (call: OperationCall) => string): T[][] {
	const groups = new Map<string, T[]>();
	for (const entry of calls) {
		const key = group?.(entry.call) ?? '';
		if (!groups.has(key)) groups.set(key, []);
		groups.get(key)!.push(entry);
	}
	return [...groups.values()].flatMap((members) => Array.from({ length: Math.ceil(members.length / size) }, (_, index) => members.slice(index * size, (index + 1) * size)));
}

/**
 * Items sent together (definition.batch): every item's request is built and checked first (a bad item fails
 * alone), then the calls go one after the other, each with up to `size` items of one group; each item gets its own output.
 * A failed call fails its items (Continue On Fail) or the node.
 */
async function runBatches(
	ctx: IExecuteFunctions,
	definition: OperationDefinition,
	count: number,
	itemRun: (itemIndex: number) => ItemRun,
	failed: (error: unknown, itemIndex: number) => NodeApiError | NodeOperationError,
	continueOnFail: boolean,
): Promise<INodeExecutionData[][]> {
	const { size, wrap, split, group } = definition.batch!;
	const out = new Map<number, INodeExecutionData>();
	const fail = (error: unknown, itemIndex: number) => {
		const nodeError = failed(error, itemIndex);
		if (!continueOnFail) throw nodeError;
		out.set(itemIndex, errorItem(nodeError, itemIndex));
	};
	const calls: Array<{ itemIndex: number; call: OperationCall }> = [];
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		try {
			calls.push({ itemIndex, call: await itemRun(itemIndex).prepared(definition) });
		} catch (error) {
			fail(error, itemIndex);
		}
	}
	for (const chunk of chunks(calls, size, group)) {
		const bodies = chunk.map(({ call }) => call.request.body ?? {});
		const [{ itemIndex: first, call }] = chunk;
		try {
			const answer = await apiRequest(ctx, first, { ...call.request, body: wrap(bodies, call) });
			split(answer, bodies).forEach((json, index) => out.set(chunk[index].itemIndex, { json, pairedItem: { item: chunk[index].itemIndex } }));
		} catch (error) {
			for (const { itemIndex } of chunk) fail(error, itemIndex);
		}
	}
	return [[...out.keys()].sort((a, b) => a - b).map((itemIndex) => out.get(itemIndex)!)];
}
