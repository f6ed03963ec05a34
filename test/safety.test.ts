import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject } from 'n8n-workflow';

import { testCredential } from '../scripts/engine';
import { PAT_TYPE, useWorld, wire } from './harness/world';

/**
 * What the shared transport guarantees for every node: credentials stay at the API's origin, secrets the API
 * echoes are masked, and a Base URL that cannot be right is refused before anything is sent.
 */

const world = useWorld();

const getMe = { resource: 'user', operation: 'getMe' };
const fault = (spec: object) => world().control('POST', '/__sandbox/faults', spec);

/** Another origin on loopback that records whatever reaches it. */
let foreign: { url: string; received: Array<{ method: string; url: string; authorization?: string }>; close: () => void };

beforeAll(async () => {
	const received: typeof foreign.received = [];
	const server = createServer((req, res) => {
		received.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
		res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"stolen":true}');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	foreign = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received, close: () => server.close() };
});

afterAll(() => foreign.close());

describe('redirects', () => {
	test.each([301, 302, 307, 308])('a %s to another origin is not followed; the error names the target host', async (status) => {
		await fault({ method: 'POST', path: '/v4/meeting-type', status, headers: { Location: `${foreign.url}/collect` } });
		const { error } = await world().runNode({ resource: 'meetingType', operation: 'create', name: 'Redirected', duration: 30 }, world().pat());
		const host = new URL(foreign.url).host;
		expect(error?.message).toBe(`The API redirected the request (HTTP ${status}) to ${host}; the redirect was not followed`);
		expect(error?.description).toContain(`only sent to the Base URL's own address (${world().url})`);
		expect(foreign.received).toEqual([]);
	});

	test('a redirect within the API\'s origin is followed: 307 repeats the write with its body and credential', async () => {
		await fault({ method: 'POST', path: '/v4/meeting-type', status: 307, headers: { Location: '/v4/meeting-type' } });
		const { items, error } = await world().runNode({ resource: 'meetingType', operation: 'create', name: 'Moved', duration: 30 }, world().pat());
		expect(error).toBeUndefined();
		expect(items).toEqual([expect.objectContaining({ meetingInfo: expect.objectContaining({ name: 'Moved' }) })]);
		const [first, second] = (await world().requests()).map(wire);
		expect(second).toEqual(first);
		expect([first.method, first.path]).toEqual(['POST', '/v4/meeting-type']);
	});

	test('a 302 on a read within the origin is followed as a GET', async () => {
		await fault({ method: 'GET', path: '/v4/user/me', status: 302, headers: { Location: `${world().url}/v4/user/me` } });
		const { items, error } = await world().runNode(getMe, world().pat());
		expect(error).toBeUndefined();
		expect(items).toEqual([expect.objectContaining({ id: world().seed.users.owner.id })]);
		expect((await world().requests()).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['GET /v4/user/me 302', 'GET /v4/user/me 200']);
	});
});

describe('secrets echoed by the API', () => {
	const pat = () => world().seed.credentials.ownerPat;
	const key = () => world().seed.credentials.apiKey;

	test('a token in the message, in the errors list or in a text body is masked in the error', async () => {
		const token = pat();
		const bodies: Array<[IDataObject | string, Record<string, string>, string]> = [
			[{ statusCode: 401, message: `Invalid token ${token}` }, {}, 'Invalid token ***'],
			[{ statusCode: 400, message: 'Bad', errors: [{ field: 'authorization', message: `Bearer ${token.slice(4)} is not valid` }] }, {}, 'authorization: Bearer *** is not valid'],
			[`Proxy refused Bearer ${token}`, { 'Content-Type': 'text/plain' }, 'Proxy refused Bearer ***'],
		];
		for (const [body, headers, words] of bodies) {
			await fault({ method: 'GET', path: '/v4/user/me', status: 400, body, headers });
			const { error } = await world().runNode(getMe, world().pat());
			expect(error?.description).toContain(words);
		}
	});

	test('an API key and its secret part are masked, also in the Continue On Fail item', async () => {
		const secret = key().split(':').slice(2).join(':');
		await fault({ method: 'GET', path: '/v4/user/me', status: 401, body: { statusCode: 401, message: `Key ${key()} or ${secret} rejected` } });
		const { items } = await world().runNode(getMe, world().apiKey(world().seed.users.owner.id), { continueOnFail: true });
		expect(items).toEqual([{ error: 'Key *** or *** rejected (HTTP 401)', message: expect.stringContaining('The API says: Key *** or *** rejected.') }]);
	});
});

describe('Base URL', () => {
	test('a Base URL with a path is refused by the credential test and by the node, with the expected form', async () => {
		const baseUrl = `${world().url}/v4`;
		const expected = `The Base URL must be the host root without a path, such as ${world().url} (not ${world().url}/v4): the node adds the API paths such as /v4/... itself`;
		expect(await testCredential(PAT_TYPE, { baseUrl, token: world().seed.credentials.ownerPat })).toEqual({ status: 'Error', message: `${expected}.` });
		const { error } = await world().runNode(getMe, { ...world().pat(), data: { baseUrl, token: world().seed.credentials.ownerPat } });
		expect(error?.message).toBe('The credential is not in the expected form');
		expect(error?.description).toBe(expected);
		expect(await world().requests()).toEqual([]);
	});
});
