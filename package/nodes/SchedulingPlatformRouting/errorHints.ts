import type { ErrorHints } from '../shared/transport/errors';

/**
 * How to fix the Routing API's own error sentences (first match wins), more precise than the fix for the HTTP status:
 * the executor puts the first that matches the API's words into the error's description and hint (shared/transport/errors.ts).
 */
export const routingErrorHints: ErrorHints = [
	[/is not a host of this queue/i, 'Add the user to the queue first (Queue → Add Host), then set their capacity, priority or link.'],
	[/mainGroupHostId must be a member of the group/i, 'Add the user to the group first (Queue User Group → Add Member), then make them its main host.'],
	[/queueId is not the queue of this meeting type/i, 'Use the meeting type\'s own queue (its queueId), or leave Hosts and Queue ID empty so the node takes it from the meeting type.'],
	[/The queue has no hosts/i, 'Add hosts to the queue first (Routing: Queue → Add Host).'],
	[/The provisional booking is (confirmed|declined_by_host|expired)/i, 'Nothing to decide any more: Provisional Booking → Get Many shows its status.'],
	[/template is already assigned to this user/i, 'Nothing to do: the user already has a meeting type from this template (Meeting Type → Get Many).'],
];
