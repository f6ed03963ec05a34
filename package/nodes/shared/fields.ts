import type { INodeProperties } from 'n8n-workflow';

/** The options of a collection in the order n8n's lint and editor expect: alphabetical by display name. */
export function byName(options: INodeProperties[]): INodeProperties[] {
	return [...options].sort((a, b) => a.displayName.localeCompare(b.displayName));
}
