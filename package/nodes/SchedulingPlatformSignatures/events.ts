import type { TriggerArea } from '../shared/trigger/pollingNode';
import type { WatchedEvent } from '../shared/trigger/watch';

/**
 * Signature events (api-reference §5, designed): the list names no sort, so completed requests are read whole on
 * every poll (one request per 100 completed requests); the event's moment is completedAt.
 */

const signatureEvents: Record<string, WatchedEvent> = {
	signatureCompleted: {
		noun: 'completed signature request',
		list: { path: '/v4/signatures', qs: { status: 'completed' }, pagination: { style: 'offset', itemsKey: 'signatures' } },
		unordered: true,
		happenedAt: (request) => request.completedAt,
		detail: { path: '/v4/signatures/{id}' },
	},
};

const signatureEventOptions = [
	{ name: 'Signature Request Completed', value: 'signatureCompleted', description: 'Every signer has signed' },
];

/** The Scheduling Platform Signatures Trigger's events. */
export const signaturesArea: TriggerArea = {
	events: signatureEvents,
	options: signatureEventOptions,
	filters: [],
	fullRecord: ['signatureCompleted'],
	listSearch: {},
};
