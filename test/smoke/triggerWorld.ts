import type { IDataObject } from 'n8n-workflow';
import { setTimeout as sleep } from 'timers/promises';

import { sandboxCall } from '../../sandbox/client';
import type { Sandbox } from '../../sandbox/server';
import { TRIGGER_NODE_TYPE } from '../../scripts/realN8n';

/**
 * What the real-n8n trigger suites share: the sandbox as the tests drive it (its API with the owner's token, its
 * control API and request log), bookings at open slots, and workflows of one trigger and one write per item.
 */

export const CREDENTIAL = { schedulingPlatformPatApi: { id: 'spTriggerPat0001', name: 'PAT' } };

export interface Seed {
	credentials: { ownerPat: string };
	users: { owner: { id: string } };
}

export interface Logged {
	method: string;
	path: string;
	query: string;
	body: IDataObject;
	status: number | null;
	receivedAt: number;
}

export class World {
	seed!: Seed;

	constructor(readonly sandbox: Sandbox) {}

	async reseed(): Promise<Seed> {
		this.seed = (await this.control('POST', '/seed')) as Seed;
		return this.seed;
	}

	/** The PAT credential n8n imports for the owner. */
	credentials(): object[] {
		return [{ id: 'spTriggerPat0001', name: 'PAT', type: 'schedulingPlatformPatApi', data: { baseUrl: this.sandbox.url, token: this.seed.credentials.ownerPat } }];
	}

	async api(method: string, path: string, body?: unknown): Promise<IDataObject> {
		return await sandboxCall<IDataObject>(this.sandbox.url, method, path, { token: this.seed.credentials.ownerPat, body });
	}

	async control(method: string, path: string, body?: unknown): Promise<unknown> {
		return await sandboxCall(this.sandbox.url, method, `/__sandbox${path}`, { body });
	}

	async log(): Promise<Logged[]> {
		return (await this.control('GET', '/requests')) as Logged[];
	}

	/** The workflows' writes so far (each is one item of one execution), as "path note". */
	async notes(): Promise<string[]> {
		return (await this.log())
			.filter((request) => request.method === 'PATCH' && request.path.endsWith('/notes'))
			.map((request) => `${request.path} ${String(request.body?.note)}`)
			.sort();
	}

	/** The list requests for appointments so far (every poll of a booking event makes at least one). */
	async appointmentLists(): Promise<Logged[]> {
		return (await this.log()).filter((request) => request.path === '/v4/appointment/paginated');
	}

	async meetingTypeId(): Promise<string> {
		const [meetingType] = (await this.api('GET', '/v4/meeting-type')) as unknown as IDataObject[];
		return String(meetingType.id);
	}

	/** The first open slots of the owner's first meeting type from tomorrow on. */
	async openSlots(count: number): Promise<string[]> {
		const from = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
		const to = new Date(Date.now() + 8 * 86_400_000).toISOString().slice(0, 10);
		const slots = await this.api('GET', `/v4/booking-availability?meetingTypeId=${await this.meetingTypeId()}&start=${from}&end=${to}&hostIds=${this.seed.users.owner.id}`);
		return (slots.dates as Array<{ spots: Array<{ startTime: string }> }>).flatMap((day) => day.spots.map((spot) => spot.startTime)).slice(0, count);
	}

	/** Books each start for a new attendee; the appointments' ids, in order. */
	async book(starts: string[], tag: string): Promise<string[]> {
		const meetingTypeId = await this.meetingTypeId();
		const ids: string[] = [];
		for (const [i, start] of starts.entries()) {
			const attendee = { email: `${tag}${i}@example.com`, firstname: 'Tri', lastname: `Gger ${tag} ${i}`, receiveReminders: true, notes: {} };
			ids.push(String((await this.api('POST', '/v4/booking', { meetingTypeId, start, hostIds: [this.seed.users.owner.id], attendee })).appointmentId));
		}
		return ids;
	}
}

/** A workflow: the trigger on one event, and one write per item it emits: the appointment's notes set to `note`. */
export function notingWorkflow(id: string, name: string, trigger: IDataObject, note: string, nodeType: string): object {
	return {
		id,
		name,
		active: false,
		settings: {},
		connections: { Trigger: { main: [[{ node: 'Mark', type: 'main', index: 0 }]] } },
		nodes: [
			{ id: `${id}-t`, name: 'Trigger', type: TRIGGER_NODE_TYPE, typeVersion: 1, position: [0, 0], parameters: trigger, credentials: CREDENTIAL },
			{
				id: `${id}-m`,
				name: 'Mark',
				type: nodeType,
				typeVersion: 1,
				position: [200, 0],
				credentials: CREDENTIAL,
				parameters: { resource: 'appointment', operation: 'updateNotes', appointmentId: { __rl: true, mode: 'id', value: '={{ $json.id }}' }, note },
			},
		],
	};
}

/** Waits until `ready` holds; on timeout throws with `explain()` (the request log, n8n's output). */
export async function until(what: string, ready: () => Promise<boolean> | boolean, timeoutMs: number, explain: () => Promise<string> | string = () => ''): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await ready())) {
		if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs / 1000} s waiting for ${what}\n${await explain()}`);
		await sleep(250);
	}
}
