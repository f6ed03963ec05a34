import type { INodeProperties } from 'n8n-workflow';

/** Fields that several CRM resources show the same way. */

/** Sort Order of a page1 list: upper case on the wire (api-reference §1.3). */
export const sortOrderField: INodeProperties = {
	displayName: 'Sort Order',
	name: 'sortOrder',
	type: 'options',
	options: [
		{ name: 'Ascending', value: 'ASC' },
		{ name: 'Descending', value: 'DESC' },
	],
	default: 'DESC',
};
