import type { WatchedEvent } from '../../shared/trigger/watch';

/** Signature events (api-reference §5, designed): completed requests newest first by completedAt (designed sort). */

export const signatureEvents: Record<string, WatchedEvent> = {
	signatureCompleted: {
		noun: 'completed signature request',
		list: {
			path: '/v4/signatures',
			qs: { status: 'completed', sortBy: 'completedAt', sortOrder: 'desc' },
			pagination: { style: 'offset', itemsKey: 'signatures' },
		},
		happenedAt: (request) => request.completedAt,
		detail: { path: '/v4/signatures/{id}' },
	},
};

export const signatureEventOptions = [
	{ name: 'Signature Request Completed', value: 'signatureCompleted', description: 'Every signer has signed' },
];
