import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * The one tolerant reader of answers (api-reference §1.3, §3, §7). Where the reference marks an answer's form
 * unconfirmed, it names the forms a reader accepts: the items under one of several keys or a bare list, a record
 * bare or wrapped. Every operation, list search and mapper reads such answers here. An answer in none of the
 * accepted forms is an error that says what came back (its keys, never its values), not an empty list.
 */

/** The key (or the keys, in order) that may hold a list's items. */
export type ItemsKey = string | readonly string[];

function isRecord(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function keysOf(itemsKey: ItemsKey): readonly string[] {
	return typeof itemsKey === 'string' ? [itemsKey] : itemsKey;
}

/** The items of a list answer: under the first of the keys that holds a list, or the answer itself when it is one. */
export function itemsIn(answer: unknown, itemsKey?: ItemsKey): IDataObject[] | undefined {
	if (Array.isArray(answer)) return answer as IDataObject[];
	if (!isRecord(answer) || itemsKey === undefined) return undefined;
	const key = keysOf(itemsKey).find((candidate) => Array.isArray(answer[candidate]));
	return key === undefined ? undefined : (answer[key] as IDataObject[]);
}

/** A record answered bare or wrapped under `wrapKey` (Contact Update: `{ item }` or the Contact itself). */
export function recordIn(answer: unknown, wrapKey: string): IDataObject | undefined {
	if (!isRecord(answer)) return undefined;
	return isRecord(answer[wrapKey]) ? (answer[wrapKey] as IDataObject) : answer;
}

/** What an answer is, without any of its values: "an object with the keys data, total", "a text", "nothing". */
export function shapeOf(answer: unknown): string {
	if (answer === undefined || answer === null || answer === '') return 'nothing';
	if (Array.isArray(answer)) return 'a list';
	if (isRecord(answer)) {
		const keys = Object.keys(answer);
		return keys.length ? `an object with the keys ${keys.slice(0, 12).join(', ')}${keys.length > 12 ? ', …' : ''}` : 'an empty object';
	}
	return `a ${typeof answer === 'string' ? 'text' : typeof answer}`;
}

/** The error of an answer in none of the accepted forms: what came back (keys only) and what was expected. */
function unexpected(expected: string, answer: unknown): [message: string, advice: string] {
	return [
		`The API answered in a form this node does not read: ${shapeOf(answer)}`,
		`Expected ${expected}. The API may have changed its answer: please report this to the package's maintainers with the keys above.`,
	];
}

/** How a caller stops: an operation's `call.fail`, or `failWith(node)` where there is no call (pagination, loaders). */
export type Fail = (message: string, advice: string) => never;

export function failWith(node: INode, itemIndex = 0): Fail {
	return (message, description) => {
		throw new NodeOperationError(node, message, { itemIndex, description });
	};
}

/** The items of a list answer; else `fail` says what came back. */
export function readItems(answer: unknown, itemsKey: ItemsKey | undefined, fail: Fail): IDataObject[] {
	const under = itemsKey === undefined ? '' : ` or the items under ${keysOf(itemsKey).map((key) => `"${key}"`).join(' or ')}`;
	return itemsIn(answer, itemsKey) ?? fail(...unexpected(`a list${under}`, answer));
}

/** A record answered bare or under `wrapKey`; else `fail` (an operation's call.fail) says what came back. */
export function readRecord(answer: unknown, wrapKey: string, fail: Fail): IDataObject {
	return recordIn(answer, wrapKey) ?? fail(...unexpected(`a record, bare or under "${wrapKey}"`, answer));
}
