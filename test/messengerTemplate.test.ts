import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import { read } from './harness/messenger';
import { useWorld, wire } from './harness/world';

const world = useWorld();

const TEMPLATES = '/v4/messenger/templates';

describe('Messenger Template', () => {
	test('Get Many: one read of the bare array; Status, Language and Limit applied by the node', async () => {
		const all = (await read(world(), TEMPLATES)) as IDataObject[];
		expect(all.map((template) => `${String(template.name)}:${String(template.language)} ${String(template.status)}`)).toEqual([
			'appointment_reminder:en approved',
			'conversation_restart:en approved',
			'lead_welcome:de approved',
			'lead_welcome:en approved',
			'follow_up:en pending',
			'summer_sale:en rejected',
		]);
		const every = await world().runNode({ resource: 'template', operation: 'getAll', returnAll: true }, world().pat());
		expect(every.items).toEqual(all);
		const approvedEn = await world().runNode({ resource: 'template', operation: 'getAll', returnAll: true, filters: { status: 'approved', language: 'EN' } }, world().ownerKey());
		expect(approvedEn.items).toEqual([all[0], all[1], all[3]]);
		const limited = await world().runNode({ resource: 'template', operation: 'getAll', limit: 2, filters: { status: 'approved' } }, world().pat());
		expect(limited.items).toEqual([all[0], all[1]]);
		const pending = await world().runNode({ resource: 'template', operation: 'getAll', filters: { status: 'pending' } }, world().pat());
		expect(pending.items).toEqual([{ name: 'follow_up', language: 'en', category: 'MARKETING', status: 'pending', body: 'Hi {{1}}, just checking in: do you have any questions?', parameterCount: 1 }]);
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: TEMPLATES, query: '', headers: world().patHeaders(), body: null },
			{ method: 'GET', path: TEMPLATES, query: '', headers: world().keyHeaders(), body: null },
			{ method: 'GET', path: TEMPLATES, query: '', headers: world().patHeaders(), body: null },
			{ method: 'GET', path: TEMPLATES, query: '', headers: world().patHeaders(), body: null },
		]);
	});

	test('The Template list shows only approved templates, by name, language and number of parameters', async () => {
		const { result } = await world().listSearch('searchTemplates', { resource: 'message', operation: 'send', type: 'template' }, world().pat());
		expect(result).toEqual({
			results: [
				{ name: 'appointment_reminder (en), 2 parameters', value: 'appointment_reminder:en' },
				{ name: 'conversation_restart (en), 0 parameters', value: 'conversation_restart:en' },
				{ name: 'lead_welcome (de), 1 parameter', value: 'lead_welcome:de' },
				{ name: 'lead_welcome (en), 1 parameter', value: 'lead_welcome:en' },
			],
		});
		const searched = await world().listSearch('searchTemplates', { resource: 'message', operation: 'send', type: 'template' }, world().pat(), 'reminder');
		expect(searched.result?.results.map((option) => option.value)).toEqual(['appointment_reminder:en']);
	});

	test('The example "Reply to a new lead with an approved template" runs against the seeded sandbox', async () => {
		const workflow = JSON.parse(readFileSync(join(__dirname, '..', 'examples', 'reply-to-lead-with-template.json'), 'utf8')) as { id: string; nodes: IDataObject[] };
		expect(workflow.id.length).toBeLessThanOrEqual(16);
		const lead = workflow.nodes.find((node) => node.name === 'Lead')!;
		const fields = ((lead.parameters as IDataObject).assignments as { assignments: Array<{ name: string; value: string }> }).assignments;
		const input = Object.fromEntries(fields.map(({ name, value }) => [name, value]));
		const sender = workflow.nodes.find((node) => node.name === 'Send Welcome Template')!;
		expect(sender.credentials).toEqual({ schedulingPlatformPatApi: { id: 'spDemoOwnerPat01', name: 'Demo Token (Ada Admin)' } });
		const { items, error } = await world().runNode(sender.parameters as IDataObject, world().pat(), { input: [input] });
		expect(error).toBeUndefined();
		expect(items).toEqual([
			{
				id: expect.any(String),
				conversationId: expect.any(String),
				direction: 'outbound',
				type: 'template',
				text: 'Hi Ada, thanks for your interest! Reply to this message to book a call with us.',
				template: { name: 'lead_welcome', language: 'en', parameters: ['Ada'] },
				status: 'queued',
				createdAt: expect.any(String),
			},
		]);
		expect((await world().requests()).map(wire).filter((request) => request.method === 'POST')).toEqual([
			{
				method: 'POST',
				path: '/v4/messenger/messages',
				query: '',
				headers: world().patHeaders(undefined, true),
				body: { phone: '+4915187654321', type: 'template', template: { name: 'lead_welcome', language: 'en', parameters: ['Ada'] } },
			},
		]);
	});
});
