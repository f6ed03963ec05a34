import { Actor } from './auth';
import { Store } from './store';
import { Fields } from './validation';

/** One validated request, as a group's handler receives it. */
export interface Call {
	actor: Actor;
	params: Record<string, string>;
	query: Fields;
	body: Fields;
	store: Store;
}

/** An answer that is a file, not JSON: its bytes with their Content-Type and Content-Disposition. */
export class FileReply {
	constructor(
		readonly data: Buffer,
		readonly contentType: string,
		readonly fileName: string,
	) {}
}

/**
 * Returns the response body (a FileReply for a file, a Promise of either for work that waits); the status is the
 * operation's success code in the contract. Throw `apiError` to fail.
 */
export type Handler = (call: Call) => unknown;

/** The handlers of one endpoint group, keyed by operationId. */
export type Group = Record<string, Handler>;
