import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { clearSwitches } from '../../shared/clearSwitches';
import { dateTime } from '../../shared/dates';
import { byName } from '../../shared/fields';
import { userLocator } from '../../shared/locators';
import type { OperationCall, ParamSource, ResourceDefinitions } from '../../shared/types';
import { customFieldsProperty, putCustomFields } from '../customFields';
import { getManyFields } from '../../shared/getMany';
import { sortOrderField } from '../fields';
import { companyLocator, contactLocator, dealLocator, locatorField, pipelineLocator } from '../locators';
import { assertStageOf, pipelineOf, pipelineOfStage, stageField, stageNames, stagesOf } from './pipeline';

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

export const dealOperations: ResourceDefinitions = {
	create: {
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
	},
	get: { method: 'GET', path: '/crm/deals/{id}', pathParams: dealPath },
	getAll: {
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
	},
	update: {
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
	},
	delete: { method: 'DELETE', path: '/crm/deals/{id}', pathParams: dealPath },
	markWon: { method: 'PATCH', path: '/crm/deals/{id}/won', pathParams: dealPath, body: stageChange('wonStageId', 'wonOptions.wonStageId') },
	markLost: {
		method: 'PATCH',
		path: '/crm/deals/{id}/lost',
		pathParams: dealPath,
		body: {
			lostReason: 'lostReason',
			lostReasonNote: { param: 'lostOptions.lostReasonNote', check: { maxLength: 1000 } },
			...stageChange('lostStageId', 'lostOptions.lostStageId'),
		},
	},
	reopen: { method: 'PATCH', path: '/crm/deals/{id}/reopen', pathParams: dealPath, body: stageChange('stageId', 'reopenOptions.stageId') },
	addContact: {
		method: 'POST',
		path: '/crm/deals/{id}/contacts',
		pathParams: dealPath,
		body: { contactId: { param: 'contactId', check: 'required' }, role: 'role', isPrimary: 'isPrimary' },
	},
	updateContactRole: {
		method: 'PATCH',
		path: '/crm/deals/{id}/contacts/{dealContactId}',
		pathParams: { ...dealPath, dealContactId: 'dealContactId' },
		body: { role: 'role', isPrimary: 'isPrimary' },
	},
	removeContact: { method: 'DELETE', path: '/crm/deals/{id}/contacts/{dealContactId}', pathParams: { ...dealPath, dealContactId: 'dealContactId' } },
	getDuplicateCandidates: { method: 'GET', path: '/crm/deals/{id}/duplicate-candidates', pathParams: dealPath },
	getAppointments: { method: 'GET', path: '/crm/deals/{id}/appointments', pathParams: dealPath },
	getNotes: { method: 'GET', path: '/crm/deals/{dealId}/notes', pathParams: { dealId: 'dealId' } },
	getCommunications: { method: 'GET', path: '/crm/deals/{id}/communications', pathParams: dealPath },
};

const show = (...operation: string[]) => ({ show: { resource: ['deal'], operation } });

const STAGE_HINT = 'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>';

/** Deal fields of Create and Update, pipeline and stage aside. */
const dealOptionFields: INodeProperties[] = [
	locatorField('Company', 'crmCompanyId', 'CRM company the deal is with', companyLocator),
	locatorField('Contact', 'contactId', 'Main contact of the deal', contactLocator),
	{ displayName: 'Currency', name: 'currency', type: 'string', default: '', placeholder: 'e.g. EUR', description: 'ISO 4217 code of the value\'s currency, in capitals; EUR when left out on Create' },
	{ displayName: 'Expected Close Date', name: 'expectedCloseDate', type: 'dateTime', default: '', description: 'When the deal is expected to close' },
	{ displayName: 'Notes', name: 'notes', type: 'string', typeOptions: { rows: 3 }, default: '', description: 'Notes on the deal, at most 10,000 characters' },
	locatorField('Owner', 'ownerId', 'User who owns the deal; on Create the acting user when left out', userLocator),
	{ displayName: 'Value', name: 'value', type: 'number', typeOptions: { minValue: 0, numberPrecision: 2 }, default: 0, description: 'Value of the deal in its currency' },
];

export const dealProperties: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['deal'] } },
		options: [
			{ name: 'Add Contact', value: 'addContact', description: 'Add a contact to a deal with a role', action: 'Add a contact to a deal' },
			{ name: 'Create', value: 'create', description: 'Create a deal in a stage of a pipeline', action: 'Create a deal' },
			{ name: 'Delete', value: 'delete', description: 'Delete a deal for good', action: 'Delete a deal' },
			{ name: 'Get', value: 'get', description: 'Get a deal with its contacts', action: 'Get a deal' },
			{ name: 'Get Appointments', value: 'getAppointments', description: 'List the appointments with the deal\'s contacts', action: 'Get the appointments of a deal' },
			{ name: 'Get Communications', value: 'getCommunications', description: 'List the communications logged on a deal, the latest first', action: 'Get the communications of a deal' },
			{ name: 'Get Duplicate Candidates', value: 'getDuplicateCandidates', description: 'List deals that look like duplicates (nothing is merged)', action: 'Get duplicate candidates of a deal' },
			{ name: 'Get Many', value: 'getAll', description: 'List deals by pipeline, stage, owner, contact, company or state', action: 'Get many deals' },
			{ name: 'Get Notes', value: 'getNotes', description: 'List the notes on a deal', action: 'Get the notes of a deal' },
			{ name: 'Mark Lost', value: 'markLost', description: 'Close an open deal as lost, with a reason', action: 'Mark a deal as lost' },
			{ name: 'Mark Won', value: 'markWon', description: 'Close an open deal as won', action: 'Mark a deal as won' },
			{ name: 'Remove Contact', value: 'removeContact', description: 'Remove a contact from a deal', action: 'Remove a contact from a deal' },
			{ name: 'Reopen', value: 'reopen', description: 'Open a won or lost deal again', action: 'Reopen a deal' },
			{ name: 'Update', value: 'update', description: 'Update a deal', action: 'Update a deal' },
			{ name: 'Update Contact Role', value: 'updateContactRole', description: 'Change the role of a contact on a deal', action: 'Update the role of a deal contact' },
		],
		default: 'getAll',
	},
	{
		...locatorField('Deal', 'dealId', 'Deal to work on', dealLocator),
		required: true,
		displayOptions: show('get', 'update', 'delete', 'markWon', 'markLost', 'reopen', 'addContact', 'updateContactRole', 'removeContact', 'getDuplicateCandidates', 'getAppointments', 'getNotes', 'getCommunications'),
	},
	{ displayName: 'Name', name: 'name', type: 'string', required: true, default: '', placeholder: 'e.g. Acme renewal 2026', displayOptions: show('create'), description: 'Name of the deal, at most 255 characters' },
	{ ...locatorField('Pipeline', 'pipelineId', 'Pipeline the deal goes through', pipelineLocator), required: true, displayOptions: show('create') },
	{ ...stageField('stageId', 'Stage Name or ID'), required: true, displayOptions: show('create') },
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: show('create'),
		options: dealOptionFields,
	},
	{
		displayName: 'Contacts',
		name: 'dealContacts',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Contact',
		default: {},
		displayOptions: show('create'),
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
	},
	customFieldsProperty('deal', 'create'),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: show('update'),
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
	},
	customFieldsProperty('deal', 'update'),
	...getManyFields('deal'),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: show('getAll'),
		options: [
			locatorField('Company', 'crmCompanyId', 'Only deals with this CRM company', companyLocator),
			locatorField('Contact', 'contactId', 'Only deals with this main contact', contactLocator),
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
	},
	{
		displayName: 'Options',
		name: 'wonOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: show('markWon'),
		options: [{ ...stageField('wonStageId', 'Won Stage Name or ID'), description: `A won stage of the deal's pipeline; the pipeline's first won stage when left out. ${STAGE_HINT}.` }],
	},
	{
		displayName: 'Lost Reason Name or ID',
		name: 'lostReason',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getLostReasons' },
		default: '',
		displayOptions: show('markLost'),
		description: 'One of the company\'s lost reasons (required when the company\'s settings say so). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Options',
		name: 'lostOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: show('markLost'),
		options: [
			{ ...stageField('lostStageId', 'Lost Stage Name or ID'), description: `A lost stage of the deal's pipeline; the pipeline's first lost stage when left out. ${STAGE_HINT}.` },
			{ displayName: 'Note', name: 'lostReasonNote', type: 'string', typeOptions: { rows: 2 }, default: '', description: 'Why the deal was lost, in words, at most 1,000 characters' },
		],
	},
	{
		displayName: 'Options',
		name: 'reopenOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: show('reopen'),
		options: [{ ...stageField('stageId', 'Stage Name or ID'), description: `An open stage of the deal's pipeline; the pipeline's first open stage when left out. ${STAGE_HINT}.` }],
	},
	{ ...locatorField('Contact', 'contactId', 'Contact to add to the deal', contactLocator), required: true, displayOptions: show('addContact') },
	{
		displayName: 'Deal Contact ID',
		name: 'dealContactId',
		type: 'string',
		required: true,
		default: '',
		displayOptions: show('updateContactRole', 'removeContact'),
		description: 'ID of the contact\'s place on the deal: the ID in the deal\'s contacts (Get), not the contact\'s own ID',
	},
	{ displayName: 'Role', name: 'role', type: 'options', options: ROLES, default: 'other', displayOptions: show('addContact', 'updateContactRole'), description: 'Part the contact plays in the deal' },
	{ displayName: 'Is Primary', name: 'isPrimary', type: 'boolean', default: false, displayOptions: show('addContact', 'updateContactRole'), description: 'Whether this is the deal\'s primary contact (the others stop being primary)' },
];
