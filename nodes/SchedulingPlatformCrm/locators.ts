import type { INodeProperties } from 'n8n-workflow';

import { locator } from '../shared/locators';

/** Resource locators of the CRM records (their loaders in listSearch.ts). */

const EXAMPLE_ID = 'e.g. 3b9d6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f';

export const contactLocator = locator('searchContacts', EXAMPLE_ID);

export const companyLocator = locator('searchCompanies', EXAMPLE_ID);

export const dealLocator = locator('searchDeals', EXAMPLE_ID);

export const taskLocator = locator('searchTasks', EXAMPLE_ID);

export const pipelineLocator = locator('searchPipelines', EXAMPLE_ID);

/** A resource locator property with these modes, empty by default. */
export const locatorField = (displayName: string, name: string, description: string, modes: Pick<INodeProperties, 'modes'>): INodeProperties => ({
	displayName,
	name,
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	description,
	...modes,
});
