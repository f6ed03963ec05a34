import type { IDataObject, INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';

import { isUuid } from './transport/credentialChecks';

/**
 * Checks of user input that can be made before a request is sent:
 * - one rule per field type (`typedValue`), driven by the property's own description (type, options,
 *   minValue/maxValue, numberPrecision: 0 for whole numbers, n for at most n decimal places), so every field of every node gets it and
 *   values from expressions are converted or refused the same way; the members of a fixed collection's rows and of a
 *   collection get the rules of their own descriptions too (and `required`), a refusal naming the row;
 * - named checks a definition adds for what the type cannot say (`inputProblem`: email, UUID, ...).
 */

/**
 * A value that cannot be sent, said as the end of a sentence about it ("must be an email address...").
 * Rules and converters throw it; the executor names the field and the item.
 */
export class InputProblem extends Error {}

export type InputCheck = 'email' | 'timezone' | 'uuid' | 'required' | 'phone' | 'url' | 'currency' | { maxLength: number };

/** Local part and domain of an email: no empty dot-separated parts (so no "..", no leading or trailing dot). */
const EMAIL = /^[^\s@.]+(\.[^\s@.]+)*@([\p{L}\p{N}](-*[\p{L}\p{N}])*\.)+\p{L}[\p{L}\p{N}-]*[\p{L}\p{N}]$/iu;
const E164 = /^\+[1-9]\d{6,14}$/;
const COLOR = /^#[0-9a-f]{6}$/i;

export const UUID_EXAMPLE = '6f1c2a7e-1b2c-4d5e-8f90-123456789abc';

/**
 * n8n's own validation of a resource locator's "By ID" mode, for IDs that are UUIDs: the editor shows the
 * message under the field and refuses a wrong literal ID before running; the executor applies the same rule
 * to IDs from expressions. Empty passes: whether an ID is required is the field's own rule.
 */
export function uuidValidation(what: string) {
	return [
		{
			type: 'regex',
			properties: {
				regex: '^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})?$',
				errorMessage: `${what} must be in UUID form, such as ${UUID_EXAMPLE}`,
			},
		},
	];
}

function isWebAddress(value: string): boolean {
	try {
		return ['http:', 'https:'].includes(new URL(value).protocol);
	} catch {
		return false;
	}
}

export function isTimezone(value: string): boolean {
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: value });
		return true;
	} catch {
		return false;
	}
}

export const TIMEZONE_FORM = 'an IANA time zone such as Europe/Berlin or America/New_York';

/** The ISO 4217 currency codes the runtime knows (Intl), upper case. */
const CURRENCIES = new Set((Intl as unknown as { supportedValuesOf(key: 'currency'): string[] }).supportedValuesOf('currency'));

const CHECKS: Record<Exclude<InputCheck, object>, (value: string) => string | undefined> = {
	required: (value) => (value.trim() === '' ? 'is required' : undefined),
	email: (value) => (EMAIL.test(value) ? undefined : `must be an email address such as jane@example.com; "${value}" is not`),
	timezone: (value) => (isTimezone(value) ? undefined : `must be ${TIMEZONE_FORM}; "${value}" is not`),
	uuid: (value) => (isUuid(value) ? undefined : `must be an ID in UUID form, such as ${UUID_EXAMPLE}; "${value}" is not`),
	phone: (value) => (E164.test(value) ? undefined : 'must be a phone number in E.164 form: + and country code, digits only, such as +4915112345678'),
	url: (value) => (isWebAddress(value) ? undefined : 'must be a web address starting with https:// or http://'),
	currency: (value) => (CURRENCIES.has(value) ? undefined : `must be an ISO 4217 currency code in capitals, such as EUR, USD or CHF; "${value}" is not`),
};

/** The problem of a named check with this value, or undefined. Empty values pass every check but 'required'. */
export function inputProblem(check: InputCheck, value: unknown): string | undefined {
	if (check !== 'required' && isEmpty(value)) return undefined;
	if (typeof check === 'object') {
		const length = String(value).length;
		return length > check.maxLength ? `must be at most ${check.maxLength} characters long; it has ${length}` : undefined;
	}
	return CHECKS[check](String(value ?? ''));
}

/** Email addresses separated by commas (CC, guests), each checked, at most `max`; for a field's `convert`. */
export function emailList(max: number): (value: unknown) => string[] {
	return (value) => {
		const addresses = String(value)
			.split(',')
			.map((address) => address.trim())
			.filter(Boolean);
		const problem = addresses.map((address) => inputProblem('email', address)).find(Boolean);
		if (problem) throw new InputProblem(`must hold email addresses separated by commas; each ${problem}`);
		if (addresses.length > max) throw new InputProblem(`may name at most ${max} addresses; it names ${addresses.length}`);
		return addresses;
	};
}

export function isEmpty(value: unknown): boolean {
	return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

/** How a value is named in a sentence: text quoted, objects and lists by kind. */
export function shown(value: unknown): string {
	if (Array.isArray(value)) return 'a list';
	if (value !== null && typeof value === 'object') return 'an object';
	return typeof value === 'string' ? `"${value}"` : String(value);
}

function text(value: unknown): string {
	if (value !== null && typeof value === 'object') throw new InputProblem(`must be text, not ${shown(value)}`);
	return String(value).trim();
}

function numberKind(property: INodeProperties): string {
	const { minValue, maxValue, numberPrecision } = property.typeOptions ?? {};
	const kind = numberPrecision === 0 ? 'a whole number' : 'a number';
	if (minValue !== undefined && maxValue !== undefined) return `${kind} from ${minValue} to ${maxValue}`;
	if (minValue !== undefined) return `${kind} of at least ${minValue}`;
	return maxValue !== undefined ? `${kind} of at most ${maxValue}` : kind;
}

/** Numbers as people write them: digits with an optional sign and decimal point ("0x10", "1e3" and "Infinity" are not). */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)$/;

function number(value: unknown, property: INodeProperties): number | '' {
	if (typeof value === 'string' && value.trim() === '') return '';
	const parsed = typeof value === 'number' ? value : typeof value === 'string' && DECIMAL.test(value.trim()) ? Number(value.trim()) : NaN;
	const { minValue, maxValue, numberPrecision } = property.typeOptions ?? {};
	const fits =
		Number.isFinite(parsed) &&
		(numberPrecision !== 0 || Number.isInteger(parsed)) &&
		(minValue === undefined || parsed >= minValue) &&
		(maxValue === undefined || parsed <= maxValue);
	const written = typeof value === 'string' && Number.isFinite(Number(value.trim())) && !Number.isFinite(parsed) ? ' in plain decimal digits (such as 12.5)' : '';
	if (!fits) throw new InputProblem(`must be ${numberKind(property)}${written}, not ${shown(value)}`);
	if (numberPrecision && !hasAtMostPlaces(parsed, numberPrecision)) {
		throw new InputProblem(`must be a number with at most ${numberPrecision} decimal places, not ${parsed}`);
	}
	return parsed;
}

/**
 * Whether a number has at most this many decimal places: it equals itself rounded to them, up to the float error of
 * its size (0.1 + 0.2 counts as 0.3, and 12345678.1234 keeps its 4 places).
 */
export function hasAtMostPlaces(value: number, places: number): boolean {
	return Math.abs(Number(value.toFixed(places)) - value) <= 4 * Number.EPSILON * Math.max(1, Math.abs(value));
}

function boolean(value: unknown): boolean {
	if (typeof value === 'boolean') return value;
	const word = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
	if (word === 'true' || word === 'false') return word === 'true';
	throw new InputProblem(`must be true or false, not ${shown(value)}`);
}

/** The option whose value the given one is (an expression may give "false" for false): its own value. */
function option(value: unknown, property: INodeProperties): unknown {
	const options = (property.options ?? []) as INodePropertyOptions[];
	if (!options.length || property.typeOptions?.loadOptionsMethod) {
		if (value !== null && typeof value === 'object') throw new InputProblem(`must be an ID or a value from the list, not ${shown(value)}: give the ID of each object in the expression`);
		return typeof value === 'string' ? value.trim() : value;
	}
	const found = options.find((candidate) => candidate.value === value || String(candidate.value) === text(value));
	if (!found) throw new InputProblem(`must be one of ${options.map((candidate) => shown(candidate.value)).join(', ')}; ${shown(value)} is not`);
	return found.value;
}

function list(value: unknown): unknown[] {
	if (Array.isArray(value)) return value;
	return typeof value === 'string' ? value.split(',').map((part) => part.trim()).filter(Boolean) : [value];
}

const DATE_PARTS = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/;

/** A date and time as text (a Date or Luxon DateTime from an expression becomes ISO text); impossible dates refused. */
function calendarDate(value: unknown): string {
	const iso = value instanceof Date ? value.toISOString() : typeof (value as { toISO?: unknown })?.toISO === 'function' ? String((value as { toISO: () => string }).toISO()) : text(value);
	const [, y, mo, d, h = '0', mi = '0', s = '0'] = DATE_PARTS.exec(iso) ?? [];
	if (!y) return iso;
	const daysInMonth = new Date(Date.UTC(+y, +mo, 0)).getUTCDate();
	if (+mo < 1 || +mo > 12 || +d < 1 || +d > daysInMonth) throw new InputProblem(`must be a real date; ${y}-${mo}-${d} does not exist`);
	if (+h > 23 || +mi > 59 || +s > 59) throw new InputProblem(`must have a time of day from 00:00 to 23:59; "${iso}" does not`);
	return iso;
}

function color(value: unknown): string {
	const given = text(value);
	if (given !== '' && !COLOR.test(given)) throw new InputProblem(`must be a color in #rrggbb form, such as #1a73e8; "${given}" is not`);
	return given;
}

function isObject(value: unknown): value is IDataObject {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A sentence about a member (starting with its label) placed in its row, to follow the field's label: "→ row 2 → Name is required". */
function placed(where: string[], sentence: string): string {
	return ['', ...where, sentence].join(' → ').trim();
}

/**
 * A member of a row or a collection as its own field would be read: its type's rule, a resource locator's value
 * (n8n extracts none inside a row) checked against its mode, `required`; or the refusal, starting with its label.
 */
function member(property: INodeProperties, raw: unknown): { value?: unknown; problem?: string } {
	const locator = property.type === 'resourceLocator' && isObject(raw) ? raw : undefined;
	const checked = checkedParameter(property, property.displayName, locator ? locator.value : raw, locator?.mode);
	if (!checked.problem && property.required && isEmpty(checked.value)) return { problem: `${property.displayName} is required` };
	return checked;
}

/**
 * The members of one row (or of a collection) by their own descriptions, named by `where` when refused. Members
 * left unset are left out (empty text stays: it may mean "none"); members no description names pass as they are.
 */
function members(row: unknown, properties: INodeProperties[], where: string[]): IDataObject {
	if (!isObject(row)) throw new InputProblem(`${where.length ? `→ ${where.join(' → ')} ` : ''}must hold fields, not ${shown(row)}`);
	const checked: IDataObject = { ...row };
	for (const property of properties) {
		const { value, problem } = member(property, row[property.name]);
		if (problem) throw new InputProblem(placed(where, problem));
		if (value === undefined || (value === '' && property.type !== 'string')) delete checked[property.name];
		else checked[property.name] = value as IDataObject[string];
	}
	return checked;
}

/**
 * The rows of a fixed collection, by group (a list with multipleValues, else one row), each with where it is:
 * "row 2", or "Monday → row 2" when the field has several groups.
 */
function rowsOf(property: INodeProperties, value: IDataObject): Array<{ group: INodePropertyCollection; rows: Array<{ row: unknown; where: string[] }> }> {
	const groups = (property.options ?? []) as INodePropertyCollection[];
	const multiple = property.typeOptions?.multipleValues === true;
	return groups
		.filter((group) => value[group.name] !== undefined && value[group.name] !== null)
		.map((group) => {
			const given = value[group.name];
			const named = groups.length > 1 ? [group.displayName] : [];
			const rows = multiple ? (Array.isArray(given) ? given : [given]) : [given];
			return { group, rows: rows.map((row, index) => ({ row, where: multiple ? [...named, `row ${index + 1}`] : named })) };
		});
}

/** A fixed collection's value with every row's members checked and converted by their own descriptions. */
function fixedCollection(value: unknown, property: INodeProperties): IDataObject {
	if (!isObject(value)) throw new InputProblem(`must hold rows of fields, not ${shown(value)}`);
	const checked: IDataObject = { ...value };
	for (const { group, rows } of rowsOf(property, value)) {
		const done = rows.map(({ row, where }) => members(row, group.values, where));
		checked[group.name] = property.typeOptions?.multipleValues === true ? done : done[0];
	}
	return checked;
}

/**
 * One rule per field type: the value as the field's type, converted from what an expression gave, or InputProblem. A
 * resource locator is text (an ID), or a moment when it has a Date and Time mode (Booking Create's Start).
 */
const TYPE_RULES: Partial<Record<INodeProperties['type'], (value: unknown, property: INodeProperties) => unknown>> = {
	string: (value, property) => (property.typeOptions?.multipleValues ? list(value).map(text) : text(value)),
	number,
	boolean,
	options: option,
	multiOptions: (value, property) => list(value).map((item) => option(item, property)),
	dateTime: calendarDate,
	color,
	resourceLocator: (value, property) => (property.modes?.some((mode) => mode.name === 'dateTime') ? calendarDate(value) : text(value)),
	fixedCollection,
	collection: (value, property) => members(value, (property.options ?? []) as INodeProperties[], []),
};

/**
 * The first problem of named checks (`{ email: 'email' }`) on members of a fixed collection's rows, placed
 * ("→ row 2 → Email must be ..."); for a definition's `memberChecks`.
 */
export function memberProblem(property: INodeProperties, value: IDataObject, checks: Record<string, InputCheck | InputCheck[]>): string | undefined {
	for (const { group, rows } of rowsOf(property, value)) {
		for (const { row, where } of rows) {
			for (const [name, named] of Object.entries(checks)) {
				const own = group.values.find((candidate) => candidate.name === name);
				const problem = [named].flat().map((check) => inputProblem(check, (row as IDataObject)[name])).find(Boolean);
				if (problem) return placed(where, `${own?.displayName ?? name} ${problem}`);
			}
		}
	}
	return undefined;
}

/** The value as its field's type; unset (undefined or null) stays undefined, and fields of no known type pass as they are. */
export function typedValue(property: INodeProperties | undefined, value: unknown): unknown {
	if (value === undefined || value === null) return undefined;
	const rule = property && TYPE_RULES[property.type];
	if (rule) return rule(value, property);
	return typeof value === 'string' ? value.trim() : value;
}

/** The property of a parameter: "name", or "collection.option". */
export function propertyOf(properties: INodeProperties[], param: string): INodeProperties | undefined {
	const [top, inner] = param.split('.');
	const owner = properties.find((p) => p.name === top);
	if (!inner) return owner;
	return owner?.options?.find((o): o is INodeProperties => 'name' in o && o.name === inner && 'type' in o);
}

/** What reads a node's parameters: the executor's, a trigger's and a webhook's contexts alike. */
interface ParameterReader {
	getNodeParameter(name: string, fallback: unknown, options?: { extractValue?: boolean }): unknown;
}

/**
 * A parameter of the node as n8n gives it (a resource locator's value, checked against its mode in use) and as its
 * field's type allows, with the field's label for the caller's message.
 */
export function readCheckedParameter(ctx: ParameterReader, properties: INodeProperties[], param: string): { value?: unknown; problem?: string; label: string } {
	const property = propertyOf(properties, param);
	const label = property?.displayName ?? param;
	const locator = property?.type === 'resourceLocator' ? (ctx.getNodeParameter(param, null) as { mode?: string } | null) : null;
	return { ...checkedParameter(property, label, ctx.getNodeParameter(param, null, { extractValue: true }), locator?.mode), label };
}

/** The regex validation of the resource locator mode in use (n8n's own `validation` of a mode), if any. */
function modeValidation(property: INodeProperties, mode: unknown): { regex: string; errorMessage: string } | undefined {
	const rule = property.modes?.find((candidate) => candidate.name === mode)?.validation?.[0];
	return rule && 'properties' in rule ? (rule.properties as { regex: string; errorMessage: string }) : undefined;
}

/**
 * A parameter's value as its field's type (`typedValue`) and, for a resource locator, as the validation of the
 * mode in use allows; or the sentence that refuses it, naming the field (`label`). For a node's items and a
 * trigger's filters alike.
 */
export function checkedParameter(property: INodeProperties | undefined, label: string, raw: unknown, mode?: unknown): { value?: unknown; problem?: string } {
	let value: unknown;
	try {
		value = typedValue(property, raw);
	} catch (error) {
		// The type rules throw InputProblem, a sentence about the value.
		return { problem: `${label} ${(error as Error).message}` };
	}
	const rule = property?.type === 'resourceLocator' && !isEmpty(value) ? modeValidation(property, mode) : undefined;
	if (rule && !new RegExp(rule.regex).test(String(value))) return { problem: `${rule.errorMessage}; "${String(value)}" is not` };
	return { value };
}
