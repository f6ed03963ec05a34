import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { declareResource } from '../../shared/declare';
import { returnAllFields } from '../../shared/getMany';
import { readItems } from '../../shared/transport/answers';
import type { OperationCall } from '../../shared/types';
import { rewriteSettings } from '../settings';

/**
 * Lost Reason (api-reference §3): the company's reasons for lost deals, `{ reasons: [{ key, label, archived }],
 * required }`. A deal stores the reason's key, so a reason is archived (hidden from new closes), never removed. The
 * API replaces the whole settings on each write, so every operation changes one thing and writes the settings back,
 * `required` included, only when it changes (settings.ts).
 */

/** The settings: read (GET) and replaced whole (PUT); Mark Lost's dropdown reads them too. */
export const LOST_REASON_SETTINGS = '/crm/settings/lost-reasons';
const path = LOST_REASON_SETTINGS;

const reasonsOf = (settings: IDataObject, call: OperationCall) => readItems(settings, 'reasons', call.fail);

/** The settings with the reasons changed, `required` as it was. */
const withReasons = (settings: IDataObject, reasons: IDataObject[]) => ({ reasons, required: settings.required });

/** The reason of the key as the API answered the write (or the read, when nothing was written). */
function answered(call: OperationCall, key: unknown, settings: IDataObject, outcome: string): IDataObject[] {
	return [{ ...reasonsOf(settings, call).find((reason) => reason.key === key), outcome }];
}

/** Create or Update: the reason of the key gets the label and archived state given (others kept), or is added. */
async function upsertReason(call: OperationCall): Promise<IDataObject[]> {
	const { key, label, archived } = call.values;
	const wanted: IDataObject = { key, ...(label !== undefined && { label }), ...(archived !== undefined && { archived }) };
	let outcome = 'unchanged';
	const { before, after } = await rewriteSettings(call, (settings) => {
		const reasons = reasonsOf(settings, call);
		const stored = reasons.find((reason) => reason.key === key);
		if (stored && Object.keys(wanted).every((part) => stored[part] === wanted[part])) return undefined;
		outcome = stored ? 'updated' : 'created';
		return withReasons(settings, stored ? reasons.map((reason) => (reason === stored ? { ...reason, ...wanted } : reason)) : [...reasons, wanted]);
	});
	return answered(call, key, after ?? before, outcome);
}

/** Archive: the reason stays (deals keep its key) but is no longer offered; an unknown key stops the item. */
async function archiveReason(call: OperationCall): Promise<IDataObject[]> {
	const { key } = call.values;
	const { before, after } = await rewriteSettings(call, (settings) => {
		const reasons = reasonsOf(settings, call);
		const stored = reasons.find((reason) => reason.key === key);
		if (!stored) {
			call.fail(`Lost reason "${String(key)}" is not one of the company's lost reasons`, `pick one from the list. The keys are: ${reasons.map((reason) => String(reason.key)).join(', ') || 'none'}.`);
		}
		if (stored.archived === true) return undefined;
		return withReasons(settings, reasons.map((reason) => (reason === stored ? { ...reason, archived: true } : reason)));
	});
	return answered(call, key, after ?? before, after ? 'updated' : 'unchanged');
}

/** Set Required: whether closing a deal as lost needs a reason; the reasons are written back as they are. */
async function setRequired(call: OperationCall): Promise<IDataObject[]> {
	const required = call.values.required === true;
	const { before, after } = await rewriteSettings(call, (settings) => (settings.required === required ? undefined : { reasons: reasonsOf(settings, call), required }));
	return [{ required: (after ?? before).required, outcome: after ? 'updated' : 'unchanged' }];
}

const key: INodeProperties = {
	displayName: 'Key',
	name: 'key',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. too_expensive',
	description: 'The key deals store, at most 64 characters; keep it stable. A reason with this key is updated, else one is added.',
};

const label: INodeProperties = {
	displayName: 'Label',
	name: 'label',
	type: 'string',
	default: '',
	placeholder: 'e.g. Too expensive',
	description: 'The text users pick, at most 60 characters. Left empty: an existing reason keeps its label (a built-in one its translation).',
};

const options: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [{ displayName: 'Archived', name: 'archived', type: 'boolean', default: false, description: 'Whether the reason is hidden from new closes (off: offered again)' }],
};

const existingKey: INodeProperties = {
	displayName: 'Lost Reason Name or ID',
	name: 'existingKey',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getLostReasons' },
	required: true,
	default: '',
	description: 'The reason to archive. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

const required: INodeProperties = {
	displayName: 'Required',
	name: 'required',
	type: 'boolean',
	default: true,
	description: 'Whether marking a deal lost needs a lost reason',
};

export const { definitions: lostReasonOperations, properties: lostReasonProperties } = declareResource('lostReason', {
	default: 'getAll',
	operations: {
		getAll: {
			option: { name: 'Get Many', description: 'Needs nothing; returns one item per reason, archived ones included', action: 'Get many lost reasons' },
			method: 'GET',
			path,
			pagination: { style: 'none', itemsKey: 'reasons' },
			fields: returnAllFields(),
		},
		upsert: {
			option: {
				name: 'Create or Update',
				description: 'Create a new lost reason (found by key), or update the current one if it already exists (upsert)',
				action: 'Create or update a lost reason by key',
			},
			method: 'PUT',
			path,
			values: { key: { param: 'key', check: { maxLength: 64 } }, label: { param: 'label', check: { maxLength: 60 } }, archived: 'options.archived' },
			perform: upsertReason,
			fields: [key, label, options],
		},
		archive: {
			option: { name: 'Archive', description: 'Needs the reason (deals lost with it keep it); returns the reason with its outcome', action: 'Archive a lost reason' },
			method: 'PUT',
			path,
			values: { key: 'existingKey' },
			perform: archiveReason,
			fields: [existingKey],
		},
		setRequired: {
			option: { name: 'Set Required', description: 'Needs Required on or off; returns whether it is required and the outcome', action: 'Set whether a lost reason is required' },
			method: 'PUT',
			path,
			values: { required: 'required' },
			perform: setRequired,
			fields: [required],
		},
	},
});
