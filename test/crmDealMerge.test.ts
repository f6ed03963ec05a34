import type { IDataObject } from 'n8n-workflow';

import { addNote, asTenant } from './harness/crm';
import { byId, useWorld, wire } from './harness/world';

/**
 * Deal → Merge: the duplicates by ID, or the deal's duplicate candidates that score enough; their notes, tasks,
 * attachments and activity move to the deal, then they are gone. What cannot be merged is refused before sending.
 */

const world = useWorld();

type Pipeline = IDataObject & { id: string; stages: Array<IDataObject & { id: string }> };

let pipeline: Pipeline;
let company: string;

const asOwner = (method: string, path: string, body?: unknown) => asTenant(world(), { token: world().seed.credentials.ownerPat }, method, path, body);

async function deal(name: string, extra: IDataObject = {}): Promise<string> {
	const created = (await asOwner('POST', '/crm/deals', { name, pipelineId: pipeline.id, stageId: pipeline.stages[0].id, ...extra })) as IDataObject;
	await world().clearRequests();
	return created.id as string;
}

beforeAll(async () => {
	await world().control('POST', '/__sandbox/clock/set', { now: '2026-04-01T08:00:00Z' });
	pipeline = (await asOwner('POST', '/crm/pipelines', { name: 'Merging', stages: [{ name: 'Open', color: '#1a73e8' }, { name: 'Closer', color: '#1a73e8' }] })) as Pipeline;
	company = ((await asOwner('POST', '/crm/companies', { name: 'Dupe Corp' })) as IDataObject).id as string;
});

describe('Deal Merge', () => {
	test('by IDs: one request with the duplicates (each once); their notes, tasks, attachments and activity move to the deal, then they are gone', async () => {
		const keep = await deal('Dupe renewal');
		const [first, second] = [await deal('Dupe renewal (2)'), await deal('Dupe renewal (3)')];
		await addNote(world(), { dealId: first }, 'From the first duplicate');
		await addNote(world(), { dealId: second }, 'From the second duplicate');
		await asOwner('POST', '/crm/tasks', { title: 'Call back', type: 'call', dueDate: '2026-04-03T09:00:00Z', dealId: second });
		await asOwner('PATCH', `/crm/deals/${second}`, { stageId: pipeline.stages[1].id });
		await world().control('POST', '/__sandbox/crm-attachments', { recordId: first, attachment: { fileName: 'brief.pdf' } });
		await world().clearRequests();

		const { items, error } = await world().runNode(
			{ resource: 'deal', operation: 'merge', dealId: byId(keep), duplicatesFrom: 'ids', duplicateDealIds: [first, second, first] },
			world().pat(),
		);
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'POST', path: `/crm/deals/${keep}/merge`, query: '', headers: world().patHeaders(undefined, true), body: { duplicateDealIds: [first, second] } },
		]);
		expect(items).toEqual([{ dealId: keep, mergedCount: 2, moved: { notes: 2, tasks: 1, attachments: 1, activity: 1 }, duplicateDealIds: [first, second] }]);
		for (const id of [first, second]) expect((await world().api('GET', `/crm/deals/${id}`, world().seed.credentials.ownerPat)).status).toBe(404);
		const notes = (await asOwner('GET', `/crm/deals/${keep}/notes`)) as unknown as IDataObject[];
		expect(notes.map((note) => note.content).sort()).toEqual(['From the first duplicate', 'From the second duplicate']);
		expect(await asOwner('GET', `/crm/deals/${keep}/attachments`)).toEqual([{ fileName: 'brief.pdf' }]);
		expect(((await asOwner('GET', `/crm/deals/${keep}/activity`)) as unknown as IDataObject[]).map((entry) => [entry.dealId, entry.toStageName])).toEqual([[keep, 'Closer']]);
	});

	test('by IDs: the deal itself among its duplicates, or more than 20, is refused before sending', async () => {
		const keep = await deal('Solo');
		const itself = await world().runNode({ resource: 'deal', operation: 'merge', dealId: byId(keep), duplicateDealIds: [keep] }, world().pat());
		expect(itself.error?.message).toBe(`Duplicate Deal IDs names the deal to merge into (${keep}): a deal cannot be merged into itself`);
		const many = Array.from({ length: 21 }, (_, index) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`);
		const tooMany = await world().runNode({ resource: 'deal', operation: 'merge', dealId: byId(keep), duplicateDealIds: `={{ ${JSON.stringify(many)} }}` }, world().pat());
		expect(tooMany.error?.message).toBe('Duplicate Deal IDs may name at most 20 deals per merge; it names 21');
		const none = await world().runNode({ resource: 'deal', operation: 'merge', dealId: byId(keep), duplicateDealIds: [] }, world().pat());
		expect(none.error?.message).toBe('Duplicate Deal IDs is required');
		expect(await world().requests()).toEqual([]);
	});

	test('from the duplicate candidates: reads them, merges those scoring at least Minimum Score', async () => {
		const keep = await deal('Candidate deal', { crmCompanyId: company });
		const sameNameAndCompany = await deal('candidate DEAL', { crmCompanyId: company });
		const sameNameOnly = await deal('Candidate deal');
		const { items, error } = await world().runNode(
			{ resource: 'deal', operation: 'merge', dealId: byId(keep), duplicatesFrom: 'candidates', minimumScore: 0.8 },
			world().pat(),
		);
		expect(error).toBeUndefined();
		expect((await world().requests()).map((request) => [request.method, request.path, request.body])).toEqual([
			['GET', `/crm/deals/${keep}/duplicate-candidates`, null],
			['POST', `/crm/deals/${keep}/merge`, { duplicateDealIds: [sameNameAndCompany] }],
		]);
		expect(items).toEqual([{ dealId: keep, mergedCount: 1, moved: { notes: 0, tasks: 0, attachments: 0, activity: 0 }, duplicateDealIds: [sameNameAndCompany] }]);
		expect((await world().api('GET', `/crm/deals/${sameNameOnly}`, world().seed.credentials.ownerPat)).status).toBe(200);
	});

	test('from the duplicate candidates: none scoring enough merges nothing and sends no write', async () => {
		const keep = await deal('Lonely deal');
		await deal('Lonely deal');
		const { items } = await world().runNode({ resource: 'deal', operation: 'merge', dealId: byId(keep), duplicatesFrom: 'candidates', minimumScore: 0.9 }, world().pat());
		expect((await world().requests()).map((request) => request.method)).toEqual(['GET']);
		expect(items).toEqual([{ dealId: keep, mergedCount: 0, duplicateDealIds: [] }]);
	});

	test('candidates in a form the node does not read stop the item, naming the keys, before any write', async () => {
		const keep = await deal('Odd deal');
		await world().control('POST', '/__sandbox/faults', { method: 'GET', path: `/crm/deals/${keep}/duplicate-candidates`, status: 200, body: [{ id: 'x', similarity: 1 }] });
		const { error } = await world().runNode({ resource: 'deal', operation: 'merge', dealId: byId(keep), duplicatesFrom: 'candidates' }, world().pat());
		expect(error?.message).toBe('A duplicate candidate came in a form this node does not read: an object with the keys id, similarity');
		expect((await world().requests()).map((request) => request.method)).toEqual(['GET']);
	});
});
