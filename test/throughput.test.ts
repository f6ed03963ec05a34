import type { IDataObject } from 'n8n-workflow';

import { distFile, separateTransport, transportContext } from './harness/processes';
import type { Parallel, Transport } from './harness/processes';
import type { CredentialRef, LoggedRequest } from './harness/world';
import { byId, useWorld } from './harness/world';

/**
 * Items run in parallel within the credential's limit: output in input order with its pairedItem, Continue
 * On Fail unchanged, the first failure stops new items and reports the others, the credential's Requests
 * per Minute and Burst drive the bucket, and two processes on one credential share the API's limit without
 * a failed item.
 */

const world = useWorld();

/** Meeting types of the owner, created for the test (the seed has fewer). */
const meetingTypes = async (count: number) => {
	const ids = [];
	for (let index = 0; index < count; index++) ids.push(await world().createMeetingType(`Parallel ${index}`));
	return ids;
};
const delay = async (method: string, path: string, delayMs: number, times = 1) =>
	await world().control('POST', '/__sandbox/faults', { method, path, delayMs, times });
const getMeetingType = { resource: 'meetingType', operation: 'get', meetingTypeId: byId('={{ $json.id }}') };
const arrivals = (log: LoggedRequest[]) => log.map((request) => request.receivedAt - log[0].receivedAt);

describe('parallel items', () => {
	test('reads go out together and the items come out in input order, each paired with its input', async () => {
		const ids = await meetingTypes(5);
		for (const [index, id] of ids.entries()) await delay('GET', `/v4/meeting-type/${id}`, 400 - index * 100);
		const { items, paired, error } = await world().runNode(getMeetingType, world().pat(), { input: ids.map((id) => ({ id })) });
		expect(error).toBeUndefined();
		expect(items.map((item) => item.id)).toEqual(ids);
		expect(paired).toEqual([0, 1, 2, 3, 4]);
		const log = await world().requests();
		expect(log.map((request) => request.path).sort()).toEqual(ids.map((id) => `/v4/meeting-type/${id}`).sort());
		// One at a time, the fifth would arrive after the 400 + 300 + 200 + 100 ms the others wait.
		expect(Math.max(...arrivals(log))).toBeLessThan(400);
	});

	test('Parallel Reads 1 sends one item after the other', async () => {
		const ids = await meetingTypes(3);
		for (const id of ids) await delay('GET', `/v4/meeting-type/${id}`, 150);
		const { items } = await world().runNode({ ...getMeetingType, requestOptions: { parallelReads: 1 } }, world().pat(), { input: ids.map((id) => ({ id })) });
		expect(items.map((item) => item.id)).toEqual(ids);
		const log = await world().requests();
		expect(log.map((request) => request.path)).toEqual(ids.map((id) => `/v4/meeting-type/${id}`));
		expect(arrivals(log)[2]).toBeGreaterThanOrEqual(300);
	});

	test('Parallel Reads outside 1 to 100 is refused before sending, naming the field', async () => {
		const { error } = await world().runNode({ ...getMeetingType, requestOptions: { parallelReads: 0 } }, world().pat(), { input: [{ id: 'x' }] });
		expect(error?.message).toBe('Parallel Reads must be a whole number from 1 to 100, not 0');
		expect(await world().requests()).toEqual([]);
	});

	test('Continue On Fail keeps each failed item in its place, in both modes', async () => {
		const [first, second] = await meetingTypes(2);
		const missing = '0b7e6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f';
		await delay('GET', `/v4/meeting-type/${first}`, 200);
		const input = [{ id: first }, { id: missing }, { id: second }, { id: missing }];
		const regular = await world().runNode(getMeetingType, world().pat(), { input, continueOnFail: true });
		expect(regular.paired).toEqual([0, 1, 2, 3]);
		expect(regular.items.map((item) => item.id ?? item.error)).toEqual([
			first,
			'Meeting type not found (HTTP 404)',
			second,
			'Meeting type not found (HTTP 404)',
		]);
		const split = await world().runNode(getMeetingType, world().pat(), { input, continueOnFail: 'errorOutput' });
		expect(split.items.map((item) => item.id)).toEqual([first, second]);
		expect(split.paired).toEqual([0, 2]);
		expect(split.errorPaired).toEqual([1, 3]);
	});

	test('the first failed write stops new items, and its error says which items after it had already been sent', async () => {
		const meetingType = (await world().meetingTypes())[0];
		const missing = '0b7e6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f';
		await delay('PATCH', `/v4/meeting-type/${meetingType.id}`, 300, 10);
		const input = [meetingType.id, missing, meetingType.id, meetingType.id, meetingType.id, meetingType.id].map((id, index) => ({ id, name: `Renamed ${index}` }));
		const { error } = await world().runNode(
			{
				resource: 'meetingType',
				operation: 'update',
				meetingTypeId: byId('={{ $json.id }}'),
				updateFields: { name: '={{ $json.name }}' },
				requestOptions: { parallelWrites: 3 },
			},
			world().pat(),
			{ input },
		);
		expect(error?.message).toBe('Meeting type not found (HTTP 404)');
		expect(error?.itemIndex).toBe(1);
		expect(error?.description).toBe(
			'The API could not find the requested resource. The API says: Meeting type not found. Check the ID: the resource may have been deleted, or it belongs to a user the credential cannot see. ' +
				'Of the other items: item 1 before it succeeded; item 3 after it had already been sent and succeeded; items 4–6 did not run.',
		);
		const log = await world().requests();
		expect(log.map((request) => `${request.method} ${request.status} ${(request.body as IDataObject).meetingInfo ? JSON.stringify(request.body) : ''}`).sort()).toEqual([
			'PATCH 200 {"meetingInfo":{"name":"Renamed 0"}}',
			'PATCH 200 {"meetingInfo":{"name":"Renamed 2"}}',
			'PATCH 404 {"meetingInfo":{"name":"Renamed 1"}}',
		]);
	});
});

describe("the credential's limit", () => {
	const limited = (data: Record<string, string | number>): CredentialRef => ({ ...world().pat(), data: { ...world().pat().data, ...data } });

	test('Requests per Minute and Burst drive the bucket: a burst of 2, then one request every 1/600 minute', async () => {
		const { items, error } = await world().runNode({ resource: 'user', operation: 'getMe' }, limited({ requestsPerMinute: 600, burst: 2 }), {
			input: Array.from({ length: 6 }, () => ({})),
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(6);
		const log = await world().requests();
		expect(log.map((request) => request.status)).toEqual([200, 200, 200, 200, 200, 200]);
		// Four requests beyond the burst, 100 ms apart at 600 per minute (2% slower).
		expect(arrivals(log)[5]).toBeGreaterThanOrEqual(380);
	});

	test('a Requests per Minute that is not a whole number from 1 is refused before sending', async () => {
		const { error } = await world().runNode({ resource: 'user', operation: 'getMe' }, limited({ requestsPerMinute: 0 }));
		expect(error?.message).toBe('The credential is not in the expected form');
		expect(error?.description).toBe(
			'Requests per Minute must be a whole number of at least 1 (the API allows 100 requests per minute with bursts of 200)',
		);
		expect(await world().requests()).toEqual([]);
	});
});

/**
 * Two n8n processes on one credential: two instances of the compiled transport (each with its own module
 * state, so its own bucket), sending through real HTTP to the one sandbox, whose bucket they share.
 */
describe('two processes on one credential', () => {
	/** Sends through real HTTP to the sandbox with the credential's token. */
	const context = (credential: IDataObject) =>
		transportContext(credential, async (options) => {
			const response = await fetch(options.url, {
				method: options.method,
				headers: { authorization: `Bearer ${String(credential.token)}`, 'content-type': 'application/json' },
				body: JSON.stringify(options.body),
			});
			return { statusCode: response.status, headers: Object.fromEntries(response.headers), body: await response.json() };
		});

	afterAll(async () => await world().control('POST', '/__sandbox/rate-limit', { perMinute: 100, burst: 200 }));

	test('40 writes each at the API limit: no failed write, and 429s stay few', async () => {
		const limit = { perMinute: 600, burst: 10 };
		await world().control('POST', '/__sandbox/rate-limit', limit);
		const meetingType = (await world().meetingTypes())[0];
		const { inParallel } = jest.requireActual<Parallel>(distFile('parallel.js'));
		const credential = { ...world().pat().data, requestsPerMinute: limit.perMinute, burst: limit.burst };
		const writes = (transport: Transport, name: string) =>
			inParallel(40, 5, async (index) => {
				const request = { method: 'PATCH' as const, path: '/v4/meeting-type/{id}', pathParams: { id: meetingType.id }, body: { meetingInfo: { name: `${name} ${index}` } } };
				return await transport.apiRequest(context(credential), 0, request).then(() => 'ok', (error: Error) => error.message);
			}, () => false);
		const started = Date.now();
		const results = await Promise.all([writes(separateTransport(), 'A'), writes(separateTransport(), 'B')]);
		const elapsed = Date.now() - started;
		expect(results.flat().filter((result) => result !== 'ok')).toEqual([]);
		const statuses = (await world().requests()).map((request) => request.status);
		expect(statuses.filter((status) => status === 200)).toHaveLength(80);
		expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
		// The API's bucket alone needs (80 - 10) / 600 minutes = 7 s; at most 1 in 4 answers are 429.
		expect(elapsed).toBeGreaterThanOrEqual(6_500);
		expect(statuses.filter((status) => status === 429).length).toBeLessThanOrEqual(27);
	});
});
