import type { INodeProperties } from 'n8n-workflow';

import { contactEmailMode } from '../shared/contacts';
import { locator } from '../shared/locators';

/** Resource locators of the CRM records (their loaders in listSearch.ts); the IDs are UUIDs. */

/** A contact From List or By ID (the triggers' filters and the rows of Deal Create take this one). */
export const contactLocator = locator('searchContacts', 'Contact ID');

/** A contact From List, By ID, or By Email (found when the node runs: exactly one contact must have it). */
export const contactOrEmailLocator = locator('searchContacts', 'Contact ID', 'uuid', contactEmailMode);

export const companyLocator = locator('searchCompanies', 'Company ID');

export const dealLocator = locator('searchDeals', 'Deal ID');

export const taskLocator = locator('searchTasks', 'Task ID');

export const pipelineLocator = locator('searchPipelines', 'Pipeline ID');

/** A resource locator property with these modes, empty by default. */
export const locatorField = (displayName: string, name: string, description: string, modes: Pick<INodeProperties, 'modes'>): INodeProperties => ({
	displayName,
	name,
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	description,
	...modes,
});
