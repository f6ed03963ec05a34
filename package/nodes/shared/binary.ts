import type { IBinaryData, IBinaryKeyData, IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { InputProblem } from './inputChecks';

/**
 * Files in and out of the shared machinery, driven by the operation definition (types.ts `upload` and
 * `download`), never by code inside one operation:
 * - upload: the input item's binary property named by a parameter is read with n8n's helpers
 *   (`assertBinaryData`, `getBinaryDataBuffer`: works for in-memory and file-system binary data), checked
 *   (size, MIME type, magic bytes) before anything is sent, and its base64 goes into the body;
 * - download: the transport asks for the answer as bytes (`encoding: 'arraybuffer'`), and the executor hands
 *   them to `prepareBinaryData` under the binary property the user names, with the file name and MIME type
 *   of the answer's Content-Disposition and Content-Type.
 */

/** A kind of file an upload accepts: its MIME type and the bytes every such file starts with. */
export interface FileKind {
	name: string;
	mimeType: string;
	magic: string;
}

export const PDF: FileKind = { name: 'PDF', mimeType: 'application/pdf', magic: '%PDF-' };

/** A file the request body carries: where its parts go (dotted body keys) and what it may be. */
export interface FileUpload {
	/** The parameter naming the input item's binary property (e.g. "binaryPropertyName"). */
	param: string;
	/** Body key of the base64 content. */
	content: string;
	/** Body key of the file name (the binary data's own name, else `fallbackName`). */
	fileName?: string;
	/** Body key of the MIME type (the accepted kind's type). */
	contentType?: string;
	/** The only kind of file accepted, checked by MIME type and content. */
	kind?: FileKind;
	maxBytes?: number;
	/** The name sent when the binary data has none. */
	fallbackName?: string;
}

/** An answer that is a file: it becomes binary data of the output item. */
export interface FileDownload {
	/** The parameter naming the output item's binary property (e.g. "binaryPropertyName"). */
	param: string;
	/** The Accept header: the file's type (and JSON, which errors come as). */
	accept: string;
	/** The MIME type the file must have: another answer (a web page at a wrong Base URL) is an error, not a file. */
	mimeType: string;
	/** The file name when the answer names none. */
	fallbackName: (request: { pathParams: Record<string, string>; qs: IDataObject }) => string;
	/** The output item's JSON besides the file's name, MIME type and size (what was downloaded). */
	json?: (request: { pathParams: Record<string, string>; qs: IDataObject }) => IDataObject;
}

/** The file of an answer as the transport returns it for a `download` request. */
export interface FileAnswer {
	data: Buffer;
	headers: Record<string, unknown>;
}

export const MEGABYTE = 1024 * 1024;

/** "10 MB", "11.5 MB", "512 KB", "12 bytes". */
export function sizeText(bytes: number): string {
	if (bytes >= MEGABYTE) return `${Number((bytes / MEGABYTE).toFixed(1))} MB`;
	if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KB`;
	return `${bytes} bytes`;
}

/** The names of the item's binary properties, for a sentence ("it has: data, invoice" or "it has none"). */
function propertiesOf(binary: IBinaryKeyData | undefined): string {
	const names = Object.keys(binary ?? {});
	return names.length ? `it has: ${names.join(', ')}` : 'it has none';
}

/** The input item's binary data of that name (n8n's assertBinaryData: separate and combined binary modes), or undefined. */
function binaryOf(ctx: IExecuteFunctions, itemIndex: number, property: string): IBinaryData | undefined {
	try {
		return ctx.helpers.assertBinaryData(itemIndex, property);
	} catch {
		return undefined;
	}
}

/** MIME types that say nothing about the file (downloads often carry them): the bytes decide then. */
const GENERIC_MIME_TYPES = ['', 'application/octet-stream', 'binary/octet-stream'];

function checkKind(kind: FileKind, property: string, mimeType: string, buffer: Buffer): void {
	const looksRight = buffer.subarray(0, kind.magic.length).equals(Buffer.from(kind.magic, 'latin1'));
	if (mimeType !== kind.mimeType && !(GENERIC_MIME_TYPES.includes(mimeType) && looksRight)) {
		throw new InputProblem(`is "${property}": its file must be a ${kind.name} (${kind.mimeType}); its MIME type is ${mimeType || 'not set'}`);
	}
	if (!looksRight) {
		throw new InputProblem(`is "${property}": its file is marked ${kind.mimeType} but is not a ${kind.name} (it does not start with ${kind.magic})`);
	}
}

/**
 * The file of the input item's binary property named `property`, checked. A problem is an InputProblem (the
 * executor names the field): no such property, too large, not the accepted kind.
 */
export async function readUpload(
	ctx: IExecuteFunctions,
	itemIndex: number,
	upload: FileUpload,
	property: string,
): Promise<{ fileName: string; mimeType: string; base64: string }> {
	const binary = binaryOf(ctx, itemIndex, property);
	if (!binary) {
		throw new InputProblem(`is "${property}", but the input item has no binary property of that name (${propertiesOf(ctx.getInputData()[itemIndex]?.binary)})`);
	}
	const buffer = await ctx.helpers.getBinaryDataBuffer(itemIndex, property);
	const { maxBytes, kind } = upload;
	if (maxBytes !== undefined && buffer.length > maxBytes) {
		throw new InputProblem(`is "${property}": its file is ${sizeText(buffer.length)} (${buffer.length} bytes); the API takes files up to ${sizeText(maxBytes)}`);
	}
	const mimeType = String(binary.mimeType ?? '').split(';')[0].trim().toLowerCase();
	if (kind) checkKind(kind, property, mimeType, buffer);
	const fileName = String(binary.fileName ?? '').trim() || upload.fallbackName || 'file';
	return { fileName, mimeType: kind?.mimeType ?? (mimeType || 'application/octet-stream'), base64: buffer.toString('base64') };
}

function header(headers: Record<string, unknown>, name: string): string {
	const value = headers[name] ?? headers[name.toLowerCase()];
	return Array.isArray(value) ? String(value[0] ?? '') : String(value ?? '');
}

/** The file name of a Content-Disposition header: `filename*=UTF-8''…` first, then `filename="…"`; no folders. */
export function dispositionFileName(disposition: string): string | undefined {
	const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(disposition);
	let name: string | undefined;
	if (extended) {
		try {
			name = decodeURIComponent(extended[2].trim());
		} catch {
			name = undefined;
		}
	}
	name ??= /filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(disposition)?.[1]?.replace(/\\(.)/g, '$1') ?? /filename\s*=\s*([^;\s]+)/i.exec(disposition)?.[1];
	const base = name?.split(/[\\/]/).pop()?.trim();
	return base || undefined;
}

/** The output item of a downloaded file: its JSON (what, name, type, size) and the binary data under `property`. */
export async function downloadedItem(
	ctx: IExecuteFunctions,
	answer: FileAnswer,
	download: FileDownload,
	property: string,
	request: { pathParams: Record<string, string>; qs: IDataObject },
	itemIndex: number,
): Promise<{ json: IDataObject; binary: IBinaryKeyData }> {
	const mimeType = header(answer.headers, 'content-type').split(';')[0].trim().toLowerCase() || 'application/octet-stream';
	if (mimeType !== download.mimeType) {
		throw new NodeOperationError(ctx.getNode(), `The API answered with ${mimeType} instead of the ${download.mimeType} file asked for`, {
			itemIndex,
			description: `Item ${itemIndex + 1}: the answer (${sizeText(answer.data.length)}) is not the file that was asked for. Check that the credential's Base URL points at the API (the host root, without a path).`,
		});
	}
	const fileName = dispositionFileName(header(answer.headers, 'content-disposition')) ?? download.fallbackName(request);
	const binaryData = await ctx.helpers.prepareBinaryData(answer.data, fileName, mimeType);
	return {
		json: { ...download.json?.(request), fileName, mimeType, fileSize: answer.data.length },
		binary: { [property]: binaryData },
	};
}
