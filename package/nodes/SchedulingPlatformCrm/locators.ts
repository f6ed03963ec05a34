import { locator } from '../shared/locators';

/** Resource locators of the CRM node's own records (its loaders in listSearch.ts; contacts, companies, deals and pipelines: nodes/shared/records/crm.ts). */

export const taskLocator = locator('searchTasks', 'Task ID');
