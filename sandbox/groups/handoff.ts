import { Actor } from '../auth';
import { apiError } from '../errors';
import { Group } from '../handler';
import { hostTimeframe } from '../slots';
import { Appointment, Store, User } from '../store';
import { assertMayList, companyUser } from '../visibility';
import { appointmentFor, canSeeAppointment, hostIsFree } from './appointments';

interface HandOffInput {
	appointmentId: string;
	userId?: string;
	queueId?: string;
	queueGroupId?: string;
}

interface BulkInput {
	userId: string[];
	start: string;
	end: string;
	targetUserId?: string;
	targetUserIds?: string[];
	appointmentIds?: string[];
	enableAvailabilityCheck?: boolean;
	ignoreAvailability?: boolean;
}

/** Handoff V4: appointments moved to another host, who must be free at their time. */
export const handoff: Group = {
	handOffAppointment: ({ actor, body, store }) => {
		const { appointmentId, userId, queueId, queueGroupId } = body as unknown as HandOffInput;
		if ([userId, queueId, queueGroupId].filter((id) => id !== undefined).length !== 1) {
			throw apiError(400, 'Expected exactly one of userId, queueId or queueGroupId');
		}
		if (queueId !== undefined) throw apiError(404, 'Queue not found');
		if (queueGroupId !== undefined) throw apiError(404, 'Queue group not found');
		const appointment = appointmentFor(store, actor, appointmentId);
		const newHost = companyUser(store, actor, userId!);
		const problem = handOffProblem(store, appointment, newHost.id);
		if (problem) throw apiError(409, problem);
		moveHost(store, appointment, appointment.userId, newHost.id);
		return appointment;
	},

	/** The company's users but the appointment's hosts; blocked: a handoff to them would be refused. */
	listAvailableHandoffs: ({ actor, query, store }) => {
		if (query.channelId !== undefined) throw apiError(404, 'Channel not found');
		const appointment = query.appointmentId === undefined ? undefined : appointmentFor(store, actor, String(query.appointmentId));
		const users = store
			.companyUsers(actor.company.id)
			.filter((user) => !appointment?.hostIds.includes(user.id) && (query.isOnline !== true || isOnline(store, user)));
		return {
			users: users.map((user) => ({
				id: user.id,
				firstname: user.givenName,
				lastname: user.familyName,
				picture: user.picture,
				blocked: appointment !== undefined && handOffProblem(store, appointment, user.id) !== undefined,
			})),
		};
	},

	handOffBulk: ({ actor, body, store }) => {
		const input = body as unknown as BulkInput;
		if (input.userId.length === 0) throw apiError(400, ['userId should not be empty']);
		if (Date.parse(input.end) <= Date.parse(input.start)) throw apiError(400, ['end must be later than start']);
		const targets = bulkTargets(store, actor, input);
		const hosts = input.userId.map((id) => {
			assertMayList(actor, id);
			return companyUser(store, actor, id).id;
		});
		const { moving, conflicts } = appointmentsToMove(store, actor, hosts, input);
		const success: string[] = [];
		let turn = 0;
		for (const appointment of moving) {
			const inTurn = targets.map((_, index) => targets[(turn + index) % targets.length]);
			const to = newHost(store, appointment, inTurn, input);
			if (to === undefined) {
				conflicts.push(appointment.id);
				turn += 1;
			} else {
				moveHost(store, appointment, hosts.find((host) => appointment.hostIds.includes(host))!, to);
				success.push(appointment.id);
				turn = targets.indexOf(to) + 1;
			}
		}
		return { success, conflicts };
	},
};

/** Why the appointment cannot go to this host, or undefined. A host whose appointment it is already needs no free slot. */
function handOffProblem(store: Store, appointment: Appointment, hostId: string, ignoreAvailability = false): string | undefined {
	if (appointment.isCancelled) return 'A cancelled appointment cannot be handed off';
	if (ignoreAvailability || appointment.hostIds.includes(hostId) || hostIsFree(store, appointment, hostId)) return undefined;
	return 'The new host is not available at this time';
}

/**
 * The target in turn when the appointment may go to them; with enableAvailabilityCheck the first target in turn who
 * is free. Undefined: a conflict.
 */
function newHost(store: Store, appointment: Appointment, inTurn: string[], input: BulkInput): string | undefined {
	const candidates = input.enableAvailabilityCheck ? inTurn : inTurn.slice(0, 1);
	return candidates.find((target) => !handOffProblem(store, appointment, target, input.ignoreAvailability));
}

/** The host `from` becomes `to` (who may be a co-host already), in hostIds and as the calendar holding it. */
function moveHost(store: Store, appointment: Appointment, from: string, to: string): void {
	if (from === to) return;
	appointment.hostIds = [...new Set(appointment.hostIds.map((id) => (id === from ? to : id)))];
	if (appointment.userId === from) appointment.userId = to;
	appointment.updatedAt = store.clock.iso();
}

/** Exactly one of targetUserId and targetUserIds, as users of the company. */
function bulkTargets(store: Store, actor: Actor, { targetUserId, targetUserIds = [] }: BulkInput): string[] {
	if ((targetUserId === undefined) === (targetUserIds.length === 0)) {
		throw apiError(400, 'Expected exactly one of targetUserId or targetUserIds');
	}
	return (targetUserId === undefined ? targetUserIds : [targetUserId]).map((id) => companyUser(store, actor, id).id);
}

/**
 * The hosts' appointments that start in the period, by start, that the caller sees: the ones not cancelled, or only
 * those of appointmentIds (cancelled ones included, to be named as conflicts); a named one not among them is a conflict.
 * Conflicts are appointment IDs only: the API gives no reason.
 */
function appointmentsToMove(store: Store, actor: Actor, hosts: string[], input: BulkInput): { moving: Appointment[]; conflicts: string[] } {
	const [from, to] = [Date.parse(input.start), Date.parse(input.end)];
	const inPeriod = [...store.appointments.values()]
		.filter((appointment) => hosts.some((host) => appointment.hostIds.includes(host)) && canSeeAppointment(actor, appointment))
		.filter((appointment) => Date.parse(appointment.start) >= from && Date.parse(appointment.start) < to)
		.sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
	if (!input.appointmentIds) return { moving: inPeriod.filter((appointment) => !appointment.isCancelled), conflicts: [] };
	const named = new Set(input.appointmentIds);
	const found = new Set(inPeriod.map((appointment) => appointment.id));
	return {
		moving: inPeriod.filter((appointment) => named.has(appointment.id)),
		conflicts: [...named].filter((id) => !found.has(id)),
	};
}

/** Online: inside their working hours now and not in an appointment. */
function isOnline(store: Store, user: User): boolean {
	const now = store.clock.now();
	const timeframe = hostTimeframe(store, { hostId: user.id, start: store.clock.iso(now), end: store.clock.iso(now + 60_000), timezone: user.timezone });
	return timeframe.available.length > 0;
}
