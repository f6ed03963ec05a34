import { freshTenant } from '../harness/crm';
import { useWorld } from '../harness/world';

/**
 * The lists the polling triggers read, as the sandbox answers them (api-reference §2 to §6, §8 and its "Changes of
 * 2026-11-25"): a sort value or a query key that the list's row does not name is refused with the API's validation
 * body (400), as the live service refuses it. So a trigger that asked for one fails its engine tests here as it
 * would fail live, instead of passing against a sandbox that accepted a designed value. First the requests that
 * made every poll of an event fail before the correction (sorts by update or status time, closedAt, completedAt,
 * statusChangedAt, overdueSince), then one key that no row names on each list. The requests each event does send
 * are asserted, and answered, in events.test.ts and windows.test.ts.
 */

const world = useWorld();

const badRequest = (message: string[]) => ({ status: 400, body: { statusCode: 400, message, error: 'Bad Request' } });
const notAKey = (key: string) => badRequest([`property ${key} should not exist`]);

let tenant: Awaited<ReturnType<typeof freshTenant>>;
let conversationId: string;

beforeAll(async () => {
	tenant = await freshTenant(world());
	const inbound = (await world().control('POST', '/__sandbox/messenger/inbound', { phone: '+4917012345678', text: 'Hello', companyId: tenant.companyId })) as { conversation: { id: string } };
	conversationId = inbound.conversation.id;
});

const answer = async (path: string, query: string) => {
	const { status, body } = await world().api('GET', `${path.replace('{conversation}', conversationId)}?${query}`, tenant.token);
	return { status, body };
};

describe('the sorts and fields the triggers asked for before the correction are refused', () => {
	const cases: Array<[string, string, string, ReturnType<typeof badRequest>]> = [
		[
			'appointments by update time (Booking Cancelled, Booking Rescheduled)',
			'/v4/appointment/paginated',
			'sortBy=appointment.updatedAt&sortDirection=DESC&page=0&pageSize=100',
			badRequest(['sortBy must be one of the following values: appointment.start, appointment.createdAt']),
		],
		['won deals by closedAt (Deal Won)', '/crm/deals', 'isWon=true&sortBy=closedAt&sortOrder=DESC&page=1&limit=100', badRequest(['sortBy must be one of the following values: createdAt, updatedAt, value, expectedCloseDate, name'])],
		['completed signature requests by completedAt (Signature Request Completed)', '/v4/signatures', 'status=completed&sortBy=completedAt&limit=100&offset=0', notAKey('sortBy')],
		['paid invoices by statusChangedAt (Invoice Paid)', '/invoicing/documents', 'type=invoice&status=paid&sortBy=statusChangedAt&sortOrder=DESC&page=1&limit=100', badRequest(['property sortBy should not exist', 'property sortOrder should not exist'])],
		['overdue invoices by overdueSince (Invoice Overdue)', '/invoicing/documents', 'type=invoice&status=overdue&sortBy=overdueSince&page=1&limit=100', notAKey('sortBy')],
		['contacts by update time', '/crm', 'sortBy=updatedAt&sortOrder=DESC&page=1&limit=100', badRequest(['sortBy must be one of the following values: firstName, lastName, email, createdAt'])],
		['conversations by update time', '/v4/messenger/conversations', 'sortBy=updatedAt&sortOrder=desc&limit=100&offset=0', badRequest(['sortBy must be one of the following values: createdAt, lastMessageAt'])],
		['a conversation\'s messages with a sort', '/v4/messenger/conversations/{conversation}/messages', 'sortBy=createdAt&limit=100', notAKey('sortBy')],
	];

	test.each(cases)('%s: 400 with the API\'s validation body', async (_name, path, query, refused) => {
		expect(await answer(path, query)).toEqual(refused);
	});
});

describe('a query key no row names is refused on every list a trigger reads', () => {
	const lists: Array<[string, string]> = [
		['/v4/appointment/paginated', 'page=0&pageSize=100'],
		['/crm', 'page=1&limit=100'],
		['/crm/deals', 'page=1&limit=100'],
		['/v4/messenger/conversations', 'limit=100&offset=0'],
		['/v4/messenger/conversations/{conversation}/messages', 'limit=100'],
		['/v4/signatures', 'limit=100&offset=0'],
		['/invoicing/documents', 'page=1&limit=100'],
	];

	test.each(lists)('%s: updatedAfter is refused, the same list without it is answered', async (path, query) => {
		expect(await answer(path, `${query}&updatedAfter=2027-03-01T00:00:00.000Z`)).toEqual(notAKey('updatedAfter'));
		expect((await answer(path, query)).status).toBe(200);
	});
});
