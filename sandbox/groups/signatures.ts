import { randomUUID } from 'node:crypto';
import { PDFDocument, StandardFonts, rgb } from '@cantoo/pdf-lib';
import { tenantRecord } from '../crm';
import { apiError } from '../errors';
import { Call, FileReply, Group } from '../handler';
import { ordered } from '../listOrder';
import { perStore, Store } from '../store';
import { emit } from '../webhooks';

/**
 * Signatures V4 (api-reference §5, designed): a PDF sent to 1-10 signers who sign in order (lowest order
 * first). The control API (`/__sandbox/signatures/{id}/sign` and `/decline`) acts for a signer, as the signing
 * page would. The signed document is the original's pages plus a signature page listing the signers and when
 * they signed, made with @cantoo/pdf-lib (a real PDF that any reader opens).
 */

export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
/** Base64 characters, padding only at the end (the length is checked apart: a grouped pattern overflows the stack on 10 MB). */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

type SignatureStatus = 'pending' | 'completed' | 'declined' | 'expired' | 'cancelled';

interface Signer {
	id: string;
	name: string;
	email: string;
	order: number;
	status: 'pending' | 'signed' | 'declined';
	signedAt: string | null;
}

export interface SignatureRequest {
	id: string;
	title: string;
	status: SignatureStatus;
	signers: Signer[];
	message: string | null;
	contactId: string | null;
	document: { fileName: string; contentType: string; size: number };
	cancelReason: string | null;
	createdAt: string;
	updatedAt: string;
	completedAt: string | null;
	expiresAt: string | null;
}

/** What the sandbox keeps besides the answer: the tenant and the PDFs. */
interface Stored {
	request: SignatureRequest;
	companyId: string;
	original: Buffer;
	signed?: Buffer;
}

/** The signature requests of each store (a reset makes a new store, and so an empty list). */
const requestsOf = perStore(() => new Map<string, Stored>());

/** A pending request past its expiry is expired from then on. */
function current(store: Store, stored: Stored): Stored {
	const { request } = stored;
	if (request.status === 'pending' && request.expiresAt && store.clock.now() >= Date.parse(request.expiresAt)) {
		request.status = 'expired';
		request.updatedAt = request.expiresAt;
	}
	return stored;
}

function found(store: Store, id: string, companyId?: string): Stored {
	const stored = requestsOf(store).get(id);
	if (!stored || (companyId !== undefined && stored.companyId !== companyId)) throw apiError(404, 'Signature request not found');
	return current(store, stored);
}

function tenantRequest({ store, actor, params }: Call): Stored {
	return found(store, params.id, actor.company.id);
}

/** The PDF of `document.content`: base64 of a PDF of at most 10 MB, else 400 naming the property. */
function documentBytes(content: string): Buffer {
	if (content.length % 4 !== 0 || !BASE64.test(content)) throw apiError(400, ['document.content must be base64-encoded']);
	const bytes = Buffer.from(content, 'base64');
	if (bytes.length > MAX_DOCUMENT_BYTES) {
		throw apiError(400, [`document.content must not be larger than 10 MB (${MAX_DOCUMENT_BYTES} bytes); it is ${bytes.length} bytes`]);
	}
	if (!bytes.subarray(0, 5).equals(Buffer.from('%PDF-'))) throw apiError(400, ['document.content must be a PDF document']);
	return bytes;
}

interface CreateInput {
	title: string;
	document: { fileName: string; contentType: string; content: string };
	signers: Array<{ name: string; email: string; order: number }>;
	message?: string;
	expiresAt?: string;
	contactId?: string;
}

function create({ store, actor, body }: Call): SignatureRequest {
	const input = body as unknown as CreateInput;
	if (input.signers.length < 1) throw apiError(400, ['signers must contain at least 1 elements']);
	const orders = input.signers.map((signer) => signer.order);
	if (new Set(orders).size !== orders.length) throw apiError(400, ['signers must have unique order values']);
	const original = documentBytes(input.document.content);
	if (input.contactId) tenantRecord(store, actor, 'contacts', input.contactId);
	const now = store.clock.iso();
	if (input.expiresAt && Date.parse(input.expiresAt) <= Date.parse(now)) throw apiError(400, ['expiresAt must be in the future']);
	const request: SignatureRequest = {
		id: randomUUID(),
		title: input.title,
		status: 'pending',
		signers: [...input.signers]
			.sort((a, b) => a.order - b.order)
			.map((signer) => ({ id: randomUUID(), name: signer.name, email: signer.email, order: signer.order, status: 'pending', signedAt: null })),
		message: input.message ?? null,
		contactId: input.contactId ?? null,
		document: { fileName: input.document.fileName, contentType: 'application/pdf', size: original.length },
		cancelReason: null,
		createdAt: now,
		updatedAt: now,
		completedAt: null,
		expiresAt: input.expiresAt ? new Date(input.expiresAt).toISOString() : null,
	};
	requestsOf(store).set(request.id, { request, companyId: actor.company.id, original });
	return request;
}

interface ListQuery {
	status?: SignatureStatus;
	contactId?: string;
	limit: number;
	offset: number;
}

function list({ store, actor, query }: Call) {
	const { status, contactId, limit, offset } = query as unknown as ListQuery;
	// Newest created first (the reference names no sort: a client must not rely on this order).
	const found = [...requestsOf(store).values()]
		.filter((stored) => stored.companyId === actor.company.id)
		.map((stored) => current(store, stored).request)
		.filter((request) => (!status || request.status === status) && (!contactId || request.contactId === contactId))
		.reverse();
	const matching = ordered(store, found, (a, b) => b.createdAt.localeCompare(a.createdAt));
	const page = matching.slice(offset, offset + limit);
	return { signatures: page, total: matching.length, count: page.length, offset };
}

function pendingOnly(request: SignatureRequest, what: string): void {
	if (request.status !== 'pending') throw apiError(409, `Only pending signature requests can be ${what}; this one is ${request.status}`);
}

/** Latin-1 text for the standard font (other characters as "?"). */
function printable(text: string): string {
	return text.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');
}

/** The original pages plus one signature page: the title, then each signer with the time they signed. */
async function signedPdf(stored: Stored): Promise<Buffer> {
	const { request } = stored;
	const pdf = await PDFDocument.load(stored.original);
	const font = await pdf.embedFont(StandardFonts.Helvetica);
	const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
	const page = pdf.addPage([595.28, 841.89]);
	let y = 780;
	const line = (text: string, size = 11, useBold = false) => {
		page.drawText(printable(text), { x: 56, y, size, font: useBold ? bold : font, color: rgb(0.1, 0.1, 0.1) });
		y -= size + 10;
	};
	line('Signature page', 18, true);
	line(request.title, 12);
	line(`Signature request ${request.id}, completed ${String(request.completedAt)}`, 9);
	y -= 10;
	for (const signer of request.signers) {
		line(`${signer.order}. ${signer.name} <${signer.email}>`, 12, true);
		line(`Signed electronically at ${String(signer.signedAt)}`, 10);
		y -= 6;
	}
	pdf.setTitle(`${request.title} (signed)`);
	pdf.setModificationDate(new Date(request.completedAt ?? request.updatedAt));
	return Buffer.from(await pdf.save());
}

/** `contract.pdf` → `contract-signed.pdf`. */
function signedName(fileName: string): string {
	return /\.pdf$/i.test(fileName) ? fileName.replace(/\.pdf$/i, '-signed.pdf') : `${fileName}-signed.pdf`;
}

async function download(call: Call): Promise<FileReply> {
	const stored = tenantRequest(call);
	const { request } = stored;
	const version = (call.query.version as string | undefined) ?? 'signed';
	if (version === 'original') return new FileReply(stored.original, 'application/pdf', request.document.fileName);
	if (request.status !== 'completed') {
		throw apiError(409, `The signed document is available once every signer has signed; this request is ${request.status}`);
	}
	stored.signed ??= await signedPdf(stored);
	return new FileReply(stored.signed, 'application/pdf', signedName(request.document.fileName));
}

export const signatures: Group = {
	createSignatureRequest: create,
	listSignatureRequests: list,
	getSignatureRequest: (call) => tenantRequest(call).request,
	remindSignatureRequest: (call) => {
		const { request } = tenantRequest(call);
		pendingOnly(request, 'reminded');
		return { remindedSigners: request.signers.filter((signer) => signer.status === 'pending').map((signer) => signer.email) };
	},
	cancelSignatureRequest: (call) => {
		const { request } = tenantRequest(call);
		pendingOnly(request, 'cancelled');
		const reason = (call.body.reason as string | undefined) ?? null;
		return Object.assign(request, { status: 'cancelled', cancelReason: reason, updatedAt: call.store.clock.iso() });
	},
	downloadSignatureDocument: download,
};

/** Every signature request of the sandbox, the newest first (the control API's signing page lists them). */
export function allSignatureRequests(store: Store): SignatureRequest[] {
	return [...requestsOf(store).values()].map((stored) => current(store, stored).request).reverse();
}

/**
 * The control API's signing page: the signer of that email signs (or declines) the request. Signers act in
 * order: one whose earlier signers have not signed is 409. The last signature completes the request; a
 * decline ends it as declined.
 */
export function actAsSigner(store: Store, id: string, email: string, action: 'sign' | 'decline'): SignatureRequest {
	const stored = found(store, id);
	const { request } = stored;
	const signer = request.signers.find((candidate) => candidate.email.toLowerCase() === email.toLowerCase());
	if (!signer) throw apiError(404, `${email} is not a signer of this request`);
	if (request.status !== 'pending') throw apiError(409, `The signature request is ${request.status}`);
	if (signer.status !== 'pending') throw apiError(409, `${signer.email} has already ${signer.status}`);
	const waiting = request.signers.find((other) => other.status === 'pending');
	if (waiting && waiting !== signer) {
		throw apiError(409, `It is not ${signer.email}'s turn: ${waiting.email} (order ${waiting.order}) signs first`);
	}
	const now = store.clock.iso();
	request.updatedAt = now;
	if (action === 'decline') {
		signer.status = 'declined';
		request.status = 'declined';
		return request;
	}
	signer.status = 'signed';
	signer.signedAt = now;
	if (request.signers.every((other) => other.status === 'signed')) {
		request.status = 'completed';
		request.completedAt = now;
		// The payload of signature_completed is not documented (api-reference §9): the request, as designed.
		emit(store, stored.companyId, 'signature_completed', { ...request });
	}
	return request;
}
