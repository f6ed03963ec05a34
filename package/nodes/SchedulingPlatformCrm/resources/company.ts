import type { INodeProperties } from 'n8n-workflow';

import { clearSwitches } from '../../shared/clearSwitches';
import { userLocator } from '../../shared/locators';
import type { ParamSource, ResourceDefinitions } from '../../shared/types';
import { customFieldsProperty, putCustomFields } from '../customFields';
import { getManyFields } from '../../shared/getMany';
import { sortOrderField } from '../fields';
import { COMPANY_ITEMS, companyLocator } from '../records';

/** Company (api-reference §3): CRM companies with custom fields from the company settings. */

const companyPath = { id: 'companyId' };

/** The company fields of Create (additionalFields) or Update (updateFields), name aside. */
function companyFields(group: string): Record<string, ParamSource> {
	const text = (name: string, maxLength = 255) => ({ param: `${group}.${name}`, check: { maxLength } });
	return {
		domain: text('domain'),
		industry: text('industry', 100),
		size: `${group}.size`,
		website: { param: `${group}.website`, check: 'url' },
		phoneNumber: text('phoneNumber', 50),
		addressLine1: text('addressLine1'),
		addressLine2: text('addressLine2'),
		addressCity: text('addressCity', 100),
		addressZip: text('addressZip', 20),
		addressCountry: text('addressCountry', 100),
		notes: text('notes', 10000),
		ownerId: { param: `${group}.ownerId`, check: 'uuid' },
	};
}

const ownerSwitch = clearSwitches([{ key: 'ownerId', field: 'updateFields.ownerId', flag: 'updateFields.unassignOwner' }]);

export const companyOperations: ResourceDefinitions = {
	create: {
		method: 'POST',
		path: '/crm/companies',
		body: { name: { param: 'name', check: ['required', { maxLength: 255 }] }, ...companyFields('additionalFields') },
		prepare: async (call) => await putCustomFields(call, 'company'),
	},
	get: { method: 'GET', path: '/crm/companies/{id}', pathParams: companyPath },
	getByDomain: { method: 'GET', path: '/crm/companies/by-domain/{domain}', pathParams: { domain: 'domain' } },
	getAll: {
		method: 'GET',
		path: '/crm/companies',
		query: {
			search: 'filters.search',
			industry: 'filters.industry',
			size: 'filters.size',
			ownerId: { param: 'filters.ownerId', check: 'uuid' },
			sortBy: 'filters.sortBy',
			sortOrder: 'filters.sortOrder',
		},
		pagination: { style: 'page1', itemsKey: COMPANY_ITEMS },
	},
	update: {
		method: 'PATCH',
		path: '/crm/companies/{id}',
		pathParams: companyPath,
		body: { name: { param: 'updateFields.name', check: { maxLength: 255 } }, ...companyFields('updateFields') },
		check: ownerSwitch.check,
		prepare: async (call) => {
			await ownerSwitch.prepare(call);
			await putCustomFields(call, 'company');
		},
	},
	delete: { method: 'DELETE', path: '/crm/companies/{id}', pathParams: companyPath },
	getContacts: { method: 'GET', path: '/crm/companies/{id}/contacts', pathParams: companyPath },
	getDeals: { method: 'GET', path: '/crm/companies/{id}/deals', pathParams: companyPath },
	getMeetingHistory: { method: 'GET', path: '/crm/companies/{id}/meeting-history', pathParams: companyPath },
	getNotes: { method: 'GET', path: '/crm/companies/{id}/notes', pathParams: companyPath },
	getSummary: { method: 'GET', path: '/crm/companies/summary', query: { ownerId: { param: 'summaryFilters.ownerId', check: 'uuid' } } },
	getTasks: { method: 'GET', path: '/crm/tasks/by-company/{crmCompanyId}', pathParams: { crmCompanyId: 'companyId' } },
	getAttachments: { method: 'GET', path: '/crm/companies/{id}/attachments', pathParams: companyPath },
};

const show = (...operation: string[]) => ({ show: { resource: ['company'], operation } });

const SIZES = ['1-10', '11-50', '51-200', '201-500', '501-1000', '1001+'].map((size) => ({ name: size, value: size }));

const sizeField: INodeProperties = { displayName: 'Size', name: 'size', type: 'options', options: SIZES, default: '1-10', description: 'Number of employees' };

/** Company fields of Create and Update, name aside. */
const companyOptionFields: INodeProperties[] = [
	{ displayName: 'Address City', name: 'addressCity', type: 'string', default: '', description: 'City of the address, at most 100 characters' },
	{ displayName: 'Address Country', name: 'addressCountry', type: 'string', default: '', placeholder: 'e.g. DE' },
	{ displayName: 'Address Line 1', name: 'addressLine1', type: 'string', default: '' },
	{ displayName: 'Address Line 2', name: 'addressLine2', type: 'string', default: '' },
	{ displayName: 'Address ZIP', name: 'addressZip', type: 'string', default: '' },
	{ displayName: 'Domain', name: 'domain', type: 'string', default: '', placeholder: 'e.g. example.com', description: 'Web domain of the company; Get by Domain finds the company by it' },
	{ displayName: 'Industry', name: 'industry', type: 'string', default: '', placeholder: 'e.g. Software', description: 'Industry of the company, at most 100 characters' },
	{ displayName: 'Notes', name: 'notes', type: 'string', typeOptions: { rows: 3 }, default: '', description: 'Notes on the company, at most 10,000 characters' },
	{
		displayName: 'Owner',
		name: 'ownerId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		description: 'User who owns the company; on Create the acting user when left out',
		...userLocator,
	},
	{ displayName: 'Phone Number', name: 'phoneNumber', type: 'string', default: '', placeholder: 'e.g. +4930123456' },
	sizeField,
	{ displayName: 'Website', name: 'website', type: 'string', default: '', placeholder: 'e.g. https://example.com' },
];

export const companyProperties: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['company'] } },
		options: [
			{ name: 'Create', value: 'create', description: 'Needs Name (custom fields optional); returns the company', action: 'Create a company' },
			{ name: 'Delete', value: 'delete', description: 'Needs the company (its contacts and deals stay, unlinked); returns { deleted: true }', action: 'Delete a company' },
			{ name: 'Get', value: 'get', description: 'Needs the company ID; returns the company', action: 'Get a company by ID' },
			{
				name: 'Get Attachments',
				value: 'getAttachments',
				description: 'Needs the company; returns one item per attached file, as the API gives it',
				action: 'Get the attachments of a company',
			},
			{
				name: 'Get by Domain',
				value: 'getByDomain',
				description: 'Needs a web domain such as example.com; returns the company (404 when none)',
				action: 'Get a company by domain',
			},
			{ name: 'Get Contacts', value: 'getContacts', description: 'Needs the company; returns one item per contact', action: 'Get the contacts of a company' },
			{ name: 'Get Deals', value: 'getDeals', description: 'Needs the company; returns one item per deal', action: 'Get the deals of a company' },
			{ name: 'Get Many', value: 'getAll', description: 'Filters by search, industry, size or owner; returns one item per company', action: 'Get many companies' },
			{
				name: 'Get Meeting History',
				value: 'getMeetingHistory',
				description: 'Needs the company; returns its meetings, the people met and the first and last meeting',
				action: 'Get the meeting history of a company',
			},
			{ name: 'Get Notes', value: 'getNotes', description: 'Needs the company; returns one item per note, pinned first', action: 'Get the notes of a company' },
			{
				name: 'Get Summary',
				value: 'getSummary',
				description: 'Needs nothing (Owner optional); returns counts and deal value by industry and size',
				action: 'Get a summary of the companies',
			},
			{ name: 'Get Tasks', value: 'getTasks', description: 'Needs the company; returns one item per task', action: 'Get the tasks of a company' },
			{ name: 'Update', value: 'update', description: 'Needs the company and the fields to change; returns the company', action: 'Update a company' },
		],
		default: 'getAll',
	},
	{
		displayName: 'Company',
		name: 'companyId',
		type: 'resourceLocator',
		required: true,
		default: { mode: 'list', value: '' },
		displayOptions: show('get', 'update', 'delete', 'getContacts', 'getDeals', 'getMeetingHistory', 'getNotes', 'getTasks', 'getAttachments'),
		description: 'CRM company to work on',
		...companyLocator,
	},
	{ displayName: 'Name', name: 'name', type: 'string', required: true, default: '', placeholder: 'e.g. Acme Inc.', displayOptions: show('create'), description: 'Name of the company, at most 255 characters' },
	{ displayName: 'Domain', name: 'domain', type: 'string', required: true, default: '', placeholder: 'e.g. example.com', displayOptions: show('getByDomain'), description: 'Web domain of the company (any case)' },
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: show('create'),
		options: companyOptionFields,
	},
	customFieldsProperty('company', 'create'),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: show('update'),
		options: [
			...companyOptionFields,
			{ displayName: 'Name', name: 'name', type: 'string', default: '', description: 'New name of the company, at most 255 characters' },
			{ displayName: 'Unassign Owner', name: 'unassignOwner', type: 'boolean', default: false, description: 'Whether to leave the company without an owner' },
		],
	},
	customFieldsProperty('company', 'update'),
	...getManyFields('company'),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: show('getAll'),
		options: [
			{ displayName: 'Industry', name: 'industry', type: 'string', default: '', description: 'Only companies of this industry' },
			{
				displayName: 'Owner',
				name: 'ownerId',
				type: 'resourceLocator',
				default: { mode: 'list', value: '' },
				description: 'Only companies of this owner',
				...userLocator,
			},
			{ displayName: 'Search', name: 'search', type: 'string', default: '', description: 'Text the name or domain contains' },
			{ ...sizeField, description: 'Only companies of this size' },
			{
				displayName: 'Sort By',
				name: 'sortBy',
				type: 'options',
				options: [
					{ name: 'Created At', value: 'createdAt' },
					{ name: 'Name', value: 'name' },
					{ name: 'Updated At', value: 'updatedAt' },
				],
				default: 'createdAt',
			},
			sortOrderField,
		],
	},
	{
		displayName: 'Filters',
		name: 'summaryFilters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: show('getSummary'),
		options: [
			{
				displayName: 'Owner',
				name: 'ownerId',
				type: 'resourceLocator',
				default: { mode: 'list', value: '' },
				description: 'Only the companies of this owner; left out: every owner\'s',
				...userLocator,
			},
		],
	},
];
