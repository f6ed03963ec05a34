import { locator } from '../shared/locators';

/** Resource locators of the CRM node's own records (its loaders in listSearch.ts; contacts, companies, deals and pipelines: records.ts, which other areas use too). */

export const taskLocator = locator('searchTasks', 'Task ID');
