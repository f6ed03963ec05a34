import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { clearSwitches } from '../../shared/clearSwitches';
import { calendarDay, dateTime } from '../../shared/dates';
import { byName } from '../../shared/fields';
import { declareResource } from '../../shared/declare';
import { locatorField, userLocator } from '../../shared/locators';
import { simplifyOption } from '../../shared/simplify';
import { readItems, shapeOf } from '../../shared/transport/answers';
import type { OperationCall, ParamSource } from '../../shared/types';
import { rowOutcomes } from '../bulk';
import { contactBody, contactFieldsProperty } from '../contactFields';
import { customFieldsProperty, putCustomFields } from '../customFields';
import { returnAllFields } from '../../shared/getMany';
import { sortOrderField } from '../fields';
import { contactImportFields } from './contact';
import { EMAIL_PAGES } from './email';
import { assertStageOf, pipelineOf, pipelineOfStage, stageField, stageNames, stagesOf } from './pipeline';
import { companyLocator, contactLocator, contactOrEmailLocator, dealLocator, pipelineLocator } from '../records';

/**
 * Deal (api-reference §3). The stage must belong to the pipeline: on Create, the stage is checked against the
 * chosen pipeline's stages (read once per run) before sending; on Update, against the deal's own pipeline (the
 * update has no pipelineId, and no route moves a deal to another pipeline). Custom fields come from the deal settings.
 */

const ROLES = [
	{ name: 'Decision Maker', value: 'decision_maker' },
	{ name: 'Influencer', value: 'influencer' },
	{ name: 'Other', value: 'other' },
	{ name: 'Primary', value: 'primary' },
	{ name: 'User', value: 'user' },
];

const dealPath = { id: 'dealId' };

/**
 * What Simplify keeps of a deal (api-reference §3 Deal): its name and value, where it stands (a deal has no status
 * field: its stage, and `wonAt` or `lostAt` once closed), when it should close, and the records to link to.
 */
const SIMPLE_DEAL = ['id', 'name', 'value', 'currency', 'pipelineId', 'stageId', 'contactId', 'crmCompanyId', 'ownerId', 'expectedCloseDate', 'wonAt', 'lostAt'];

/** The deal fields of Create (additionalFields) or Update (updateFields), pipeline and stage aside. */
function dealFields(group: string): Record<string, ParamSource> {
	return {
		value: `${group}.value`,
		currency: { param: `${group}.currency`, check: 'currency' },
		expectedCloseDate: { param: `${group}.expectedCloseDate`, convert: dateTime({ dateOnly: true }) },
		notes: { param: `${group}.notes`, check: { maxLength: 10000 } },
		crmCompanyId: `${group}.crmCompanyId`,
		contactId: `${group}.contactId`,
		ownerId: { param: `${group}.ownerId`, check: 'uuid' },
	};
}

/** The Contacts rows, each checked as it is read (the contact's ID, a role of the list, Is Primary true or false). */
const dealContacts = (value: unknown) => ((value as IDataObject).contact ?? []) as IDataObject[];

/** Update: the fields null clears (api-reference §3 Deals), each with its switch. */
const clearing = clearSwitches([
	{ key: 'contactId', field: 'updateFields.contactId', flag: 'updateFields.clearContact' },
	{ key: 'crmCompanyId', field: 'updateFields.crmCompanyId', flag: 'updateFields.clearCompany' },
	{ key: 'expectedCloseDate', field: 'updateFields.expectedCloseDate', flag: 'updateFields.clearExpectedCloseDate' },
	{ key: 'ownerId', field: 'updateFields.ownerId', flag: 'updateFields.unassignOwner' },
]);

/**
 * Update: a new stage must be one of the deal's own pipeline (the deal read once, the pipelines once per run).
 * A stage of another pipeline is refused with what is possible instead: no route moves a deal to another pipeline.
 */
async function assertOwnStage(call: OperationCall): Promise<void> {
	const stageId = call.request.body!.stageId;
	if (stageId === undefined) return;
	const deal = (await call.lookup({ method: 'GET', path: '/crm/deals/{id}', pathParams: call.request.pathParams })) as IDataObject;
	const own = await pipelineOf(call, String(deal.pipelineId));
	if (stagesOf(own).some((stage) => stage.id === stageId)) return;
	const [stage, pipeline, within] = [`${call.label('updateFields.stageId')} "${String(stageId)}"`, `"${String(own.name)}"`, `pick one of its stages: ${stageNames(own)}.`];
	const elsewhere = await pipelineOfStage(call, stageId);
	if (!elsewhere) call.fail(`${stage} is not a stage of the deal's pipeline ${pipeline}`, within);
	const other = `"${String(elsewhere.name)}"`;
	call.fail(
		`${stage} is a stage of the pipeline ${other}, not of the deal's pipeline ${pipeline}: the API has no route that moves a deal to another pipeline`,
		`to have the deal in ${other}, create it anew there (Deal → Create), then delete the old deal or close it (Mark Won or Mark Lost). To move it within ${pipeline}, ${within}`,
	);
}

/** A won, lost or reopen stage: empty leaves the choice to the API. */
const stageChange = (key: string, param: string) => ({ [key]: param });

/** The activity log answers at most 200 entries, newest first, and has no pages. */
const ACTIVITY_MAX = 200;
/** Where the activity log's entries are: a bare list; its envelope is unconfirmed (§3), so `items` or `data` too. */
const ACTIVITY_ITEMS = ['items', 'data'];
const IMPORT_BATCH = 500;
const MERGE_MAX = 20;

const DUPLICATE_CANDIDATES = '/crm/deals/{id}/duplicate-candidates';

/**
 * Import Many: each item is a row, the contact (the fields the bulk import takes) and its deal's fields; a row
 * needs an email or a phone number. The stage must be one of the pipeline's, checked before sending.
 */
async function prepareImportRow(call: OperationCall): Promise<void> {
	const row = call.request.body!;
	Object.assign(row, await contactBody(call, 'importMany', false));
	if (!row.email && !row.phoneNumber) {
		call.fail('A row needs an email or a phone number', 'map Email or Phone Number in Contact Fields (with "Map Automatically": give the input item an "email" or "phoneNumber" field).');
	}
	await assertStageOf(call, String(call.values.pipelineId), call.values.stageId, 'stageId');
}

/** Merge by IDs: each deal once; the surviving deal is not one of its duplicates; at most 20. */
function checkDuplicates(request: OperationCall['request'], call: OperationCall): string | undefined {
	const ids = request.body!.duplicateDealIds as string[] | undefined;
	if (!ids) return undefined;
	const label = call.label('duplicateDealIds');
	if (ids.includes(request.pathParams!.id)) return `${label} names the deal to merge into (${request.pathParams!.id}): a deal cannot be merged into itself`;
	return ids.length > MERGE_MAX ? `${label} may name at most ${MERGE_MAX} deals per merge; it names ${ids.length}` : undefined;
}

/** The deal IDs of the duplicate candidates that score at least Minimum Score (each candidate { deal, score, reasons }: designed, §3). */
async function candidateIds(call: OperationCall): Promise<string[]> {
	const minimum = Number(call.values.minimumScore);
	const answer = await call.send({ method: 'GET', path: DUPLICATE_CANDIDATES, pathParams: call.request.pathParams });
	const ids = readItems(answer, undefined, call.fail).map((candidate) => {
		const id = (candidate.deal as IDataObject | undefined)?.id;
		if (typeof candidate.score !== 'number' || (typeof id !== 'string' && typeof id !== 'number')) {
			call.fail(
				`A duplicate candidate came in a form this node does not read: ${shapeOf(candidate)}`,
				'expected { deal, score, reasons }. Merge with Duplicates From: Deal IDs, and please report this to the package\'s maintainers with the keys above.',
			);
		}
		return candidate.score >= minimum ? String(id) : undefined;
	});
	const chosen = [...new Set(ids.filter((id): id is string => id !== undefined && id !== call.request.pathParams!.id))];
	if (chosen.length > MERGE_MAX) {
		call.fail(`${chosen.length} duplicate candidates score at least ${minimum}: a merge takes at most ${MERGE_MAX}`, 'raise Minimum Score, or name the duplicates with Duplicates From: Deal IDs (several merges of up to 20 each).');
	}
	return chosen;
}

/** Merge: the duplicates (given, or the candidates that score enough) into the deal; no candidate, no request. */
async function merge(call: OperationCall): Promise<IDataObject[]> {
	const ids = call.values.duplicatesFrom === 'candidates' ? await candidateIds(call) : (call.request.body!.duplicateDealIds as string[]);
	if (!ids.length) return [{ dealId: call.request.pathParams!.id, mergedCount: 0, duplicateDealIds: [] }];
	const answer = await call.send({ ...call.request, body: { ...call.request.body, duplicateDealIds: ids } });
	return [{ ...(answer as IDataObject), duplicateDealIds: ids }];
}

const STAGE_HINT = 'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>';

/** Deal fields of Create and Update, pipeline and stage aside. */
const dealOptionFields: INodeProperties[] = [
	locatorField('Company', 'crmCompanyId', 'CRM company the deal is with', companyLocator),
	locatorField('Contact', 'contactId', 'Main contact of the deal', contactOrEmailLocator),
	{ displayName: 'Currency', name: 'currency', type: 'string', default: '', placeholder: 'e.g. EUR', description: 'ISO 4217 code of the value\'s currency, in capitals; EUR when left out on Create' },
	{ displayName: 'Expected Close Date', name: 'expectedCloseDate', type: 'dateTime', default: '', description: 'When the deal is expected to close' },
	{ displayName: 'Notes', name: 'notes', type: 'string', typeOptions: { rows: 3 }, default: '', description: 'Notes on the deal, at most 10,000 characters' },
	locatorField('Owner', 'ownerId', 'User who owns the deal; on Create the acting user when left out', userLocator),
	{ displayName: 'Value', name: 'value', type: 'number', typeOptions: { minValue: 0, numberPrecision: 2 }, default: 0, description: 'Value of the deal in its currency' },
];

/** Import Many: the contact of each row (as Contact → Import Many), what to do with known contacts, the row's deal. */
const importManyFields: INodeProperties[] = [
	{
		displayName: 'Existing Contacts',
		name: 'existingContacts',
		type: 'options',
		options: [
			{ name: 'Update', value: 'update', description: 'A row whose email belongs to a contact updates that contact' },
			{ name: 'Keep As They Are', value: 'skip', description: 'A row whose email belongs to a contact leaves the contact unchanged' },
		],
		default: 'update',
		description: 'What a row does to a contact that already has its email. Each row gets a new deal either way.',
	},
	contactFieldsProperty,
	{
		displayName: 'Contact Import Fields',
		name: 'importFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: contactImportFields,
	},
	{
		displayName: 'Deal Fields',
		name: 'dealFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'The fields of the deal each row creates (an expression may give each item its own)',
		options: [
			{ displayName: 'Deal Currency', name: 'dealCurrency', type: 'string', default: '', placeholder: 'e.g. EUR', description: 'ISO 4217 code of the value\'s currency (three capital letters); EUR when left out' },
			{ displayName: 'Deal Expected Close Date', name: 'dealExpectedCloseDate', type: 'dateTime', default: '', description: 'The day the deal is expected to close (sent as YYYY-MM-DD)' },
			{ displayName: 'Deal Name', name: 'dealName', type: 'string', default: '', description: 'Name of the deal, at most 255 characters; the contact\'s name when left out' },
			{ displayName: 'Deal Notes', name: 'dealNotes', type: 'string', typeOptions: { rows: 3 }, default: '', description: 'Notes on the deal, at most 10,000 characters' },
			{
				displayName: 'Deal Owner Email',
				name: 'dealOwnerEmail',
				type: 'string',
				placeholder: 'name@email.com',
				default: '',
				description: 'Email of the user of the company who owns the deal; the importing user when left out or not a user',
			},
			{ displayName: 'Deal Value', name: 'dealValue', type: 'number', typeOptions: { minValue: 0, numberPrecision: 2 }, default: 0, description: 'Value of the deal in its currency' },
		],
	},
];

/** Merge: the duplicates by ID, or the deal's duplicate candidates that score enough. */
const mergeFields: INodeProperties[] = [
	{
		displayName: 'Duplicates From',
		name: 'duplicatesFrom',
		type: 'options',
		options: [
			{ name: 'Deal IDs', value: 'ids', description: 'The deals named in Duplicate Deal IDs' },
			{ name: 'Duplicate Candidates', value: 'candidates', description: 'The deal\'s duplicate candidates (as Get Duplicate Candidates lists them) that score at least Minimum Score' },
		],
		default: 'ids',
		description: 'Which deals to merge into the deal. They are deleted for good after the merge.',
	},
	{
		displayName: 'Duplicate Deal IDs',
		name: 'duplicateDealIds',
		type: 'string',
		typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Deal ID' },
		required: true,
		default: [],
		displayOptions: { show: { duplicatesFrom: ['ids'] } },
		description: 'IDs of the 1 to 20 deals to merge into the deal and delete (an expression may give a list, or IDs separated by commas)',
	},
	{
		displayName: 'Minimum Score',
		name: 'minimumScore',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 1, numberPrecision: 2 },
		default: 0.9,
		displayOptions: { show: { duplicatesFrom: ['candidates'] } },
		description: 'Only candidates with at least this score (0 to 1) are merged; none: nothing is merged and no request is sent',
	},
];

const dealId: INodeProperties = { ...locatorField('Deal', 'dealId', 'Deal to work on', dealLocator), required: true };

const nameField: INodeProperties = { displayName: 'Name', name: 'name', type: 'string', required: true, default: '', placeholder: 'e.g. Acme renewal 2026', description: 'Name of the deal, at most 255 characters' };

const pipelineId: INodeProperties = { ...locatorField('Pipeline', 'pipelineId', 'Pipeline the deal goes through', pipelineLocator), required: true };

const stageId: INodeProperties = { ...stageField('stageId', 'Stage Name or ID'), required: true };

const additionalFields: INodeProperties = {
	displayName: 'Additional Fields',
	name: 'additionalFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: dealOptionFields,
};

const dealContactsField: INodeProperties = {
	displayName: 'Contacts',
	name: 'dealContacts',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Contact',
	default: {},
	description: 'Contacts of the deal with their roles; at most one primary',
	options: [
		{
			displayName: 'Contact',
			name: 'contact',
			values: [
				{ ...locatorField('Contact', 'contactId', 'CRM contact on the deal', contactLocator), required: true },
				{ displayName: 'Is Primary', name: 'isPrimary', type: 'boolean', default: false, description: 'Whether this is the deal\'s primary contact' },
				{ displayName: 'Role', name: 'role', type: 'options', options: ROLES, default: 'other', description: 'Part the contact plays in the deal' },
			],
		},
	],
};

const updateFields: INodeProperties = {
	displayName: 'Update Fields',
	name: 'updateFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: byName([
		...dealOptionFields,
		{ displayName: 'Clear Company', name: 'clearCompany', type: 'boolean', default: false, description: 'Whether to unlink the deal from its company' },
		{ displayName: 'Clear Contact', name: 'clearContact', type: 'boolean', default: false, description: 'Whether to remove the deal\'s main contact (its Contacts with roles stay)' },
		{ displayName: 'Clear Expected Close Date', name: 'clearExpectedCloseDate', type: 'boolean', default: false, description: 'Whether to remove the expected close date' },
		{ displayName: 'Name', name: 'name', type: 'string', default: '', description: 'New name of the deal, at most 255 characters' },
		{
			...stageField('stageId', 'Stage Name or ID'),
			description: `Stage to move the deal to, within its own pipeline (no API route moves a deal to another pipeline). ${STAGE_HINT}.`,
		},
		{ displayName: 'Unassign Owner', name: 'unassignOwner', type: 'boolean', default: false, description: 'Whether to leave the deal without an owner' },
	]),
};

const returnAll = returnAllFields();

const filters: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options: [
		locatorField('Company', 'crmCompanyId', 'Only deals with this CRM company', companyLocator),
		locatorField('Contact', 'contactId', 'Only deals with this main contact', contactOrEmailLocator),
		locatorField('Owner', 'ownerId', 'Only deals of this owner', userLocator),
		locatorField('Pipeline', 'pipelineId', 'Only deals in this pipeline', pipelineLocator),
		{ displayName: 'Search', name: 'search', type: 'string', default: '', description: 'Text the deal\'s name contains' },
		{
			displayName: 'Sort By',
			name: 'sortBy',
			type: 'options',
			options: [
				{ name: 'Created At', value: 'createdAt' },
				{ name: 'Expected Close Date', value: 'expectedCloseDate' },
				{ name: 'Name', value: 'name' },
				{ name: 'Updated At', value: 'updatedAt' },
				{ name: 'Value', value: 'value' },
			],
			default: 'createdAt',
		},
		sortOrderField,
		{ ...stageField('stageId', 'Stage Name or ID'), description: `Only deals in this stage. ${STAGE_HINT}.` },
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			options: [
				{ name: 'Lost', value: 'lost' },
				{ name: 'Open', value: 'open' },
				{ name: 'Won', value: 'won' },
			],
			default: 'open',
			description: 'Only deals in this state',
		},
	],
};

const wonOptions: INodeProperties = {
	displayName: 'Options',
	name: 'wonOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [{ ...stageField('wonStageId', 'Won Stage Name or ID'), description: `A won stage of the deal's pipeline; the pipeline's first won stage when left out. ${STAGE_HINT}.` }],
};

const lostReason: INodeProperties = {
	displayName: 'Lost Reason Name or ID',
	name: 'lostReason',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getLostReasons' },
	default: '',
	description: 'One of the company\'s lost reasons (required when the company\'s settings say so). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

const lostOptions: INodeProperties = {
	displayName: 'Options',
	name: 'lostOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{ ...stageField('lostStageId', 'Lost Stage Name or ID'), description: `A lost stage of the deal's pipeline; the pipeline's first lost stage when left out. ${STAGE_HINT}.` },
		{ displayName: 'Note', name: 'lostReasonNote', type: 'string', typeOptions: { rows: 2 }, default: '', description: 'Why the deal was lost, in words, at most 1,000 characters' },
	],
};

const reopenOptions: INodeProperties = {
	displayName: 'Options',
	name: 'reopenOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [{ ...stageField('stageId', 'Stage Name or ID'), description: `An open stage of the deal's pipeline; the pipeline's first open stage when left out. ${STAGE_HINT}.` }],
};

const contactId: INodeProperties = { ...locatorField('Contact', 'contactId', 'Contact to add to the deal', contactOrEmailLocator), required: true };

const dealContactId: INodeProperties = {
	displayName: 'Deal Contact ID',
	name: 'dealContactId',
	type: 'string',
	required: true,
	default: '',
	description: 'ID of the contact\'s place on the deal: the ID in the deal\'s contacts (Get), not the contact\'s own ID',
};

const role: INodeProperties = { displayName: 'Role', name: 'role', type: 'options', options: ROLES, default: 'other', description: 'Part the contact plays in the deal' };

const isPrimary: INodeProperties = { displayName: 'Is Primary', name: 'isPrimary', type: 'boolean', default: false, description: 'Whether this is the deal\'s primary contact (the others stop being primary)' };

const summaryFilters: INodeProperties = {
	displayName: 'Filters',
	name: 'summaryFilters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options: [
		locatorField('Owner', 'ownerId', 'Only the deals of this owner; left out: every owner\'s', userLocator),
		locatorField('Pipeline', 'pipelineId', 'Only the deals of this pipeline; left out: every pipeline\'s', pipelineLocator),
	],
};

export const { definitions: dealOperations, properties: dealProperties } = declareResource('deal', {
	default: 'getAll',
	operations: {
		create: {
			option: { name: 'Create', description: 'Needs Name, Pipeline and Stage; returns the deal', action: 'Create a deal in a pipeline stage' },
			method: 'POST',
			path: '/crm/deals',
			body: {
				name: { param: 'name', check: ['required', { maxLength: 255 }] },
				pipelineId: 'pipelineId',
				stageId: { param: 'stageId', check: 'required' },
				...dealFields('additionalFields'),
				contacts: { param: 'dealContacts', convert: dealContacts },
			},
			check: (request) => {
				const primaries = ((request.body!.contacts ?? []) as IDataObject[]).filter((contact) => contact.isPrimary === true);
				return primaries.length > 1 ? 'Only one of Contacts can be primary: turn Is Primary off for the others' : undefined;
			},
			prepare: async (call) => {
				await assertStageOf(call, String(call.request.body!.pipelineId), call.request.body!.stageId, 'stageId');
				await putCustomFields(call, 'deal');
			},
			fields: [nameField, pipelineId, stageId, additionalFields, dealContactsField, customFieldsProperty('deal', 'create')],
		},
		get: {
			option: { name: 'Get', description: 'Needs the deal ID; returns the deal (with its contacts when Simplify is off)', action: 'Get a deal by ID' },
			method: 'GET',
			path: '/crm/deals/{id}',
			pathParams: dealPath,
			simplify: SIMPLE_DEAL,
			fields: [dealId, simplifyOption],
		},
		getAll: {
			option: {
				name: 'Get Many',
				description: 'Filters by search, pipeline, stage, owner, contact, company or status; returns one item per deal',
				action: 'Get many deals',
			},
			method: 'GET',
			path: '/crm/deals',
			query: {
				search: 'filters.search',
				pipelineId: 'filters.pipelineId',
				stageId: 'filters.stageId',
				ownerId: { param: 'filters.ownerId', check: 'uuid' },
				contactId: 'filters.contactId',
				crmCompanyId: 'filters.crmCompanyId',
				isOpen: { param: 'filters.status', convert: (status) => (status === 'open' ? true : undefined) },
				isWon: { param: 'filters.status', convert: (status) => (status === 'won' ? true : undefined) },
				isLost: { param: 'filters.status', convert: (status) => (status === 'lost' ? true : undefined) },
				sortBy: 'filters.sortBy',
				sortOrder: 'filters.sortOrder',
			},
			pagination: { style: 'page1', itemsKey: 'deals' },
			simplify: SIMPLE_DEAL,
			fields: [...returnAll, simplifyOption, filters],
		},
		update: {
			option: { name: 'Update', description: 'Needs the deal and the fields to change (a stage of its own pipeline); returns the deal', action: 'Update a deal' },
			method: 'PATCH',
			path: '/crm/deals/{id}',
			pathParams: dealPath,
			body: {
				name: { param: 'updateFields.name', check: { maxLength: 255 } },
				stageId: 'updateFields.stageId',
				...dealFields('updateFields'),
			},
			check: clearing.check,
			prepare: async (call) => {
				await clearing.prepare(call);
				await assertOwnStage(call);
				await putCustomFields(call, 'deal');
			},
			fields: [dealId, updateFields, customFieldsProperty('deal', 'update')],
		},
		delete: {
			option: { name: 'Delete', description: 'Needs the deal; deletes it for good and returns { deleted: true }', action: 'Delete a deal' },
			method: 'DELETE',
			path: '/crm/deals/{id}',
			pathParams: dealPath,
			fields: [dealId],
		},
		markWon: {
			option: { name: 'Mark Won', description: 'Needs an open deal (won stage optional); returns the deal', action: 'Mark a deal as won' },
			method: 'PATCH',
			path: '/crm/deals/{id}/won',
			pathParams: dealPath,
			body: stageChange('wonStageId', 'wonOptions.wonStageId'),
			fields: [dealId, wonOptions],
		},
		markLost: {
			option: { name: 'Mark Lost', description: 'Needs an open deal and a lost reason; returns the deal', action: 'Mark a deal as lost' },
			method: 'PATCH',
			path: '/crm/deals/{id}/lost',
			pathParams: dealPath,
			body: {
				lostReason: 'lostReason',
				lostReasonNote: { param: 'lostOptions.lostReasonNote', check: { maxLength: 1000 } },
				...stageChange('lostStageId', 'lostOptions.lostStageId'),
			},
			fields: [dealId, lostReason, lostOptions],
		},
		reopen: {
			option: { name: 'Reopen', description: 'Needs a closed deal (stage optional); returns the deal', action: 'Reopen a won or lost deal' },
			method: 'PATCH',
			path: '/crm/deals/{id}/reopen',
			pathParams: dealPath,
			body: stageChange('stageId', 'reopenOptions.stageId'),
			fields: [dealId, reopenOptions],
		},
		addContact: {
			option: { name: 'Add Contact', description: 'Needs the deal, the contact and a role; returns the deal contact', action: 'Add a contact to a deal' },
			method: 'POST',
			path: '/crm/deals/{id}/contacts',
			pathParams: dealPath,
			body: { contactId: { param: 'contactId', check: 'required' }, role: 'role', isPrimary: 'isPrimary' },
			fields: [dealId, contactId, role, isPrimary],
		},
		updateContactRole: {
			option: {
				name: 'Update Contact Role',
				description: 'Needs the deal, the deal contact ID and a role or primary flag; returns the deal contact',
				action: 'Update the role of a contact on a deal',
			},
			method: 'PATCH',
			path: '/crm/deals/{id}/contacts/{dealContactId}',
			pathParams: { ...dealPath, dealContactId: 'dealContactId' },
			body: { role: 'role', isPrimary: 'isPrimary' },
			fields: [dealId, dealContactId, role, isPrimary],
		},
		removeContact: {
			option: { name: 'Remove Contact', description: 'Needs the deal and the deal contact ID; returns { deleted: true }', action: 'Remove a contact from a deal' },
			method: 'DELETE',
			path: '/crm/deals/{id}/contacts/{dealContactId}',
			pathParams: { ...dealPath, dealContactId: 'dealContactId' },
			fields: [dealId, dealContactId],
		},
		getDuplicateCandidates: {
			option: {
				name: 'Get Duplicate Candidates',
				description: 'Needs the deal; returns one item per look-alike deal with its score and reasons (nothing is merged)',
				action: 'Get the duplicate candidates of a deal',
			},
			method: 'GET',
			path: DUPLICATE_CANDIDATES,
			pathParams: dealPath,
			fields: [dealId],
		},
		getAppointments: {
			option: {
				name: 'Get Appointments',
				description: 'Needs the deal; returns one item per appointment with its contacts, newest first',
				action: 'Get the appointments of a deal',
			},
			method: 'GET',
			path: '/crm/deals/{id}/appointments',
			pathParams: dealPath,
			fields: [dealId],
		},
		getNotes: {
			option: { name: 'Get Notes', description: 'Needs the deal; returns one item per note, pinned first', action: 'Get the notes of a deal' },
			method: 'GET',
			path: '/crm/deals/{dealId}/notes',
			pathParams: { dealId: 'dealId' },
			fields: [dealId],
		},
		getCommunications: {
			option: {
				name: 'Get Communications',
				description: 'Needs the deal; returns one item per logged communication, the latest first',
				action: 'Get the communications of a deal',
			},
			method: 'GET',
			path: '/crm/deals/{id}/communications',
			pathParams: dealPath,
			fields: [dealId],
		},
		getActivityLog: {
			option: {
				name: 'Get Activity Log',
				description: 'Needs the deal; returns one item per stage change or field update, newest first (200 at most)',
				action: 'Get the activity log of a deal',
			},
			method: 'GET',
			path: '/crm/deals/{id}/activity',
			pathParams: dealPath,
			// No pages: the Limit is the API's own `limit`, Return All asks for its most.
			prepare: async (call) => {
				call.request.qs.limit = call.limit ?? ACTIVITY_MAX;
			},
			pagination: { style: 'none', itemsKey: ACTIVITY_ITEMS },
			fields: [dealId, ...returnAllFields(ACTIVITY_MAX)],
		},
		importMany: {
			option: {
				name: 'Import Many',
				description: 'Needs Pipeline, Stage and an email or phone number per input item (500 per call); returns each row\'s outcome',
				action: 'Import contacts with a new deal each',
			},
			method: 'POST',
			path: '/crm/deals/bulk-import',
			values: {
				pipelineId: 'pipelineId',
				stageId: 'stageId',
				updateExisting: { param: 'existingContacts', convert: (choice) => choice === 'update' },
			},
			body: {
				tags: 'importFields.tags',
				accountOwnerEmail: { param: 'importFields.accountOwnerEmail', check: 'email' },
				crmCompanyRef: 'importFields.crmCompanyRef',
				dealName: { param: 'dealFields.dealName', check: { maxLength: 255 } },
				dealValue: 'dealFields.dealValue',
				dealCurrency: { param: 'dealFields.dealCurrency', check: 'currency' },
				dealExpectedCloseDate: { param: 'dealFields.dealExpectedCloseDate', convert: calendarDay },
				dealOwnerEmail: { param: 'dealFields.dealOwnerEmail', check: 'email' },
				dealNotes: { param: 'dealFields.dealNotes', check: { maxLength: 10000 } },
			},
			prepare: prepareImportRow,
			batch: {
				size: IMPORT_BATCH,
				group: ({ values }) => JSON.stringify([values.pipelineId, values.stageId, values.updateExisting]),
				wrap: (rows, { values }) => ({ rows, pipelineId: values.pipelineId, stageId: values.stageId, updateExisting: values.updateExisting }),
				split: rowOutcomes,
			},
			fields: [pipelineId, stageId, ...importManyFields],
		},
		merge: {
			option: {
				name: 'Merge',
				description: 'Needs the deal and up to 20 duplicates, which are deleted for good; returns what was merged',
				action: 'Merge duplicate deals into a deal',
			},
			method: 'POST',
			path: '/crm/deals/{id}/merge',
			pathParams: dealPath,
			body: { duplicateDealIds: { param: 'duplicateDealIds', convert: (ids) => [...new Set(ids as string[])] } },
			values: { duplicatesFrom: 'duplicatesFrom', minimumScore: 'minimumScore' },
			check: checkDuplicates,
			perform: merge,
			fields: [dealId, ...mergeFields],
		},
		getSummary: {
			option: {
				name: 'Get Summary',
				description: 'Needs nothing (Owner and Pipeline optional); returns counts, values and the forecast by stage',
				action: 'Get a summary of the deals',
			},
			method: 'GET',
			path: '/crm/deals/summary',
			query: { ownerId: { param: 'summaryFilters.ownerId', check: 'uuid' }, pipelineId: 'summaryFilters.pipelineId' },
			fields: [summaryFilters],
		},
		getLimits: {
			option: {
				name: 'Get Limits',
				description: 'Needs nothing; returns how many deals there are and how many the plan allows (-1: no limit)',
				action: 'Get the deal limits of the plan',
			},
			method: 'GET',
			path: '/crm/deals/limits',
		},
		getEmails: {
			option: {
				name: 'Get Emails',
				description: 'Needs the deal; returns one item per synced email: headers and preview (the text: Email → Get Body)',
				action: 'Get the synced emails of a deal',
			},
			method: 'GET',
			path: '/crm/deals/{id}/emails',
			pathParams: dealPath,
			pagination: EMAIL_PAGES,
			fields: [dealId, ...returnAll],
		},
		getAttachments: {
			option: {
				name: 'Get Attachments',
				description: 'Needs the deal; returns one item per attached file, as the API gives it',
				action: 'Get the attachments of a deal',
			},
			method: 'GET',
			path: '/crm/deals/{id}/attachments',
			pathParams: dealPath,
			fields: [dealId],
		},
	},
});
