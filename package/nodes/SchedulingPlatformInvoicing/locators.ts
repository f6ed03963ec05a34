import { locator } from '../shared/locators';

/** Resource locators of the invoicing records (their loaders in listSearch.ts); By ID takes any non-empty text (no form is known). */

export const documentLocator = locator('searchDocuments', 'Document ID');

export const productLocator = locator('searchProducts', 'Product ID');

export const recurringInvoiceLocator = locator('searchRecurringInvoices', 'Recurring Invoice ID');

export const billingRunLocator = locator('searchBillingRuns', 'Billing Run ID');
