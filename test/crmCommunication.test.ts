import type { IDataObject } from 'n8n-workflow';

import { crmParent, freshTenant } from './harness/crm';
import { byId, useWorld, wire } from './harness/world';

const world = useWorld();

const parent = (kind: 'contact' | 'deal' | 'company', name: string, companyId?: string) => crmParent(world(), kind, name, companyId);

const owner = () => world().seed.users.owner;
const ownerPat = () => world().seed.credentials.ownerPat;

/** Communications logged directly through the API (owner's PAT unless given); the request log is cleared after. */
async function logged(bodies: IDataObject[], token = ownerPat()): Promise<IDataObject[]> {
	const created: IDataObject[] = [];
	for (const body of bodies) created.push((await world().api('POST', '/crm/communications', token, { body: { type: 'email', direction: 'inbound', body: 'Hi', ...body } })).body);
	await world().clearRequests();
	return created;
}

const call = { resource: 'communication', operation: 'log', type: 'call', direction: 'outbound', body: 'Talked about the renewal' };

describe('CRM Communication', () => {
	test('Log a call on a contact with every field: the date read in the workflow time zone, the acting user as the logger', async () => {
		const contactId = await parent('contact', 'rita@example.com');
		const { items, error } = await world().runNode(
			{
				...call,
				parentType: 'contact',
				contactId: byId(contactId),
				occurredAt: '2026-03-10T09:15:00',
				additionalFields: { subject: 'Renewal', durationSeconds: 420, outcome: 'connected', externalId: 'pbx-991' },
			},
			world().ownerKey(),
			{ timezone: 'Europe/Berlin' },
		);
		expect(error).toBeUndefined();
		const body = {
			type: 'call',
			direction: 'outbound',
			body: 'Talked about the renewal',
			occurredAt: '2026-03-10T09:15:00+01:00',
			subject: 'Renewal',
			durationSeconds: 420,
			outcome: 'connected',
			externalId: 'pbx-991',
			contactId,
		};
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'POST', path: '/crm/communications', query: '', headers: world().keyHeaders(owner().id, true), body },
		]);
		expect(items).toEqual([
			{
				id: expect.any(String),
				companyId: world().seed.companies.acme.id,
				...body,
				dealId: null,
				crmCompanyId: null,
				loggedById: owner().id,
				loggedByName: 'Ada Admin',
				createdAt: expect.any(String),
				updatedAt: expect.any(String),
			},
		]);
	});

	test('Log an email on a deal and an SMS on a company: exactly the chosen parent is sent', async () => {
		const dealId = await parent('deal', 'Fleet deal');
		const crmCompanyId = await parent('company', 'Fleet AG');
		const email = await world().runNode(
			{ ...call, type: 'email', direction: 'inbound', parentType: 'deal', dealId: byId(dealId), occurredAt: '2026-03-10T08:00:00Z' },
			world().pat(),
		);
		const sms = await world().runNode(
			{ ...call, type: 'sms', parentType: 'company', crmCompanyId: byId(crmCompanyId), occurredAt: '2026-03-10T08:05:00Z' },
			world().pat(),
		);
		expect(email.items[0]).toMatchObject({ type: 'email', direction: 'inbound', dealId, contactId: null, crmCompanyId: null, subject: null, durationSeconds: null, outcome: null, externalId: null });
		expect(sms.items[0]).toMatchObject({ type: 'sms', direction: 'outbound', crmCompanyId, contactId: null, dealId: null });
		expect((await world().requests()).map((request) => request.body)).toEqual([
			{ type: 'email', direction: 'inbound', body: 'Talked about the renewal', occurredAt: '2026-03-10T08:00:00Z', dealId },
			{ type: 'sms', direction: 'outbound', body: 'Talked about the renewal', occurredAt: '2026-03-10T08:05:00Z', crmCompanyId },
		]);
	});

	test('Bad input is refused before sending: a negative duration, a date that does not exist, no occurrence, no parent', async () => {
		const contactId = await parent('contact', 'sam@example.com');
		const base = { ...call, parentType: 'contact', contactId: byId(contactId), occurredAt: '2026-03-10T08:00:00Z' };
		const negative = await world().runNode({ ...base, additionalFields: { durationSeconds: '={{ -5 }}' } }, world().pat());
		expect(negative.error?.message).toBe('Duration (Seconds) must be a whole number of at least 0, not -5');
		const impossible = await world().runNode({ ...base, occurredAt: '2026-04-31T10:00:00' }, world().pat());
		expect(impossible.error?.message).toBe('Occurred At must be a real date; 2026-04-31 does not exist');
		const missing = await world().runNode({ ...base, occurredAt: '={{ $json.when }}' }, world().pat(), { input: [{ when: '' }] });
		expect(missing.error?.message).toBe('Occurred At is required');
		const orphan = await world().runNode({ ...base, contactId: byId('={{ $json.id }}') }, world().pat(), { input: [{ id: '' }] });
		expect(orphan.error?.message).toBe('Contact is required');
		expect(await world().requests()).toEqual([]);
	});

	test('The API wants exactly one parent of the tenant (400 with its own sentence, 404 for another tenant\'s deal); the company route logs on its company', async () => {
		const contactId = await parent('contact', 'tom@example.com');
		const crmCompanyId = await parent('company', 'Tom Ltd.');
		const fields = { type: 'call', direction: 'inbound', body: 'x', occurredAt: '2026-03-10T08:00:00Z' };
		const two = await world().api('POST', '/crm/communications', ownerPat(), { body: { ...fields, contactId, crmCompanyId } });
		expect(two).toEqual({ status: 400, body: { statusCode: 400, message: 'Exactly one of dealId, contactId, or crmCompanyId must be provided', error: 'Bad Request' } });
		const negative = await world().api('POST', '/crm/communications', ownerPat(), { body: { ...fields, contactId, durationSeconds: -1 } });
		expect(negative.body).toEqual({ statusCode: 400, message: ['durationSeconds must not be less than 0'], error: 'Bad Request' });
		const onCompany = await world().api('POST', `/crm/companies/${crmCompanyId}/communications`, ownerPat(), { body: fields });
		expect(onCompany).toMatchObject({ status: 201, body: { crmCompanyId, contactId: null, dealId: null } });
		const foreign = await parent('deal', 'Other deal', world().seed.companies.other.id);
		const { error } = await world().runNode({ ...call, parentType: 'deal', dealId: byId(foreign), occurredAt: '2026-03-10T08:00:00Z' }, world().pat());
		expect(error?.httpCode).toBe('404');
		expect(error?.description).toContain('Deal not found');
	});

	test('Get Many lists the communications of a contact or a company, the latest first; Limit cuts the list', async () => {
		const tenant = await freshTenant(world());
		const contactId = await parent('contact', 'uma@example.com', tenant.companyId);
		const crmCompanyId = await parent('company', 'Uma GmbH', tenant.companyId);
		const [older, newer, onCompany] = await logged(
			[
				{ contactId, occurredAt: '2026-03-01T10:00:00Z' },
				{ contactId, occurredAt: '2026-03-05T10:00:00Z' },
				{ crmCompanyId, occurredAt: '2026-03-02T10:00:00Z' },
			],
			tenant.token,
		);
		const ofContact = await world().runNode({ resource: 'communication', operation: 'getAll', parentType: 'contact', contactId: byId(contactId), returnAll: true }, world().pat(tenant.token));
		expect(ofContact.items).toEqual([newer, older]);
		const limited = await world().runNode({ resource: 'communication', operation: 'getAll', parentType: 'contact', contactId: byId(contactId), returnAll: false, limit: 1 }, world().pat(tenant.token));
		expect(limited.items).toEqual([newer]);
		const ofCompany = await world().runNode(
			{ resource: 'communication', operation: 'getAll', parentType: 'company', crmCompanyId: byId(crmCompanyId), returnAll: true },
			world().pat(tenant.token),
		);
		expect(ofCompany.items).toEqual([onCompany]);
		const headers = world().patHeaders(tenant.token);
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: '/crm/communications', query: `contactId=${contactId}`, headers, body: null },
			{ method: 'GET', path: '/crm/communications', query: `contactId=${contactId}`, headers, body: null },
			{ method: 'GET', path: '/crm/communications', query: `crmCompanyId=${crmCompanyId}`, headers, body: null },
		]);
		const both = await world().api('GET', `/crm/communications?contactId=${contactId}&crmCompanyId=${crmCompanyId}`, tenant.token);
		expect(both.body).toEqual({ statusCode: 400, message: 'Exactly one of contactId or crmCompanyId must be provided', error: 'Bad Request' });
	});

	test('Update sends only the changed fields; an empty Update is refused; Delete outputs { deleted: true } and the communication is gone', async () => {
		const contactId = await parent('contact', 'vic@example.com');
		const [entry] = await logged([{ contactId, occurredAt: '2026-03-03T10:00:00Z' }]);
		const communicationId = entry.id as string;
		const { items } = await world().runNode(
			{ resource: 'communication', operation: 'update', communicationId, updateFields: { type: 'call', outcome: 'voicemail', durationSeconds: 0, occurredAt: '2026-03-03T11:00:00Z' } },
			world().pat(),
		);
		const changes = { type: 'call', durationSeconds: 0, outcome: 'voicemail', occurredAt: '2026-03-03T11:00:00Z' };
		expect(items).toEqual([{ ...entry, ...changes, updatedAt: expect.any(String) }]);
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'PATCH', path: `/crm/communications/${communicationId}`, query: '', headers: world().patHeaders(ownerPat(), true), body: changes },
		]);
		await world().clearRequests();

		const nothing = await world().runNode({ resource: 'communication', operation: 'update', communicationId, updateFields: {} }, world().pat());
		expect(nothing.error?.message).toBe('Add at least one field under Update Fields');
		expect(await world().requests()).toEqual([]);

		const deleted = await world().runNode({ resource: 'communication', operation: 'delete', communicationId }, world().pat());
		expect(deleted.items).toEqual([{ deleted: true }]);
		const again = await world().runNode({ resource: 'communication', operation: 'update', communicationId, updateFields: { body: 'Too late' } }, world().pat());
		expect(again.error?.httpCode).toBe('404');
		expect(again.error?.description).toContain('Communication not found');
		expect((await world().requests()).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
			`DELETE /crm/communications/${communicationId} 204`,
			`PATCH /crm/communications/${communicationId} 404`,
		]);
	});
});
