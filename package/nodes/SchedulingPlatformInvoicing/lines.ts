import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { hasAtMostPlaces, InputProblem, shown } from '../shared/inputChecks';
import type { Converter, ParamSource } from '../shared/types';

/**
 * Line items of documents and recurring invoices (api-reference §6 `lineItems`), entered as a list of rows or
 * as the API's JSON. Both become the API's objects and go through the same checks before anything is sent: at
 * least one line and at most 500, a quantity above 0, a unit price (unless a product gives it) and a
 * description (ditto), tax rate and discount from 0 to 100 %, money with at most 4 decimals for unit prices.
 * Left-out description, unit, unit price and tax rate come from the product (the API fills them), else the
 * tax rate from the settings.
 */

export const MAX_LINES = 500;

interface NumberRule {
	label: string;
	min: number;
	max: number;
	places: number;
	/** Above the minimum only (a quantity of 0 is no line). */
	aboveMin?: boolean;
}

const RULES: Record<'quantity' | 'unitPrice' | 'taxRate' | 'discountPercent', NumberRule> = {
	quantity: { label: 'Quantity', min: 0, max: 1_000_000, places: 3, aboveMin: true },
	unitPrice: { label: 'Unit Price', min: 0, max: 100_000_000, places: 4 },
	taxRate: { label: 'Tax Rate (%)', min: 0, max: 100, places: 2 },
	discountPercent: { label: 'Discount (%)', min: 0, max: 100, places: 2 },
};

/** A number of a line (numeric text from an expression accepted), or the sentence that refuses it. */
function lineNumber(value: unknown, rule: NumberRule, where: string): number {
	const parsed = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
	const fits = Number.isFinite(parsed) && (rule.aboveMin ? parsed > rule.min : parsed >= rule.min) && parsed <= rule.max;
	const range = rule.aboveMin ? `above ${rule.min} and at most ${rule.max}` : `from ${rule.min} to ${rule.max}`;
	if (!fits) throw new InputProblem(`need a ${rule.label} ${range} in ${where}, not ${shown(value)}`);
	if (!hasAtMostPlaces(parsed, rule.places)) throw new InputProblem(`need a ${rule.label} with at most ${rule.places} decimal places in ${where}, not ${parsed}`);
	return parsed;
}

const present = (value: unknown) => value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '');

/** The fields of a line (the API drops others silently, so a misspelt one would be lost). */
const LINE_FIELDS = ['productId', 'description', 'quantity', 'unit', 'unitPrice', 'taxRate', 'discountPercent'];

/** One line as the API wants it, checked; `where` names it ("line 2 (Consulting)"). */
function checkedLine(line: IDataObject, index: number): IDataObject {
	const description = present(line.description) ? String(line.description).trim() : undefined;
	const where = `line ${index + 1}${description ? ` (${description.slice(0, 40)})` : ''}`;
	const unknown = Object.keys(line).find((key) => !LINE_FIELDS.includes(key));
	if (unknown) throw new InputProblem(`know no field "${unknown}" (in ${where}); a line has ${LINE_FIELDS.join(', ')}`);
	const productId = present(line.productId) ? String(line.productId).trim() : undefined;
	if (!present(line.quantity)) throw new InputProblem(`need a Quantity in ${where}`);
	if (!productId && !description) throw new InputProblem(`need a Description in ${where}: give one, or pick a product`);
	if (!productId && !present(line.unitPrice)) throw new InputProblem(`need a Unit Price in ${where}: give one, or pick a product`);
	const checked: IDataObject = { productId, description, quantity: lineNumber(line.quantity, RULES.quantity, where) };
	if (present(line.unit)) checked.unit = String(line.unit).trim();
	for (const key of ['unitPrice', 'taxRate', 'discountPercent'] as const) {
		if (present(line[key])) checked[key] = lineNumber(line[key], RULES[key], where);
	}
	return Object.fromEntries(Object.entries(checked).filter(([, value]) => value !== undefined));
}

function checkedLines(lines: unknown[]): IDataObject[] {
	if (lines.length < 1) throw new InputProblem('need at least one line');
	if (lines.length > MAX_LINES) throw new InputProblem(`may hold at most ${MAX_LINES} lines; these are ${lines.length}`);
	return lines.map((line, index) => {
		if (line === null || typeof line !== 'object' || Array.isArray(line)) throw new InputProblem(`need an object for line ${index + 1}, not ${shown(line)}`);
		return checkedLine(line as IDataObject, index);
	});
}

/** The JSON text's value, or undefined when it is not JSON. */
function parsed(text: string): unknown {
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return undefined;
	}
}

/** The JSON of the API's `lineItems`: an array, or text holding one (from an expression or the JSON editor). */
function jsonLines(value: unknown): IDataObject[] {
	const lines = typeof value === 'string' ? parsed(value) : value;
	if (lines === undefined) throw new InputProblem('need JSON in Lines (JSON): an array of lines such as [{"description": "Consulting", "quantity": 2, "unitPrice": 120}]');
	if (!Array.isArray(lines)) throw new InputProblem(`need an array in Lines (JSON), not ${shown(lines)}`);
	return checkedLines(lines);
}

/**
 * The lines by the input mode (the value of `lineItemsMode`): the form's rows or the JSON, checked; Update's
 * "Keep" gives nothing, so no line changes.
 */
export const lineItems: Converter = (mode, input) => {
	if (mode === 'json') return jsonLines(input.read('lineItemsJson') ?? '[]');
	if (mode === 'form') return checkedLines(((input.read('lineItemsForm') as IDataObject | undefined)?.line ?? []) as IDataObject[]);
	return undefined;
};

/** The body source of `lineItems`. */
export const lineItemsSource: ParamSource = { param: 'lineItemsMode', convert: lineItems };

/**
 * The fields of a line row, in the order one fills them: Product first (it fills what the row leaves empty), then
 * what is billed, how many, and the price. n8n shows a row's fields in this order; the lint's alphabetical rule reads
 * only literal lists (it exempts address rows, whose order carries meaning as this one's does), so the list is named.
 */
const LINE_ROW_FIELDS: INodeProperties[] = [
	{
		displayName: 'Product Name or ID',
		name: 'productId',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getProducts' },
		default: '',
		description:
			'A product fills the description, unit, unit price and tax rate this row leaves empty. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{ displayName: 'Description', name: 'description', type: 'string', default: '', placeholder: 'e.g. Consulting, March', description: 'What is billed (empty: the product\'s name)' },
	{
		displayName: 'Quantity',
		name: 'quantity',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 3 },
		default: 1,
		description: 'How many units (above 0, up to 3 decimals)',
	},
	{ displayName: 'Unit', name: 'unit', type: 'string', default: '', placeholder: 'e.g. hour', description: 'The unit of the quantity (empty: the product\'s)' },
	{
		displayName: 'Unit Price',
		name: 'unitPrice',
		type: 'string',
		default: '',
		placeholder: 'e.g. 120.00',
		description: 'The net price of one unit, up to 4 decimals (empty: the product\'s price)',
	},
	{
		displayName: 'Tax Rate (%)',
		name: 'taxRate',
		type: 'string',
		default: '',
		placeholder: 'e.g. 19',
		description: 'The VAT rate from 0 to 100 (empty: the product\'s, else the Default Tax Rate of the settings)',
	},
	{
		displayName: 'Discount (%)',
		name: 'discountPercent',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 100, numberPrecision: 2 },
		default: 0,
		description: 'A discount on this line, from 0 to 100',
	},
];

/**
 * The properties of the line items, for the block of the operation that lists them: the mode, the rows and the JSON;
 * `keep` adds Update's "Keep Current Lines".
 */
export function lineItemsProperties(keep: boolean): INodeProperties[] {
	const modes = [
		{ name: 'Using Fields Below', value: 'form', description: 'One row per line' },
		{ name: 'Using JSON', value: 'json', description: 'The lines as the API\'s JSON array' },
	];
	const when = (mode: string) => ({ show: { lineItemsMode: [mode] } });
	const mode: INodeProperties = {
		displayName: 'Line Items',
		name: 'lineItemsMode',
		type: 'options',
		noDataExpression: true,
		options: modes,
		default: 'form',
		description: 'How the lines are entered',
	};
	const keepMode = { options: [{ name: 'Keep Current Lines', value: 'keep', description: 'Change no line' }, ...modes.map((option) => ({ ...option, name: `Replace ${option.name}` }))], default: 'keep' };
	return [
		keep ? { ...mode, ...keepMode } : mode,
		{
			displayName: 'Lines',
			name: 'lineItemsForm',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true, sortable: true },
			placeholder: 'Add Line',
			default: {},
			displayOptions: when('form'),
			description: 'The lines, in order (1 to 500). Each line is rounded to the cent on its own, then the lines are summed per tax rate.',
			options: [
				{
					displayName: 'Line',
					name: 'line',
					values: LINE_ROW_FIELDS,
				},
			],
		},
		{
			displayName: 'Lines (JSON)',
			name: 'lineItemsJson',
			type: 'json',
			default: '[]',
			displayOptions: when('json'),
			description:
				'An array of lines, e.g. [{"description": "Consulting", "quantity": 2, "unitPrice": 120, "taxRate": 19}]: quantity, and description and unitPrice unless a productId gives them; unit, taxRate and discountPercent optional',
		},
	];
}
