import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';

import type { InputCheck } from './inputChecks';
import type { Pagination } from './transport/pagination';

/**
 * A node parameter that feeds the request: its name (dotted into a collection, e.g.
 * "additionalFields.title"), or an object with a check and whether an empty string is sent.
 */
export type ParamSource = string | { param: string; check?: InputCheck; sendEmpty?: boolean };

/** One operation of a resource group, as data: the executor turns it into a request. */
export interface OperationDefinition {
	method: IHttpRequestMethods;
	/** Path template, placeholders in braces: /v4/user/{id}. */
	path: string;
	/** Placeholder → node parameter (resource locators give their value). */
	pathParams?: Record<string, ParamSource>;
	/** Query key → node parameter. */
	query?: Record<string, ParamSource>;
	/** Body key (dotted for nested objects, e.g. meetingInfo.name) → node parameter. */
	body?: Record<string, ParamSource>;
	/** Set for Get Many: the node's Return All and Limit drive the pagination module. */
	pagination?: Pagination;
	/** False for endpoints that work with an API key and no acting user. */
	needsUserContext?: boolean;
	/** Picks the output items from the answer; by default an array gives one item per element. */
	output?: (answer: unknown) => IDataObject[];
}

export type ResourceDefinitions = Record<string, OperationDefinition>;
