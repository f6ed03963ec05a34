import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult, INodePropertyOptions } from 'n8n-workflow';

import type { ItemsKey } from './transport/answers';
import { failWith, readItems } from './transport/answers';
import { MAX_PAGE_SIZE, fetchMany } from './transport/pagination';
import { apiRequest, companyOwner } from './transport/request';

/**
 * Loaders for the "From List" mode of resource locators and for dynamic options that every node uses (users,
 * acting users), and the filter the nodes' own loaders share. They go through the transport, so an API error
 * reaches the user as an error: an empty list always means that nothing is there. The API has no search
 * parameter for these lists, so the filter is applied to each page here.
 */

function userOption(user: IDataObject): INodePropertyOptions {
	return { name: `${String(user.fullName ?? user.email)} (${String(user.email)})`, value: String(user.id) };
}

/**
 * Entries that would read the same (two drafts of one day and amount, two contacts of one name and email) get the
 * start of their ID, so that a list never shows two lines one cannot tell apart.
 */
export function distinct<T extends INodePropertyOptions>(options: T[]): T[] {
	const counts = new Map<string, number>();
	for (const { name } of options) counts.set(name, (counts.get(name) ?? 0) + 1);
	return options.map((option) => (counts.get(option.name)! > 1 ? { ...option, name: `${option.name} · ID ${String(option.value).slice(0, 8)}` } : option));
}

export function matches(filter: string | undefined, ...texts: unknown[]): boolean {
	if (!filter) return true;
	const needle = filter.toLowerCase();
	return texts.some((text) => String(text ?? '').toLowerCase().includes(needle));
}

/** A fixed value of a resource locator or text parameter as the editor sends it ("" when unset or an expression). */
export function fixedValue(given: unknown): string {
	const value = given && typeof given === 'object' ? (given as IDataObject).value : given;
	return typeof value === 'string' && !value.startsWith('=') ? value.trim() : '';
}

async function listUsers(
	ctx: ILoadOptionsFunctions,
	filter: string | undefined,
	paginationToken: string | undefined,
	actAs?: string,
): Promise<INodeListSearchResult> {
	const offset = Number(paginationToken ?? 0);
	const answer = (await apiRequest(ctx, 0, {
		method: 'GET',
		path: '/v4/user',
		qs: { limit: MAX_PAGE_SIZE, offset },
		actAs,
	})) as IDataObject;
	const users = (answer.users ?? []) as IDataObject[];
	const next = offset + users.length;
	return {
		results: users
			.filter((user) => matches(filter, user.fullName, user.email, user.id))
			.map(userOption),
		paginationToken: users.length === MAX_PAGE_SIZE && next < Number(answer.total ?? 0) ? String(next) : undefined,
	};
}

export async function searchUsers(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await listUsers(this, filter, paginationToken);
}

/** Every user, for multi-select fields such as Hosts (loadOptions has no paging, so all pages are read). */
export async function getUsers(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const users = await fetchMany(this, 0, { method: 'GET', path: '/v4/user' }, { style: 'offset', itemsKey: 'users' });
	return users.map(userOption);
}

/**
 * Users to act as (API key). Listing users needs an acting user itself, so when none is set yet the
 * list is read as the company owner, whom GET /v4/user/me returns for an API key without one.
 */
export async function searchActingUsers(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const credentials = await this.getCredentials('schedulingPlatformApiKeyApi');
	const actAs = String(credentials.actingUserId ?? '').trim() || (await companyOwner(this));
	return await listUsers(this, filter, paginationToken, actAs);
}

/**
 * Page lists (page from 1, `totalPages`, such as the CRM lists): one page per call, the next page number as the
 * pagination token.
 */
export interface PageList {
	path: string;
	itemsKey: ItemsKey;
	/** The query parameter the API searches with; none: the filter is applied to each page here. */
	searchParam?: string;
	/** Other query parameters, such as the order. */
	query?: IDataObject;
	/** Items per page: the API's most, unless the options read something per item (the contact names of documents). */
	pageSize?: number;
	/** The options of a page's items (`each` makes them one by one; a loader may read more first). */
	options: (items: IDataObject[]) => INodePropertyOptions[] | Promise<INodePropertyOptions[]>;
}

/** Options made one by one from a page's items. */
export const each = (option: (item: IDataObject) => INodePropertyOptions) => (items: IDataObject[]) => items.map(option);

export async function searchPage(ctx: ILoadOptionsFunctions, list: PageList, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const page = Number(paginationToken ?? 1);
	const qs: IDataObject = { page, limit: list.pageSize ?? MAX_PAGE_SIZE, ...list.query };
	if (filter && list.searchParam) qs[list.searchParam] = filter;
	const answer = (await apiRequest(ctx, 0, { method: 'GET', path: list.path, qs })) as IDataObject;
	const options = await list.options(readItems(answer, list.itemsKey, failWith(ctx.getNode())));
	return {
		results: list.searchParam ? options : options.filter((option) => matches(filter, option.name, option.value)),
		paginationToken: page < Number(answer.totalPages ?? 0) ? String(page + 1) : undefined,
	};
}
