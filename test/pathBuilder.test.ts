import { freshTenant } from './harness/crm';
import { byId, useWorld } from './harness/world';

/**
 * Every path ID of every node goes through the one path builder (transport/request.ts): an ID that is empty or only
 * dots would call another address once URLs are normalised (`/v4/meeting-type/..` is `/v4/`), so it is refused before
 * anything is sent. Definitions name the field (the executor); IDs that hooks and triggers put into a path themselves
 * are refused by the builder, naming the placeholder.
 */

const world = useWorld();

const ADVICE = 'An ID that is empty or only dots would call another address than the one meant. Check the ID this request took from its input or from an earlier answer.';

describe('the path builder', () => {
	test('a definition\'s path ID of dots is refused naming the field (Availability Exception Delete, Company Get by Domain)', async () => {
		const tenant = await freshTenant(world());
		await world().clearRequests();
		const credential = world().pat(tenant.token);
		const exception = await world().runNode({ resource: 'availabilityException', operation: 'delete', exceptionId: '..' }, credential);
		expect(exception.error?.message).toBe('Exception ID cannot be "..": enter the ID of an existing item');
		const company = await world().runNode({ resource: 'company', operation: 'getByDomain', domain: '={{ "." }}' }, credential);
		expect(company.error?.message).toBe('Domain cannot be ".": enter the ID of an existing item');
		expect(await world().requests()).toEqual([]);
	});

	test('an ID a hook takes from an answer is refused by the builder: Contact Create or Update writing to the contact its search found', async () => {
		const tenant = await freshTenant(world());
		const found = { item: { id: '..', email: 'dots@example.com', firstName: 'Old' }, appointments: [], nextAppointmentIso: null };
		await world().control('POST', '/__sandbox/faults', { method: 'GET', path: '/crm', status: 200, body: { result: [found], page: 1, limit: 100, total: 1, totalPages: 1 } });
		await world().clearRequests();
		const { error } = await world().runNode(
			{ resource: 'contact', operation: 'upsert', contactFields: { mappingMode: 'defineBelow', value: { email: 'dots@example.com', firstName: 'New' } } },
			world().pat(tenant.token),
		);
		expect(error).toMatchObject({ message: 'The id in the path /crm/{id} cannot be ".."', description: ADVICE });
		expect((await world().requests()).map((request) => `${request.method} ${request.path}`)).toEqual(['GET /v4/data-field', 'GET /crm']);
	});

	test('a trigger filter of dots is refused (by its locator\'s form, before the builder) before the first poll reads anything', async () => {
		const tenant = await freshTenant(world());
		await world().clearRequests();
		const outcome = await world().poll({ event: 'newBooking', bookingFilters: { meetingType: byId('..') } }, world().pat(tenant.token));
		expect(outcome.error?.message).toBe('Meeting Type ID must be in UUID form, such as 6f1c2a7e-1b2c-4d5e-8f90-123456789abc; ".." is not');
		expect(await world().requests()).toEqual([]);
		expect(outcome.staticData).toEqual({});
	});
});
