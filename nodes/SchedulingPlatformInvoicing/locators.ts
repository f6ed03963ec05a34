import { locator } from '../shared/locators';
import { uuidValidation } from '../shared/inputChecks';

/** Resource locators of the invoicing records (their loaders in listSearch.ts); the IDs are UUIDs. */

const EXAMPLE_ID = 'e.g. 3b9d6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f';

export const documentLocator = locator('searchDocuments', EXAMPLE_ID, uuidValidation('Document ID'));

export const productLocator = locator('searchProducts', EXAMPLE_ID, uuidValidation('Product ID'));

export const recurringInvoiceLocator = locator('searchRecurringInvoices', EXAMPLE_ID, uuidValidation('Recurring Invoice ID'));

export const billingRunLocator = locator('searchBillingRuns', EXAMPLE_ID, uuidValidation('Billing Run ID'));
