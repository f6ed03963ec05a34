import root from './contract/openapi.json';
import appointment from './contract/appointment.json';
import availability from './contract/availability.json';
import booking from './contract/booking.json';
import calendarAndLinks from './contract/calendarAndLinks.json';
import communications from './contract/communications.json';
import crmContact from './contract/crmContact.json';
import crmCompanies from './contract/crmCompanies.json';
import crmSettings from './contract/crmSettings.json';
import deals from './contract/deals.json';
import emails from './contract/emails.json';
import invoicing from './contract/invoicing.json';
import messenger from './contract/messenger.json';
import notes from './contract/notes.json';
import pipelines from './contract/pipelines.json';
import routing from './contract/routing.json';
import signatures from './contract/signatures.json';
import tasks from './contract/tasks.json';
import webhooks from './contract/webhooks.json';

export interface Schema {
	$ref?: string;
	type?: string;
	format?: string;
	enum?: unknown[];
	nullable?: boolean;
	default?: unknown;
	properties?: Record<string, Schema>;
	/**
	 * Keys of an object that `properties` does not name: a Schema checks each (a map such as name → URL), false
	 * refuses them (`property x should not exist`); unset drops them.
	 */
	additionalProperties?: Schema | false;
	required?: string[];
	items?: Schema;
	minimum?: number;
	maximum?: number;
	minLength?: number;
	maxLength?: number;
	minItems?: number;
	maxItems?: number;
	/** Keys an object may have at most (a map such as metadata). */
	maxProperties?: number;
	pattern?: string;
	/** Decimal places a number may have at most (money: 2). */
	'x-decimals'?: number;
	/** The endpoint's own wording of an enum failure, after the property name (`must be a valid enum value`). */
	'x-enum-message'?: string;
}

export interface Parameter {
	name: string;
	in: string;
	required?: boolean;
	schema: Schema;
}

export interface Operation {
	operationId: string;
	parameters?: Parameter[];
	requestBody?: { content: { 'application/json': { schema: Schema } } };
	responses: Record<string, unknown>;
	'x-acting-user'?: string;
	'x-user-management'?: boolean;
	'x-workspace-list'?: boolean;
	'x-feature'?: string;
	/** Query keys the operation does not declare are refused ("property x should not exist"), not dropped. */
	'x-strict-query'?: boolean;
}

interface Contract {
	tags: Array<{ name: string }>;
	paths: Record<string, Record<string, Operation>>;
	components: { schemas: Record<string, Schema> };
}

/** A part of the contract: the tags, paths and schemas of some endpoint groups. */
type Part = Partial<Contract> & { components?: { schemas?: Record<string, Schema> } };

interface Route {
	method: string;
	segments: string[];
	operation: Operation;
	/** The success status of the operation: its first 2xx response. */
	status: number;
}

export interface RouteMatch {
	operation: Operation;
	params: Record<string, string>;
	status: number;
}

/**
 * The contract document: `openapi.json` (conventions, shared components, User and Meeting Type V4) with the
 * tags, paths and schemas of the other group files merged in. A name defined twice is an error.
 */
const contract: Contract = [
	appointment,
	availability,
	booking,
	calendarAndLinks,
	crmContact,
	crmCompanies,
	deals,
	emails,
	pipelines,
	crmSettings,
	tasks,
	notes,
	communications,
	signatures,
	messenger,
	invoicing,
	routing,
	webhooks,
].reduce<Contract>(
	(whole, part: Part) => ({
		...whole,
		tags: [...whole.tags, ...(part.tags ?? [])],
		paths: mergeNew(whole.paths, part.paths ?? {}),
		components: { ...whole.components, schemas: mergeNew(whole.components.schemas, part.components?.schemas ?? {}) },
	}),
	root as unknown as Contract,
);

function mergeNew<T>(into: Record<string, T>, from: Record<string, T>): Record<string, T> {
	const twice = Object.keys(from).filter((key) => key in into);
	if (twice.length) throw new Error(`Defined twice in the contract: ${twice.join(', ')}`);
	return { ...into, ...from };
}

/** Every route of the contract; literal segments win over parameters (`/v4/user/me` before `/v4/user/{id}`). */
const routes: Route[] = Object.entries(contract.paths)
	.flatMap(([path, item]) =>
		Object.entries(item).map(([method, operation]) => ({
			method: method.toUpperCase(),
			segments: path.split('/'),
			operation,
			status: Number(Object.keys(operation.responses).find((code) => code.startsWith('2'))),
		})),
	)
	.sort((a, b) => paramCount(a) - paramCount(b));

export const operations: Operation[] = routes.map((route) => route.operation);

export function resolve(schema: Schema): Schema {
	if (!schema.$ref) return schema;
	const target = contract.components.schemas[schema.$ref.replace('#/components/schemas/', '')];
	if (!target) throw new Error(`Unknown schema ${schema.$ref}`);
	return resolve(target);
}

/** The operation for a request path (a trailing slash is ignored, as Express does), or undefined. */
export function findRoute(method: string, pathname: string): RouteMatch | undefined {
	const segments = pathname.replace(/(.)\/$/, '$1').split('/');
	for (const route of routes) {
		const params = route.method === method ? matchSegments(route.segments, segments) : undefined;
		if (params) return { operation: route.operation, params, status: route.status };
	}
	return undefined;
}

function matchSegments(template: string[], segments: string[]): Record<string, string> | undefined {
	if (template.length !== segments.length) return undefined;
	const params: Record<string, string> = {};
	for (const [index, part] of template.entries()) {
		const name = /^\{(.+)\}$/.exec(part)?.[1];
		const value = name ? decode(segments[index]) : undefined;
		if (name && value) params[name] = value;
		else if (part !== segments[index]) return undefined;
	}
	return params;
}

function decode(segment: string): string | undefined {
	try {
		return decodeURIComponent(segment);
	} catch {
		return undefined;
	}
}

function paramCount(route: Route): number {
	return route.segments.filter((segment) => segment.startsWith('{')).length;
}
