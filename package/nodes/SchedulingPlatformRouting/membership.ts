import type { IDataObject } from 'n8n-workflow';

import type { ApiRequest } from '../shared/transport/request';
import type { OperationCall } from '../shared/types';

/**
 * The API's membership toggles (api-reference §7): a PATCH with `userId` adds the user when absent and removes them
 * when present, so sending it blindly would undo a run's own work when the workflow runs again. Add and Remove read
 * the current members first and send the toggle only when it changes something; the item says what happened
 * (`outcome`: added, removed or unchanged) beside the record as it is now.
 */
export interface Membership {
	/** The record to read (fresh: not kept for the run), or undefined when there is none yet (a meeting type without queue). */
	current: (call: OperationCall) => Promise<IDataObject | undefined>;
	/** The PATCH that toggles `userId`. */
	toggle: (call: OperationCall, userId: string) => ApiRequest;
	/** The member IDs of the record. */
	members: (record: IDataObject) => string[];
	/** The record shown when nothing was read and nothing changed (Remove from a queue that does not exist). */
	empty?: (call: OperationCall) => IDataObject;
}

export function changeMembership(membership: Membership, want: 'add' | 'remove') {
	return async (call: OperationCall): Promise<IDataObject[]> => {
		const userId = String(call.values.userId);
		const record = await membership.current(call);
		const present = record ? membership.members(record).includes(userId) : false;
		if (present === (want === 'add')) return [{ ...(record ?? membership.empty?.(call) ?? {}), outcome: 'unchanged' }];
		const changed = (await call.send(membership.toggle(call, userId))) as IDataObject;
		return [{ ...changed, outcome: want === 'add' ? 'added' : 'removed' }];
	};
}
