import { crmParent } from './harness/crm';
import { byId, useWorld, wire } from './harness/world';

const world = useWorld();

const parent = (kind: 'contact' | 'deal' | 'company', name: string, companyId?: string) => crmParent(world(), kind, name, companyId);

const owner = () => world().seed.users.owner;
const ownerPat = () => world().seed.credentials.ownerPat;

const EXACTLY_ONE = 'Exactly one of dealId, contactId, or crmCompanyId must be provided';

describe('CRM Note', () => {
	test('Create on a contact, a deal or a company sends the content and exactly that parent', async () => {
		const ids = {
			contactId: await parent('contact', 'nora@example.com'),
			dealId: await parent('deal', 'Renewal'),
			crmCompanyId: await parent('company', 'Nora AG'),
		};
		const cases = [
			['contact', 'contactId'],
			['deal', 'dealId'],
			['company', 'crmCompanyId'],
		] as const;
		for (const [parentType, key] of cases) {
			await world().clearRequests();
			const { items, error } = await world().runNode(
				{ resource: 'note', operation: 'create', parentType, [key]: byId(ids[key]), content: `About the ${parentType}` },
				world().ownerKey(),
			);
			expect(error).toBeUndefined();
			const body = { content: `About the ${parentType}`, [key]: ids[key] };
			expect((await world().requests()).map(wire)).toEqual([{ method: 'POST', path: '/crm/notes', query: '', headers: world().keyHeaders(owner().id, true), body }]);
			expect(items).toEqual([
				{
					id: expect.any(String),
					companyId: world().seed.companies.acme.id,
					content: `About the ${parentType}`,
					isPinned: false,
					authorId: owner().id,
					authorName: 'Ada Admin',
					contactId: null,
					dealId: null,
					crmCompanyId: null,
					[key]: ids[key],
					createdAt: expect.any(String),
					updatedAt: expect.any(String),
				},
			]);
		}
	});

	test('Never two parents: a locator that the Parent Type hides is not sent; no parent or no content is refused before sending', async () => {
		const contactId = await parent('contact', 'otto@example.com');
		const dealId = await parent('deal', 'Upsell');
		const { items } = await world().runNode(
			{ resource: 'note', operation: 'create', parentType: 'deal', dealId: byId(dealId), contactId: byId(contactId), content: 'Deal only' },
			world().pat(),
		);
		expect(items[0]).toMatchObject({ dealId, contactId: null });
		expect((await world().requests()).map((request) => request.body)).toEqual([{ content: 'Deal only', dealId }]);
		await world().clearRequests();

		const none = await world().runNode(
			{ resource: 'note', operation: 'create', parentType: 'company', crmCompanyId: byId('={{ $json.companyId }}'), content: 'Lost' },
			world().pat(),
			{ input: [{ companyId: '' }] },
		);
		expect(none.error?.message).toBe('Company is required');
		const empty = await world().runNode(
			{ resource: 'note', operation: 'create', parentType: 'contact', contactId: byId(contactId), content: '={{ $json.text }}' },
			world().pat(),
			{ input: [{ text: ' ' }] },
		);
		expect(empty.error?.message).toBe('Content is required');
		expect(await world().requests()).toEqual([]);
	});

	test('The API wants exactly one parent of the tenant: none or two is 400, another tenant\'s contact 404', async () => {
		const contactId = await parent('contact', 'pia@example.com');
		const dealId = await parent('deal', 'Pia deal');
		const two = await world().api('POST', '/crm/notes', ownerPat(), { body: { content: 'x', contactId, dealId } });
		expect(two).toEqual({ status: 400, body: { statusCode: 400, message: EXACTLY_ONE, error: 'Bad Request' } });
		const none = await world().api('POST', '/crm/notes', ownerPat(), { body: { content: 'x' } });
		expect(none).toEqual({ status: 400, body: { statusCode: 400, message: EXACTLY_ONE, error: 'Bad Request' } });
		const foreign = await parent('contact', 'olga@other.example', world().seed.companies.other.id);
		const { error } = await world().runNode({ resource: 'note', operation: 'create', parentType: 'contact', contactId: byId(foreign), content: 'x' }, world().pat());
		expect(error?.httpCode).toBe('404');
		expect(error?.description).toContain('Contact not found');
	});

	test('Update changes the content and pins the note; an empty Update is refused; Delete outputs { deleted: true } and the note is gone', async () => {
		const contactId = await parent('contact', 'quinn@example.com');
		const created = await world().api('POST', '/crm/notes', ownerPat(), { body: { content: 'First draft', contactId } });
		const noteId = created.body.id as string;
		await world().clearRequests();

		const { items } = await world().runNode({ resource: 'note', operation: 'update', noteId, updateFields: { content: 'Final', isPinned: true } }, world().pat());
		expect(items).toEqual([{ ...created.body, content: 'Final', isPinned: true, updatedAt: expect.any(String) }]);
		const unpinned = await world().runNode({ resource: 'note', operation: 'update', noteId, updateFields: { isPinned: false } }, world().pat());
		expect(unpinned.items[0]).toMatchObject({ content: 'Final', isPinned: false });
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'PATCH', path: `/crm/notes/${noteId}`, query: '', headers: world().patHeaders(ownerPat(), true), body: { content: 'Final', isPinned: true } },
			{ method: 'PATCH', path: `/crm/notes/${noteId}`, query: '', headers: world().patHeaders(ownerPat(), true), body: { isPinned: false } },
		]);
		await world().clearRequests();

		const nothing = await world().runNode({ resource: 'note', operation: 'update', noteId, updateFields: {} }, world().pat());
		expect(nothing.error?.message).toBe('Add at least one field under Update Fields: Content or Pinned');
		expect(await world().requests()).toEqual([]);

		const deleted = await world().runNode({ resource: 'note', operation: 'delete', noteId }, world().pat());
		expect(deleted.items).toEqual([{ deleted: true }]);
		const again = await world().runNode({ resource: 'note', operation: 'delete', noteId }, world().pat());
		expect(again.error?.httpCode).toBe('404');
		expect(again.error?.description).toContain('Note not found');
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'DELETE', path: `/crm/notes/${noteId}`, query: '', headers: world().patHeaders(), body: null },
			{ method: 'DELETE', path: `/crm/notes/${noteId}`, query: '', headers: world().patHeaders(), body: null },
		]);
	});
});
