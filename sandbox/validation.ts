import { Operation, Parameter, resolve, Schema } from './contract';
import { apiError } from './errors';

export type Fields = Record<string, unknown>;

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

type Check = [(value: unknown) => boolean, string];

const TYPES: Record<string, Check> = {
	string: [(value) => typeof value === 'string', 'must be a string'],
	integer: [Number.isInteger, 'must be an integer number'],
	number: [(value) => typeof value === 'number' && Number.isFinite(value), 'must be a number'],
	boolean: [(value) => typeof value === 'boolean', 'must be a boolean'],
	object: [isObject, 'must be an object'],
	array: [Array.isArray, 'must be an array'],
};

const FORMATS: Record<string, Check> = {
	email: [(value) => typeof value === 'string' && EMAIL.test(value), 'must be an email'],
	uuid: [(value) => typeof value === 'string' && UUID.test(value), 'must be a UUID'],
	'date-time': [isIsoDate, 'must be a valid ISO 8601 date string'],
	'iana-timezone': [isTimeZone, 'must be a valid IANA time zone'],
	uri: [isWebAddress, 'must be a URL address'],
	date: [isCalendarDate, 'must be a valid ISO 8601 date string (YYYY-MM-DD)'],
	currency: [(value) => typeof value === 'string' && CURRENCIES.has(value), 'must be a valid ISO 4217 currency code'],
};

/** The ISO 4217 codes the runtime knows (invoicing's `currency`). */
const CURRENCIES = new Set((Intl as unknown as { supportedValuesOf(key: 'currency'): string[] }).supportedValuesOf('currency'));

/** Checks query and body against the operation; answers 400 listing every failed constraint. */
export function validateRequest(operation: Operation, search: URLSearchParams, body: unknown): { query: Fields; body: Fields } {
	const parameters = (operation.parameters ?? []).filter((parameter) => parameter.in === 'query');
	const bodySchema = operation.requestBody?.content['application/json'].schema;
	return collect((errors) => {
		if (operation['x-strict-query']) refuseUndeclared(parameters, search, errors);
		return {
			query: checkObject(querySchema(parameters), readQuery(parameters, search), '', errors),
			body: bodySchema ? checkRoot(resolve(bodySchema), body, errors) : {},
		};
	});
}

/** Checks a JSON body against an object schema, the same way. */
export function validateBody(schema: Schema, body: unknown): Fields {
	return collect((errors) => checkRoot(schema, body, errors));
}

/** As class-validator's forbidNonWhitelisted: every query key the operation does not declare is an error. */
function refuseUndeclared(parameters: Parameter[], search: URLSearchParams, errors: Set<string>): void {
	const declared = new Set(parameters.map((parameter) => parameter.name));
	for (const key of search.keys()) if (!declared.has(key)) errors.add(`property ${key} should not exist`);
}

function isObject(value: unknown): value is Fields {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function collect<T>(check: (errors: Set<string>) => T): T {
	const errors = new Set<string>();
	const checked = check(errors);
	if (errors.size) throw apiError(400, [...errors]);
	return checked;
}

/**
 * A body that is not a JSON object is checked as an empty one. Unknown fields are dropped, at every depth,
 * except where the schema says `additionalProperties: false`: then each is refused as class-validator's
 * forbidNonWhitelisted does.
 */
function checkRoot(schema: Schema, body: unknown, errors: Set<string>): Fields {
	return checkObject(schema, isObject(body) ? body : {}, '', errors);
}

/** Named properties, then the other keys: checked by an `additionalProperties` schema, refused by `false`, else dropped. */
function checkObject(schema: Schema, value: Fields, path: string, errors: Set<string>): Fields {
	if (!schema.properties && !schema.additionalProperties) return value;
	const { properties = {}, additionalProperties } = schema;
	const others = Object.keys(value).filter((key) => !(key in properties));
	if (additionalProperties === false) {
		for (const key of others) errors.add(`property ${path ? `${path}.${key}` : key} should not exist`);
	}
	const checked: Fields = {};
	const extra = additionalProperties ? others.map((key) => [key, additionalProperties] as const) : [];
	for (const [key, property] of [...Object.entries(properties), ...extra]) {
		const name = path ? `${path}.${key}` : key;
		const required = schema.required?.includes(key) ?? false;
		const result = checkProperty(resolve(property), value[key], name, required, errors);
		if (result !== undefined) checked[key] = result;
	}
	return checked;
}

/**
 * Every constraint is checked on its own, as class-validator does: a missing value fails them all. A missing
 * enum value fails only its list (class-validator's IsEnum alone, as the live service answers).
 */
function checkProperty(schema: Schema, value: unknown, name: string, required: boolean, errors: Set<string>): unknown {
	if (value === undefined && !required) return schema.default;
	if (value === null && schema.nullable) return null;
	if ((value === undefined || value === null) && !schema.enum) errors.add(`${name} should not be empty`);
	for (const message of violations(schema, value)) errors.add(`${name} ${message}`);
	if (schema.type === 'object' && isObject(value)) return checkObject(schema, value, name, errors);
	if (schema.type === 'array' && schema.items && Array.isArray(value)) return checkItems(resolve(schema.items), value, name, errors);
	return value;
}

function checkItems(items: Schema, values: unknown[], name: string, errors: Set<string>): unknown[] {
	if (items.type === 'object') return values.map((value, index) => checkProperty(items, value, `${name}.${index}`, true, errors));
	for (const value of values) for (const message of violations(items, value)) errors.add(`each value in ${name} ${message}`);
	return values;
}

function violations(schema: Schema, value: unknown): string[] {
	const checks: Check[] = [];
	const kind = (schema.format && FORMATS[schema.format]) || TYPES[schema.type ?? ''];
	if (kind && !schema.enum) checks.push(kind);
	if (schema.enum) checks.push([(v) => schema.enum!.includes(v), schema['x-enum-message'] ?? `must be one of the following values: ${schema.enum.join(', ')}`]);
	if (schema.minLength !== undefined) checks.push(minLength(schema.minLength));
	if (schema.maxLength !== undefined) checks.push([(v) => typeof v === 'string' && v.length <= schema.maxLength!, `must be shorter than or equal to ${schema.maxLength} characters`]);
	if (schema.minItems !== undefined) checks.push([(v) => Array.isArray(v) && v.length >= schema.minItems!, `must contain at least ${schema.minItems} elements`]);
	if (schema.maxItems !== undefined) checks.push([(v) => Array.isArray(v) && v.length <= schema.maxItems!, `must contain no more than ${schema.maxItems} elements`]);
	if (schema.pattern) checks.push([(v) => typeof v === 'string' && new RegExp(schema.pattern!).test(v), `must match /${schema.pattern}/ regular expression`]);
	if (schema['x-decimals'] !== undefined) checks.push(decimals(schema['x-decimals']));
	if (schema.maximum !== undefined) checks.push([(v) => typeof v === 'number' && v <= schema.maximum!, `must not be greater than ${schema.maximum}`]);
	if (schema.minimum !== undefined) checks.push([(v) => typeof v === 'number' && v >= schema.minimum!, `must not be less than ${schema.minimum}`]);
	return checks.filter(([passes]) => !passes(value)).map(([, message]) => message);
}

/** At most `places` decimal places (money: 2), as class-validator's IsNumber({ maxDecimalPlaces }). */
function decimals(places: number): Check {
	// Equal to itself rounded to the places, up to the float error of its size (12345678.1234 keeps its 4 places).
	const fits = (value: number) => Math.abs(Number(value.toFixed(places)) - value) <= 4 * Number.EPSILON * Math.max(1, Math.abs(value));
	return [(value) => typeof value !== 'number' || fits(value), `must have no more than ${places} decimal places`];
}

/** `minLength: 1` reads as class-validator's IsNotEmpty: '', null and undefined fail it. */
function minLength(length: number): Check {
	if (length === 1) return [(value) => value !== '' && value !== null && value !== undefined, 'should not be empty'];
	return [(value) => typeof value === 'string' && value.length >= length, `must be longer than or equal to ${length} characters`];
}

function querySchema(parameters: Parameter[]): Schema {
	return {
		type: 'object',
		properties: Object.fromEntries(parameters.map((parameter) => [parameter.name, parameter.schema])),
		required: parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
	};
}

/** Query strings as typed values: numbers and booleans converted, a repeated key (or an array parameter) as an array. */
function readQuery(parameters: Parameter[], search: URLSearchParams): Fields {
	const present = parameters.filter((parameter) => search.has(parameter.name));
	return Object.fromEntries(present.map((parameter) => [parameter.name, queryValue(resolve(parameter.schema), search.getAll(parameter.name))]));
}

function queryValue(schema: Schema, values: string[]): unknown {
	if (schema.type === 'array') return values.map((value) => convert(resolve(schema.items ?? {}), value));
	const converted = values.map((value) => convert(schema, value));
	return converted.length === 1 ? converted[0] : converted;
}

function convert(schema: Schema, value: string): unknown {
	if (schema.type === 'integer' || schema.type === 'number') return Number(value);
	if (schema.type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
	return value;
}

/** A real calendar day, `YYYY-MM-DD` (2026-02-30 is not one). */
function isCalendarDate(value: unknown): boolean {
	if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
	const moment = new Date(`${value}T00:00:00Z`);
	return !Number.isNaN(moment.getTime()) && moment.toISOString().startsWith(value);
}

function isIsoDate(value: unknown): boolean {
	return typeof value === 'string' && ISO_8601.test(value) && !Number.isNaN(Date.parse(value));
}

export function isWebAddress(value: unknown): boolean {
	try {
		return typeof value === 'string' && ['http:', 'https:'].includes(new URL(value).protocol);
	} catch {
		return false;
	}
}

function isTimeZone(value: unknown): boolean {
	if (typeof value !== 'string') return false;
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: value });
		return true;
	} catch {
		return false;
	}
}
