import type { IDataObject, IHttpRequestMethods, INodeProperties } from 'n8n-workflow';

import type { FileDownload, FileUpload } from './binary';
import type { InputCheck } from './inputChecks';
import type { ErrorHints } from './transport/errors';
import type { Pagination } from './transport/pagination';
import type { ApiRequest } from './transport/request';

/** What a converter or an operation hook may read besides its own value. */
export interface InputReader {
	/** Another parameter of the same item as its field's type, unset as undefined (resource locators give their value). */
	read(param: string): unknown;
	/** The workflow's time zone (Settings > Timezone), for dates entered without an offset. */
	timezone: string;
	/** The label of a parameter, to name it in a sentence about another one. */
	label(param: string): string;
	/** The input item's JSON (a resource mapper's "map automatically" reads it). */
	item: IDataObject;
}

/**
 * Turns the parameter's value into what the API expects. Throws InputProblem (inputChecks.ts)
 * with a sentence about the value when it cannot be used; the executor names the field.
 */
export type Converter = (value: unknown, input: InputReader) => unknown;

/**
 * A node parameter that feeds the request: its name (dotted into a collection, e.g.
 * "additionalFields.title"), or an object with checks (in order: ['required', 'email']), checks of the members of
 * a fixed collection's rows (`{ name: { maxLength: 100 } }`), a converter and whether an empty string is sent.
 */
export type ParamSource =
	| string
	| { param: string; check?: InputCheck | InputCheck[]; memberChecks?: Record<string, InputCheck | InputCheck[]>; convert?: Converter; sendEmpty?: boolean };

/** The running operation, as its hooks see it: the request built so far, the inputs, and a way to read more. */
export interface OperationCall extends InputReader {
	request: ApiRequest & { qs: IDataObject; body?: IDataObject };
	/** The operation's `values`: read and checked like query and body, never sent. */
	values: IDataObject;
	/** A Get Many's Limit, read before anything is sent; undefined with Return All on (or for an operation without them). */
	limit?: number;
	/** A GET whose answer is kept for the rest of the node's run: items that ask the same (as the same user) read it once. */
	lookup(request: ApiRequest): Promise<unknown>;
	/** Stops the item after reading the API: what happened, and what to do about it. */
	fail(message: string, advice: string): never;
	/** Sends another request through the transport (not kept: each call reads or writes anew); for `perform`. */
	send(request: ApiRequest): Promise<unknown>;
}

/** One operation of a resource group, as data: the executor turns it into a request. */
export interface OperationDefinition {
	method: IHttpRequestMethods;
	/**
	 * Path template, placeholders in braces: /v4/user/{id}; or the template chosen by the item's inputs (Queue Get Many:
	 * the company's queues or a workspace's). Every placeholder is filled from `pathParams`, never by the hooks.
	 */
	path: string | ((input: InputReader) => string);
	/** Placeholder → node parameter (resource locators give their value); only the placeholders of the path are read. */
	pathParams?: Record<string, ParamSource>;
	/** Query key → node parameter. */
	query?: Record<string, ParamSource>;
	/** Body key (dotted for nested objects, e.g. meetingInfo.name) → node parameter. */
	body?: Record<string, ParamSource>;
	/**
	 * Inputs the operation uses itself and never sends (a prefill added to a link by `output`): read, checked
	 * and converted like query and body, before anything is sent; the hooks get them as `call.values`.
	 */
	values?: Record<string, ParamSource>;
	/** A GET whose answer is the same for every item (a list to pick from): read once per node run, through `lookup`. */
	readOnce?: boolean;
	/** Set for Get Many: the node's Return All and Limit drive the pagination module. */
	pagination?: Pagination;
	/** False for endpoints that work with an API key and no acting user. */
	needsUserContext?: boolean;
	/**
	 * Checks across fields of the built request (end after start, a switch that contradicts a value...):
	 * a problem stops the item before sending.
	 */
	check?: (request: OperationCall['request'], call: OperationCall) => string | undefined;
	/** Runs just before sending: may read what is needed first with `lookup` (the meeting type, to fill its hosts) or set values no single field gives (null to clear). */
	prepare?: (call: OperationCall) => Promise<void>;
	/** Picks the output items from the answer; by default an array gives one item per element. */
	output?: (answer: unknown, call: OperationCall) => IDataObject[];
	/**
	 * The fields the Simplify option keeps of each output item (simplify.ts), as paths: `attendees.email` keeps the email
	 * of each attendee. Its block lists `simplifyOption` (simplify.ts) among its fields.
	 */
	simplify?: string[];
	/**
	 * Instead of sending the built request once: the item's own requests through `call.send` (search, then
	 * write or not), returning its output items.
	 */
	perform?: (call: OperationCall) => Promise<IDataObject[]>;
	/**
	 * Items sent together: each item's request is built and checked alone (a bad item fails alone), then the
	 * bodies of up to `size` items go in one request whose body `wrap` makes from them (the first item's call
	 * reads the node's other fields); `split` returns one output per item of the call, in order. Items whose
	 * `group` differs (fields of the whole request, such as a pipeline, that an expression may set per item) go in
	 * different requests.
	 */
	batch?: {
		size: number;
		group?: (call: OperationCall) => string;
		wrap: (bodies: IDataObject[], call: OperationCall) => IDataObject;
		split: (answer: unknown, bodies: IDataObject[]) => IDataObject[];
	};
	/** The endpoint's own limit (bulk calls: 3 per minute): the transport spaces its calls to stay under it. */
	callsPerMinute?: number;
	/** A file of the input item goes into the body (binary.ts): which parameter names it, where its base64 goes, what it may be. */
	upload?: FileUpload;
	/** The answer is a file (binary.ts): it becomes binary data of the output item, under the property a parameter names. */
	download?: FileDownload;
}

export type ResourceDefinitions = Record<string, OperationDefinition>;

/** A resource locator mode whose value names the record another way than its ID (a contact By Email): how the executor finds the ID, by mode name. */
export type ModeResolvers = Record<string, (value: string, call: Pick<OperationCall, 'lookup' | 'fail'>, label: string) => Promise<string>>;

/** What an action node gives the executor: its resources' definitions, its properties, and its area's mode resolvers and error hints. */
export interface ActionNode {
	resources: Record<string, ResourceDefinitions>;
	properties: INodeProperties[];
	resolvers?: ModeResolvers;
	hints?: ErrorHints;
}
