import { locator } from '../shared/locators';

/** Resource locators of the CRM records (their loaders in listSearch.ts). */

export const companyLocator = locator('searchCompanies', 'e.g. 3b9d6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f');

export const dealLocator = locator('searchDeals', 'e.g. 3b9d6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f');

export const pipelineLocator = locator('searchPipelines', 'e.g. 3b9d6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f');

export const contactLocator = locator('searchContacts', 'e.g. 3b9d6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f');
