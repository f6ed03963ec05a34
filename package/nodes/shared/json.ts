import { InputProblem, shown } from './inputChecks';
import type { Converter } from './types';

/** The value of JSON text, or why it is not JSON. */
function parse(text: string): { parsed?: unknown; problem?: string } {
	try {
		return { parsed: JSON.parse(text) as unknown };
	} catch (error) {
		return { problem: (error as Error).message };
	}
}

/**
 * A JSON field's value as the API's object or list: text from the editor's JSON field is parsed, a value from an
 * expression taken as it is; anything else (bad JSON, a list where an object belongs) is refused naming the field.
 */
export function jsonOf(kind: 'object' | 'array'): Converter {
	return (value) => {
		const { parsed, problem } = typeof value === 'string' ? parse(value) : { parsed: value };
		if (problem) throw new InputProblem(`must be valid JSON: ${problem}`);
		const isArray = Array.isArray(parsed);
		const fits = kind === 'array' ? isArray : typeof parsed === 'object' && parsed !== null && !isArray;
		if (!fits) throw new InputProblem(`must be a JSON ${kind}, not ${shown(parsed)}`);
		return parsed;
	};
}
