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
	test('a definition\'s path ID of dots is refused naming the field (Appointment Get, CRM Deal Get)', async () => {
		const tenant = await freshTenant(world());
		await world().clearRequests();
		const credential = world().pat(tenant.token);
		const appointment = await world().runNode({ resource: 'appointment', operation: 'get', appointmentId: byId('..') }, credential);
		expect(appointment.error?.message).toBe('Appointment ID cannot be "..": enter the ID of an existing item');
		const deal = await world().runNode({ resource: 'deal', operation: 'get', dealId: byId('={{ "." }}') }, credential);
		expect(deal.error?.message).toBe('Deal ID cannot be ".": enter the ID of an existing item');
		expect(await world().requests()).toEqual([]);
	});

	test('an ID a hook puts into a path is refused by the builder: Get Open Slots reading the meeting type, Messenger Send reading the conversation', async () => {
		const tenant = await freshTenant(world());
		await world().clearRequests();
		const credential = world().pat(tenant.token);
		const slots = await world().runNode({ resource: 'booking', operation: 'getSlots', meetingTypeId: byId('..'), start: '2030-01-07', end: '2030-01-08', timezone: 'UTC' }, credential);
		expect(slots.error).toMatchObject({ message: 'The id in the path /v4/meeting-type/{id} cannot be ".."', description: ADVICE });
		const sent = await world().runNode({ resource: 'message', operation: 'send', sendTo: 'conversation', conversationId: byId('..'), type: 'text', text: 'Hello' }, credential);
		expect(sent.error?.message).toBe('The id in the path /v4/messenger/conversations/{id} cannot be ".."');
		expect(await world().requests()).toEqual([]);
	});

	test('a trigger filter of dots is refused by the builder before the first poll reads anything', async () => {
		const tenant = await freshTenant(world());
		await world().clearRequests();
		const outcome = await world().poll({ event: 'newBooking', bookingFilters: { meetingType: byId('..') } }, world().pat(tenant.token));
		expect(outcome.error?.message).toBe('The id in the path /v4/meeting-type/{id} cannot be ".."');
		expect(await world().requests()).toEqual([]);
		expect(outcome.staticData).toEqual({});
	});
});
