import './env';

import { Container } from '@n8n/di';
import {
	Cipher,
	Credentials,
	EncryptionKeyProxy,
	ExecutionLifecycleHooks,
	InstanceSettings,
	PackageDirectoryLoader,
	WorkflowExecute,
} from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsEncrypted,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IRun,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { ICredentialsHelper, NodeHelpers, Workflow } from 'n8n-workflow';
import { join } from 'path';

/**
 * Runs workflows through n8n-core's real engine (WorkflowExecute), with the compiled package loaded
 * by PackageDirectoryLoader, the loader n8n uses for community packages.
 */

export const PACKAGE_DIR = join(__dirname, '..', '..');
export const PACKAGE_NAME = 'n8n-nodes-scheduling-platform';
export const NODE_TYPE = `${PACKAGE_NAME}.schedulingPlatform`;
export const ITEMS_NODE_TYPE = 'harness.items';

/** A fixture node that emits the items of its "items" parameter: input for multi-item runs. */
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
		properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[]' }],
	} as unknown as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = JSON.parse(this.getNodeParameter('items', 0) as string) as IDataObject[];
		return [items.map((json) => ({ json }))];
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
		const loader = new PackageDirectoryLoader(PACKAGE_DIR);
		await loader.loadAll();
		return { loader, nodeTypes: new PackageNodeTypes(loader), credentialsHelper: new StoredCredentialsHelper(loader) };
	})();
	return await enginePromise;
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
		formBaseUrl: '',
		formWaitingBaseUrl: '',
		formTestBaseUrl: '',
		webhookBaseUrl: '',
		webhookWaitingBaseUrl: '',
		webhookTestBaseUrl: '',
		mcpBaseUrl: '',
		mcpTestBaseUrl: '',
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
}

let executionCounter = 0;

/** Executes a workflow manually, as the editor's "Execute Workflow" does, and returns the run. */
export async function runWorkflow(spec: WorkflowSpec): Promise<IRun> {
	const engine = await getEngine();
	const workflowData = { id: 'wf-test', name: 'Test', active: false, nodes: spec.nodes, connections: spec.connections ?? {}, settings: {} };
	const workflow = new Workflow({ ...workflowData, nodeTypes: engine.nodeTypes, staticData: {} });
	const hooks = new ExecutionLifecycleHooks('manual', String(++executionCounter), workflowData as never);
	let finished: IRun | undefined;
	hooks.addHandler('workflowExecuteAfter', (run) => {
		finished = run;
	});
	const run = await new WorkflowExecute(additionalData(engine, hooks), 'manual').run({ workflow });
	return finished ?? run;
}
