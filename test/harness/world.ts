import { randomUUID } from 'node:crypto';

import type { IBinaryKeyData, ICredentialDataDecryptedObject, IDataObject, INode, INodeListSearchResult, INodePropertyOptions, IRun, ResourceMapperFields } from 'n8n-workflow';

import { sandboxCall, sandboxRequest } from '../../sandbox/client';
import { startSandbox } from '../../sandbox/server';
import type { Sandbox } from '../../sandbox/server';
import type { BinaryFile } from '../../scripts/engine';
import type { PollOutcome } from '../../scripts/engine';
import { assertNoSecret, rememberSecret } from './secrets';
import type { WebhookReceiver, WebhookTrigger } from './webhooks';
import type { TypeVersion } from '../../scripts/engine';
import { WEBHOOK_TRIGGER_NODE_TYPE, ITEMS_NODE_TYPE, NODE_TYPE, actionNodeOf, getEngine, latestVersion, pollingTriggerOf, runLoader, runPoll, runWorkflow } from '../../scripts/engine';

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
	receivedAt: number;
}

export interface NodeRun {
	items: IDataObject[];
	/** The binary data of each output item ({} when it has none). */
	binaries: IBinaryKeyData[];
	paired: number[];
	/** Items of the error output (Continue On Fail "using error output"), with the inputs they pair with. */
	errorItems: IDataObject[];
	errorPaired: number[];
	error?: { message: string; description?: string; httpCode?: string; itemIndex?: number; name: string };
	run: IRun;
}

export interface CredentialRef {
	type: typeof PAT_TYPE | typeof API_KEY_TYPE;
	data: ICredentialDataDecryptedObject;
}

/** The action node of a resource (the node whose Resource list has it); the Scheduling node's default resource without one. */
async function nodeTypeOf(resource: unknown): Promise<string> {
	return resource === undefined ? NODE_TYPE : await actionNodeOf(String(resource));
}

function serialise(value: unknown): string {
	return JSON.stringify(value, (_key, v: unknown) => {
		if (v instanceof Error) return { ...v, name: v.name, message: v.message, stack: v.stack, cause: (v as { cause?: unknown }).cause };
		return v;
	});
}

/** The headers a request with this secret sends: the acting user only when given, the content type only for a JSON body. */
export function authHeaders(secret: string, options: { actAs?: string; json?: boolean } = {}): Record<string, string> {
	const headers: Record<string, string> = { authorization: `Bearer ${secret}` };
	if (options.actAs) headers['x-service-api-user-id'] = options.actAs;
	if (options.json) headers['content-type'] = 'application/json';
	return headers;
}

/** An appointment's attendees. */
export const attendeesOf = (appointment: IDataObject) => appointment.attendees as IDataObject[];

export class World {
	seed!: IDataObject & {
		url: string;
		users: Record<string, IDataObject & { id: string; email: string }>;
		credentials: { ownerPat: string; memberPat: string; apiKey: string };
		companies: Record<string, IDataObject & { id: string }>;
	};

	private credentialCounter = 0;

	private constructor(readonly sandbox: Sandbox) {}

	static async start(): Promise<World> {
		await getEngine();
		const world = new World(await startSandbox());
		world.seed = (await world.control('POST', '/__sandbox/seed')) as World['seed'];
		for (const secret of Object.values(world.seed.credentials)) rememberSecret(secret);
		return world;
	}

	get url(): string {
		return this.sandbox.url;
	}

	async close(): Promise<void> {
		await this.sandbox.close();
	}

	async control(method: string, path: string, body?: unknown): Promise<unknown> {
		return await sandboxCall(this.url, method, path, { body });
	}

	async requests(): Promise<LoggedRequest[]> {
		return (await this.control('GET', '/__sandbox/requests')) as LoggedRequest[];
	}

	async clearRequests(): Promise<void> {
		await this.control('DELETE', '/__sandbox/requests');
	}

	/** Calls the sandbox API directly (not through the node), to set up or cross-check a test. */
	async api(method: string, path: string, secret: string, options: { actAs?: string; body?: unknown } = {}): Promise<{ status: number; body: IDataObject & IDataObject[] }> {
		return await sandboxRequest(this.url, method, path, { token: secret, ...options });
	}

	/**
	 * Calls the API directly for a test's set-up or cross-check: the answer's body, or an error naming the request when
	 * the API refused it. The request log is cleared after (a test reads the node's requests), unless `keepLog`.
	 */
	async call(method: string, path: string, token: string, body?: unknown, options: { keepLog?: boolean } = {}): Promise<IDataObject & IDataObject[]> {
		const answer = await sandboxCall<IDataObject & IDataObject[]>(this.url, method, path, { token, body });
		if (!options.keepLog) await this.clearRequests();
		return answer;
	}

	/**
	 * Books the owner's meeting type through POST /v4/booking with the owner's PAT, as a booking page would
	 * (the attendee's email is first.last@example.com), and returns the appointment. The request log is cleared after.
	 */
	async bookAppointment(meetingTypeId: string, start: string, firstname = 'Grace', lastname = 'Hopper'): Promise<IDataObject> {
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

	/**
	 * Creates a meeting type through POST /v4/meeting-type (the owner's PAT by default; channel phone unless given) and returns its ID.
	 * The request log is cleared after.
	 */
	async createMeetingType(
		name: string,
		options: { duration?: number; channel?: string; spots?: number; availabilityId?: string } = {},
		token = this.seed.credentials.ownerPat,
	): Promise<string> {
		const { duration = 30, channel = 'phone', spots, availabilityId } = options;
		const body = { meetingInfo: { name, description: '', duration, channel }, spots, availabilityId };
		const created = await this.api('POST', '/v4/meeting-type', token, { body });
		if (created.status !== 201) throw new Error(`Creating the meeting type failed (${created.status}): ${JSON.stringify(created.body)}`);
		await this.clearRequests();
		return created.body.id as string;
	}

	/** The meeting types GET /v4/meeting-type lists for the token (the owner's PAT by default). The request log is cleared after. */
	async meetingTypes(token = this.seed.credentials.ownerPat): Promise<Array<IDataObject & { id: string }>> {
		const listed = await this.api('GET', '/v4/meeting-type', token);
		await this.clearRequests();
		return listed.body as unknown as Array<IDataObject & { id: string }>;
	}

	/** The meeting type of that name among those the token lists; throws when there is none. */
	async meetingType(name: string, token = this.seed.credentials.ownerPat): Promise<IDataObject & { id: string }> {
		const found = (await this.meetingTypes(token)).find((type) => (type.meetingInfo as IDataObject).name === name);
		if (!found) throw new Error(`No meeting type named "${name}"`);
		return found;
	}

	/**
	 * Creates an availability of the owner through POST /availability with the owner's PAT and returns its ID.
	 * The request log is cleared after.
	 */
	async createAvailability(
		name: string,
		schedule: IDataObject = { monday: { enabled: true, hours: [{ start: '09:00', end: '17:00' }] } },
		timezone = 'Europe/Berlin',
	): Promise<string> {
		const created = await this.api('POST', '/availability', this.seed.credentials.ownerPat, { body: { name, timezone, schedule } });
		if (created.status !== 201) throw new Error(`Creating the availability failed (${created.status}): ${JSON.stringify(created.body)}`);
		await this.clearRequests();
		return created.body.id as string;
	}

	/** Mints a PAT for the user through the control API; the leak scan looks for it. */
	async mintPat(userId: string, options: { expiresInSeconds?: number; scopes?: string[] } = {}): Promise<{ id: string; token: string }> {
		const minted = (await this.control('POST', '/__sandbox/pats', { userId, ...options })) as { id: string; token: string };
		this.remember(minted.token);
		return minted;
	}

	/** Mints a Platform API key (for the seed company, living 30 days, by default) through the control API; the leak scan looks for it. */
	async mintApiKey(options: { lifetimeDays?: number; companyId?: string } = {}): Promise<{ id: string; key: string }> {
		const { companyId = this.seed.companies.acme.id, lifetimeDays = 30 } = options;
		const minted = (await this.control('POST', '/__sandbox/api-keys', { companyId, lifetimeDays })) as { id: string; key: string };
		this.remember(minted.key);
		return minted;
	}

	/** Registers a secret minted during a test, so the leak scan looks for it too. */
	remember(secret: string): string {
		rememberSecret(secret);
		return secret;
	}

	pat(token = this.seed.credentials.ownerPat): CredentialRef {
		return { type: PAT_TYPE, data: { baseUrl: this.url, token: this.remember(token) } };
	}

	apiKey(actingUserId = '', key = this.seed.credentials.apiKey): CredentialRef {
		return { type: API_KEY_TYPE, data: { baseUrl: this.url, apiKey: this.remember(key), actingUserId } };
	}

	/** The seed API key acting as the owner. */
	ownerKey(): CredentialRef {
		return this.apiKey(this.seed.users.owner.id);
	}

	/** The headers a request with a PAT sends (the owner's by default), for comparing with wire(). */
	patHeaders(token = this.seed.credentials.ownerPat, json = false): Record<string, string> {
		return authHeaders(token, { json });
	}

	/** The headers a request with an API key sends (the seed key acting as the owner by default), for comparing with wire(). */
	keyHeaders(actAs = this.seed.users.owner.id, json = false, key = this.seed.credentials.apiKey): Record<string, string> {
		return authHeaders(key, { actAs, json });
	}

	/**
	 * Runs Scheduling Platform nodes one after the other (Items → steps[0] → steps[1] → ...), each with its
	 * own parameters and expressions over the previous node's items. Returns every step's output items. The Items
	 * node feeds `input` (one empty item by default) under its own name unless `inputName` gives another (the name
	 * an example's expressions read, e.g. `$('New Host')`).
	 */
	async runChain(
		steps: Array<{ name: string; parameters: IDataObject }>,
		credential: CredentialRef,
		options: { input?: IDataObject[]; inputName?: string } = {},
	): Promise<{ outputs: Record<string, IDataObject[]>; error?: NodeRun['error'] }> {
		const nodes: INode[] = [{ ...itemsNode(options.input), name: options.inputName ?? 'Items' }];
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
		// Only the workflow's error, without an item index (runNode reads the node's own error first).
		const error = run.data.resultData.error;
		return { outputs, error: error && errorOf(error) };
	}

	/**
	 * Polls a polling trigger once with these parameters, from the stored static data `state` ({}: never polled), as
	 * an active workflow (mode trigger) or as Fetch Test Event (manual). The trigger is the one that offers the Event
	 * to new workflows (its area's, latest version) unless `node` names another type and version (a workflow saved
	 * with an earlier one). Output and errors are scanned for secrets.
	 */
	async poll(
		parameters: IDataObject,
		credential: CredentialRef,
		options: { state?: IDataObject; mode?: 'trigger' | 'manual'; budgetMs?: number; node?: TypeVersion } = {},
	): Promise<PollOutcome> {
		const node = await this.nodeWith(parameters, credential, options.node);
		const outcome = await runPoll({ ...node, name: 'Scheduling Platform Trigger' }, options.state ?? {}, options);
		assertNoSecret(serialise(outcome));
		return outcome;
	}

	/** Fetch Test Event as the editor runs it: a manual execution of the trigger alone. The run, scanned for secrets. */
	async fetchTestEvent(parameters: IDataObject, credential: CredentialRef): Promise<IRun> {
		const node = await this.nodeWith(parameters, credential);
		const run = await runWorkflow({ nodes: [{ ...node, name: 'Scheduling Platform Trigger' }] });
		assertNoSecret(serialise(run.data));
		return run;
	}

	/**
	 * The Scheduling Platform Webhook Trigger with these parameters, served on the receiver (live unless mode is
	 * `manual`, a test event): its setup methods and deliveries run through n8n-core (harness/webhooks.ts). Its
	 * workflow's ID follows the webhook ID unless given.
	 */
	async webhookTrigger(
		parameters: IDataObject,
		credential: CredentialRef,
		receiver: WebhookReceiver,
		options: { mode?: 'webhook' | 'manual'; workflowId?: string; workflowName?: string; webhookId?: string } = {},
	): Promise<WebhookTrigger> {
		const node = await this.nodeWith(parameters, credential, { type: WEBHOOK_TRIGGER_NODE_TYPE, version: 1 });
		const { webhookId = randomUUID(), ...setting } = options;
		return receiver.serve({ ...node, name: 'Scheduling Platform Webhook Trigger', webhookId }, { workflowId: `wf-${webhookId.slice(0, 8)}`, ...setting });
	}

	/**
	 * The node under test: the given type and version, else the polling trigger that offers the Event, else the node
	 * of its resource (nodeTypeOf), at their latest version.
	 */
	private async nodeWith(parameters: IDataObject, credential: CredentialRef, nodeType?: TypeVersion): Promise<INode> {
		const engine = await getEngine();
		const { type, version } = nodeType ?? (parameters.event === undefined ? latestOf(engine, await nodeTypeOf(parameters.resource)) : await pollingTriggerOf(String(parameters.event)));
		const credentialId = `cred-${++this.credentialCounter}`;
		await engine.credentialsHelper.save(credentialId, credential.type, credential.data);
		const authentication = credential.type === API_KEY_TYPE ? 'apiKey' : 'personalAccessToken';
		return {
			id: 'node-under-test',
			name: 'Scheduling Platform',
			type,
			typeVersion: version,
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

	/** Calls a resourceMapping method, as the editor does when a resource mapper lists its fields. */
	async resourceMapping(method: string, parameters: IDataObject, credential: CredentialRef) {
		return await this.runLoader<ResourceMapperFields>('resourceMapping', method, parameters, credential);
	}

	private async runLoader<T>(kind: 'listSearch' | 'loadOptions' | 'resourceMapping', method: string, parameters: IDataObject, credential: CredentialRef, filter?: string, token?: string) {
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

	/**
	 * Runs the node once, after an Items node that feeds `input` (one empty item by default), at its latest version
	 * unless `version` names an earlier one (a workflow saved with it).
	 */
	async runNode(
		parameters: IDataObject,
		credential: CredentialRef,
		options: { input?: IDataObject[]; binaries?: Array<Record<string, BinaryFile>>; continueOnFail?: boolean | 'errorOutput'; timezone?: string; version?: number } = {},
	): Promise<NodeRun> {
		const node = await this.nodeWith(parameters, credential, options.version === undefined ? undefined : { type: await nodeTypeOf(parameters.resource), version: options.version });
		const onError = { true: 'continueRegularOutput', false: 'stopWorkflow', errorOutput: 'continueErrorOutput' } as const;
		node.onError = onError[String(options.continueOnFail ?? false) as keyof typeof onError];
		const run = await runWorkflow({
			nodes: [itemsNode(options.input, options.binaries), node],
			connections: { Items: { main: [[{ node: node.name, type: 'main', index: 0 }]] } },
			timezone: options.timezone,
		});
		assertNoSecret(serialise(run.data));
		const task = run.data.resultData.runData[node.name]?.[0];
		const [out, failed] = [task?.data?.main?.[0] ?? [], task?.data?.main?.[1] ?? []];
		const error = (task?.error ?? run.data.resultData.error) as NodeRun['error'] & { context?: IDataObject };
		const pairs = (items: typeof out) => items.map((item) => (item.pairedItem as { item: number }).item);
		return {
			items: out.map((item) => item.json),
			binaries: out.map((item) => item.binary ?? {}),
			paired: pairs(out),
			errorItems: failed.map((item) => item.json),
			errorPaired: pairs(failed),
			error: error && { ...errorOf(error), itemIndex: (error.context?.itemIndex as number | undefined) ?? undefined },
			run,
		};
	}
}

function latestOf(engine: Awaited<ReturnType<typeof getEngine>>, type: string): TypeVersion {
	return { type, version: latestVersion(engine.nodeTypes.getByNameAndVersion(type).description) };
}

/** The Items node that starts a test workflow, feeding `input` (one empty item by default) and the files of `binaries`. */
function itemsNode(input: IDataObject[] = [{}], binaries: Array<Record<string, BinaryFile>> = []): INode {
	return { id: 'items', name: 'Items', type: ITEMS_NODE_TYPE, typeVersion: 1, position: [0, 0], parameters: { items: JSON.stringify(input), binaries: JSON.stringify(binaries) } };
}

/** The parts of an execution error that tests compare. */
function errorOf(error: { name: string; message: string; description?: string | null }): Omit<NonNullable<NodeRun['error']>, 'itemIndex'> {
	return {
		name: error.name,
		message: error.message,
		description: error.description ?? undefined,
		httpCode: (error as { httpCode?: string | null }).httpCode ?? undefined,
	};
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
