import type { IDataObject } from 'n8n-workflow';

import { byId, useWorld, wire } from './harness/world';

const world = useWorld();

const owner = () => world().seed.users.owner;

/** Exceptions created directly through the API, in the order given. */
async function addExceptions(availabilityId: string, ranges: Array<[string, string, string]>): Promise<IDataObject[]> {
	const created: IDataObject[] = [];
	for (const [title, start, end] of ranges) {
		const answer = await world().api('POST', '/availability-exception', world().seed.credentials.ownerPat, {
			body: { availabilityId, available: false, start, end, title },
		});
		created.push(answer.body);
	}
	await world().clearRequests();
	return created;
}

describe('Availability Exception', () => {
	test('Create Extra Time: dates without an offset are read in the workflow time zone', async () => {
		const availabilityId = await world().createAvailability('Exceptions');
		const { items, error } = await world().runNode(
			{
				resource: 'availabilityException',
				operation: 'create',
				availabilityId: byId(availabilityId),
				type: true,
				start: '2026-03-14T10:00:00',
				end: '2026-07-14T12:30:00',
				additionalFields: { title: 'Saturday clinic', note: 'Bring coffee' },
			},
			world().ownerKey(),
			{ timezone: 'Europe/Berlin' },
		);
		expect(error).toBeUndefined();
		const body = {
			availabilityId,
			available: true,
			start: '2026-03-14T10:00:00+01:00',
			end: '2026-07-14T12:30:00+02:00',
			title: 'Saturday clinic',
			note: 'Bring coffee',
		};
		expect((await world().requests()).map(wire)).toEqual([{ method: 'POST', path: '/availability-exception', query: '', headers: world().keyHeaders(owner().id, true), body }]);
		expect(items).toEqual([
			{ id: expect.any(Number), userId: world().seed.users.owner.id, ...body, createdAt: expect.any(String), updatedAt: expect.any(String) },
		]);
		const availability = await world().api('GET', `/availability/${availabilityId}`, world().seed.credentials.ownerPat);
		expect(availability.body.availabilityExceptions).toEqual(items);
	});

	test('Create Blocked Time sends available false and keeps given offsets; end before start is refused before sending', async () => {
		const availabilityId = await world().createAvailability('Exceptions');
		const { items } = await world().runNode(
			{
				resource: 'availabilityException',
				operation: 'create',
				availabilityId: byId(availabilityId),
				type: false,
				start: '2026-05-01T00:00:00Z',
				end: '2026-05-02T00:00:00-04:00',
			},
			world().pat(),
		);
		expect(items).toEqual([expect.objectContaining({ available: false, start: '2026-05-01T00:00:00Z', end: '2026-05-02T00:00:00-04:00', title: null, note: null })]);
		expect((await world().requests()).map(wire)).toEqual([
			{
				method: 'POST',
				path: '/availability-exception',
				query: '',
				headers: { authorization: `Bearer ${world().seed.credentials.ownerPat}`, 'content-type': 'application/json' },
				body: { availabilityId, available: false, start: '2026-05-01T00:00:00Z', end: '2026-05-02T00:00:00-04:00' },
			},
		]);
		await world().clearRequests();

		const backwards = await world().runNode(
			{
				resource: 'availabilityException',
				operation: 'create',
				availabilityId: byId(availabilityId),
				type: false,
				start: '2026-05-02T09:00:00',
				end: '2026-05-02T08:00:00',
			},
			world().ownerKey(),
			{ timezone: 'Europe/Berlin' },
		);
		expect(backwards.error?.message).toBe('End (2026-05-02T08:00:00+02:00) must be later than Start (2026-05-02T09:00:00+02:00)');
		expect(await world().requests()).toEqual([]);
	});

	test('Get Many sends From and To on the wire and returns the exceptions overlapping [From, To) by start', async () => {
		const availabilityId = await world().createAvailability('Exceptions');
		// From and To below are 08:00 UTC on June 1 and June 20 (10:00 in Berlin).
		const [late, inside, early, straddling] = await addExceptions(availabilityId, [
			['starts at To', '2026-06-20T08:00:00Z', '2026-06-21T08:00:00Z'],
			['inside', '2026-06-10T08:00:00Z', '2026-06-10T10:00:00Z'],
			['ends at From', '2026-05-30T08:00:00Z', '2026-06-01T08:00:00Z'],
			['crosses From', '2026-06-01T07:00:00Z', '2026-06-01T09:00:00Z'],
		]);
		const all = await world().runNode(
			{ resource: 'availabilityException', operation: 'getAll', availabilityId: byId(availabilityId), returnAll: true },
			world().ownerKey(),
		);
		expect(all.items).toEqual([early, straddling, inside, late]);
		const filtered = await world().runNode(
			{
				resource: 'availabilityException',
				operation: 'getAll',
				availabilityId: byId(availabilityId),
				returnAll: true,
				filters: { from: '2026-06-01T10:00:00', to: '2026-06-20T10:00:00' },
			},
			world().ownerKey(),
			{ timezone: 'Europe/Berlin' },
		);
		expect(filtered.items).toEqual([straddling, inside]);
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: '/availability-exception', query: `availabilityId=${availabilityId}`, headers: world().keyHeaders(), body: null },
			{
				method: 'GET',
				path: '/availability-exception',
				query: `availabilityId=${availabilityId}&from=2026-06-01T10%3A00%3A00%2B02%3A00&to=2026-06-20T10%3A00%3A00%2B02%3A00`,
				headers: world().keyHeaders(),
				body: null,
			},
		]);
	});

	test('Get Many: Limit cuts the list; To before From is refused before sending', async () => {
		const availabilityId = await world().createAvailability('Exceptions');
		const [first] = await addExceptions(availabilityId, [
			['one', '2026-08-01T08:00:00Z', '2026-08-01T09:00:00Z'],
			['two', '2026-08-02T08:00:00Z', '2026-08-02T09:00:00Z'],
		]);
		const limited = await world().runNode(
			{ resource: 'availabilityException', operation: 'getAll', availabilityId: byId(availabilityId), returnAll: false, limit: 1 },
			world().ownerKey(),
		);
		expect(limited.items).toEqual([first]);
		expect((await world().requests()).length).toBe(1);
		await world().clearRequests();
		const backwards = await world().runNode(
			{
				resource: 'availabilityException',
				operation: 'getAll',
				availabilityId: byId(availabilityId),
				returnAll: true,
				filters: { from: '2026-08-02T00:00:00Z', to: '2026-08-01T00:00:00Z' },
			},
			world().ownerKey(),
		);
		expect(backwards.error?.message).toBe('To (2026-08-01T00:00:00Z) must be later than From (2026-08-02T00:00:00Z)');
		expect(await world().requests()).toEqual([]);
	});

	test('Get Many for an availability the member cannot see surfaces the API\'s 404', async () => {
		const availabilityId = await world().createAvailability('Exceptions');
		const { error } = await world().runNode(
			{ resource: 'availabilityException', operation: 'getAll', availabilityId: byId(availabilityId), returnAll: true },
			world().pat(world().seed.credentials.memberPat),
		);
		expect(error?.message).toBe('Availability not found (HTTP 404)');
		expect(error?.description).toContain('Availability not found');
	});

	test('Update sends only the filled fields; an end the API finds before the start keeps the API\'s words', async () => {
		const availabilityId = await world().createAvailability('Exceptions');
		const [exception] = await addExceptions(availabilityId, [['holiday', '2026-09-01T08:00:00Z', '2026-09-01T16:00:00Z']]);
		const id = String(exception.id);
		const { items } = await world().runNode(
			{ resource: 'availabilityException', operation: 'update', exceptionId: id, updateFields: { type: true, title: 'Open day', end: '2026-09-01T18:00:00Z' } },
			world().ownerKey(),
		);
		expect(items).toEqual([{ ...exception, available: true, title: 'Open day', end: '2026-09-01T18:00:00Z', updatedAt: expect.any(String) }]);
		const refused = await world().runNode(
			{ resource: 'availabilityException', operation: 'update', exceptionId: id, updateFields: { end: '2026-09-01T07:00:00Z' } },
			world().ownerKey(),
		);
		expect(refused.error?.message).toBe('end must be later than start (HTTP 400)');
		expect(refused.error?.description).toBe('The API rejected the request as invalid. The API says: end must be later than start. Correct the fields the API names and run the node again.');
		expect((await world().requests()).map(wire)).toEqual([
			{
				method: 'PATCH',
				path: `/availability-exception/${id}`,
				query: '',
				headers: world().keyHeaders(owner().id, true),
				body: { available: true, end: '2026-09-01T18:00:00Z', title: 'Open day' },
			},
			{ method: 'PATCH', path: `/availability-exception/${id}`, query: '', headers: world().keyHeaders(owner().id, true), body: { end: '2026-09-01T07:00:00Z' } },
		]);
	});

	test('Update with both dates backwards, or without an ID, is refused before sending', async () => {
		const backwards = await world().runNode(
			{
				resource: 'availabilityException',
				operation: 'update',
				exceptionId: '1',
				updateFields: { start: '2026-09-02T10:00:00Z', end: '2026-09-02T09:00:00Z' },
			},
			world().ownerKey(),
		);
		expect(backwards.error?.message).toBe('End (2026-09-02T09:00:00Z) must be later than Start (2026-09-02T10:00:00Z)');
		const noId = await world().runNode({ resource: 'availabilityException', operation: 'update', exceptionId: ' ', updateFields: { title: 'x' } }, world().ownerKey());
		expect(noId.error?.message).toBe('Exception ID is required');
		expect(await world().requests()).toEqual([]);
	});

	test('the API requires availabilityId on the list and refuses an end that is not after the start', async () => {
		const { ownerPat } = world().seed.credentials;
		expect(await world().api('GET', '/availability-exception', ownerPat)).toEqual({
			status: 400,
			body: { statusCode: 400, message: ['availabilityId should not be empty', 'availabilityId must be a string'], error: 'Bad Request' },
		});
		const availabilityId = await world().createAvailability('Exceptions');
		const body = { availabilityId, available: true, start: '2026-11-02', end: '2026-11-02' };
		expect(await world().api('POST', '/availability-exception', ownerPat, { body })).toEqual({
			status: 400,
			body: { statusCode: 400, message: ['end must be later than start'], error: 'Bad Request' },
		});
	});

	test('Delete returns { deleted: true }; the exception is gone and a member cannot delete the owner\'s', async () => {
		const availabilityId = await world().createAvailability('Exceptions');
		const [kept, removed] = await addExceptions(availabilityId, [
			['kept', '2026-10-01T08:00:00Z', '2026-10-01T09:00:00Z'],
			['removed', '2026-10-02T08:00:00Z', '2026-10-02T09:00:00Z'],
		]);
		const member = await world().runNode(
			{ resource: 'availabilityException', operation: 'delete', exceptionId: String(kept.id) },
			world().pat(world().seed.credentials.memberPat),
		);
		expect(member.error?.description).toContain('Availability exception not found');
		const { items } = await world().runNode({ resource: 'availabilityException', operation: 'delete', exceptionId: String(removed.id) }, world().ownerKey());
		expect(items).toEqual([{ deleted: true }]);
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'DELETE', path: `/availability-exception/${String(kept.id)}`, query: '', headers: { authorization: `Bearer ${world().seed.credentials.memberPat}` }, body: null },
			{ method: 'DELETE', path: `/availability-exception/${String(removed.id)}`, query: '', headers: world().keyHeaders(), body: null },
		]);
		const left = await world().api('GET', `/availability-exception?availabilityId=${availabilityId}`, world().seed.credentials.ownerPat);
		expect(left.body).toEqual([kept]);
	});
});
