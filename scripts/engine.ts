import './engineEnv';

import { readFileSync } from 'node:fs';

import { Container } from '@n8n/di';
import {
	Cipher,
	CredentialTestContext,
	Credentials,
	EncryptionKeyProxy,
	ExecutionLifecycleHooks,
	HookContext,
	InstanceSettings,
	LoadOptionsContext,
	PackageDirectoryLoader,
	PollContext,
	TriggersAndPollers,
	WebhookContext,
	WorkflowExecute,
} from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialsEncrypted,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	INode,
	INodeCredentialTestResult,
	INodeCredentialsDetails,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IRun,
	IVersionedNodeType,
	IWebhookData,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
	WebhookSetupMethodNames,
} from 'n8n-workflow';
import { ICredentialsHelper, NodeHelpers, Workflow } from 'n8n-workflow';

import { NODE_TYPE, PACKAGE_DIR, PACKAGE_NAME } from './packageDir';
import { usePatientRegexEngine } from './patientRegex';

/**
 * Runs workflows through n8n-core's real engine (WorkflowExecute), with the compiled package loaded
 * by PackageDirectoryLoader, the loader n8n uses for community packages.
 */

export { PACKAGE_DIR, PACKAGE_NAME, NODE_TYPE, CRM_NODE_TYPE, SIGNATURES_NODE_TYPE, MESSENGER_NODE_TYPE, TRIGGER_NODE_TYPE, WEBHOOK_TRIGGER_NODE_TYPE, INVOICING_NODE_TYPE, ROUTING_NODE_TYPE } from './packageDir';
export const ITEMS_NODE_TYPE = 'harness.items';

/** A file to attach to an input item as binary data: read from `path`, as n8n's Read File node would. */
export interface BinaryFile {
	path: string;
	fileName: string;
	mimeType: string;
}

/**
 * A fixture node that emits the items of its "items" parameter: input for multi-item runs. Its "binaries"
 * parameter (one entry per item: binary property → file) attaches files through n8n's prepareBinaryData.
 */
class ItemsNode implements INodeType {
	description = {
		displayName: 'Items',
		name: 'items',
		group: ['input'],
		version: 1,
		description: 'Emits fixed items',
		defaults: { name: 'Items' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [
			{ displayName: 'Items', name: 'items', type: 'json', default: '[]' },
			{ displayName: 'Binaries', name: 'binaries', type: 'json', default: '[]' },
		],
	} as unknown as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = JSON.parse(this.getNodeParameter('items', 0) as string) as IDataObject[];
		const binaries = JSON.parse(this.getNodeParameter('binaries', 0, '[]') as string) as Array<Record<string, BinaryFile>>;
		const output: INodeExecutionData[] = [];
		for (const [index, json] of items.entries()) {
			const files = Object.entries(binaries[index] ?? {});
			if (!files.length) {
				output.push({ json });
				continue;
			}
			const binary: INodeExecutionData['binary'] = {};
			for (const [property, file] of files) binary[property] = await this.helpers.prepareBinaryData(readFileSync(file.path), file.fileName, file.mimeType);
			output.push({ json, binary });
		}
		return [output];
	}
}

function setUpEncryption(): void {
	const instanceSettings = Container.get(InstanceSettings);
	const cipher = Container.get(Cipher);
	const key = {
		id: 'legacy',
		value: cipher.encryptDEKWithInstanceKey(instanceSettings.encryptionKey),
		algorithm: 'aes-256-cbc',
		format: 'no-prefix' as const,
	};
	Container.get(EncryptionKeyProxy).setProvider({
		getActiveKey: async () => key,
		getKeyById: async () => key,
		getLegacyKey: async () => key,
	});
}

class PackageNodeTypes implements INodeTypes {
	constructor(private readonly loader: PackageDirectoryLoader) {}

	getByName(type: string): INodeType | IVersionedNodeType {
		if (type === ITEMS_NODE_TYPE) return new ItemsNode();
		return this.loader.getNode(type.replace(`${PACKAGE_NAME}.`, '')).type;
	}

	getByNameAndVersion(type: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(type), version);
	}

	getKnownTypes() {
		return {};
	}
}

class StoredCredentialsHelper extends ICredentialsHelper {
	private readonly stored = new Map<string, ICredentialsEncrypted>();

	constructor(private readonly loader: PackageDirectoryLoader) {
		super();
	}

	async save(id: string, type: string, data: ICredentialDataDecryptedObject): Promise<void> {
		const credentials = new Credentials({ id, name: id }, type);
		await credentials.setData(data);
		this.stored.set(id, credentials.getDataToSave());
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(credentials: ICredentialDataDecryptedObject, typeName: string, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
		const { authenticate } = this.loader.getCredential(typeName).type;
		if (typeof authenticate !== 'function') throw new Error(`${typeName} has no authenticate function`);
		return await authenticate(credentials, requestOptions);
	}

	async preAuthentication() {
		return undefined;
	}

	async runPreAuthentication() {
		return undefined;
	}

	async getCredentials(details: INodeCredentialsDetails, type: string): Promise<Credentials> {
		const stored = this.stored.get(details.id ?? '');
		if (!stored) throw new Error(`No credentials stored with id ${details.id}`);
		return new Credentials({ id: details.id, name: details.name }, type, stored.data);
	}

	async getDecrypted(_additionalData: IWorkflowExecuteAdditionalData, details: INodeCredentialsDetails, type: string) {
		return await (await this.getCredentials(details, type)).getData();
	}

	async updateCredentials() {}

	async updateCredentialsOauthTokenData() {}

	getCredentialsProperties(type: string) {
		return this.loader.getCredential(type).type.properties;
	}
}

export interface Engine {
	loader: PackageDirectoryLoader;
	nodeTypes: PackageNodeTypes;
	credentialsHelper: StoredCredentialsHelper;
}

let enginePromise: Promise<Engine> | undefined;

export async function getEngine(): Promise<Engine> {
	enginePromise ??= (async () => {
		setUpEncryption();
		usePatientRegexEngine();
		const loader = new PackageDirectoryLoader(PACKAGE_DIR);
		await loader.loadAll();
		return { loader, nodeTypes: new PackageNodeTypes(loader), credentialsHelper: new StoredCredentialsHelper(loader) };
	})();
	return await enginePromise;
}

/** A node type and the version of it a node has. */
export interface TypeVersion {
	type: string;
	version: number;
}

/** The version of a node type that n8n gives a new node: its latest. */
export function latestVersion(description: { version: number | number[] }): number {
	return Math.max(...[description.version].flat());
}

/**
 * The polling trigger that offers an event to new workflows, as the node panel adds it: the trigger whose Event list,
 * as shown on its latest version, has the event.
 */
export async function pollingTriggerOf(event: string): Promise<TypeVersion> {
	const engine = await getEngine();
	for (const description of engine.loader.types.nodes) {
		const version = latestVersion(description);
		const shown = description.properties.filter((property) => property.name === 'event' && (property.displayOptions?.show?.['@version'] ?? [version]).includes(version));
		if (description.polling && shown.some((property) => property.options?.some((option) => 'value' in option && option.value === event))) {
			return { type: `${PACKAGE_NAME}.${description.name}`, version };
		}
	}
	throw new Error(`No polling trigger offers the event ${event}`);
}

/** The action node that offers a resource (resource names do not overlap between the nodes), read from the descriptions. */
export async function actionNodeOf(resource: string): Promise<string> {
	const engine = await getEngine();
	const offers = (description: (typeof engine.loader.types.nodes)[number]) =>
		!description.polling && !description.webhooks && description.properties.some((property) => property.name === 'resource' && property.options?.some((option) => 'value' in option && option.value === resource));
	const description = engine.loader.types.nodes.find(offers);
	if (!description) throw new Error(`No action node offers the resource ${resource}`);
	return `${PACKAGE_NAME}.${description.name}`;
}

function notInTests(): never {
	throw new Error('Not available in the engine harness');
}

function additionalData(engine: Engine, hooks: ExecutionLifecycleHooks): IWorkflowExecuteAdditionalData {
	return {
		credentialsHelper: engine.credentialsHelper,
		hooks,
		executionId: hooks.executionId,
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678/',
		formBaseUrl: 'http://127.0.0.1:5678/form',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
		formTestBaseUrl: 'http://127.0.0.1:5678/form-test',
		webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
		mcpBaseUrl: 'http://127.0.0.1:5678/mcp',
		mcpTestBaseUrl: 'http://127.0.0.1:5678/mcp-test',
		variables: {},
		executeWorkflow: notInTests,
		getRunExecutionData: notInTests,
		getRuntimeCredential: notInTests,
		logAiEvent: () => {},
		startRunnerTask: notInTests,
	} as unknown as IWorkflowExecuteAdditionalData;
}

export interface WorkflowSpec {
	nodes: INode[];
	connections?: Workflow['connectionsBySourceNode'];
	/** The workflow's Settings > Timezone, read by nodes for dates entered without an offset. */
	timezone?: string;
	/** The workflow's ID and name ("wf-test" and "Test" unless given). */
	id?: string;
	name?: string;
}

let executionCounter = 0;

function workflowOf(engine: Engine, spec: WorkflowSpec, staticData: IDataObject = {}) {
	const workflowData = { id: spec.id ?? 'wf-test', name: spec.name ?? 'Test', active: false, nodes: spec.nodes, connections: spec.connections ?? {}, settings: spec.timezone ? { timezone: spec.timezone } : {} };
	const workflow = new Workflow({ ...workflowData, nodeTypes: engine.nodeTypes, staticData });
	const hooks = new ExecutionLifecycleHooks('manual', String(++executionCounter), workflowData as never);
	return { workflow, hooks };
}

/** Calls a listSearch or loadOptions method of the node the way the editor does for a list or a dropdown. */
export async function runLoader(
	node: INode,
	kind: 'listSearch' | 'loadOptions' | 'resourceMapping',
	method: string,
	filter?: string,
	paginationToken?: string,
): Promise<unknown> {
	const engine = await getEngine();
	const { workflow, hooks } = workflowOf(engine, { nodes: [node] });
	// The editor sends the node's current parameters with every loader call (dropdowns that depend on another field read them).
	const context = new LoadOptionsContext(workflow, node, { ...additionalData(engine, hooks), currentNodeParameters: node.parameters }, 'parameters.id');
	const nodeType = engine.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const loader = nodeType.methods?.[kind]?.[method] as ((this: unknown, ...args: unknown[]) => Promise<unknown>) | undefined;
	if (!loader) throw new Error(`No ${kind} method ${method}`);
	return await loader.call(context, filter, paginationToken);
}

/** Executes a workflow manually from its first node, as the editor's "Execute Workflow" does, and returns the run. */
export async function runWorkflow(spec: WorkflowSpec): Promise<IRun> {
	const engine = await getEngine();
	const { workflow, hooks } = workflowOf(engine, spec);
	let finished: IRun | undefined;
	hooks.addHandler('workflowExecuteAfter', (run) => {
		finished = run;
	});
	const startNode = workflow.getNode(spec.nodes[0].name) ?? undefined;
	const run = await new WorkflowExecute(additionalData(engine, hooks), 'manual').run({ workflow, startNode });
	return finished ?? run;
}

/**
 * Tests a credential as n8n's CredentialsTester (packages/cli, 1.x and 2.x) does: the credential type's own `test`
 * request when it has one; otherwise the function a node names in `testedBy` on its entry for the credential
 * type, from its `methods.credentialTest`, called with n8n-core's CredentialTestContext (its `request` helper is
 * n8n's own HTTP client) and the decrypted credential.
 */
export async function testCredential(type: string, data: ICredentialDataDecryptedObject): Promise<INodeCredentialTestResult> {
	const engine = await getEngine();
	const credentialType = engine.loader.getCredential(type).type;
	const request = credentialType.test?.request;
	if (request) return await testByRequest(engine, type, data, request);
	for (const nodeName of Object.keys(engine.loader.known.nodes)) {
		const nodeType = engine.nodeTypes.getByNameAndVersion(`${PACKAGE_NAME}.${nodeName}`);
		const testedBy = nodeType.description.credentials?.find((credential) => credential.name === type)?.testedBy;
		if (typeof testedBy !== 'string') continue;
		const test = nodeType.methods?.credentialTest?.[testedBy];
		if (!test) throw new Error(`${nodeName} names ${testedBy} in testedBy but has no such credentialTest method`);
		const { hooks } = workflowOf(engine, { nodes: [] });
		const context = new CredentialTestContext(additionalData(engine, hooks));
		return await test.call(context, { id: 'credential-under-test', name: 'Credential under test', type, data });
	}
	throw new Error(`${type} has no test request and no node tests it`);
}

async function testByRequest(engine: Engine, type: string, data: ICredentialDataDecryptedObject, request: NonNullable<ICredentialTestRequest['request']>): Promise<INodeCredentialTestResult> {
	const node: INode = { id: 'test', name: 'Credential Test', type: NODE_TYPE, typeVersion: 1, position: [0, 0], parameters: {} };
	const { workflow } = workflowOf(engine, { nodes: [node] });
	const resolve = (value: unknown) => String(workflow.expression.getSimpleParameterValue(node, value as string, 'internal', { $credentials: data }));
	let options: IHttpRequestOptions;
	try {
		options = await engine.credentialsHelper.authenticate(data, type, { method: request.method ?? 'GET', url: request.url ?? '', headers: {} });
	} catch (error) {
		return { status: 'Error', message: (error as Error).message };
	}
	const response = await fetch(`${resolve(request.baseURL)}${options.url}`, { method: options.method, headers: options.headers as Record<string, string> });
	if (response.ok) return { status: 'OK', message: 'Connection tested successfully' };
	const body = (await response.json()) as { message?: string };
	return { status: 'Error', message: `${response.status}: ${String(body.message)}` };
}

/** One poll of a polling trigger, as n8n runs it, and what it left behind. */
export interface PollOutcome {
	/** The items the poll emitted; null when it returned null (n8n starts no execution). */
	items: IDataObject[] | null;
	error?: Error & { description?: string; httpCode?: string };
	/** The node's static data after the poll (a copy, as n8n stores it between polls). */
	staticData: IDataObject;
	/** What the node wrote to n8n's log. */
	logs: Array<{ level: string; message: string }>;
}

/**
 * Polls a trigger node once with n8n-core's PollContext and TriggersAndPollers.runPollFunction (the poll function
 * of n8n 2.x), starting from stored static data. Mode `trigger` is an active workflow's poll, `manual` the
 * editor's Fetch Test Event; `budgetMs` is the budget n8n 2.x gives each poll (its default: 5 minutes).
 */
export async function runPoll(node: INode, staticData: IDataObject, options: { mode?: 'trigger' | 'manual'; budgetMs?: number } = {}): Promise<PollOutcome> {
	const engine = await getEngine();
	const key = `node:${node.name}`;
	const { workflow, hooks } = workflowOf(engine, { nodes: [node] }, { [key]: JSON.parse(JSON.stringify(staticData)) as IDataObject });
	const budget = options.budgetMs === undefined ? undefined : () => options.budgetMs!;
	const context = new PollContext(workflow, node, additionalData(engine, hooks), options.mode ?? 'trigger', 'activate', () => {}, () => {}, undefined, undefined, undefined, budget);
	const logger = context.logger as unknown as Record<'info' | 'warn' | 'error', (message: string) => void>;
	const original = { info: logger.info, warn: logger.warn, error: logger.error };
	const logs: PollOutcome['logs'] = [];
	for (const level of ['info', 'warn', 'error'] as const) logger[level] = (message: string) => logs.push({ level, message });
	const stored = () => JSON.parse(JSON.stringify(workflow.staticData[key] ?? {})) as IDataObject;
	try {
		const answer = await Container.get(TriggersAndPollers).runPollFunction(workflow, node, context);
		return { items: answer === null ? null : answer[0].map((item) => item.json), staticData: stored(), logs };
	} catch (error) {
		return { items: null, error: error as PollOutcome['error'], staticData: stored(), logs };
	} finally {
		Object.assign(logger, original);
	}
}

/** What a webhook node's method or webhook() left behind, as n8n sees it. */
export interface HookOutcome<T> {
	result?: T;
	error?: Error & { description?: string; httpCode?: string };
	/** The node's static data after the call (a copy, as n8n saves it). */
	staticData: IDataObject;
	/** Whether the call changed its workflow's static data: n8n saves it only then (live-webhooks, WorkflowStaticDataService.saveStaticData). */
	staticDataChanged?: boolean;
	logs: Array<{ level: string; message: string }>;
}

/** Where and how a webhook node is served: n8n's public webhook base URL, live (`webhook`) or a test event (`manual`), in which workflow. */
export interface WebhookSetting {
	webhookBaseUrl: string;
	mode?: 'webhook' | 'manual';
	workflowId?: string;
	workflowName?: string;
}

/** Runs a node's method with a logger of the context's own that records its lines (concurrent calls keep theirs apart). */
async function withLogs<T>(context: object, run: () => Promise<T>): Promise<{ value?: T; error?: HookOutcome<T>['error']; logs: HookOutcome<T>['logs'] }> {
	const logs: HookOutcome<T>['logs'] = [];
	const record = (level: string) => (message: string) => logs.push({ level, message });
	const logger = { debug: () => {}, info: record('info'), warn: record('warn'), error: record('error') };
	Object.defineProperty(context, 'logger', { value: logger });
	try {
		return { value: await run(), logs };
	} catch (error) {
		return { error: error as HookOutcome<T>['error'], logs };
	}
}

/** The workflow of one webhook node with its stored static data, the data of its webhook, and how to read the data back. */
async function webhookSetup(node: INode, staticData: IDataObject, setting: WebhookSetting) {
	const engine = await getEngine();
	const key = `node:${node.name}`;
	const { workflow, hooks } = workflowOf(engine, { nodes: [node], id: setting.workflowId, name: setting.workflowName }, { [key]: JSON.parse(JSON.stringify(staticData)) as IDataObject });
	const data = { ...additionalData(engine, hooks), webhookBaseUrl: setting.webhookBaseUrl, webhookTestBaseUrl: `${setting.webhookBaseUrl}-test` };
	const description = engine.nodeTypes.getByNameAndVersion(node.type, node.typeVersion).description.webhooks![0];
	const webhookData: IWebhookData = {
		httpMethod: 'POST',
		node: node.name,
		path: `${node.webhookId}/${String(description.path)}`,
		webhookDescription: description,
		workflowId: workflow.id,
		workflowExecuteAdditionalData: data,
		isTest: setting.mode === 'manual',
	};
	const stored = () => JSON.parse(JSON.stringify(workflow.staticData[key] ?? {})) as IDataObject;
	const changed = () => workflow.staticData.__dataChanged === true;
	return { engine, workflow, data, webhookData, stored, changed };
}

/**
 * Runs one of a webhook node's setup methods (checkExists, create, delete) as n8n's WebhookService does: n8n-core's
 * HookContext on the workflow with the node's stored static data; returns what the method returned and the static
 * data after it.
 */
export async function runHookMethod(node: INode, method: WebhookSetupMethodNames, staticData: IDataObject, setting: WebhookSetting): Promise<HookOutcome<boolean>> {
	const { engine, workflow, webhookData, stored } = await webhookSetup(node, staticData, setting);
	const context = new HookContext(workflow, node, webhookData.workflowExecuteAdditionalData, setting.mode ?? 'webhook', 'activate', webhookData);
	const fn = engine.nodeTypes.getByNameAndVersion(node.type, node.typeVersion).webhookMethods?.default?.[method];
	if (!fn) throw new Error(`The node has no webhook method ${method}`);
	const { value, error, logs } = await withLogs(context, async () => await fn.call(context));
	return { result: value, error, staticData: stored(), logs };
}

/**
 * Hands one HTTP request to a webhook node's webhook() as n8n's WebhookService.runWebhook does: n8n-core's
 * WebhookContext with the request and its response (getResponseObject) in additionalData, from the node's stored
 * static data.
 */
export async function runWebhook(
	node: INode,
	request: { body: unknown; headers: Record<string, string>; response: unknown },
	staticData: IDataObject,
	setting: WebhookSetting,
): Promise<HookOutcome<IWebhookResponseData>> {
	const { engine, workflow, data, webhookData, stored, changed } = await webhookSetup(node, staticData, setting);
	const httpRequest = { body: request.body, headers: request.headers, params: {}, query: {} };
	const context = new WebhookContext(workflow, node, { ...data, httpRequest, httpResponse: request.response } as never, setting.mode ?? 'webhook', webhookData, [], null);
	const nodeType = engine.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const { value, error, logs } = await withLogs(context, async () => (await nodeType.webhook!.call(context)) as IWebhookResponseData);
	return { result: value, error, staticData: stored(), staticDataChanged: changed(), logs };
}
