import { locator } from '../shared/locators';

/** The signature request locator: From List (listSearch.ts) or By ID. */
export const signatureRequestLocator = locator('searchSignatureRequests', 'Signature Request ID');
