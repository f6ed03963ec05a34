import type { IDataObject } from 'n8n-workflow';

import { crmParent } from './harness/crm';
import { actAs, bytesOf, createRequest, fileOf, makePdf } from './harness/signatures';
import { byId, useWorld, wire } from './harness/world';

const world = useWorld();

const owner = () => world().seed.users.owner;
const ownerPat = () => world().seed.credentials.ownerPat;

const ANA = { name: 'Ana Lima', email: 'ana@example.com', order: 1 };
const BEN = { name: 'Ben Ito', email: 'ben@example.com', order: 2 };

let pdf: Buffer;
beforeAll(async () => {
	pdf = await makePdf(2);
});

/** The body of POST /v4/signatures for this PDF and these signers. */
const createBody = (signers: IDataObject[], extra: IDataObject = {}) => ({
	title: 'Service agreement',
	document: { fileName: 'contract.pdf', contentType: 'application/pdf', content: pdf.toString('base64') },
	signers,
	...extra,
});

/** A SignatureRequest as the API answers it, pending, with these signers (in order). */
function pending(signers: IDataObject[], extra: IDataObject = {}): IDataObject {
	return {
		id: expect.any(String),
		title: 'Service agreement',
		status: 'pending',
		signers: signers.map((signer) => ({ id: expect.any(String), ...signer, status: 'pending', signedAt: null })),
		message: null,
		contactId: null,
		document: { fileName: 'contract.pdf', contentType: 'application/pdf', size: pdf.length },
		cancelReason: null,
		createdAt: expect.any(String),
		updatedAt: expect.any(String),
		completedAt: null,
		expiresAt: null,
		...extra,
	};
}

describe('Signatures: Signature Request', () => {
	test('Create sends the PDF of the input binary field as base64, the signers in the form given, message, expiry (with the workflow\'s offset) and contact', async () => {
		const contactId = await crmParent(world(), 'contact', 'cora@example.com');
		const { items, binaries, error } = await world().runNode(
			{
				resource: 'signatureRequest',
				operation: 'create',
				binaryPropertyName: 'contract',
				title: 'Service agreement',
				signers: { signer: [BEN, ANA] },
				additionalFields: { message: 'Please sign by Friday', expiresAt: '2030-01-01T10:00:00', contactId },
			},
			world().ownerKey(),
			{ binaries: [{ contract: fileOf(pdf, 'contract.pdf') }], timezone: 'Europe/Berlin' },
		);
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{
				method: 'POST',
				path: '/v4/signatures',
				query: '',
				headers: world().keyHeaders(owner().id, true),
				body: createBody([BEN, ANA], { message: 'Please sign by Friday', expiresAt: '2030-01-01T10:00:00+01:00', contactId }),
			},
		]);
		expect(items).toEqual([pending([ANA, BEN], { message: 'Please sign by Friday', contactId, expiresAt: '2030-01-01T09:00:00.000Z' })]);
		expect(binaries).toEqual([{}]);
	});

	test('Create with only the required fields, the default Input Binary Field "data" and a PAT; an unknown contact is the API\'s 404', async () => {
		const { items, error } = await world().runNode(
			{ resource: 'signatureRequest', operation: 'create', title: 'Service agreement', signers: { signer: [ANA] } },
			world().pat(),
			{ binaries: [{ data: fileOf(pdf, 'contract.pdf') }] },
		);
		expect(error).toBeUndefined();
		expect(items).toEqual([pending([ANA])]);
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'POST', path: '/v4/signatures', query: '', headers: world().patHeaders(ownerPat(), true), body: createBody([ANA]) },
		]);

		const unknown = await world().runNode(
			{ resource: 'signatureRequest', operation: 'create', title: 'Service agreement', signers: { signer: [ANA] }, additionalFields: { contactId: 'no-such-contact' } },
			world().pat(),
			{ binaries: [{ data: fileOf(pdf, 'contract.pdf') }] },
		);
		expect(unknown.error).toMatchObject({ message: 'Contact not found (HTTP 404)', httpCode: '404' });
	});

	test('Get answers the request with its signers in order', async () => {
		const created = await createRequest(world(), createBody([BEN, ANA]));
		const { items, error } = await world().runNode({ resource: 'signatureRequest', operation: 'get', signatureRequestId: byId(created.id) }, world().pat());
		expect(error).toBeUndefined();
		expect(items).toEqual([created]);
		expect(items[0]).toEqual(pending([ANA, BEN], { id: created.id }));
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: `/v4/signatures/${created.id}`, query: '', headers: world().patHeaders(), body: null },
		]);
		const missing = await world().runNode({ resource: 'signatureRequest', operation: 'get', signatureRequestId: byId('0b7e6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f') }, world().pat());
		expect(missing.error).toMatchObject({ message: 'Signature request not found (HTTP 404)', httpCode: '404' });
	});

	test('Get Many filters by status and contact, pages by offset (key "signatures") up to the Limit, or reads every page with Return All', async () => {
		const contactId = await crmParent(world(), 'contact', 'gina@example.com');
		const made: string[] = [];
		for (let index = 0; index < 3; index++) made.push((await createRequest(world(), createBody([ANA], { contactId }))).id);
		const cancelled = await createRequest(world(), createBody([ANA], { contactId }));
		await world().api('POST', `/v4/signatures/${cancelled.id}/cancel`, ownerPat(), { body: {} });
		await world().clearRequests();

		const limited = await world().runNode(
			{ resource: 'signatureRequest', operation: 'getAll', limit: 2, filters: { status: 'pending', contactId } },
			world().ownerKey(),
		);
		expect(limited.error).toBeUndefined();
		expect(limited.items.map((item) => item.id)).toEqual([made[2], made[1]]);
		expect(limited.items[0]).toEqual(pending([ANA], { id: made[2], contactId }));
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: '/v4/signatures', query: `status=pending&contactId=${contactId}&limit=2&offset=0`, headers: world().keyHeaders(), body: null },
		]);
		await world().clearRequests();

		const all = await world().runNode({ resource: 'signatureRequest', operation: 'getAll', returnAll: true, filters: { contactId } }, world().pat());
		expect(all.items.map((item) => [item.id, item.status])).toEqual([
			[cancelled.id, 'cancelled'],
			[made[2], 'pending'],
			[made[1], 'pending'],
			[made[0], 'pending'],
		]);
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: '/v4/signatures', query: `contactId=${contactId}&limit=100&offset=0`, headers: world().patHeaders(), body: null },
		]);
	});

	test('Send Reminder answers the emails of the signers who have not signed; a completed request is 409', async () => {
		const created = await createRequest(world(), createBody([ANA, BEN]));
		await actAs(world(), created.id, ANA.email);
		const { items, error } = await world().runNode({ resource: 'signatureRequest', operation: 'remind', signatureRequestId: byId(created.id) }, world().ownerKey());
		expect(error).toBeUndefined();
		expect(items).toEqual([{ remindedSigners: [BEN.email] }]);
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'POST', path: `/v4/signatures/${created.id}/remind`, query: '', headers: world().keyHeaders(), body: null },
		]);

		await actAs(world(), created.id, BEN.email);
		const done = await world().runNode({ resource: 'signatureRequest', operation: 'remind', signatureRequestId: byId(created.id) }, world().pat());
		expect(done.error).toMatchObject({
			message: 'Only pending signature requests can be reminded; this one is completed (HTTP 409)',
			httpCode: '409',
		});
	});

	test('Cancel sends the reason and answers the request cancelled; cancelling again is 409', async () => {
		const created = await createRequest(world(), createBody([ANA]));
		const { items, error } = await world().runNode(
			{ resource: 'signatureRequest', operation: 'cancel', signatureRequestId: byId(created.id), reason: 'Terms changed' },
			world().pat(),
		);
		expect(error).toBeUndefined();
		expect(items).toEqual([{ ...created, status: 'cancelled', cancelReason: 'Terms changed', updatedAt: expect.any(String) }]);
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'POST', path: `/v4/signatures/${created.id}/cancel`, query: '', headers: world().patHeaders(ownerPat(), true), body: { reason: 'Terms changed' } },
		]);

		const again = await world().runNode({ resource: 'signatureRequest', operation: 'cancel', signatureRequestId: byId(created.id) }, world().pat());
		expect(again.error).toMatchObject({
			message: 'Only pending signature requests can be cancelled; this one is cancelled (HTTP 409)',
			httpCode: '409',
		});
	});

	test('Download Document: the original at once, into the named binary field, with the answer\'s file name and MIME type', async () => {
		const created = await createRequest(world(), createBody([ANA]));
		const { items, binaries, error } = await world().runNode(
			{ resource: 'signatureRequest', operation: 'downloadDocument', signatureRequestId: byId(created.id), version: 'original', outputBinaryPropertyName: 'original' },
			world().ownerKey(),
		);
		expect(error).toBeUndefined();
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: `/v4/signatures/${created.id}/document`, query: 'version=original', headers: world().keyHeaders(), body: null },
		]);
		expect((await world().requests())[0].headers.accept).toBe('application/pdf, application/json');
		expect(items).toEqual([{ signatureRequestId: created.id, version: 'original', fileName: 'contract.pdf', mimeType: 'application/pdf', fileSize: pdf.length }]);
		expect(Object.keys(binaries[0])).toEqual(['original']);
		expect(binaries[0].original).toMatchObject({ fileName: 'contract.pdf', mimeType: 'application/pdf', fileExtension: 'pdf', bytes: pdf.length });
		expect(bytesOf(binaries[0].original).equals(pdf)).toBe(true);
	});

	test('Download Document of the signed version (the default) before every signer has signed is the API\'s 409, with its reason', async () => {
		const created = await createRequest(world(), createBody([ANA, BEN]));
		await actAs(world(), created.id, ANA.email);
		const { items, error } = await world().runNode({ resource: 'signatureRequest', operation: 'downloadDocument', signatureRequestId: byId(created.id) }, world().pat());
		expect(items).toEqual([]);
		expect(error).toMatchObject({
			name: 'NodeApiError',
			message: 'The signed document is available once every signer has signed; this request is pending (HTTP 409)',
			httpCode: '409',
		});
		expect(error?.description).toContain('The API says: The signed document is available once every signer has signed; this request is pending.');
		expect((await world().requests()).map(wire)).toEqual([
			{ method: 'GET', path: `/v4/signatures/${created.id}/document`, query: 'version=signed', headers: world().patHeaders(), body: null },
		]);
	});

	test('Download Document: an error answer read as bytes is still the API\'s error; an answer that is not a PDF is refused, not stored as one', async () => {
		const missing = await world().runNode({ resource: 'signatureRequest', operation: 'downloadDocument', signatureRequestId: byId('0b7e6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f') }, world().pat());
		expect(missing.error).toMatchObject({ name: 'NodeApiError', message: 'Signature request not found (HTTP 404)', httpCode: '404' });
		expect(missing.error?.description).toContain('The API says: Signature request not found.');

		const created = await createRequest(world(), createBody([ANA]));
		const path = `/v4/signatures/${created.id}/document`;
		await world().control('POST', '/__sandbox/faults', { method: 'GET', path, status: 200, body: '<html>Sign in</html>', headers: { 'Content-Type': 'text/html' }, times: 1 });
		const { items, error } = await world().runNode(
			{ resource: 'signatureRequest', operation: 'downloadDocument', signatureRequestId: byId(created.id), version: 'original' },
			world().pat(),
		);
		expect(items).toEqual([]);
		expect(error).toEqual({
			name: 'NodeOperationError',
			message: 'The API answered with text/html instead of the application/pdf file asked for',
			description: 'Item 1: the answer (20 bytes) is not the file that was asked for. Check that the credential\'s Base URL points at the API (the host root, without a path).',
			itemIndex: 0,
		});
	});

	test('The signature request list of the editor ("From List") shows title and status', async () => {
		const created = await createRequest(world(), createBody([ANA], { title: 'Lease for unit 7' }));
		const { result, error } = await world().listSearch('searchSignatureRequests', { resource: 'signatureRequest', operation: 'get' }, world().pat(), 'unit 7');
		expect(error).toBeUndefined();
		expect(result).toEqual({ results: [{ name: 'Lease for unit 7 (pending)', value: created.id }] });
	});
});

describe('the sandbox signing page (what npm start prints for signing without email)', () => {
	/** The page as a browser gets it, and its Sign/Decline buttons: [request id, email, action]. */
	async function page(): Promise<{ type: string | null; html: string; buttons: string[][] }> {
		const answer = await fetch(`${world().url}/__sandbox/sign`);
		const html = await answer.text();
		const buttons = [...html.matchAll(/data-id="([^"]+)" data-email="([^"]+)" data-action="(sign|decline)"/g)].map((match) => match.slice(1));
		return { type: answer.headers.get('content-type'), html, buttons };
	}

	test('lists each request with its signers; only the signer whose turn it is has buttons, which post to the signing route', async () => {
		const created = await createRequest(world(), createBody([ANA, BEN], { title: 'Lease <draft> & annex' }));
		const first = await page();
		expect(first.type).toBe('text/html; charset=utf-8');
		expect(first.html).toContain('<h2>Lease &lt;draft&gt; &amp; annex</h2>');
		expect(first.html).not.toContain('<draft>');
		expect(first.buttons.filter(([id]) => id === created.id)).toEqual([
			[created.id, ANA.email, 'sign'],
			[created.id, ANA.email, 'decline'],
		]);
		expect(first.html).toContain("fetch('/__sandbox/signatures/' + encodeURIComponent(button.dataset.id) + '/' + button.dataset.action");
		// What a click on "Sign as Ana Lima" posts; then it is Ben's turn, and after him the request is completed.
		await actAs(world(), created.id, ANA.email);
		expect((await page()).buttons.filter(([id]) => id === created.id)).toEqual([
			[created.id, BEN.email, 'sign'],
			[created.id, BEN.email, 'decline'],
		]);
		await actAs(world(), created.id, BEN.email);
		const done = await page();
		expect(done.buttons.filter(([id]) => id === created.id)).toEqual([]);
		expect(done.html).toContain(`Status: <b>completed</b> · ID <code>${created.id}</code>`);
		// The page is not part of the API: nothing of it is in the request log.
		expect(await world().requests()).toEqual([]);
	});
});
