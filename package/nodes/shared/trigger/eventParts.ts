import type { IDataObject } from 'n8n-workflow';

/**
 * What every kind of event the polling trigger watches shares (watch.ts's watched events, snapshot.ts's snapshot and
 * entering events): its filters, how the record a filter names is checked, and how its full record is read.
 */

/** What the filters of every event share: which query key each filter sets, and how its record is checked. */
export interface EventFilters {
	/** Query key → parameter of the event's Filters collection (resource locators give their value). */
	filters?: Record<string, string>;
	/** Filter parameter → how the first activation checks that the record it names exists. */
	filterRecords?: Record<string, RecordCheck>;
	/** Options that change what is watched (a window, minutes before a start): another value watches anew. */
	settings?: unknown;
}

/** How a filter's record is found: read by its id (`{id}` in the path, or a query key), or looked up in a bare list. */
export interface RecordCheck {
	/** What the record is called: "meeting type". */
	noun: string;
	path: string;
	qs?: (id: string) => IDataObject;
	inList?: boolean;
}

/** The full record of an event, one read each (the Full Record option): its path, query and what of the answer. */
export interface RecordDetail {
	path: string;
	qs?: (record: IDataObject) => IDataObject;
	pick?: (answer: unknown) => IDataObject;
}
