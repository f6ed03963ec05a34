import { attendeesOf, byId, useWorld, wire } from './harness/world';

const world = useWorld();

const owner = () => world().seed.users.owner;
const ownerPat = () => world().seed.credentials.ownerPat;

let defaultType = '';

beforeAll(async () => {
	// Sunday 1 March 2026, 13:00 in Berlin: the owner is bookable Mon–Fri 09:00–17:00 (UTC+1).
	await world().control('POST', '/__sandbox/clock/set', { now: '2026-03-01T12:00:00Z' });
	defaultType = (await world().meetingType('30 Minute Meeting')).id;
});

describe('Attendee', () => {
	test('Get reads one attendee with its appointment ID; a member cannot see it (404)', async () => {
		const appointment = await world().bookAppointment(defaultType, '2026-03-02T09:00:00+01:00', 'Grace', 'Hopper');
		const [attendee] = attendeesOf(appointment);
		const { items } = await world().runNode({ resource: 'attendee', operation: 'get', attendeeId: attendee.id }, world().pat());
		expect(items).toEqual([attendee]);
		expect(attendee).toMatchObject({ appointmentId: appointment.id, email: 'grace.hopper@example.com', fullname: 'Grace Hopper', isCancelled: false });
		const member = await world().runNode({ resource: 'attendee', operation: 'get', attendeeId: attendee.id }, world().pat(world().seed.credentials.memberPat));
		expect(member.error?.httpCode).toBe('404');
		expect(member.error?.description).toContain('Attendee not found');
		expect((await world().requests()).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
			`GET /v4/attendee/${attendee.id as string} 200`,
			`GET /v4/attendee/${attendee.id as string} 404`,
		]);
	});

	test('Add Guest invites one email with the attendee; the same guest again answers 409', async () => {
		const appointment = await world().bookAppointment(defaultType, '2026-03-02T10:00:00+01:00', 'Alan', 'Turing');
		const id = appointment.id as string;
		const [attendee] = attendeesOf(appointment);
		const parameters = { resource: 'attendee', operation: 'addGuest', appointmentId: byId(id), attendeeId: attendee.id, guestEmail: 'joan.clarke@example.com' };
		const { items } = await world().runNode(parameters, world().pat());
		expect(items).toEqual([{ ...appointment, attendees: [{ ...attendee, guests: ['joan.clarke@example.com'] }], updatedAt: expect.any(String) }]);
		const again = await world().runNode({ ...parameters, guestEmail: 'Joan.Clarke@example.com' }, world().pat());
		expect(again.error?.httpCode).toBe('409');
		expect(again.error?.description).toBe('The request conflicts with the current state of the resource. The API says: This guest is already invited. Nothing to do: this email is already a guest of the appointment.');
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'PATCH', path: `/v4/appointment/${id}/guest`, query: '', headers: world().patHeaders(ownerPat(), true), body: { attendeeId: attendee.id, email: 'joan.clarke@example.com' } },
			{ method: 'PATCH', path: `/v4/appointment/${id}/guest`, query: '', headers: world().patHeaders(ownerPat(), true), body: { attendeeId: attendee.id, email: 'Joan.Clarke@example.com' } },
		]);
	});

	test('Add Guest refuses a bad or missing email before sending anything', async () => {
		const { error } = await world().runNode(
			{ resource: 'attendee', operation: 'addGuest', appointmentId: byId('0b7e6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f'), attendeeId: 'some-attendee', guestEmail: 'joan at example' },
			world().pat(),
		);
		expect(error?.message).toBe('Guest Email must be an email address such as jane@example.com; "joan at example" is not');
		const missing = await world().runNode(
			{ resource: 'attendee', operation: 'addGuest', appointmentId: byId('0b7e6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f'), attendeeId: 'some-attendee', guestEmail: ' ' },
			world().pat(),
		);
		expect(missing.error?.message).toBe('Guest Email is required');
		expect(missing.error?.description).toBe('Item 1: fix the value of "Guest Email" and run the node again.');
		expect(await world().requests()).toEqual([]);
	});

	test('Remove cancels one attendee of a group appointment, then the last one cancels the appointment', async () => {
		const tour = await world().createMeetingType('Group Tour', { duration: 60, spots: 3 });
		await world().bookAppointment(tour, '2026-03-03T10:00:00+01:00', 'Ada', 'Lovelace');
		const appointment = await world().bookAppointment(tour, '2026-03-03T10:00:00+01:00', 'Alan', 'Kay');
		const id = appointment.id as string;
		const [ada, alan] = attendeesOf(appointment);
		const remove = (attendeeId: unknown, reason: string) =>
			world().runNode({ resource: 'attendee', operation: 'remove', appointmentId: byId(id), attendeeId: String(attendeeId), additionalFields: { reason } }, world().pat());
		const first = await remove(ada.id, 'Ill');
		expect(first.items).toEqual([expect.objectContaining({ id, isCancelled: false, cancel: null, attendees: [{ ...ada, isCancelled: true }, alan] })]);
		const last = await remove(alan.id, 'Nobody left');
		expect(last.items).toEqual([
			expect.objectContaining({
				id,
				isCancelled: true,
				cancel: { reason: 'Nobody left', actionAt: expect.any(String), actionBy: owner().id },
				attendees: [{ ...ada, isCancelled: true }, { ...alan, isCancelled: true }],
			}),
		]);
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'POST', path: `/v4/appointment/${id}/cancel`, query: '', headers: world().patHeaders(ownerPat(), true), body: { attendeeId: ada.id, reason: 'Ill' } },
			{ method: 'POST', path: `/v4/appointment/${id}/cancel`, query: '', headers: world().patHeaders(ownerPat(), true), body: { attendeeId: alan.id, reason: 'Nobody left' } },
		]);
	});

	test('Remove refuses a reason over 500 characters before sending', async () => {
		const { error } = await world().runNode(
			{ resource: 'attendee', operation: 'remove', appointmentId: byId('0b7e6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f'), attendeeId: 'some-attendee', additionalFields: { reason: 'x'.repeat(501) } },
			world().pat(),
		);
		expect(error?.message).toBe('Reason must be at most 500 characters long; it has 501');
		expect(await world().requests()).toEqual([]);
	});

	test('Send Quick Mail: five go out, the sixth fails at once with the API\'s words and what to do; five minutes later it works', async () => {
		const appointment = await world().bookAppointment(defaultType, '2026-03-02T11:00:00+01:00', 'Hedy', 'Lamarr');
		const [attendee] = attendeesOf(appointment);
		const parameters = { resource: 'attendee', operation: 'sendQuickMail', attendeeId: attendee.id, title: 'Tomorrow', content: '={{ "Reminder " + $itemIndex }}' };
		const started = Date.now();
		const run = await world().runNode(parameters, world().pat(), { input: [{}, {}, {}, {}, {}, {}], continueOnFail: true });
		expect(Date.now() - started).toBeLessThan(5000);
		expect(run.items.slice(0, 5)).toEqual(Array(5).fill({ sent: true }));
		expect(run.items[5]).toEqual({
			error: 'Quick mail limit reached: 5 emails per attendee in 5 minutes (HTTP 429)',
			message:
				'The API rate limit was exceeded (the API asked to wait 300 s more, past the 60 s the node waits). The API says: Quick mail limit reached: 5 emails per attendee in 5 minutes. ' +
				'Each quick mail counts against its attendee for 5 minutes: ' +
				'wait up to 5 minutes before mailing this attendee again, or space the mails out (for example with a Wait node).',
		});
		expect(run.paired).toEqual([0, 1, 2, 3, 4, 5]);
		const requests = await world().requests();
		expect(requests.map(wire)).toEqual(
			[0, 1, 2, 3, 4, 5].map((n) => ({
				method: 'POST',
				path: '/v4/attendee/quick-mail',
				query: '',
				headers: world().patHeaders(ownerPat(), true),
				body: { attendeeId: attendee.id, title: 'Tomorrow', content: `Reminder ${n}` },
			})),
		);
		expect(requests.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429]);

		const direct = await fetch(`${world().url}/v4/attendee/quick-mail`, {
			method: 'POST',
			headers: world().patHeaders(ownerPat(), true),
			body: JSON.stringify({ attendeeId: attendee.id, title: 'T', content: 'C' }),
		});
		expect(direct.status).toBe(429);
		expect(Number(direct.headers.get('retry-after'))).toBeGreaterThan(290);
		expect(Number(direct.headers.get('retry-after'))).toBeLessThanOrEqual(300);

		await world().control('POST', '/__sandbox/clock/advance', { seconds: 300 });
		const later = await world().runNode(parameters, world().pat());
		expect(later.items).toEqual([{ sent: true }]);
	});

	test('Send Quick Mail refuses an empty title before sending; an unknown attendee answers 404', async () => {
		const empty = await world().runNode(
			{ resource: 'attendee', operation: 'sendQuickMail', attendeeId: 'x', title: '={{ $json.missing ?? "" }}', content: 'Hello' },
			world().pat(),
		);
		expect(empty.error?.message).toBe('Title is required');
		expect(await world().requests()).toEqual([]);
		const unknown = await world().runNode(
			{ resource: 'attendee', operation: 'sendQuickMail', attendeeId: 'no-such-attendee', title: 'Hi', content: 'Hello' },
			world().pat(),
		);
		expect(unknown.error?.httpCode).toBe('404');
		expect(unknown.error?.description).toContain('Attendee not found');
	});
});
