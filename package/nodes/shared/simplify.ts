import type { IDataObject, INodeProperties } from 'n8n-workflow';

/**
 * n8n's Simplify option for the large records (contacts, deals, appointments, documents): their Get and Get Many keep
 * the fields an agent or a mapping needs. A definition names them in `simplify`; the executor applies them when the
 * option is on.
 *
 * Simplify came with node version 1.1, on by default as n8n's lint wants it. Version 1 has no Simplify and outputs the
 * records whole, so workflows saved with it keep their output: n8n's Notion node added Simplify to Get Database Page the
 * same way (hidden on version 1).
 */
export const SIMPLIFY_SINCE = 1.1;

/** The Simplify option, for the operations whose blocks list it (shared/declare.ts), shown from version 1.1 on. */
export const simplifyOption: INodeProperties = {
	displayName: 'Simplify',
	name: 'simple',
	type: 'boolean',
	default: true,
	displayOptions: { show: { '@version': [{ _cnd: { gte: SIMPLIFY_SINCE } }] } },
	description: 'Whether to return a simplified version of the response instead of the raw data',
};

/** Paths by their first key, in the order given: `meetingInfo.name` → meetingInfo: ['name']; a whole field → []. */
function byFirstKey(paths: string[]): Map<string, string[]> {
	const grouped = new Map<string, string[]>();
	for (const path of paths) {
		const [key, ...rest] = path.split('.');
		const inner = grouped.get(key);
		if (!rest.length) grouped.set(key, []);
		else if (!inner) grouped.set(key, [rest.join('.')]);
		else if (inner.length) inner.push(rest.join('.'));
	}
	return grouped;
}

function kept(value: unknown, paths: string[]): unknown {
	if (Array.isArray(value)) return value.map((element) => kept(element, paths));
	if (value === null || typeof value !== 'object') return value;
	const record = value as IDataObject;
	const result: IDataObject = {};
	for (const [key, inner] of byFirstKey(paths)) {
		if (key in record) result[key] = (inner.length ? kept(record[key], inner) : record[key]) as IDataObject[string];
	}
	return result;
}

/**
 * The record with only the fields named (`attendees.email` keeps the email of each attendee). Nothing is renamed or
 * added, so an expression that reads the simplified record reads the raw one the same way; a field the answer lacks
 * stays absent.
 */
export function simplified(record: IDataObject, fields: string[]): IDataObject {
	return kept(record, fields) as IDataObject;
}
