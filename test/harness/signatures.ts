import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import type { IBinaryData, IDataObject } from 'n8n-workflow';

import type { BinaryFile } from '../../scripts/engine';
import type { World } from './world';

/** Set-up helpers of the Signatures tests: PDFs made with @cantoo/pdf-lib, written to files, signers acting through the control API. */

const folder = mkdtempSync(join(tmpdir(), 'sp-signatures-'));

/** A real PDF of `pages` pages, each with a line of text. */
export async function makePdf(pages: number, text = 'Service agreement'): Promise<Buffer> {
	const pdf = await PDFDocument.create();
	const font = await pdf.embedFont(StandardFonts.Helvetica);
	for (let index = 0; index < pages; index++) pdf.addPage([595.28, 841.89]).drawText(`${text}, page ${index + 1}`, { x: 56, y: 780, size: 14, font });
	return Buffer.from(await pdf.save());
}

/** Writes the bytes to a file of the test's folder; the input binary of an item (fileName and mimeType as given). */
export function fileOf(bytes: Buffer, fileName: string, mimeType = 'application/pdf'): BinaryFile {
	const path = join(folder, `${Date.now()}-${Math.random().toString(36).slice(2)}-${fileName}`);
	writeFileSync(path, bytes);
	return { path, fileName, mimeType };
}

/** The pages of a PDF, parsed with the library (throws when the bytes are not a valid PDF). */
export async function pageCount(bytes: Buffer): Promise<number> {
	return (await PDFDocument.load(bytes)).getPageCount();
}

/** The bytes of an output binary (the harness keeps binary data in memory, as base64). */
export const bytesOf = (binary: IBinaryData) => Buffer.from(binary.data, 'base64');

/** Creates a signature request through the API with the owner's PAT; the request log is cleared after. */
export async function createRequest(world: World, body: IDataObject): Promise<IDataObject & { id: string }> {
	const answer = await world.api('POST', '/v4/signatures', world.seed.credentials.ownerPat, { body });
	if (answer.status !== 201) throw new Error(`POST /v4/signatures: ${answer.status} ${JSON.stringify(answer.body)}`);
	await world.clearRequests();
	return answer.body as unknown as IDataObject & { id: string };
}

/** A signer signs (or declines) on the platform's signing page: the control API. */
export async function actAs(world: World, id: string, email: string, action: 'sign' | 'decline' = 'sign'): Promise<IDataObject> {
	return (await world.control('POST', `/__sandbox/signatures/${id}/${action}`, { email })) as IDataObject;
}
