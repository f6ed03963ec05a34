import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { matches } from '../shared/listSearch';
import { MAX_PAGE_SIZE } from '../shared/transport/pagination';
import { apiRequest } from '../shared/transport/request';

/**
 * "From List" of signature requests: one offset page per call (the next offset as the pagination token);
 * the API has no search parameter, so the filter is applied to each page here.
 */
export async function searchSignatureRequests(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const offset = Number(paginationToken ?? 0);
	const answer = (await apiRequest(this, 0, { method: 'GET', path: '/v4/signatures', qs: { limit: MAX_PAGE_SIZE, offset } })) as IDataObject;
	const signatures = (answer.signatures ?? []) as IDataObject[];
	const next = offset + signatures.length;
	return {
		results: signatures
			.filter((signature) => matches(filter, signature.title, signature.id))
			.map((signature) => ({ name: `${String(signature.title)} (${String(signature.status)})`, value: String(signature.id) })),
		paginationToken: signatures.length === MAX_PAGE_SIZE && next < Number(answer.total ?? 0) ? String(next) : undefined,
	};
}
