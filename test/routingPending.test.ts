import type { IDataObject } from 'n8n-workflow';

import { asTenant, freshTenant } from './harness/crm';
import { byId, useWorld, wire } from './harness/world';

/**
 * The Routing node's Pending Attendee (api-reference §7, Beta) through n8n's engine: Create and Update with their exact
 * requests (the form entries as an object, `{}` when none; a name required; the languages of the reference), Update's
 * company read once from the acting user, and the sandbox's rules for both over HTTP.
 */

const world = useWorld();

type Tenant = Awaited<ReturnType<typeof freshTenant>>;

const call = (tenant: Tenant, method: string, path: string, body?: unknown) => asTenant(world(), tenant, method, path, body);

async function tenant(): Promise<Tenant> {
	const fresh = await freshTenant(world());
	await world().clearRequests();
	return fresh;
}

const created = (tenantOf: Tenant, body: IDataObject) => call(tenantOf, 'POST', '/v4/attendee/pending', body) as unknown as Promise<number>;

describe('Routing: Pending Attendee Create', () => {
	test('sends the name, the form answers as an object and the other fields; answers the numeric id; Get Many lists them newest first; a completed booking removes its entry', async () => {
		const fresh = await tenant();
		const credential = world().pat(fresh.token);
		const parameters = {
			resource: 'pendingAttendee',
			operation: 'create',
			email: 'half@example.com',
			firstName: 'Hal',
			lastName: 'Half',
			formAnswers: { answers: [{ label: 'Company', value: 'Acme' }, { label: 'Team size', value: '12' }] },
			additionalFields: { phone: '+4915112345678', guestEmails: 'a@example.com, b@example.com', language: 'de', timezone: 'Europe/Berlin', dataPolicyAccepted: true },
		};
		const first = await world().runNode(parameters, credential);
		expect(first.error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{
				method: 'POST',
				path: '/v4/attendee/pending',
				query: '',
				headers: world().patHeaders(fresh.token, true),
				body: {
					email: 'half@example.com',
					firstname: 'Hal',
					lastname: 'Half',
					notes: { Company: 'Acme', 'Team size': '12' },
					phone: '+4915112345678',
					language: 'de',
					timezone: 'Europe/Berlin',
					bringalongEmails: ['a@example.com', 'b@example.com'],
					dataPolicyAccepted: true,
				},
			},
		]);
		expect(first.items).toEqual([{ id: expect.any(Number) }]);
		await world().clearRequests();
		const second = await world().runNode({ resource: 'pendingAttendee', operation: 'create', email: 'done@example.com', additionalFields: { fullName: 'Dana Done' } }, credential);
		expect((await world().requests()).map((request) => request.body)).toEqual([{ email: 'done@example.com', fullname: 'Dana Done', notes: {} }]);
		const listed = await world().runNode({ resource: 'pendingAttendee', operation: 'getAll', limit: 10 }, credential);
		expect(listed.items).toEqual([
			{
				id: second.items[0].id,
				companyId: fresh.companyId,
				email: 'done@example.com',
				firstname: null,
				lastname: null,
				fullname: 'Dana Done',
				phone: null,
				language: null,
				timezone: null,
				notes: {},
				bringalongEmails: [],
				createdAt: expect.any(String),
				updatedAt: expect.any(String),
				deletedAt: null,
			},
			expect.objectContaining({ id: first.items[0].id, fullname: 'Hal Half', notes: { Company: 'Acme', 'Team size': '12' }, language: 'de' }),
		]);
		const [meetingType] = (await call(fresh, 'GET', '/v4/meeting-type')) as unknown as IDataObject[];
		await call(fresh, 'POST', '/v4/booking', { meetingTypeId: meetingType.id, start: '2030-01-07T11:00:00Z', hostIds: [fresh.userId], attendee: { email: 'done@example.com', fullname: 'Dana Done', receiveReminders: false, notes: {} } });
		const after = await world().runNode({ resource: 'pendingAttendee', operation: 'getAll', returnAll: true }, credential);
		expect(after.items.map((item) => item.email)).toEqual(['half@example.com']);
	});

	test('the form answers as JSON (an object from an expression, or JSON text)', async () => {
		const fresh = await tenant();
		const credential = world().pat(fresh.token);
		const base = { resource: 'pendingAttendee', operation: 'create', email: 'j@example.com', firstName: 'Jo', lastName: 'Son', formAnswersInput: 'json' };
		await world().runNode({ ...base, formAnswersJson: '={{ $json.answers }}' }, credential, { input: [{ answers: { Company: 'Acme', Seats: 3 } }] });
		await world().runNode({ ...base, formAnswersJson: '{"Budget": "10k"}' }, credential);
		expect((await world().requests()).map((request) => (request.body as IDataObject).notes)).toEqual([{ Company: 'Acme', Seats: 3 }, { Budget: '10k' }]);
		await world().clearRequests();
		const list = await world().runNode({ ...base, formAnswersJson: '["Acme"]' }, credential);
		expect(list.error?.message).toBe('Form Answers (JSON) must be a JSON object, not a list');
		expect(await world().requests()).toEqual([]);
	});

	test('refused before sending: no name (or only a first name), a language outside the reference\'s list, a bad or sixth guest email, neither email nor phone', async () => {
		const fresh = await tenant();
		const credential = world().pat(fresh.token);
		const create = (fields: IDataObject) => world().runNode({ resource: 'pendingAttendee', operation: 'create', email: 'g@example.com', firstName: 'Gus', lastName: 'Guest', ...fields }, credential);
		const nameless = 'The pending attendee needs a name: enter Full Name, or both First Name and Last Name';
		expect((await create({ firstName: '', lastName: '' })).error?.message).toBe(nameless);
		expect((await create({ lastName: '' })).error?.message).toBe(nameless);
		expect((await create({ additionalFields: { language: '={{ "xx" }}' } })).error?.message).toBe(
			'Language must be one of "da", "nl", "en", "fr", "de", "it", "no", "pl", "es", "sv", "tr"; "xx" is not',
		);
		expect((await create({ additionalFields: { guestEmails: 'a@example.com, nobody' } })).error?.message).toBe(
			'Guest Emails must hold email addresses separated by commas; each must be an email address such as jane@example.com; "nobody" is not',
		);
		expect((await create({ additionalFields: { guestEmails: 'a@x.com, b@x.com, c@x.com, d@x.com, e@x.com, f@x.com' } })).error?.message).toBe('Guest Emails may name at most 5 addresses; it names 6');
		expect((await create({ email: '' })).error?.message).toBe('Email or Phone is required');
		expect(await world().requests()).toEqual([]);
	});

	test('the sandbox refuses what the API refuses: no name, notes as text, a language outside the list, six guests', async () => {
		const fresh = await tenant();
		const post = (body: IDataObject) => world().api('POST', '/v4/attendee/pending', fresh.token, { body });
		const refused = (message: string[]) => ({ status: 400, body: { statusCode: 400, message, error: 'Bad Request' } });
		expect(await post({ email: 'a@example.com', firstname: 'Only', notes: {} })).toEqual(refused(['fullname should not be empty']));
		expect(await post({ email: 'a@example.com', fullname: 'A B', notes: 'met at the fair' })).toEqual(refused(['notes must be an object']));
		expect(await post({ email: 'a@example.com', fullname: 'A B' })).toEqual(refused(['notes should not be empty', 'notes must be an object']));
		expect(await post({ email: 'a@example.com', fullname: 'A B', notes: {}, language: 'pt' })).toEqual(refused(['language must be one of the following values: en, de, fr, es, no, nl, it, pl, sv, tr, da']));
		const six = ['a', 'b', 'c', 'd', 'e', 'f'].map((name) => `${name}@example.com`);
		expect(await post({ email: 'a@example.com', fullname: 'A B', notes: {}, bringalongEmails: six })).toEqual(refused(['bringalongEmails must contain no more than 5 elements']));
	});
});

describe('Routing: Pending Attendee Update', () => {
	test('PATCH with the numeric id: email, name, form answers, and the company of the acting user read once for all items', async () => {
		const fresh = await tenant();
		const credential = world().pat(fresh.token);
		const ids = [await created(fresh, { email: 'one@example.com', fullname: 'One', notes: { Company: 'Old' } }), await created(fresh, { email: 'two@example.com', fullname: 'Two', notes: {} })];
		await world().clearRequests();
		const updated = await world().runNode(
			{
				resource: 'pendingAttendee',
				operation: 'update',
				pendingAttendeeId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
				email: '={{ $json.email }}',
				firstName: 'New',
				lastName: '={{ $json.last }}',
				formAnswers: { answers: [{ label: 'Company', value: 'Acme' }] },
				additionalFields: { language: 'fr', phone: '+4915112345678' },
			},
			credential,
			{ input: [{ id: ids[0], email: 'one@example.com', last: 'One' }, { id: ids[1], email: 'two@new.example', last: 'Two' }] },
		);
		expect(updated.error).toBeUndefined();
		expect(updated.items).toEqual([{ id: ids[0] }, { id: ids[1] }]);
		const body = (email: string, lastname: string) => ({
			email,
			companyId: fresh.companyId,
			firstname: 'New',
			lastname,
			notes: { Company: 'Acme' },
			phone: '+4915112345678',
			language: 'fr',
		});
		const requests = (await world().requests()).map(wire);
		expect(requests).toEqual([
			{ method: 'GET', path: '/v4/user/me', query: '', headers: world().patHeaders(fresh.token), body: null },
			{ method: 'PATCH', path: `/v4/attendee/pending/${ids[0]}`, query: '', headers: world().patHeaders(fresh.token, true), body: body('one@example.com', 'One') },
			{ method: 'PATCH', path: `/v4/attendee/pending/${ids[1]}`, query: '', headers: world().patHeaders(fresh.token, true), body: body('two@new.example', 'Two') },
		]);
		const listed = await world().runNode({ resource: 'pendingAttendee', operation: 'getAll', returnAll: true }, credential);
		expect(listed.items).toEqual([
			expect.objectContaining({ id: ids[1], email: 'two@new.example', firstname: 'New', lastname: 'Two', fullname: 'New Two', language: 'fr', notes: { Company: 'Acme' } }),
			expect.objectContaining({ id: ids[0], email: 'one@example.com', fullname: 'New One', phone: '+4915112345678' }),
		]);
	});

	test('a Company ID given is sent as it is (no read); the form answers of Get Many passed on as JSON keep the entry\'s; no answers send {}', async () => {
		const fresh = await tenant();
		const credential = world().pat(fresh.token);
		const id = await created(fresh, { email: 'keep@example.com', fullname: 'Kim Keep', notes: { Company: 'Acme', Seats: '3' } });
		await world().clearRequests();
		const { outputs, error } = await world().runChain(
			[
				{ name: 'Pending', parameters: { resource: 'pendingAttendee', operation: 'getAll', returnAll: true } },
				{
					name: 'Update',
					parameters: {
						resource: 'pendingAttendee',
						operation: 'update',
						pendingAttendeeId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
						email: '={{ $json.email }}',
						additionalFields: { fullName: '={{ $json.fullname }}', companyId: '={{ $json.companyId }}', timezone: 'Europe/Berlin' },
						formAnswersInput: 'json',
						formAnswersJson: '={{ $json.notes }}',
					},
				},
			],
			credential,
		);
		expect(error).toBeUndefined();
		expect(outputs.Update).toEqual([{ id }]);
		expect((await world().requests()).map((request) => `${request.method} ${request.path}`)).toEqual(['GET /v4/attendee/pending', `PATCH /v4/attendee/pending/${id}`]);
		expect((await world().requests())[1].body).toEqual({ email: 'keep@example.com', companyId: fresh.companyId, fullname: 'Kim Keep', notes: { Company: 'Acme', Seats: '3' }, timezone: 'Europe/Berlin' });
		await world().clearRequests();
		await world().runNode({ resource: 'pendingAttendee', operation: 'update', pendingAttendeeId: byId(String(id)), email: 'keep@example.com', additionalFields: { fullName: 'Kim Keep', companyId: fresh.companyId } }, credential);
		expect((await world().requests()).map((request) => request.body)).toEqual([{ email: 'keep@example.com', companyId: fresh.companyId, fullname: 'Kim Keep', notes: {} }]);
	});

	test('refused before sending: an ID that is not a number, no email, no name, a Company ID not in UUID form, a language outside the list', async () => {
		const fresh = await tenant();
		const credential = world().pat(fresh.token);
		const update = (fields: IDataObject) =>
			world().runNode({ resource: 'pendingAttendee', operation: 'update', pendingAttendeeId: byId('7'), email: 'a@example.com', additionalFields: { fullName: 'A B' }, ...fields }, credential);
		expect((await update({ pendingAttendeeId: { __rl: true, mode: 'id', value: '={{ "7a" }}' } })).error?.message).toBe('Pending Attendee ID must be a number, such as 42; "7a" is not');
		expect((await update({ email: '={{ "" }}' })).error?.message).toBe('Email is required');
		expect((await update({ additionalFields: {} })).error?.message).toBe('The pending attendee needs a name: enter Full Name, or both First Name and Last Name');
		expect((await update({ additionalFields: { fullName: 'A B', companyId: 'acme' } })).error?.message).toBe(
			'Company ID must be an ID in UUID form, such as 6f1c2a7e-1b2c-4d5e-8f90-123456789abc; "acme" is not',
		);
		expect((await update({ additionalFields: { fullName: 'A B', language: '={{ "pt" }}' } })).error?.message).toMatch(/^Language must be one of .*; "pt" is not$/);
		expect(await world().requests()).toEqual([]);
	});

	test('the sandbox: a numeric id only, email, notes and companyId required, a name required; another company\'s entry or companyId is 404', async () => {
		const fresh = await tenant();
		const other = await tenant();
		const id = await created(fresh, { email: 'mine@example.com', fullname: 'Mine', notes: {} });
		const theirs = await created(other, { email: 'theirs@example.com', fullname: 'Theirs', notes: {} });
		const patch = (path: string | number, body: IDataObject) => world().api('PATCH', `/v4/attendee/pending/${path}`, fresh.token, { body });
		const valid = { email: 'mine@example.com', fullname: 'Mine', notes: {}, companyId: fresh.companyId };
		const refused = (message: string | string[]) => ({ status: 400, body: { statusCode: 400, message, error: 'Bad Request' } });
		expect(await patch('abc', valid)).toEqual(refused('Validation failed (numeric string is expected)'));
		expect(await patch(id, { fullname: 'Mine' })).toEqual(
			refused(['email should not be empty', 'email must be an email', 'notes should not be empty', 'notes must be an object', 'companyId should not be empty', 'companyId must be a UUID']),
		);
		expect(await patch(id, { ...valid, fullname: undefined })).toEqual(refused(['fullname should not be empty']));
		const notFound = { status: 404, body: { statusCode: 404, message: 'Pending attendee not found', error: 'Not Found' } };
		expect(await patch(theirs, valid)).toEqual(notFound);
		expect(await patch(id, { ...valid, companyId: other.companyId })).toEqual(notFound);
		expect(await patch(id, { ...valid, phone: '+4915112345678' })).toEqual({ status: 200, body: id });
	});
});
