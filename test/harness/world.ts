import type { ICredentialDataDecryptedObject, IDataObject, INode, INodeListSearchResult, INodePropertyOptions, IRun } from 'n8n-workflow';

import { startSandbox } from '../../sandbox/server';
import type { Sandbox } from '../../sandbox/server';
import { ITEMS_NODE_TYPE, NODE_TYPE, getEngine, runLoader, runWorkflow } from './engine';

/**
 * A test world: a sandbox API server on loopback with seeded data, credentials stored the way n8n
 * stores them, and a runner that executes the Scheduling Platform node through the engine.
 * Every run's full result is scanned for the secrets in use: a leak fails the test.
 */

export const PAT_TYPE = 'schedulingPlatformPatApi';
export const API_KEY_TYPE = 'schedulingPlatformApiKeyApi';

export interface LoggedRequest {
	method: string;
	path: string;
	query: string;
	headers: Record<string, string>;
	body: unknown;
	status: number;
}

export interface NodeRun {
	items: IDataObject[];
	paired: number[];
	error?: { message: string; description?: string; httpCode?: string; itemIndex?: number; name: string };
	run: IRun;
}

export interface CredentialRef {
	type: typeof PAT_TYPE | typeof API_KEY_TYPE;
	data: ICredentialDataDecryptedObject;
}

const secrets = new Set<string>();

function serialise(value: unknown): string {
	return JSON.stringify(value, (_key, v: unknown) => {
		if (v instanceof Error) return { ...v, name: v.name, message: v.message, stack: v.stack, cause: (v as { cause?: unknown }).cause };
		return v;
	});
}

/** Throws when any known secret appears in the text. */
export function assertNoSecret(text: string): void {
	for (const secret of secrets) {
		const core = secret.includes(':') ? secret.split(':').slice(2).join(':') : secret.slice(4);
		if (text.includes(secret) || (core.length >= 8 && text.includes(core))) {
			throw new Error('A credential secret appears in a node output or error');
		}
	}
}

export class World {
	seed!: IDataObject & {
		url: string;
		users: Record<string, IDataObject & { id: string; email: string }>;
		credentials: { ownerPat: string; memberPat: string; apiKey: string };
		companies: Record<string, IDataObject & { id: string }>;
	};

	private credentialCounter = 0;

	private constructor(readonly sandbox: Sandbox) {}

	static async start(options?: Parameters<typeof startSandbox>[0]): Promise<World> {
		await getEngine();
		const world = new World(await startSandbox(options));
		world.seed = (await world.control('POST', '/__sandbox/seed')) as World['seed'];
		for (const secret of Object.values(world.seed.credentials)) secrets.add(secret);
		return world;
	}

	get url(): string {
		return this.sandbox.url;
	}

	async close(): Promise<void> {
		await this.sandbox.close();
	}

	async control(method: string, path: string, body?: unknown): Promise<unknown> {
		const response = await fetch(`${this.url}${path}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		if (!response.ok) throw new Error(`Control ${method} ${path} failed: ${response.status} ${text}`);
		return text ? JSON.parse(text) : undefined;
	}

	async requests(): Promise<LoggedRequest[]> {
		return (await this.control('GET', '/__sandbox/requests')) as LoggedRequest[];
	}

	async clearRequests(): Promise<void> {
		await this.control('DELETE', '/__sandbox/requests');
	}

	/** Calls the sandbox API directly (not through the node), to set up or cross-check a test. */
	async api(method: string, path: string, secret: string, options: { actAs?: string; body?: unknown } = {}): Promise<{ status: number; body: IDataObject & IDataObject[] }> {
		const headers: Record<string, string> = { authorization: `Bearer ${secret}` };
		if (options.actAs) headers['x-service-api-user-id'] = options.actAs;
		if (options.body !== undefined) headers['content-type'] = 'application/json';
		const response = await fetch(`${this.url}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
		const text = await response.text();
		return { status: response.status, body: text ? JSON.parse(text) : undefined };
	}

	/**
	 * Books the owner's meeting type through POST /v4/booking with the owner's PAT, as a booking page would
	 * (the attendee's email is first.last@example.com), and returns the appointment. The request log is cleared after.
	 */
	async bookAppointment(meetingTypeId: string, start: string, firstname: string, lastname: string): Promise<IDataObject> {
		const pat = this.seed.credentials.ownerPat;
		const email = `${firstname}.${lastname}@example.com`.toLowerCase();
		const booked = await this.api('POST', '/v4/booking', pat, {
			body: { meetingTypeId, start, hostIds: [this.seed.users.owner.id], attendee: { email, firstname, lastname, receiveReminders: true, notes: {} } },
		});
		if (booked.status !== 201) throw new Error(`Booking failed (${booked.status}): ${JSON.stringify(booked.body)}`);
		const appointment = await this.api('GET', `/v4/appointment/${booked.body.appointmentId as string}`, pat);
		await this.clearRequests();
		return appointment.body;
	}

	/** Registers a secret minted during a test, so the leak scan looks for it too. */
	remember(secret: string): string {
		secrets.add(secret);
		return secret;
	}

	pat(token = this.seed.credentials.ownerPat): CredentialRef {
		return { type: PAT_TYPE, data: { baseUrl: this.url, token: this.remember(token) } };
	}

	apiKey(actingUserId = '', key = this.seed.credentials.apiKey): CredentialRef {
		return { type: API_KEY_TYPE, data: { baseUrl: this.url, apiKey: this.remember(key), actingUserId } };
	}

	/**
	 * Runs Scheduling Platform nodes one after the other (Items → steps[0] → steps[1] → ...), each with its
	 * own parameters and expressions over the previous node's items. Returns every step's output items.
	 */
	async runChain(steps: Array<{ name: string; parameters: IDataObject }>, credential: CredentialRef): Promise<{ outputs: Record<string, IDataObject[]>; error?: NodeRun['error'] }> {
		const nodes: INode[] = [{ id: 'items', name: 'Items', type: ITEMS_NODE_TYPE, typeVersion: 1, position: [0, 0], parameters: { items: '[{}]' } }];
		for (const [index, step] of steps.entries()) {
			const node = await this.nodeWith(step.parameters, credential);
			nodes.push({ ...node, id: `step-${index}`, name: step.name, position: [200 * (index + 1), 0] });
		}
		const connections = Object.fromEntries(
			nodes.slice(0, -1).map((node, index) => [node.name, { main: [[{ node: nodes[index + 1].name, type: 'main' as const, index: 0 }]] }]),
		);
		const run = await runWorkflow({ nodes, connections });
		assertNoSecret(serialise(run.data));
		const runData = run.data.resultData.runData;
		const outputs = Object.fromEntries(steps.map((step) => [step.name, (runData[step.name]?.[0]?.data?.main?.[0] ?? []).map((item) => item.json)]));
		const error = run.data.resultData.error;
		return { outputs, error: error && { name: error.name, message: error.message, description: error.description ?? undefined, httpCode: (error as { httpCode?: string }).httpCode ?? undefined } };
	}

	private async nodeWith(parameters: IDataObject, credential: CredentialRef): Promise<INode> {
		const engine = await getEngine();
		const credentialId = `cred-${++this.credentialCounter}`;
		await engine.credentialsHelper.save(credentialId, credential.type, credential.data);
		const authentication = credential.type === API_KEY_TYPE ? 'apiKey' : 'personalAccessToken';
		return {
			id: 'node-under-test',
			name: 'Scheduling Platform',
			type: NODE_TYPE,
			typeVersion: 1,
			position: [200, 0],
			parameters: { authentication, ...parameters } as INode['parameters'],
			credentials: { [credential.type]: { id: credentialId, name: credentialId } },
		};
	}

	/** Calls a resource locator's list method as the editor does; errors are returned, scanned for secrets. */
	async listSearch(method: string, parameters: IDataObject, credential: CredentialRef, filter?: string, token?: string) {
		return await this.runLoader<INodeListSearchResult>('listSearch', method, parameters, credential, filter, token);
	}

	/** Calls a loadOptions method, as the editor does when a dropdown opens. */
	async loadOptions(method: string, parameters: IDataObject, credential: CredentialRef) {
		return await this.runLoader<INodePropertyOptions[]>('loadOptions', method, parameters, credential);
	}

	private async runLoader<T>(kind: 'listSearch' | 'loadOptions', method: string, parameters: IDataObject, credential: CredentialRef, filter?: string, token?: string) {
		const node = await this.nodeWith(parameters, credential);
		try {
			const result = (await runLoader(node, kind, method, filter, token)) as T;
			assertNoSecret(serialise(result));
			return { result };
		} catch (error) {
			assertNoSecret(serialise(error));
			return { error: error as Error & { description?: string; httpCode?: string } };
		}
	}

	/** Runs the node once, after an Items node that feeds `input` (one empty item by default). */
	async runNode(
		parameters: IDataObject,
		credential: CredentialRef,
		options: { input?: IDataObject[]; continueOnFail?: boolean; timezone?: string } = {},
	): Promise<NodeRun> {
		const node = await this.nodeWith(parameters, credential);
		node.onError = options.continueOnFail ? 'continueRegularOutput' : 'stopWorkflow';
		const itemsNode: INode = {
			id: 'items',
			name: 'Items',
			type: ITEMS_NODE_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters: { items: JSON.stringify(options.input ?? [{}]) },
		};
		const run = await runWorkflow({
			nodes: [itemsNode, node],
			connections: { Items: { main: [[{ node: node.name, type: 'main', index: 0 }]] } },
			timezone: options.timezone,
		});
		assertNoSecret(serialise(run.data));
		const task = run.data.resultData.runData[node.name]?.[0];
		const out = task?.data?.main?.[0] ?? [];
		const error = (task?.error ?? run.data.resultData.error) as NodeRun['error'] & { context?: IDataObject };
		return {
			items: out.map((item) => item.json),
			paired: out.map((item) => (item.pairedItem as { item: number }).item),
			error: error && {
				name: error.name,
				message: error.message,
				description: error.description ?? undefined,
				httpCode: error.httpCode ?? undefined,
				itemIndex: (error.context?.itemIndex as number | undefined) ?? undefined,
			},
			run,
		};
	}
}

/** The parts of a logged request that the node controls, for exact comparison. */
export function wire(request: LoggedRequest) {
	const headers: Record<string, string> = { authorization: request.headers.authorization };
	if (request.headers['x-service-api-user-id'] !== undefined) headers['x-service-api-user-id'] = request.headers['x-service-api-user-id'];
	if (request.headers['content-type'] !== undefined) headers['content-type'] = request.headers['content-type'];
	return { method: request.method, path: request.path, query: request.query, headers, body: request.body };
}

/** Starts a world for the test file; before each test the request log and the faults are cleared. */
export function useWorld(): () => World {
	let world: World;
	beforeAll(async () => {
		world = await World.start();
	});
	afterAll(async () => await world.close());
	beforeEach(async () => {
		await world.clearRequests();
		await world.control('DELETE', '/__sandbox/faults');
	});
	return () => world;
}

/** A resource locator value in "By ID" mode. */
export const byId = (value: string) => ({ __rl: true, mode: 'id', value });
