/**
 * Work that must not overlap, one after the other in the order it was asked for, across the items a node runs in
 * parallel: items with the same email or phone number (Contact Create or Update) or read-modify-write of one settings list.
 */

const inFlight = new Map<string, Promise<unknown>>();

export async function oneAtATime<T>(key: string, run: () => Promise<T>): Promise<T> {
	const mine = (inFlight.get(key) ?? Promise.resolve()).catch(() => undefined).then(run);
	inFlight.set(key, mine);
	try {
		return await mine;
	} finally {
		if (inFlight.get(key) === mine) inFlight.delete(key);
	}
}
