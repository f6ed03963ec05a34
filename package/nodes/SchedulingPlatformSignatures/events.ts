import { declareArea } from '../shared/trigger/pollingNode';

/**
 * Signature events (api-reference §5, designed): the list names no sort, so completed requests are read whole on
 * every poll (one request per 100 completed requests); the event's moment is completedAt.
 */

/** The Scheduling Platform Signatures Trigger's events. */
export const signaturesArea = declareArea(
	{
		signatureCompleted: {
			option: { name: 'Signature Request Completed', description: 'Every signer has signed' },
			read: {
				noun: 'completed signature request',
				list: { path: '/v4/signatures', qs: { status: 'completed' }, pagination: { style: 'offset', itemsKey: 'signatures' } },
				unordered: true,
				happenedAt: (request) => request.completedAt,
				detail: { path: '/v4/signatures/{id}' },
			},
			fullRecord: true,
		},
	},
	{},
);
