import type { IDataObject } from 'n8n-workflow';

import { attendeesOf, byId, useWorld, wire } from './harness/world';

const world = useWorld();

const owner = () => world().seed.users.owner;
const ownerPat = () => world().seed.credentials.ownerPat;

/** The owner's seeded meeting types: "30 Minute Meeting" (default) and "Product Demo" (60 minutes, 15 after). */
const meetingTypes: Record<string, string> = {};

beforeAll(async () => {
	// Sunday 1 March 2026, 13:00 in Berlin: the week ahead is bookable Mon–Fri 09:00–17:00 (UTC+1).
	await world().control('POST', '/__sandbox/clock/set', { now: '2026-03-01T12:00:00Z' });
	await world().control('POST', '/__sandbox/rate-limit', { perMinute: 10000, burst: 10000 });
	for (const type of await world().meetingTypes()) meetingTypes[(type.meetingInfo as IDataObject).name as string] = type.id;
});

describe('Appointment', () => {
	test('Get reads one appointment with its attendees; a member cannot see the owner\'s (404)', async () => {
		const appointment = await world().bookAppointment(meetingTypes['30 Minute Meeting'], '2026-03-02T09:00:00+01:00');
		const { items } = await world().runNode({ resource: 'appointment', operation: 'get', appointmentId: byId(appointment.id as string), simple: false }, world().pat());
		expect(items).toEqual([appointment]);
		expect(appointment).toMatchObject({ start: '2026-03-02T08:00:00.000Z', end: '2026-03-02T08:30:00.000Z', isCancelled: false, userId: owner().id });
		const member = await world().runNode(
			{ resource: 'appointment', operation: 'get', appointmentId: byId(appointment.id as string) },
			world().pat(world().seed.credentials.memberPat),
		);
		expect(member.error?.httpCode).toBe('404');
		expect(member.error?.description).toContain('Appointment not found');
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: `/v4/appointment/${appointment.id as string}`, query: '', headers: world().patHeaders(), body: null },
			{
				method: 'GET',
				path: `/v4/appointment/${appointment.id as string}`,
				query: '',
				headers: { authorization: `Bearer ${world().seed.credentials.memberPat}` },
				body: null,
			},
		]);
	});

	test('Get Many pages with page and pageSize: Limit 120 reads two pages of 100 and cuts, Return All stops at the short page', async () => {
		const paging = await world().createMeetingType('Paging', { duration: 5 });
		const ids: string[] = [];
		for (let i = 0; i < 130; i++) {
			const day = i < 96 ? Date.UTC(2026, 2, 3, 8) : Date.UTC(2026, 2, 4, 8);
			const start = new Date(day + (i % 96) * 5 * 60_000).toISOString();
			const booked = await world().api('POST', '/v4/booking', ownerPat(), {
				body: { meetingTypeId: paging, start, hostIds: [owner().id], attendee: { email: `p${i}@example.com`, receiveReminders: false, notes: {} } },
			});
			ids.push(booked.body.appointmentId as string);
		}
		await world().clearRequests();
		const filters = { meetingTypeId: byId(paging) };
		const limited = await world().runNode({ resource: 'appointment', operation: 'getAll', returnAll: false, limit: 120, filters }, world().pat());
		expect(limited.items.map((item) => item.id)).toEqual(ids.slice(0, 120));
		const all = await world().runNode({ resource: 'appointment', operation: 'getAll', returnAll: true, filters }, world().pat());
		expect(all.items.map((item) => item.id)).toEqual(ids);
		const page = (n: number) => ({ method: 'GET', path: '/v4/appointment/paginated', query: `meetingTypeId=${paging}&page=${n}&pageSize=100`, headers: world().patHeaders(), body: null });
		expect((await world().requests()).map(wire)).toEqual([page(0), page(1), page(0), page(1)]);
	});

	test('Get Many sends every filter; dates without an offset are read in the workflow\'s time zone', async () => {
		const grace = await world().bookAppointment(meetingTypes['30 Minute Meeting'], '2026-03-02T10:00:00+01:00', 'Grace', 'Brewster');
		await world().bookAppointment(meetingTypes['30 Minute Meeting'], '2026-03-02T10:30:00+01:00', 'Alan', 'Turing');
		await world().bookAppointment(meetingTypes['Product Demo'], '2026-03-02T14:00:00+01:00', 'Grace', 'Kelly');
		const { items, error } = await world().runNode(
			{
				resource: 'appointment',
				operation: 'getAll',
				returnAll: false,
				limit: 10,
				filters: {
					start: '2026-03-02T00:00:00',
					end: '2026-03-03T00:00:00+01:00',
					status: 'upcoming',
					meetingTypeId: byId(meetingTypes['30 Minute Meeting']),
					search: 'BREWSTER',
					sortBy: 'appointment.createdAt',
					sortDirection: 'DESC',
					userId: byId(owner().id),
				},
				simple: false,
			},
			world().pat(),
			{ timezone: 'Europe/Berlin' },
		);
		expect(error).toBeUndefined();
		expect(items).toEqual([grace]);
		const [request] = await world().requests();
		expect(Object.fromEntries(new URLSearchParams(request.query))).toEqual({
			start: '2026-03-02T00:00:00+01:00',
			end: '2026-03-03T00:00:00+01:00',
			status: 'upcoming',
			meetingTypeId: meetingTypes['30 Minute Meeting'],
			search: 'BREWSTER',
			sortBy: 'appointment.createdAt',
			sortDirection: 'DESC',
			userId: owner().id,
			page: '0',
			pageSize: '10',
		});
		expect(wire(request)).toMatchObject({ method: 'GET', path: '/v4/appointment/paginated', headers: world().patHeaders(), body: null });
	});

	test('Get Many refuses an End before the Start without sending anything', async () => {
		const { error } = await world().runNode(
			{ resource: 'appointment', operation: 'getAll', returnAll: true, filters: { start: '2026-03-05T10:00:00+01:00', end: '2026-03-04T10:00:00+01:00' } },
			world().pat(),
		);
		expect(error?.message).toBe('End (2026-03-04T10:00:00+01:00) must be later than Start (2026-03-05T10:00:00+01:00)');
		expect(await world().requests()).toEqual([]);
	});

	test('Get Many as a member: another user\'s appointments are forbidden (403), their own list works', async () => {
		const memberPat = world().seed.credentials.memberPat;
		const other = await world().runNode(
			{ resource: 'appointment', operation: 'getAll', returnAll: true, filters: { userId: byId(owner().id) } },
			world().pat(memberPat),
		);
		expect(other.error?.httpCode).toBe('403');
		expect(other.error?.description).toBe("The API refused the request: the credential is not allowed to do this. The API says: Forbidden resource. Only admins may do this: use an admin's token, or a Platform API key.");
		const own = await world().runNode({ resource: 'appointment', operation: 'getAll', returnAll: true }, world().pat(memberPat));
		expect(own.error).toBeUndefined();
		expect(own.items).toEqual([]);
		expect((await world().requests()).map((r) => `${r.method} ${r.path}?${r.query} ${r.status}`)).toEqual([
			`GET /v4/appointment/paginated?userId=${owner().id}&page=0&pageSize=100 403`,
			'GET /v4/appointment/paginated?page=0&pageSize=100 200',
		]);
	});

	test('Cancel cancels the whole appointment with a reason; a second cancel and a reschedule answer 409', async () => {
		const appointment = await world().bookAppointment(meetingTypes['30 Minute Meeting'], '2026-03-05T10:00:00+01:00');
		const id = appointment.id as string;
		const { items } = await world().runNode(
			{ resource: 'appointment', operation: 'cancel', appointmentId: byId(id), cancelFor: 'all', additionalFields: { reason: 'Customer asked' } },
			world().apiKey(owner().id),
		);
		expect(items).toEqual([
			{
				...appointment,
				isCancelled: true,
				cancel: { reason: 'Customer asked', actionAt: expect.any(String), actionBy: owner().id },
				attendees: attendeesOf(appointment).map((attendee) => ({ ...attendee, isCancelled: true })),
				updatedAt: expect.any(String),
			},
		]);
		const again = await world().runNode({ resource: 'appointment', operation: 'cancel', appointmentId: byId(id), cancelFor: 'all' }, world().pat());
		expect(again.error?.httpCode).toBe('409');
		expect(again.error?.description).toBe('The request conflicts with the current state of the resource. The API says: The appointment is already cancelled. Nothing to do: the appointment was cancelled before (Appointment → Get shows its state).');
		const moved = await world().runNode(
			{ resource: 'appointment', operation: 'reschedule', appointmentId: byId(id), newStart: '2026-03-05T15:00:00+01:00' },
			world().pat(),
		);
		expect(moved.error?.description).toContain('A cancelled appointment cannot be rescheduled');
		expect((await world().requests()).map(wire)).toEqual([
			{
				method: 'POST',
				path: `/v4/appointment/${id}/cancel`,
				query: '',
				headers: world().keyHeaders(owner().id, true),
				body: { cancelAll: true, reason: 'Customer asked' },
			},
			{ method: 'POST', path: `/v4/appointment/${id}/cancel`, query: '', headers: world().patHeaders(ownerPat(), true), body: { cancelAll: true } },
			{ method: 'POST', path: `/v4/appointment/${id}/reschedule`, query: '', headers: world().patHeaders(ownerPat(), true), body: { start: '2026-03-05T15:00:00+01:00', ignoreAvailability: false } },
		]);
	});

	test('Cancel with a reason over 500 characters and One Attendee with an ID that resolves to nothing are refused before sending', async () => {
		const appointment = await world().bookAppointment(meetingTypes['30 Minute Meeting'], '2026-03-05T11:00:00+01:00');
		const long = await world().runNode(
			{ resource: 'appointment', operation: 'cancel', appointmentId: byId(appointment.id as string), cancelFor: 'all', additionalFields: { reason: 'x'.repeat(501) } },
			world().pat(),
		);
		expect(long.error?.message).toBe('Reason must be at most 500 characters long; it has 501');
		expect(long.error?.description).toBe('Item 1: fix the value of "Reason" and run the node again.');
		const noAttendee = await world().runNode(
			{ resource: 'appointment', operation: 'cancel', appointmentId: byId(appointment.id as string), cancelFor: 'one', attendeeId: '={{ $json.missing ?? "" }}' },
			world().pat(),
		);
		expect(noAttendee.error?.message).toBe('Attendee ID is required');
		expect(await world().requests()).toEqual([]);
		expect((await world().api('GET', `/v4/appointment/${appointment.id as string}`, ownerPat())).body.isCancelled).toBe(false);
	});

	test('Cancel Entire Series is sent; the sandbox has no series, so the appointment is cancelled as its own series', async () => {
		const appointment = await world().bookAppointment(meetingTypes['30 Minute Meeting'], '2026-03-05T13:00:00+01:00');
		const id = appointment.id as string;
		const { items, error } = await world().runNode(
			{ resource: 'appointment', operation: 'cancel', appointmentId: byId(id), cancelFor: 'all', additionalFields: { cancelEntireSeries: true } },
			world().pat(),
		);
		expect(error).toBeUndefined();
		expect(items).toEqual([expect.objectContaining({ id, isCancelled: true, cancel: { reason: null, actionAt: expect.any(String), actionBy: owner().id } })]);
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'POST', path: `/v4/appointment/${id}/cancel`, query: '', headers: world().patHeaders(ownerPat(), true), body: { cancelAll: true, cancelEntireSeries: true } },
		]);
	});

	test('Cancel in a group appointment: one attendee, then the rest; the API refuses a cancel naming nobody (400)', async () => {
		const workshop = await world().createMeetingType('Workshop', { duration: 60, spots: 3 });
		const first = await world().bookAppointment(workshop, '2026-03-09T10:00:00+01:00', 'Ada', 'Lovelace');
		const joined = await world().bookAppointment(workshop, '2026-03-09T10:00:00+01:00', 'Alan', 'Kay');
		expect(joined.id).toBe(first.id);
		const id = first.id as string;
		const [ada, alan] = attendeesOf(joined);
		const unnamed = await world().api('POST', `/v4/appointment/${id}/cancel`, ownerPat(), { body: {} });
		expect(unnamed).toEqual({ status: 400, body: { statusCode: 400, message: 'attendeeId or cancelAll is required for group bookings', error: 'Bad Request' } });
		await world().clearRequests();

		const one = await world().runNode(
			{ resource: 'appointment', operation: 'cancel', appointmentId: byId(id), cancelFor: 'one', attendeeId: ada.id },
			world().pat(),
		);
		expect(one.items).toEqual([
			expect.objectContaining({ id, isCancelled: false, cancel: null, attendees: [{ ...ada, isCancelled: true }, alan] }),
		]);
		const rest = await world().runNode(
			{ resource: 'appointment', operation: 'cancel', appointmentId: byId(id), cancelFor: 'all', additionalFields: { reason: 'Workshop moved online' } },
			world().pat(),
		);
		expect(rest.items).toEqual([
			expect.objectContaining({
				id,
				isCancelled: true,
				cancel: { reason: 'Workshop moved online', actionAt: expect.any(String), actionBy: owner().id },
				attendees: [{ ...ada, isCancelled: true }, { ...alan, isCancelled: true }],
			}),
		]);
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'POST', path: `/v4/appointment/${id}/cancel`, query: '', headers: world().patHeaders(ownerPat(), true), body: { attendeeId: ada.id } },
			{ method: 'POST', path: `/v4/appointment/${id}/cancel`, query: '', headers: world().patHeaders(ownerPat(), true), body: { cancelAll: true, reason: 'Workshop moved online' } },
		]);
	});

	test('Reschedule to a taken time answers 409; with Ignore Availability it moves and keeps the length', async () => {
		const moving = await world().bookAppointment(meetingTypes['30 Minute Meeting'], '2026-03-06T10:00:00+01:00', 'Moving', 'Person');
		await world().bookAppointment(meetingTypes['30 Minute Meeting'], '2026-03-06T11:00:00+01:00', 'Blocking', 'Person');
		const id = moving.id as string;
		const taken = await world().runNode(
			{ resource: 'appointment', operation: 'reschedule', appointmentId: byId(id), newStart: '2026-03-06T11:00:00+01:00' },
			world().pat(),
		);
		expect(taken.error?.httpCode).toBe('409');
		expect(taken.error?.description).toContain('The requested time slot is not available');
		const forced = await world().runNode(
			{ resource: 'appointment', operation: 'reschedule', appointmentId: byId(id), newStart: '2026-03-06T11:00:00+01:00', ignoreAvailability: true },
			world().pat(),
		);
		expect(forced.items).toEqual([
			{
				...moving,
				start: '2026-03-06T10:00:00.000Z',
				end: '2026-03-06T10:30:00.000Z',
				rescheduledAt: expect.any(String),
				rescheduleCount: 1,
				updatedAt: expect.any(String),
			},
		]);
		const requests = await world().requests();
		expect(requests.map(wire)).toEqual([
			{ method: 'POST', path: `/v4/appointment/${id}/reschedule`, query: '', headers: world().patHeaders(ownerPat(), true), body: { start: '2026-03-06T11:00:00+01:00', ignoreAvailability: false } },
			{ method: 'POST', path: `/v4/appointment/${id}/reschedule`, query: '', headers: world().patHeaders(ownerPat(), true), body: { start: '2026-03-06T11:00:00+01:00', ignoreAvailability: true } },
		]);
		expect(requests.map((r) => r.status)).toEqual([409, 200]);
	});

	test('Reschedule to a free time keeps a 60-minute length; a start without offset is read in the workflow\'s zone', async () => {
		const demo = await world().bookAppointment(meetingTypes['Product Demo'], '2026-03-06T14:00:00+01:00');
		expect(demo).toMatchObject({ start: '2026-03-06T13:00:00.000Z', end: '2026-03-06T14:00:00.000Z' });
		const { items } = await world().runNode(
			{ resource: 'appointment', operation: 'reschedule', appointmentId: byId(demo.id as string), newStart: '2026-03-06T16:00:00' },
			world().pat(),
			{ timezone: 'Europe/Berlin' },
		);
		expect(items).toEqual([expect.objectContaining({ id: demo.id, start: '2026-03-06T15:00:00.000Z', end: '2026-03-06T16:00:00.000Z', rescheduleCount: 1 })]);
		expect((await world().requests()).map((r) => r.body)).toEqual([{ start: '2026-03-06T16:00:00+01:00', ignoreAvailability: false }]);
	});

	test('Update Notes replaces the notes and sends an empty note to clear them', async () => {
		const appointment = await world().bookAppointment(meetingTypes['30 Minute Meeting'], '2026-03-02T13:00:00+01:00');
		const id = appointment.id as string;
		const set = await world().runNode({ resource: 'appointment', operation: 'updateNotes', appointmentId: byId(id), note: 'Bring the contract' }, world().pat());
		expect(set.items).toEqual([{ ...appointment, notes: 'Bring the contract', updatedAt: expect.any(String) }]);
		const cleared = await world().runNode({ resource: 'appointment', operation: 'updateNotes', appointmentId: byId(id), note: '' }, world().pat());
		expect(cleared.items).toEqual([expect.objectContaining({ id, notes: '' })]);
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'PATCH', path: `/v4/appointment/${id}/notes`, query: '', headers: world().patHeaders(ownerPat(), true), body: { note: 'Bring the contract' } },
			{ method: 'PATCH', path: `/v4/appointment/${id}/notes`, query: '', headers: world().patHeaders(ownerPat(), true), body: { note: '' } },
		]);
	});

	test('Update Transcription sets both texts, then clears only the summary with null', async () => {
		const appointment = await world().bookAppointment(meetingTypes['30 Minute Meeting'], '2026-03-02T13:30:00+01:00');
		const id = appointment.id as string;
		const set = await world().runNode(
			{ resource: 'appointment', operation: 'updateTranscription', appointmentId: byId(id), updateFields: { transcription: '# Call\nHello', summary: '- agreed' } },
			world().pat(),
		);
		expect(set.items).toEqual([{ ...appointment, transcription: '# Call\nHello', summary: '- agreed', updatedAt: expect.any(String) }]);
		const cleared = await world().runNode(
			{ resource: 'appointment', operation: 'updateTranscription', appointmentId: byId(id), updateFields: { clearSummary: true } },
			world().pat(),
		);
		expect(cleared.items).toEqual([expect.objectContaining({ id, transcription: '# Call\nHello', summary: null })]);
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'PATCH', path: `/v4/appointment/${id}/transcription`, query: '', headers: world().patHeaders(ownerPat(), true), body: { transcription: '# Call\nHello', summary: '- agreed' } },
			{ method: 'PATCH', path: `/v4/appointment/${id}/transcription`, query: '', headers: world().patHeaders(ownerPat(), true), body: { summary: null } },
		]);
	});

	test('Update Transcription refuses a text together with the switch that clears it, naming both, before sending', async () => {
		const base = { resource: 'appointment', operation: 'updateTranscription', appointmentId: byId('3b9d6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f') };
		const transcription = await world().runNode({ ...base, updateFields: { transcription: '# Call', clearTranscription: true } }, world().pat());
		expect(transcription.error?.message).toBe('Transcription and Clear Transcription contradict each other: remove the Transcription text or turn Clear Transcription off');
		const summary = await world().runNode({ ...base, updateFields: { transcription: '# Call', summary: '- agreed', clearSummary: true } }, world().pat());
		expect(summary.error?.message).toBe('Summary and Clear Summary contradict each other: remove the Summary text or turn Clear Summary off');
		expect(summary.error?.description).toBe('Item 1: fix the values named above and run the node again.');
		expect(await world().requests()).toEqual([]);
	});

	test('the appointment list for the resource locator searches attendees through the API, newest first', async () => {
		const first = await world().bookAppointment(meetingTypes['30 Minute Meeting'], '2026-03-10T09:00:00+01:00', 'Hedy', 'Lamarr');
		const second = await world().bookAppointment(meetingTypes['30 Minute Meeting'], '2026-03-11T09:00:00+01:00', 'Hedy', 'Lamarr');
		const { result } = await world().listSearch('searchAppointments', { resource: 'appointment', operation: 'get' }, world().pat(), 'lamarr');
		expect(result?.results).toEqual([
			{ name: '2026-03-11T08:00:00.000Z · 30 Minute Meeting with Hedy Lamarr', value: second.id },
			{ name: '2026-03-10T08:00:00.000Z · 30 Minute Meeting with Hedy Lamarr', value: first.id },
		]);
		expect((await world().requests()).map((r) => `${r.method} ${r.path}?${r.query}`)).toEqual([
			'GET /v4/appointment/paginated?page=0&pageSize=100&sortBy=appointment.start&sortDirection=DESC&search=lamarr',
		]);
	});

	// Moves the clock: keep it last.
	test('Get Today lists what the acting user hosts today in their own time zone, by start, without cancelled ones', async () => {
		// The owner works in Berlin (+01:00). Booked on Thu 12 March: 16:30, 09:00 and 11:00 (then cancelled); Fri 13 March 09:00.
		const late = await world().bookAppointment(meetingTypes['30 Minute Meeting'], '2026-03-12T16:30:00+01:00');
		const early = await world().bookAppointment(meetingTypes['30 Minute Meeting'], '2026-03-12T09:00:00+01:00');
		const cancelled = await world().bookAppointment(meetingTypes['30 Minute Meeting'], '2026-03-12T11:00:00+01:00');
		await world().bookAppointment(meetingTypes['30 Minute Meeting'], '2026-03-13T09:00:00+01:00');
		await world().api('POST', `/v4/appointment/${cancelled.id as string}/cancel`, ownerPat(), { body: { cancelAll: true } });
		// 23:30 UTC on 11 March is already 00:30 on 12 March in Berlin.
		await world().control('POST', '/__sandbox/clock/set', { now: '2026-03-11T23:30:00Z' });
		await world().clearRequests();
		try {
			const { items, error } = await world().runNode({ resource: 'appointment', operation: 'getToday', simple: false }, world().pat());
			expect(error).toBeUndefined();
			expect(items).toEqual([early, late]);
			const member = await world().runNode({ resource: 'appointment', operation: 'getToday' }, world().pat(world().seed.credentials.memberPat));
			expect(member.items).toEqual([]);
			expect((await world().requests()).map(wire)).toEqual([
				{ method: 'GET', path: '/v4/appointment/today', query: '', headers: world().patHeaders(), body: null },
				{ method: 'GET', path: '/v4/appointment/today', query: '', headers: world().patHeaders(world().seed.credentials.memberPat), body: null },
			]);
		} finally {
			await world().control('POST', '/__sandbox/clock/set', { now: '2026-03-01T12:00:00Z' });
		}
	});
});
