import { Store, perStore } from './store';

/**
 * How the lists order what they answer. By default a list honours its sort, and records that share a sort value
 * keep one order (creation order). The live service promises neither where the reference is silent: a sort it does
 * not document may be ignored, and records sharing one timestamp may come back in another order on every request.
 * `POST /__sandbox/list-order` switches those behaviours on for the trigger's tests.
 */
export interface ListOrder {
	/** The sort asked for is ignored: records come in creation order (oldest first). */
	ignoreSort: boolean;
	/** Records with equal sort values come in a new random order on each request. */
	shuffleTies: boolean;
}

export const listOrderOf = perStore<ListOrder>(() => ({ ignoreSort: false, shuffleTies: false }));

/** The records sorted by `compare` (stable), or as the store's list order says. */
export function ordered<T>(store: Store, records: T[], compare: (a: T, b: T) => number): T[] {
	const { ignoreSort, shuffleTies } = listOrderOf(store);
	if (ignoreSort) return [...records];
	if (!shuffleTies) return [...records].sort(compare);
	const draw = new Map(records.map((record) => [record, Math.random()]));
	return [...records].sort((a, b) => compare(a, b) || draw.get(a)! - draw.get(b)!);
}
