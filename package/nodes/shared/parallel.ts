import type { INodeProperties } from 'n8n-workflow';

/**
 * Items run with several requests in flight (Request Options → Parallel Reads / Parallel Writes), still
 * taking their tokens from the credential's bucket (transport/rateLimiter.ts), so parallel items wait for
 * the API's latency together but never exceed its limit.
 */

export const PARALLEL_READS = 50;
export const PARALLEL_WRITES = 5;

export const requestOptionsProperty: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Parallel Reads',
			name: 'parallelReads',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 100, numberPrecision: 0 },
			default: PARALLEL_READS,
			description:
				'How many items of a reading operation (Get, Get Many, Get Open Slots...) may wait for the API at the same time. All requests still keep within the credential\'s Requests per Minute.',
		},
		{
			displayName: 'Parallel Writes',
			name: 'parallelWrites',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 50, numberPrecision: 0 },
			default: PARALLEL_WRITES,
			description:
				'How many items of a writing operation (Create, Update, Delete...) may wait for the API at the same time. Set 1 to apply the items strictly one after the other, in order.',
		},
	],
};

/**
 * Runs `run` for the indexes 0 to count - 1, at most `limit` at once, starting them in index order; once
 * `stop()` is true nothing new starts. Indexes never started stay undefined.
 */
export async function inParallel<T>(count: number, limit: number, run: (index: number) => Promise<T>, stop: () => boolean): Promise<Array<T | undefined>> {
	const results = new Array<T | undefined>(count).fill(undefined);
	let next = 0;
	const worker = async () => {
		while (next < count && !stop()) {
			const index = next++;
			results[index] = await run(index);
		}
	};
	await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
	return results;
}

/** "item 3", "items 1–4, 6 and 8–10": numbered from 1 as n8n shows them, runs of items as ranges. */
function itemList(indexes: number[]): string {
	const runs: string[] = [];
	for (let i = 0; i < indexes.length; i++) {
		const start = i;
		while (indexes[i + 1] === indexes[i] + 1) i++;
		runs.push(i > start ? `${indexes[start] + 1}–${indexes[i] + 1}` : `${indexes[i] + 1}`);
	}
	const last = runs.pop();
	if (!runs.length) return last?.includes('–') ? `items ${last}` : `item ${last}`;
	return `items ${runs.join(', ')} and ${last}`;
}

/** What became of the other items when an item failed and stopped the node, so that nothing applied goes unreported. */
export function otherItemsReport(failures: Array<string | null | undefined>, failed: number): string {
	const after = failures.map((failure, index) => ({ failure, index })).slice(failed + 1);
	const sent = after.filter(({ failure }) => failure !== undefined);
	const succeeded = sent.filter(({ failure }) => failure === null).map(({ index }) => index);
	const alsoFailed = sent.filter(({ failure }) => failure).map(({ index }) => index);
	const notRun = after.filter(({ failure }) => failure === undefined).map(({ index }) => index);
	const parts = [failed > 0 ? `${itemList([...Array(failed).keys()])} before it succeeded` : ''];
	if (succeeded.length) parts.push(`${itemList(succeeded)} after it had already been sent and succeeded`);
	if (alsoFailed.length) parts.push(`${itemList(alsoFailed)} after it had already been sent and failed too`);
	if (notRun.length) parts.push(`${itemList(notRun)} did not run`);
	return parts.filter(Boolean).join('; ');
}
