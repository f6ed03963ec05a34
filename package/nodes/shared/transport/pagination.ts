import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ItemsKey } from './answers';
import { failWith, readItems } from './answers';
import type { ApiContext, ApiRequest, FullAnswer } from './request';
import { apiRequest } from './request';

/**
 * The one pagination module, for the styles of the API (reference §1.3):
 * - offset: limit + offset, answer { <items>, total, count, offset }
 * - page1:  page from 1 + limit, answer { <items>, page, limit, total, totalPages }
 * - page0:  page from 0 + pageSize, answer { <items>, total }
 * - cursor: limit + cursor parameter, answer { <items>, nextCursor }
 * - none:   one request, a bare array (or <items>), cut at the limit here
 * Return All asks for pages of 100; a limit stops exactly there and sends no request more than needed.
 */

export type PaginationStyle = 'offset' | 'page1' | 'page0' | 'cursor' | 'none';

export interface Pagination {
	style: PaginationStyle;
	/**
	 * Key of the item array in the answer; absent for a bare array. Several keys where the reference leaves the key
	 * unconfirmed: the first that holds a list is read (a bare list is taken too). An answer without any is an error.
	 */
	itemsKey?: ItemsKey;
	/** Picks the items out of an answer that holds them in several places (style none), instead of itemsKey. */
	pick?: (answer: unknown) => IDataObject[];
	/** Query parameter that carries the cursor (cursor style), e.g. "before". */
	cursorParam?: string;
	/** The endpoint's largest page when below 100 (the contact activity: 50). */
	maxPageSize?: number;
}

export const MAX_PAGE_SIZE = 100;

interface Page {
	items: IDataObject[];
	body: IDataObject;
}

function pageQuery(style: PaginationStyle, index: number, size: number, cursor: unknown, cursorParam = 'cursor'): IDataObject {
	switch (style) {
		case 'offset':
			return { limit: size, offset: index };
		case 'page1':
			return { page: index + 1, limit: size };
		case 'page0':
			return { page: index, pageSize: size };
		case 'cursor':
			return cursor ? { limit: size, [cursorParam]: cursor } : { limit: size };
		default:
			return {};
	}
}

function hasMore(style: PaginationStyle, page: Page, size: number, collected: number, pageIndex: number): boolean {
	const { body, items } = page;
	if (items.length < size || style === 'none') return false;
	const total = typeof body.total === 'number' ? body.total : undefined;
	if (style === 'cursor') return body.nextCursor !== null && body.nextCursor !== undefined;
	if (style === 'page1' && typeof body.totalPages === 'number') return pageIndex + 1 < body.totalPages;
	return total === undefined || collected < total;
}

function pageOf(ctx: ApiContext, itemIndex: number, answer: unknown, pagination: Pagination): Page {
	const body = (answer && typeof answer === 'object' ? answer : {}) as IDataObject;
	const items = pagination.pick ? pagination.pick(answer) : readItems(answer, pagination.itemsKey, failWith(ctx.getNode(), itemIndex));
	return { body, items };
}

async function fetchPage(ctx: ApiContext, itemIndex: number, request: ApiRequest, pagination: Pagination, qs: IDataObject): Promise<Page> {
	return pageOf(ctx, itemIndex, await apiRequest(ctx, itemIndex, { ...request, qs: { ...request.qs, ...qs } }), pagination);
}

/**
 * One page of a list by its index (0 first; the cursor of the page before for the cursor style), with the answer's
 * headers. Pages are of the largest size unless `size` says otherwise (the trigger's re-read of one stretch).
 */
export async function readPage(
	ctx: ApiContext,
	request: ApiRequest,
	pagination: Pagination,
	pageIndex: number,
	cursor?: unknown,
	size = pagination.maxPageSize ?? MAX_PAGE_SIZE,
): Promise<Page & { headers: IDataObject; more: boolean }> {
	const position = pagination.style === 'offset' ? pageIndex * size : pageIndex;
	const qs = { ...request.qs, ...pageQuery(pagination.style, position, size, cursor, pagination.cursorParam) };
	const { body, headers } = (await apiRequest(ctx, 0, { ...request, qs, fullAnswer: true })) as FullAnswer;
	const page = pageOf(ctx, 0, body, pagination);
	const collected = pagination.style === 'offset' ? position + page.items.length : (position + 1) * size;
	return { ...page, headers, more: hasMore(pagination.style, page, size, collected, pageIndex) };
}

/** Fetches items until the limit (undefined: all) is reached or the API has no more. */
export async function fetchMany(
	ctx: ApiContext,
	itemIndex: number,
	request: ApiRequest,
	pagination: Pagination,
	limit?: number,
): Promise<IDataObject[]> {
	const results: IDataObject[] = [];
	const maxSize = pagination.maxPageSize ?? MAX_PAGE_SIZE;
	const fixedSize = Math.min(maxSize, limit ?? maxSize);
	const seen = new Set<string>();
	let cursor: unknown;
	for (let pageIndex = 0; ; pageIndex++) {
		const remaining = limit === undefined ? maxSize : limit - results.length;
		const size = pagination.style === 'offset' || pagination.style === 'cursor' ? Math.min(maxSize, remaining) : fixedSize;
		const position = pagination.style === 'offset' ? results.length : pageIndex;
		const page = await fetchPage(ctx, itemIndex, request, pagination, pageQuery(pagination.style, position, size, cursor, pagination.cursorParam));
		const fingerprint = JSON.stringify(pagination.style === 'cursor' ? page.body.nextCursor ?? null : page.items);
		if (page.items.length && seen.has(fingerprint)) {
			throw new NodeOperationError(ctx.getNode(), 'The API returned the same page twice, so listing stopped to avoid an endless loop', {
				itemIndex,
				description: 'Try again later. If it happens again, use a Limit, or report it to the platform\'s support.',
			});
		}
		seen.add(fingerprint);
		results.push(...page.items);
		cursor = page.body.nextCursor;
		if (limit !== undefined && results.length >= limit) return results.slice(0, limit);
		if (!hasMore(pagination.style, page, size, results.length, pageIndex)) return results;
	}
}
