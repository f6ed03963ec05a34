import type { IDataObject } from 'n8n-workflow';

import { actAs, bytesOf, fileOf, makePdf, pageCount } from './harness/signatures';
import { byId, useWorld } from './harness/world';

const world = useWorld();

const MB = 1024 * 1024;
const ownerPat = () => world().seed.credentials.ownerPat;

const SIGNERS = [
	{ name: 'Ana Lima', email: 'ana@example.com', order: 1 },
	{ name: 'Ben Ito', email: 'ben@example.com', order: 2 },
	{ name: 'Cleo Park', email: 'cleo@example.com', order: 3 },
];

const create = (extra: IDataObject = {}) => ({ resource: 'signatureRequest', operation: 'create', title: 'Service agreement', signers: { signer: SIGNERS }, ...extra });

/** What the sandbox is sent directly: a document of these bytes. */
const apiBody = (bytes: Buffer, extra: IDataObject = {}) => ({
	title: 'Direct',
	document: { fileName: 'x.pdf', contentType: 'application/pdf', content: bytes.toString('base64') },
	signers: [SIGNERS[0]],
	...extra,
});

describe('Signatures: binary round trip and bad input', () => {
	test('A PDF file → Create → every signer signs on the platform → Download Document: a valid PDF with one page more, its file name and MIME type', async () => {
		const original = await makePdf(3, 'Lease');
		const created = await world().runNode(create({ title: 'Lease' }), world().pat(), { binaries: [{ data: fileOf(original, 'lease.pdf') }] });
		expect(created.error).toBeUndefined();
		const id = created.items[0].id as string;
		const sent = (await world().requests())[0].body as { document: { content: string } };
		expect(Buffer.from(sent.document.content, 'base64').equals(original)).toBe(true);

		// Signers act in order: the third cannot sign before the second.
		await actAs(world(), id, 'ana@example.com');
		await expect(actAs(world(), id, 'cleo@example.com')).rejects.toThrow(
			"409 {\"statusCode\":409,\"message\":\"It is not cleo@example.com's turn: ben@example.com (order 2) signs first\",\"error\":\"Conflict\"}",
		);
		await actAs(world(), id, 'ben@example.com');
		const completed = await actAs(world(), id, 'cleo@example.com');
		expect(completed).toMatchObject({ id, status: 'completed', completedAt: expect.any(String) });
		expect((completed.signers as IDataObject[]).map((signer) => [signer.email, signer.status, typeof signer.signedAt])).toEqual([
			['ana@example.com', 'signed', 'string'],
			['ben@example.com', 'signed', 'string'],
			['cleo@example.com', 'signed', 'string'],
		]);
		await world().clearRequests();

		const { items, binaries, error } = await world().runNode(
			{ resource: 'signatureRequest', operation: 'downloadDocument', signatureRequestId: byId(id), outputBinaryPropertyName: 'signedContract' },
			world().pat(),
		);
		expect(error).toBeUndefined();
		const signed = bytesOf(binaries[0].signedContract);
		expect(items).toEqual([{ signatureRequestId: id, version: 'signed', fileName: 'lease-signed.pdf', mimeType: 'application/pdf', fileSize: signed.length }]);
		expect(binaries[0].signedContract).toMatchObject({ fileName: 'lease-signed.pdf', mimeType: 'application/pdf', fileExtension: 'pdf', fileType: 'pdf', bytes: signed.length });
		expect(signed.subarray(0, 5).toString('latin1')).toBe('%PDF-');
		expect(await pageCount(original)).toBe(3);
		expect(await pageCount(signed)).toBe(4);

		// The original is still the file that was sent.
		const originalAgain = await world().runNode(
			{ resource: 'signatureRequest', operation: 'downloadDocument', signatureRequestId: byId(id), version: 'original' },
			world().pat(),
		);
		expect(bytesOf(originalAgain.binaries[0].data).equals(original)).toBe(true);
		expect(originalAgain.items[0]).toMatchObject({ fileName: 'lease.pdf', mimeType: 'application/pdf' });
	});

	test('A decline ends the request as declined; the signed document never comes', async () => {
		const created = await world().runNode(create(), world().pat(), { binaries: [{ data: fileOf(await makePdf(1), 'nda.pdf') }] });
		const id = created.items[0].id as string;
		await actAs(world(), id, 'ana@example.com');
		const declined = await actAs(world(), id, 'ben@example.com', 'decline');
		expect(declined).toMatchObject({ status: 'declined' });
		expect((declined.signers as IDataObject[]).map((signer) => signer.status)).toEqual(['signed', 'declined', 'pending']);
		const { error } = await world().runNode({ resource: 'signatureRequest', operation: 'downloadDocument', signatureRequestId: byId(id) }, world().pat());
		expect(error?.message).toBe('The signed document is available once every signer has signed; this request is declined (HTTP 409)');
	});

	test('Files that are not a PDF, or over 10 MB, or missing are refused before sending, saying what was found', async () => {
		const cases: Array<[string, IDataObject, Record<string, ReturnType<typeof fileOf>>, string]> = [
			[
				'text file',
				{},
				{ data: fileOf(Buffer.from('Just some text'), 'notes.txt', 'text/plain') },
				'Input Binary Field is "data": its file must be a PDF (application/pdf); its MIME type is text/plain',
			],
			[
				'text sent as a generic download',
				{},
				{ data: fileOf(Buffer.from('Just some text'), 'notes.bin', 'application/octet-stream') },
				'Input Binary Field is "data": its file must be a PDF (application/pdf); its MIME type is application/octet-stream',
			],
			[
				'PNG named .pdf',
				{},
				{ data: fileOf(Buffer.from('\x89PNG\r\n\x1a\n0000', 'latin1'), 'scan.pdf') },
				'Input Binary Field is "data": its file is marked application/pdf but is not a PDF (it does not start with %PDF-)',
			],
			[
				'11 MB',
				{},
				{ data: fileOf(Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(11 * MB - 9, 0x20)]), 'huge.pdf') },
				'Input Binary Field is "data": its file is 11 MB (11534336 bytes); the API takes files up to 10 MB',
			],
			[
				'another field',
				{ binaryPropertyName: 'contract' },
				{ data: fileOf(await makePdf(1), 'contract.pdf') },
				'Input Binary Field is "contract", but the input item has no binary property of that name (it has: data)',
			],
			['no file', {}, {}, 'Input Binary Field is "data", but the input item has no binary property of that name (it has none)'],
		];
		for (const [, extra, files, message] of cases) {
			const { error, items } = await world().runNode(create(extra), world().pat(), { binaries: [files] });
			expect(items).toEqual([]);
			expect(error).toMatchObject({ name: 'NodeOperationError', message, description: 'Item 1: fix the value of "Input Binary Field" and run the node again.' });
		}
		expect(await world().requests()).toEqual([]);
	});

	test('A PDF whose MIME type says nothing (application/octet-stream, as many downloads give it) is sent as the PDF it is', async () => {
		const pdf = await makePdf(1);
		const { items, error } = await world().runNode(create(), world().pat(), { binaries: [{ data: fileOf(pdf, 'download.pdf', 'application/octet-stream') }] });
		expect(error).toBeUndefined();
		expect(items[0]).toMatchObject({ status: 'pending' });
		const [post] = (await world().requests()).filter((request) => request.method === 'POST');
		expect((post.body as IDataObject).document).toEqual({ fileName: 'download.pdf', contentType: 'application/pdf', content: pdf.toString('base64') });
	});

	test('Zero or eleven signers, a shared order, a wrong email and a row field of the wrong type (a name from an expression giving an object) are refused before sending, naming the field and the row', async () => {
		const signer = (index: number) => ({ name: `Signer ${index}`, email: `s${index}@example.com`, order: ((index - 1) % 10) + 1 });
		const eleven = Array.from({ length: 11 }, (_, index) => signer(index + 1));
		const cases: Array<[IDataObject, string]> = [
			[{}, 'Signers must list 1 to 10 signers; it lists 0'],
			[{ signer: [] }, 'Signers must list 1 to 10 signers; it lists 0'],
			[{ signer: eleven }, 'Signers must list 1 to 10 signers; it lists 11'],
			[{ signer: [SIGNERS[0], { ...SIGNERS[1], order: 1 }] }, 'Signers must each have their own Order; signer 1 (Ana Lima) and signer 2 (Ben Ito) both have 1'],
			[{ signer: [SIGNERS[0], { ...SIGNERS[1], email: 'ben@' }] }, 'Signers → row 2 → Email must be an email address such as jane@example.com; "ben@" is not'],
			[{ signer: [{ ...SIGNERS[0], name: ' ' }] }, 'Signers → row 1 → Name is required'],
			[{ signer: [{ ...SIGNERS[0], name: '={{ { "first": "Ana" } }}' }] }, 'Signers → row 1 → Name must be text, not an object'],
			[{ signer: [SIGNERS[0], { ...SIGNERS[1], email: '={{ $json.missing }}' }] }, 'Signers → row 2 → Email is required'],
			[{ signer: [{ ...SIGNERS[0], order: 11 }] }, 'Signers → row 1 → Order must be a whole number from 1 to 10, not 11'],
			[{ signer: [{ ...SIGNERS[0], order: '={{ "first" }}' }] }, 'Signers → row 1 → Order must be a whole number from 1 to 10, not "first"'],
		];
		const pdf = await makePdf(1);
		for (const [signers, message] of cases) {
			const { error } = await world().runNode(create({ signers }), world().pat(), { binaries: [{ data: fileOf(pdf, 'contract.pdf') }] });
			expect(error).toMatchObject({ name: 'NodeOperationError', message, description: 'Item 1: fix the value of "Signers" and run the node again.' });
		}
		expect(await world().requests()).toEqual([]);
	});

	test('With Continue On Fail a bad file fails its item only; the good item is sent', async () => {
		const { items, paired } = await world().runNode(create(), world().pat(), {
			input: [{}, {}],
			binaries: [{ data: fileOf(Buffer.from('nope'), 'a.txt', 'text/plain') }, { data: fileOf(await makePdf(1), 'b.pdf') }],
			continueOnFail: true,
		});
		expect(paired).toEqual([0, 1]);
		expect(items[0]).toEqual({
			error: 'Input Binary Field is "data": its file must be a PDF (application/pdf); its MIME type is text/plain',
			message: 'Item 1: fix the value of "Input Binary Field" and run the node again.',
		});
		expect(items[1]).toMatchObject({ title: 'Service agreement', status: 'pending', document: { fileName: 'b.pdf', contentType: 'application/pdf' } });
		expect((await world().requests()).map((request) => request.path)).toEqual(['/v4/signatures']);
	});

	test('The sandbox refuses what the node would: bad base64, not a PDF, over 10 MB, no signers, more than ten, shared orders', async () => {
		const pdf = await makePdf(1);
		const refused = async (body: IDataObject) => (await world().api('POST', '/v4/signatures', ownerPat(), { body })).body;
		const badRequest = (message: string[]) => ({ statusCode: 400, message, error: 'Bad Request' });
		expect(await refused({ ...apiBody(pdf), document: { fileName: 'x.pdf', contentType: 'application/pdf', content: 'not base64!' } })).toEqual(
			badRequest(['document.content must be base64-encoded']),
		);
		expect(await refused(apiBody(Buffer.from('hello world')))).toEqual(badRequest(['document.content must be a PDF document']));
		expect(await refused(apiBody(Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(10 * MB, 0x20)])))).toEqual(
			badRequest([`document.content must not be larger than 10 MB (${10 * MB} bytes); it is ${10 * MB + 9} bytes`]),
		);
		expect(await refused(apiBody(pdf, { signers: [] }))).toEqual(badRequest(['signers must contain at least 1 elements']));
		const eleven = Array.from({ length: 11 }, (_, index) => ({ name: `S${index}`, email: `s${index}@example.com`, order: (index % 10) + 1 }));
		expect(await refused(apiBody(pdf, { signers: eleven }))).toEqual(badRequest(['signers must contain no more than 10 elements']));
		expect(await refused(apiBody(pdf, { signers: [SIGNERS[0], { ...SIGNERS[1], order: 1 }] }))).toEqual(badRequest(['signers must have unique order values']));
	});
});
