import type { IDataObject, IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { fetchMany } from '../package/dist/nodes/shared/transport/pagination';
import type { Pagination } from '../package/dist/nodes/shared/transport/pagination';

/**
 * The paging rules of the styles that no resource group uses yet (page1: CRM and invoicing lists, page0:
 * appointments, cursor: messenger messages), run through the real transport with n8n's request helper
 * replaced by a scripted API. The offset and none styles are covered end to end in transport.test.ts.
 */

type Answer = (qs: IDataObject) => IDataObject;

function contextFor(answer: Answer, sent: IDataObject[]): IExecuteFunctions {
	return {
		getInputData: () => [{ json: {} }],
		getNodeParameter: (name: string, _index: number, fallback: unknown) => (name === 'authentication' ? 'personalAccessToken' : fallback),
		getCredentials: async () => ({ baseUrl: 'https://api.example.com', token: `rgo-${'p'.repeat(32)}` }),
		getNode: () => ({ name: 'Scheduling Platform', type: 'schedulingPlatform', typeVersion: 1, position: [0, 0], parameters: {}, id: 'n' }),
		helpers: {
			httpRequestWithAuthentication: async (_type: string, options: IHttpRequestOptions) => {
				sent.push({ ...(options.qs as IDataObject) });
				return { statusCode: 200, headers: {}, body: answer(options.qs as IDataObject) };
			},
		},
	} as unknown as IExecuteFunctions;
}

const records = (total: number) => Array.from({ length: total }, (_, i) => ({ id: `r${i}` }));

function pagedApi(style: Pagination['style'], total: number): Answer {
	const all = records(total);
	return (qs) => {
		if (style === 'page1') {
			const size = Number(qs.limit);
			const page = Number(qs.page);
			return { result: all.slice((page - 1) * size, page * size), page, limit: size, total, totalPages: Math.ceil(total / size) };
		}
		if (style === 'page0') {
			const size = Number(qs.pageSize);
			return { appointments: all.slice(Number(qs.page) * size, (Number(qs.page) + 1) * size), total };
		}
		const start = qs.before ? Number(String(qs.before).slice(1)) + 1 : 0;
		const items = all.slice(start, start + Number(qs.limit));
		const last = items[items.length - 1];
		return { messages: items, nextCursor: start + items.length < total && last ? last.id : null };
	};
}

const styles: Array<[string, Pagination]> = [
	['page1', { style: 'page1', itemsKey: 'result' }],
	['page0', { style: 'page0', itemsKey: 'appointments' }],
	['cursor', { style: 'cursor', itemsKey: 'messages', cursorParam: 'before' }],
];

async function run(pagination: Pagination, total: number, limit?: number) {
	const sent: IDataObject[] = [];
	const ctx = contextFor(pagedApi(pagination.style, total), sent);
	const items = await fetchMany(ctx, 0, { method: 'GET', path: '/list' }, pagination, limit);
	return { items, sent };
}

describe.each(styles)('%s style', (_name, pagination) => {
	test('Return All reads pages of 100 until the end, with no request beyond it', async () => {
		const { items, sent } = await run(pagination, 230);
		expect(items.map((i) => i.id)).toEqual(records(230).map((r) => r.id));
		expect(sent).toHaveLength(3);
	});

	test('Return All stops after a full last page when the answer says it was the last', async () => {
		const { sent } = await run(pagination, 200);
		expect(sent).toHaveLength(2);
	});

	test('a limit stops exactly there', async () => {
		const { items, sent } = await run(pagination, 230, 30);
		expect(items).toHaveLength(30);
		expect(sent).toHaveLength(1);
	});
});

test('page1 queries', async () => {
	expect((await run(styles[0][1], 230)).sent).toEqual([{ page: 1, limit: 100 }, { page: 2, limit: 100 }, { page: 3, limit: 100 }]);
	expect((await run(styles[0][1], 230, 150)).sent).toEqual([{ page: 1, limit: 100 }, { page: 2, limit: 100 }]);
});

test('page0 queries', async () => {
	expect((await run(styles[1][1], 230, 30)).sent).toEqual([{ page: 0, pageSize: 30 }]);
	expect((await run(styles[1][1], 150)).sent).toEqual([{ page: 0, pageSize: 100 }, { page: 1, pageSize: 100 }]);
});

test('cursor queries carry the previous answer\'s cursor and shrink to the remaining limit', async () => {
	expect((await run(styles[2][1], 230, 150)).sent).toEqual([{ limit: 100 }, { limit: 50, before: 'r99' }]);
});

test('a repeated cursor ends the loop with an error', async () => {
	const sent: IDataObject[] = [];
	const ctx = contextFor(() => ({ messages: records(100), nextCursor: 'same' }), sent);
	await expect(fetchMany(ctx, 0, { method: 'GET', path: '/list' }, styles[2][1])).rejects.toThrow(
		'The API returned the same page twice, so listing stopped to avoid an endless loop',
	);
	expect(sent).toHaveLength(2);
});
