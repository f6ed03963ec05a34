import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { MEGABYTE, PDF } from '../../shared/binary';
import { dateTime } from '../../shared/dates';
import { declareResource } from '../../shared/declare';
import { returnAllFields } from '../../shared/getMany';
import { InputProblem } from '../../shared/inputChecks';
import type { Converter } from '../../shared/types';
import { locatorField } from '../../shared/locators';
import { signatureRequestLocator } from '../locators';

/**
 * Signature Request (api-reference §5 Signatures V4, designed): a PDF sent to 1–10 signers who sign in order.
 * Create reads the PDF from the input item's binary property; Download Document writes the signed (or the
 * original) PDF into a binary property of the output item. Both are the shared machinery's `upload` and
 * `download` (nodes/shared/binary.ts): only the field names and the limits are here.
 */

const signaturePath = '/v4/signatures/{id}';
const signatureId = { id: 'signatureRequestId' };

/** The API's limits (api-reference §5). */
export const MAX_SIGNERS = 10;
export const MAX_DOCUMENT_BYTES = 10 * MEGABYTE;

interface SignerInput {
	name?: unknown;
	email?: unknown;
	order?: unknown;
}

/** Signer n (Name, email), to name it in a sentence. */
function signerText(index: number, signer: SignerInput): string {
	const who = String(signer.name ?? '').trim() || String(signer.email ?? '').trim();
	return who ? `signer ${index + 1} (${who})` : `signer ${index + 1}`;
}

/**
 * The Signers list as the API wants it, [{ name, email, order }]: 1 to 10 signers, each with an order no other
 * signer has. Each row's name, email and order are checked as it is read (required, its type, the email check).
 */
const signersList: Converter = (value) => {
	const rows = ((value as { signer?: SignerInput[] } | undefined)?.signer ?? []) as SignerInput[];
	if (rows.length < 1 || rows.length > MAX_SIGNERS) {
		throw new InputProblem(`must list 1 to ${MAX_SIGNERS} signers; ${rows.length === 1 ? 'it lists 1' : `it lists ${rows.length}`}`);
	}
	const byOrder = new Map<unknown, number>();
	return rows.map((signer, index) => {
		const before = byOrder.get(signer.order);
		if (before !== undefined) {
			throw new InputProblem(`must each have their own Order; ${signerText(before, rows[before])} and ${signerText(index, signer)} both have ${String(signer.order)}`);
		}
		byOrder.set(signer.order, index);
		return { name: signer.name, email: signer.email, order: signer.order };
	});
};

const statusOptions = [
	{ name: 'Cancelled', value: 'cancelled' },
	{ name: 'Completed', value: 'completed' },
	{ name: 'Declined', value: 'declined' },
	{ name: 'Expired', value: 'expired' },
	{ name: 'Pending', value: 'pending' },
];

const binaryPropertyName: INodeProperties = {
	displayName: 'Input Binary Field',
	name: 'binaryPropertyName',
	type: 'string',
	required: true,
	default: 'data',
	hint: 'The name of the input binary field containing the PDF to be signed',
	description: `The binary field of the input item that holds the PDF (at most ${MAX_DOCUMENT_BYTES / MEGABYTE} MB)`,
};

const title: INodeProperties = {
	displayName: 'Title',
	name: 'title',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. Service agreement',
	description: 'The title the signers see',
};

const signers: INodeProperties = {
	displayName: 'Signers',
	name: 'signers',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true, sortable: true },
	placeholder: 'Add Signer',
	default: {},
	description: `Who signs, in which order (1 to ${MAX_SIGNERS} signers, each with their own order: 1 signs first)`,
	options: [
		{
			displayName: 'Signer',
			name: 'signer',
			values: [
				{ displayName: 'Name', name: 'name', type: 'string', required: true, default: '', placeholder: 'e.g. Jane Doe', description: 'The signer\'s full name' },
				{ displayName: 'Email', name: 'email', type: 'string', required: true, placeholder: 'name@email.com', default: '', description: 'Where the signer gets the request' },
				{
					displayName: 'Order',
					name: 'order',
					type: 'number',
					required: true,
					typeOptions: { minValue: 1, maxValue: MAX_SIGNERS, numberPrecision: 0 },
					default: 1,
					description: 'When the signer signs: 1 first, then 2, and so on',
				},
			],
		},
	],
};

const additionalFields: INodeProperties = {
	displayName: 'Additional Fields',
	name: 'additionalFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [
		{ displayName: 'Contact ID', name: 'contactId', type: 'string', default: '', placeholder: 'e.g. 3b9d6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f', description: 'The CRM contact the request belongs to' },
		{
			displayName: 'Expires At',
			name: 'expiresAt',
			type: 'dateTime',
			default: '',
			description: 'When the request expires if not everyone has signed. Without an offset, the time is read in the workflow\'s time zone.',
		},
		{ displayName: 'Message', name: 'message', type: 'string', typeOptions: { rows: 3 }, default: '', description: 'A note to the signers, sent with the request' },
	],
};

const signatureRequest: INodeProperties = { ...locatorField('Signature Request', 'signatureRequestId', 'The signature request to use', signatureRequestLocator), required: true };

const reason: INodeProperties = {
	displayName: 'Reason',
	name: 'reason',
	type: 'string',
	default: '',
	placeholder: 'e.g. Terms changed',
	description: 'Why the request is withdrawn (the signers see it)',
};

const version: INodeProperties = {
	displayName: 'Version',
	name: 'version',
	type: 'options',
	options: [
		{ name: 'Original', value: 'original', description: 'The PDF as it was sent' },
		{ name: 'Signed', value: 'signed', description: 'The PDF with its signature page (only when every signer has signed)' },
	],
	default: 'signed',
	description: 'Which PDF to download',
};

const outputBinaryPropertyName: INodeProperties = {
	displayName: 'Put Output File in Field',
	name: 'outputBinaryPropertyName',
	type: 'string',
	required: true,
	default: 'data',
	hint: 'The name of the output binary field to put the PDF in',
	description: 'The binary field of the output item that gets the PDF',
};

const filters: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options: [
		{ displayName: 'Contact ID', name: 'contactId', type: 'string', default: '', description: 'Only the requests of this CRM contact' },
		{ displayName: 'Status', name: 'status', type: 'options', options: statusOptions, default: 'pending', description: 'Only the requests in this state' },
	],
};

export const { definitions: signatureRequestOperations, properties: signatureRequestProperties } = declareResource('signatureRequest', {
	default: 'create',
	operations: {
		cancel: {
			option: { name: 'Cancel', description: 'Needs a pending request (Reason optional); returns the request, cancelled', action: 'Cancel a signature request' },
			method: 'POST',
			path: `${signaturePath}/cancel`,
			pathParams: signatureId,
			body: { reason: 'reason' },
			fields: [signatureRequest, reason],
		},
		create: {
			option: {
				name: 'Create',
				description: 'Needs a PDF in an input binary field, Title and 1 to 10 signers; returns the signature request',
				action: 'Send a PDF to signers for signature',
			},
			method: 'POST',
			path: '/v4/signatures',
			upload: {
				param: 'binaryPropertyName',
				content: 'document.content',
				fileName: 'document.fileName',
				contentType: 'document.contentType',
				kind: PDF,
				maxBytes: MAX_DOCUMENT_BYTES,
				fallbackName: 'document.pdf',
			},
			body: {
				title: { param: 'title', check: 'required' },
				signers: { param: 'signers', memberChecks: { email: 'email' }, convert: signersList },
				message: 'additionalFields.message',
				expiresAt: { param: 'additionalFields.expiresAt', convert: dateTime() },
				contactId: 'additionalFields.contactId',
			},
			fields: [binaryPropertyName, title, signers, additionalFields],
		},
		downloadDocument: {
			option: {
				name: 'Download Document',
				description: 'Needs the request (Signed or Original); returns the PDF in a binary field',
				action: 'Download the signed PDF of a signature request',
			},
			method: 'GET',
			path: `${signaturePath}/document`,
			pathParams: signatureId,
			query: { version: 'version' },
			download: {
				param: 'outputBinaryPropertyName',
				accept: 'application/pdf, application/json',
				mimeType: PDF.mimeType,
				fallbackName: ({ pathParams, qs }) => `${pathParams.id}-${String(qs.version ?? 'signed')}.pdf`,
				json: ({ pathParams, qs }): IDataObject => ({ signatureRequestId: pathParams.id, version: qs.version ?? 'signed' }),
			},
			fields: [signatureRequest, version, outputBinaryPropertyName],
		},
		get: {
			option: { name: 'Get', description: 'Needs the request ID; returns its status and each signer\'s', action: 'Get a signature request by ID' },
			method: 'GET',
			path: signaturePath,
			pathParams: signatureId,
			fields: [signatureRequest],
		},
		getAll: {
			option: { name: 'Get Many', description: 'Filters by status or contact; returns one item per request, newest first', action: 'Get many signature requests' },
			method: 'GET',
			path: '/v4/signatures',
			query: { status: 'filters.status', contactId: 'filters.contactId' },
			pagination: { style: 'offset', itemsKey: 'signatures' },
			fields: [...returnAllFields(), filters],
		},
		remind: {
			option: { name: 'Send Reminder', description: 'Needs a pending request; returns the emails of the signers reminded', action: 'Remind the signers of a signature request' },
			method: 'POST',
			path: `${signaturePath}/remind`,
			pathParams: signatureId,
			fields: [signatureRequest],
		},
	},
});
