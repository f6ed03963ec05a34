import { locator } from '../shared/locators';

/** The signature request locator: From List (listSearch.ts) or By ID. */
export const signatureRequestLocator = locator('searchSignatureRequests', 'e.g. 3b9d6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f');
