import type { IDataObject } from 'n8n-workflow';

import { oneAtATime } from '../shared/serial';
import type { OperationCall } from '../shared/types';

/**
 * The CRM settings lists the API replaces whole on every write (custom fields of companies and deals, lost reasons:
 * api-reference §3, "a full replace: what is left out is removed"). An operation that changes one entry reads the
 * list anew, changes it, and writes it back whole only when that changes something. Writes of the same list (the
 * items of a run, and other runs in this n8n process) go one after the other, each reading what the one before
 * wrote, so none undoes another's change. The definition's request is the write (PUT); the read is the same path
 * and query with GET.
 */

export interface Rewrite {
	/** The settings as read before the change. */
	before: IDataObject;
	/** The API's answer to the write; undefined when nothing changed and nothing was written. */
	after?: IDataObject;
}

export async function rewriteSettings(call: OperationCall, change: (settings: IDataObject) => IDataObject | undefined): Promise<Rewrite> {
	const { path, qs } = call.request;
	return await oneAtATime(JSON.stringify([path, qs]), async () => {
		const before = ((await call.send({ ...call.request, method: 'GET', body: undefined })) ?? {}) as IDataObject;
		const body = change(before);
		if (!body) return { before };
		return { before, after: ((await call.send({ ...call.request, body })) ?? {}) as IDataObject };
	});
}
