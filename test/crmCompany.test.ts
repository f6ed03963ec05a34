import type { IDataObject } from 'n8n-workflow';

import { addNote } from './harness/crm';
import { byId, useWorld, wire } from './harness/world';

const world = useWorld();

const pat = () => world().seed.credentials.ownerPat;
const owner = () => world().seed.users.owner;

type Company = IDataObject & { id: string };

async function api(method: string, path: string, body?: unknown): Promise<IDataObject> {
	return await world().call(method, path, pat(), body);
}

const company = async (name: string, extra: IDataObject = {}) => (await api('POST', '/crm/companies', { name, ...extra })) as Company;
const mapper = (value: IDataObject) => ({ mappingMode: 'defineBelow', value, matchingColumns: [], schema: [] });

beforeAll(async () => {
	await world().control('POST', '/__sandbox/rate-limit', { perMinute: 10000, burst: 10000 });
	await api('PUT', '/crm/settings/custom-fields?recordType=company', {
		fields: [
			{ key: 'tier', label: 'Tier', type: 'select', options: ['gold', 'silver'] },
			{ key: 'partner', label: 'Partner', type: 'checkbox' },
			{ key: 'revenue', label: 'Revenue', type: 'currency' },
			{ key: 'employees', label: 'Employees', type: 'number' },
			{ key: 'founded', label: 'Founded', type: 'date' },
			{ key: 'markets', label: 'Markets', type: 'multiselect', options: ['EU', 'US'] },
			{ key: 'slogan', label: 'Slogan', type: 'text' },
			{ key: 'about', label: 'About', type: 'textarea' },
		],
	});
});

describe('Company', () => {
	test('Create sends the fields given and the custom fields from the company settings', async () => {
		const { items, error } = await world().runNode(
			{
				resource: 'company',
				operation: 'create',
				name: 'Acme Inc.',
				additionalFields: { domain: 'acme.example', size: '11-50', industry: 'Software', website: 'https://acme.example', addressCity: 'Berlin' },
				customFields: mapper({ tier: 'gold', partner: true }),
			},
			world().pat(),
		);
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: '/crm/settings/custom-fields', query: 'recordType=company', headers: world().patHeaders(), body: null },
			{
				method: 'POST',
				path: '/crm/companies',
				query: '',
				headers: world().patHeaders(pat(), true),
				body: {
					name: 'Acme Inc.',
					domain: 'acme.example',
					industry: 'Software',
					size: '11-50',
					website: 'https://acme.example',
					addressCity: 'Berlin',
					customFields: { tier: 'gold', partner: true },
				},
			},
		]);
		expect(items).toEqual([expect.objectContaining({ name: 'Acme Inc.', domain: 'acme.example', ownerId: owner().id, customFields: { tier: 'gold', partner: true }, addressZip: null })]);
	});

	test('bad input is refused before sending: a website without https, a name over 255 characters, an industry or address city over 100', async () => {
		const website = await world().runNode({ resource: 'company', operation: 'create', name: 'Bad', additionalFields: { website: 'acme.example' } }, world().pat());
		expect(website.error?.message).toBe('Website must be a web address starting with https:// or http://');
		const long = await world().runNode({ resource: 'company', operation: 'create', name: 'x'.repeat(256) }, world().pat());
		expect(long.error?.message).toBe('Name must be at most 255 characters long; it has 256');
		const industry = await world().runNode({ resource: 'company', operation: 'create', name: 'Bad', additionalFields: { industry: 'i'.repeat(101) } }, world().pat());
		expect(industry.error?.message).toBe('Industry must be at most 100 characters long; it has 101');
		const c = await company('Long City Ltd.');
		const city = await world().runNode({ resource: 'company', operation: 'update', companyId: byId(c.id), updateFields: { addressCity: 'c'.repeat(101) } }, world().pat());
		expect(city.error?.message).toBe('Address City must be at most 100 characters long; it has 101');
		expect(await world().requests()).toEqual([]);
	});

	test('an industry and an address city of 100 characters are sent; the API refuses 101 in its validation words', async () => {
		const [industry, addressCity] = ['i'.repeat(100), 'c'.repeat(100)];
		const { items, error } = await world().runNode({ resource: 'company', operation: 'create', name: 'Edge Ltd.', additionalFields: { industry, addressCity } }, world().pat());
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire).pop()).toEqual({
			method: 'POST',
			path: '/crm/companies',
			query: '',
			headers: world().patHeaders(pat(), true),
			body: { name: 'Edge Ltd.', industry, addressCity },
		});
		expect(items).toEqual([expect.objectContaining({ industry, addressCity })]);
		const refused = await world().api('POST', '/crm/companies', pat(), { body: { name: 'Too Long Ltd.', industry: `${industry}i`, addressCity: `${addressCity}c` } });
		expect(refused.body).toEqual({
			statusCode: 400,
			message: ['industry must be shorter than or equal to 100 characters', 'addressCity must be shorter than or equal to 100 characters'],
			error: 'Bad Request',
		});
		const patched = await world().api('PATCH', `/crm/companies/${items[0].id as string}`, pat(), { body: { addressCity: `${addressCity}c` } });
		expect(patched.body).toEqual({ statusCode: 400, message: ['addressCity must be shorter than or equal to 100 characters'], error: 'Bad Request' });
	});

	test('custom-field values go with their real types: a checkbox true, a currency 1234.5, a date as its day, a multiselect as a list', async () => {
		const { items, error } = await world().runNode(
			{ resource: 'company', operation: 'create', name: '={{ $json.name }}', customFields: { mappingMode: 'autoMapInputData', value: null } },
			world().pat(),
			{
				input: [
					{ name: 'Typed Ltd.', partner: 'true', revenue: '1234.5', employees: '12', founded: '2020-02-29T10:00:00', markets: 'EU, US', slogan: ' Fast ', about: 'Line 1\nLine 2' },
					{ name: 'Listed Ltd.', partner: false, revenue: 99.99, founded: '2021-06-01', markets: '["US"]' },
				],
			},
		);
		expect(error).toBeUndefined();
		const sent = [
			{ partner: true, revenue: 1234.5, employees: 12, founded: '2020-02-29', markets: ['EU', 'US'], slogan: 'Fast', about: 'Line 1\nLine 2' },
			{ partner: false, revenue: 99.99, founded: '2021-06-01', markets: ['US'] },
		];
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: '/crm/settings/custom-fields', query: 'recordType=company', headers: world().patHeaders(), body: null },
			{ method: 'POST', path: '/crm/companies', query: '', headers: world().patHeaders(pat(), true), body: { name: 'Typed Ltd.', customFields: sent[0] } },
			{ method: 'POST', path: '/crm/companies', query: '', headers: world().patHeaders(pat(), true), body: { name: 'Listed Ltd.', customFields: sent[1] } },
		]);
		expect(items.map((item) => item.customFields)).toEqual(sent);
	});

	test('a custom-field value of the wrong type stops the item before sending, naming the field', async () => {
		const run = async (value: IDataObject) => (await world().runNode({ resource: 'company', operation: 'create', name: 'Wrong Ltd.', customFields: mapper(value) }, world().pat())).error?.message;
		expect(await run({ partner: 'yes' })).toBe('Custom Fields: Partner must be true or false, not "yes"');
		expect(await run({ revenue: '1.234,50' })).toBe('Custom Fields: Revenue must be a number, not "1.234,50"');
		expect(await run({ founded: '2026-02-30' })).toBe('Custom Fields: Founded must be a real date; 2026-02-30 does not exist');
		expect(await run({ founded: 'next spring' })).toBe('Custom Fields: Founded must be a date such as 2026-03-09, not "next spring"');
		expect(await run({ markets: 'EU, Mars' })).toBe('Custom Fields: Markets must be one of "EU", "US"; "Mars" is not');
		expect((await world().requests()).filter((request) => request.method === 'POST')).toEqual([]);
	});

	test('the API checks custom-field values by their type, stores a key that is not in the settings silently, and takes only the real field types', async () => {
		const typed = await world().api('POST', '/crm/companies', pat(), { body: { name: 'Strings Ltd.', customFields: { partner: 'true', revenue: '1234.5', founded: '2026-02-30', markets: ['Mars'] } } });
		expect(typed.body).toEqual({
			statusCode: 400,
			message: [
				'customFields.partner must be a boolean',
				'customFields.revenue must be a number',
				'customFields.founded must be a valid ISO 8601 date string (YYYY-MM-DD)',
				'each value in customFields.markets must be one of the following values: EU, US',
			],
			error: 'Bad Request',
		});
		const typo = await world().api('POST', '/crm/companies', pat(), { body: { name: 'Typo Ltd.', customFields: { Tier: 'gold' } } });
		expect(typo.status).toBe(201);
		expect(typo.body.customFields).toEqual({ Tier: 'gold' });
		const settings = await world().api('PUT', '/crm/settings/custom-fields?recordType=company', pat(), { body: { fields: [{ key: 'vip', label: 'VIP', type: 'boolean' }] } });
		expect(settings.body).toEqual({
			statusCode: 400,
			message: ['fields.0.type must be one of the following values: text, textarea, number, currency, date, select, multiselect, checkbox'],
			error: 'Bad Request',
		});
	});

	test('Get and Get by Domain read one company; an unknown domain gets the API\'s 404', async () => {
		const c = await company('Globex', { domain: 'Globex.example' });
		const got = await world().runNode({ resource: 'company', operation: 'get', companyId: byId(c.id) }, world().pat());
		expect(got.items).toEqual([expect.objectContaining({ id: c.id, name: 'Globex' })]);
		const byDomain = await world().runNode({ resource: 'company', operation: 'getByDomain', domain: 'globex.example' }, world().pat());
		expect(byDomain.items).toEqual([expect.objectContaining({ id: c.id })]);
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: `/crm/companies/${c.id}`, query: '', headers: world().patHeaders(), body: null },
			{ method: 'GET', path: '/crm/companies/by-domain/globex.example', query: '', headers: world().patHeaders(), body: null },
		]);
		const none = await world().runNode({ resource: 'company', operation: 'getByDomain', domain: 'nobody.example' }, world().pat());
		expect(none.error?.message).toBe('Company not found (HTTP 404)');
		expect(none.error?.description).toContain('Company not found');
	});

	test('Get Many sends the filters with upper-case sortOrder and reads page1 pages up to the limit', async () => {
		for (const name of ['Pager A', 'Pager B', 'Pager C']) await company(name, { industry: 'Paging', size: '1-10' });
		const { items, error } = await world().runNode(
			{ resource: 'company', operation: 'getAll', returnAll: false, limit: 2, filters: { search: 'pager', industry: 'Paging', size: '1-10', sortBy: 'name', sortOrder: 'DESC' } },
			world().pat(),
		);
		expect(error).toBeUndefined();
		expect((await world().requests()).map((request) => request.query)).toEqual(['search=pager&industry=Paging&size=1-10&sortBy=name&sortOrder=DESC&page=1&limit=2']);
		expect(items.map((item) => item.name)).toEqual(['Pager C', 'Pager B']);
		const all = await world().runNode({ resource: 'company', operation: 'getAll', returnAll: true, filters: { industry: 'Paging' } }, world().pat());
		expect(all.items).toHaveLength(3);
	});

	test('Update unassigns the owner and merges custom fields; owner and unassign together are refused', async () => {
		const c = await company('Initech', { customFields: { tier: 'silver', partner: false } });
		const { items, error } = await world().runNode(
			{ resource: 'company', operation: 'update', companyId: byId(c.id), updateFields: { phoneNumber: '+4930123456', unassignOwner: true }, customFields: mapper({ tier: 'gold' }) },
			world().pat(),
		);
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)[1]).toEqual({
			method: 'PATCH',
			path: `/crm/companies/${c.id}`,
			query: '',
			headers: world().patHeaders(pat(), true),
			body: { phoneNumber: '+4930123456', ownerId: null, customFields: { tier: 'gold' } },
		});
		expect(items).toEqual([expect.objectContaining({ ownerId: null, phoneNumber: '+4930123456', customFields: { tier: 'gold', partner: false } })]);
		await world().clearRequests();
		const both = await world().runNode(
			{ resource: 'company', operation: 'update', companyId: byId(c.id), updateFields: { ownerId: byId(owner().id), unassignOwner: true } },
			world().pat(),
		);
		expect(both.error?.message).toBe('Owner and Unassign Owner contradict each other: remove the Owner text or turn Unassign Owner off');
		expect(await world().requests()).toEqual([]);
	});

	test('Delete outputs deleted from the 204; the company\'s deals stay, unlinked', async () => {
		const c = await company('Umbrella');
		const pipeline = (await api('POST', '/crm/pipelines', { name: 'Company Pipeline', stages: [{ name: 'Open', color: '#000000' }] })) as IDataObject & { id: string; stages: IDataObject[] };
		const deal = await api('POST', '/crm/deals', { name: 'Umbrella deal', pipelineId: pipeline.id, stageId: pipeline.stages[0].id, crmCompanyId: c.id });
		const { items } = await world().runNode({ resource: 'company', operation: 'delete', companyId: byId(c.id) }, world().pat());
		expect(items).toEqual([{ deleted: true }]);
		expect((await world().requests()).map(wire)).toEqual([{ method: 'DELETE', path: `/crm/companies/${c.id}`, query: '', headers: world().patHeaders(), body: null }]);
		expect((await api('GET', `/crm/deals/${deal.id as string}`)).crmCompanyId).toBeNull();
	});

	test('Get Deals, Get Contacts and Get Meeting History read the company\'s records, one item per deal or contact', async () => {
		const c = await company('Hooli');
		const pipeline = (await api('POST', '/crm/pipelines', { name: 'Hooli Pipeline', stages: [{ name: 'Open', color: '#000000' }] })) as IDataObject & { id: string; stages: IDataObject[] };
		for (const name of ['Hooli 1', 'Hooli 2']) await api('POST', '/crm/deals', { name, pipelineId: pipeline.id, stageId: pipeline.stages[0].id, crmCompanyId: c.id });
		const deals = await world().runNode({ resource: 'company', operation: 'getDeals', companyId: byId(c.id) }, world().pat());
		expect(deals.items.map((item) => item.name)).toEqual(['Hooli 1', 'Hooli 2']);
		const contacts = await world().runNode({ resource: 'company', operation: 'getContacts', companyId: byId(c.id) }, world().pat());
		expect(contacts.items).toEqual([]);
		const history = await world().runNode({ resource: 'company', operation: 'getMeetingHistory', companyId: byId(c.id) }, world().pat());
		expect(history.items).toEqual([{ meetings: [], people: [], firstMeetingAt: null, lastMeetingAt: null }]);
		expect((await world().requests()).map((request) => `${request.method} ${request.path}`)).toEqual([
			`GET /crm/companies/${c.id}/deals`,
			`GET /crm/companies/${c.id}/contacts`,
			`GET /crm/companies/${c.id}/meeting-history`,
		]);
	});

	test('Get Contacts and Get Meeting History with linked contacts: the contacts, the meetings booked with their emails, who was met', async () => {
		await world().control('POST', '/__sandbox/clock/set', { now: '2026-03-01T12:00:00Z' });
		const c = await company('Linked Ltd.');
		const [meetingType] = await world().meetingTypes();
		const first = await world().bookAppointment(meetingType.id, '2026-03-09T09:00:00+01:00', 'Linda', 'Linked');
		const second = await world().bookAppointment(meetingType.id, '2026-03-10T09:00:00+01:00', 'Linda', 'Linked');
		const linda = String((first.attendees as IDataObject[])[0].contactId);
		const lou = (await api('POST', '/crm', { email: 'lou@linked.example', firstName: 'Lou' })).item as Company;
		for (const id of [linda, lou.id]) await api('PATCH', `/crm/${id}`, { crmCompanyId: c.id });
		await api('POST', '/crm', { email: 'not.linked@example.com' });
		const contacts = await world().runNode({ resource: 'company', operation: 'getContacts', companyId: byId(c.id) }, world().pat());
		expect(contacts.error).toBeUndefined();
		expect(contacts.items.map((item) => [item.id, item.email, item.crmCompanyId])).toEqual([
			[linda, 'linda.linked@example.com', c.id],
			[lou.id, 'lou@linked.example', c.id],
		]);
		const history = await world().runNode({ resource: 'company', operation: 'getMeetingHistory', companyId: byId(c.id) }, world().pat());
		expect(history.items).toEqual([
			{
				meetings: [
					expect.objectContaining({ id: first.id, start: first.start, attendees: ['linda.linked@example.com'] }),
					expect.objectContaining({ id: second.id, start: second.start, attendees: ['linda.linked@example.com'] }),
				],
				people: [{ contactId: linda, email: 'linda.linked@example.com', firstName: 'Linda', lastName: 'Linked', meetingCount: 2 }],
				firstMeetingAt: first.start,
				lastMeetingAt: second.start,
			},
		]);
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: `/crm/companies/${c.id}/contacts`, query: '', headers: world().patHeaders(), body: null },
			{ method: 'GET', path: `/crm/companies/${c.id}/meeting-history`, query: '', headers: world().patHeaders(), body: null },
		]);
	});

	test('Get Notes lists the company\'s notes, pinned first, one item per note; an unknown company is the API\'s 404 Company not found', async () => {
		const c = await company('Noted Ltd.');
		const plain = await addNote(world(), { crmCompanyId: c.id }, 'Met at the fair');
		const pinned = await addNote(world(), { crmCompanyId: c.id }, 'Pays late', true);
		const { items, error } = await world().runNode({ resource: 'company', operation: 'getNotes', companyId: byId(c.id) }, world().pat());
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([{ method: 'GET', path: `/crm/companies/${c.id}/notes`, query: '', headers: world().patHeaders(), body: null }]);
		expect(items.map((item) => [item.id, item.content, item.isPinned, item.crmCompanyId])).toEqual([
			[pinned, 'Pays late', true, c.id],
			[plain, 'Met at the fair', false, c.id],
		]);
		const unknown = await world().runNode({ resource: 'company', operation: 'getNotes', companyId: byId('6f1c2a7e-1b2c-4d5e-8f90-123456789abc') }, world().pat());
		expect(unknown.error?.description).toContain('Company not found');
	});

	test('the company list searches name and domain through the API', async () => {
		const c = await company('Pied Piper', { domain: 'piedpiper.example' });
		const found = await world().listSearch('searchCompanies', { resource: 'company', operation: 'get' }, world().pat(), 'piedpiper');
		expect(found.result?.results).toEqual([{ name: 'Pied Piper (piedpiper.example)', value: c.id }]);
		expect((await world().requests()).map((request) => `${request.path}?${request.query}`)).toEqual(['/crm/companies?page=1&limit=100&search=piedpiper']);
	});

	test('the custom-field mapper lists the company settings with the n8n type of each real type', async () => {
		const { result } = await world().resourceMapping('getCustomFields', { resource: 'company', operation: 'create' }, world().pat());
		expect(result?.fields.map((field) => [field.id, field.displayName, field.type])).toEqual([
			['tier', 'Tier', 'options'],
			['partner', 'Partner', 'boolean'],
			['revenue', 'Revenue', 'number'],
			['employees', 'Employees', 'number'],
			['founded', 'Founded', 'dateTime'],
			['markets', 'Markets', 'array'],
			['slogan', 'Slogan', 'string'],
			['about', 'About', 'string'],
		]);
		expect(result?.fields[0].options).toEqual([{ name: 'gold', value: 'gold' }, { name: 'silver', value: 'silver' }]);
	});
});
