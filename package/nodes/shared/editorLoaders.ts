import type { IDataObject, INodeListSearchResult, INodePropertyOptions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { distinct } from './listSearch';
import { sentence } from './transport/errors';

/**
 * The list methods of a node (listSearch, loadOptions, resourceMapping) for n8n's editor. Its list popup and
 * dropdowns show only an error's message ("Could not load list: <message>"), never its description, so every
 * error thrown while loading a list carries its fix in the message: an API error its hint, any other error
 * its description. Entries of a list or dropdown that would read the same are told apart by their ID (`distinct`).
 */

type Loader = (this: never, ...args: never[]) => Promise<unknown>;

export function withFixInMessage(error: unknown): unknown {
	if (!(error instanceof NodeApiError || error instanceof NodeOperationError)) return error;
	const fix = String((error.context as IDataObject | undefined)?.hint ?? error.description ?? '').trim();
	if (fix && !error.message.includes(fix)) error.message = `${sentence(error.message)} ${sentence(fix)}`;
	return error;
}

/** A list search's results or a dropdown's options, each entry distinct; other answers (a mapper's fields) as they are. */
function distinctEntries(answer: unknown): unknown {
	if (Array.isArray(answer)) return distinct(answer as INodePropertyOptions[]);
	const results = (answer as INodeListSearchResult | undefined)?.results;
	return Array.isArray(results) ? { ...(answer as INodeListSearchResult), results: distinct(results) } : answer;
}

export function forTheEditor<T extends Record<string, Loader>>(loaders: T): T {
	const wrapped = Object.entries(loaders).map(([name, loader]) => {
		const inEditor = async function (this: never, ...args: never[]) {
			try {
				return distinctEntries(await loader.apply(this, args));
			} catch (error) {
				throw withFixInMessage(error);
			}
		};
		return [name, inEditor];
	});
	return Object.fromEntries(wrapped) as T;
}
