import type { INodeProperties } from 'n8n-workflow';

import { clearSwitches } from '../../shared/clearSwitches';
import { declareResource } from '../../shared/declare';
import { locatorField, userLocator } from '../../shared/locators';
import type { ParamSource } from '../../shared/types';
import { customFieldsProperty, putCustomFields } from '../customFields';
import { returnAllFields } from '../../shared/getMany';
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
	locatorField('Owner', 'ownerId', 'User who owns the company; on Create the acting user when left out', userLocator),
	{ displayName: 'Phone Number', name: 'phoneNumber', type: 'string', default: '', placeholder: 'e.g. +4930123456' },
	sizeField,
	{ displayName: 'Website', name: 'website', type: 'string', default: '', placeholder: 'e.g. https://example.com' },
];

const companyField: INodeProperties = { ...locatorField('Company', 'companyId', 'CRM company to work on', companyLocator), required: true };

const nameField: INodeProperties = { displayName: 'Name', name: 'name', type: 'string', required: true, default: '', placeholder: 'e.g. Acme Inc.', description: 'Name of the company, at most 255 characters' };

const domainField: INodeProperties = { displayName: 'Domain', name: 'domain', type: 'string', required: true, default: '', placeholder: 'e.g. example.com', description: 'Web domain of the company (any case)' };

const additionalFields: INodeProperties = {
	displayName: 'Additional Fields',
	name: 'additionalFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: companyOptionFields,
};

const updateFields: INodeProperties = {
	displayName: 'Update Fields',
	name: 'updateFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [
		...companyOptionFields,
		{ displayName: 'Name', name: 'name', type: 'string', default: '', description: 'New name of the company, at most 255 characters' },
		{ displayName: 'Unassign Owner', name: 'unassignOwner', type: 'boolean', default: false, description: 'Whether to leave the company without an owner' },
	],
};

const filters: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options: [
		{ displayName: 'Industry', name: 'industry', type: 'string', default: '', description: 'Only companies of this industry' },
		locatorField('Owner', 'ownerId', 'Only companies of this owner', userLocator),
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
};

const summaryFilters: INodeProperties = {
	displayName: 'Filters',
	name: 'summaryFilters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options: [
		locatorField('Owner', 'ownerId', 'Only the companies of this owner; left out: every owner\'s', userLocator),
	],
};

export const { definitions: companyOperations, properties: companyProperties } = declareResource('company', {
	default: 'getAll',
	operations: {
		create: {
			option: { name: 'Create', description: 'Needs Name (custom fields optional); returns the company', action: 'Create a company' },
			method: 'POST',
			path: '/crm/companies',
			body: { name: { param: 'name', check: ['required', { maxLength: 255 }] }, ...companyFields('additionalFields') },
			prepare: async (call) => await putCustomFields(call, 'company'),
			fields: [nameField, additionalFields, customFieldsProperty('company', 'create')],
		},
		get: {
			option: { name: 'Get', description: 'Needs the company ID; returns the company', action: 'Get a company by ID' },
			method: 'GET',
			path: '/crm/companies/{id}',
			pathParams: companyPath,
			fields: [companyField],
		},
		getByDomain: {
			option: { name: 'Get by Domain', description: 'Needs a web domain such as example.com; returns the company (404 when none)', action: 'Get a company by domain' },
			method: 'GET',
			path: '/crm/companies/by-domain/{domain}',
			pathParams: { domain: 'domain' },
			fields: [domainField],
		},
		getAll: {
			option: { name: 'Get Many', description: 'Filters by search, industry, size or owner; returns one item per company', action: 'Get many companies' },
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
			fields: [...returnAllFields(), filters],
		},
		update: {
			option: { name: 'Update', description: 'Needs the company and the fields to change; returns the company', action: 'Update a company' },
			method: 'PATCH',
			path: '/crm/companies/{id}',
			pathParams: companyPath,
			body: { name: { param: 'updateFields.name', check: { maxLength: 255 } }, ...companyFields('updateFields') },
			check: ownerSwitch.check,
			prepare: async (call) => {
				await ownerSwitch.prepare(call);
				await putCustomFields(call, 'company');
			},
			fields: [companyField, updateFields, customFieldsProperty('company', 'update')],
		},
		delete: {
			option: { name: 'Delete', description: 'Needs the company (its contacts and deals stay, unlinked); returns { deleted: true }', action: 'Delete a company' },
			method: 'DELETE',
			path: '/crm/companies/{id}',
			pathParams: companyPath,
			fields: [companyField],
		},
		getContacts: {
			option: { name: 'Get Contacts', description: 'Needs the company; returns one item per contact', action: 'Get the contacts of a company' },
			method: 'GET',
			path: '/crm/companies/{id}/contacts',
			pathParams: companyPath,
			fields: [companyField],
		},
		getDeals: {
			option: { name: 'Get Deals', description: 'Needs the company; returns one item per deal', action: 'Get the deals of a company' },
			method: 'GET',
			path: '/crm/companies/{id}/deals',
			pathParams: companyPath,
			fields: [companyField],
		},
		getMeetingHistory: {
			option: {
				name: 'Get Meeting History',
				description: 'Needs the company; returns its meetings, the people met and the first and last meeting',
				action: 'Get the meeting history of a company',
			},
			method: 'GET',
			path: '/crm/companies/{id}/meeting-history',
			pathParams: companyPath,
			fields: [companyField],
		},
		getNotes: {
			option: { name: 'Get Notes', description: 'Needs the company; returns one item per note, pinned first', action: 'Get the notes of a company' },
			method: 'GET',
			path: '/crm/companies/{id}/notes',
			pathParams: companyPath,
			fields: [companyField],
		},
		getSummary: {
			option: { name: 'Get Summary', description: 'Needs nothing (Owner optional); returns counts and deal value by industry and size', action: 'Get a summary of the companies' },
			method: 'GET',
			path: '/crm/companies/summary',
			query: { ownerId: { param: 'summaryFilters.ownerId', check: 'uuid' } },
			fields: [summaryFilters],
		},
		getTasks: {
			option: { name: 'Get Tasks', description: 'Needs the company; returns one item per task', action: 'Get the tasks of a company' },
			method: 'GET',
			path: '/crm/tasks/by-company/{crmCompanyId}',
			pathParams: { crmCompanyId: 'companyId' },
			fields: [companyField],
		},
		getAttachments: {
			option: { name: 'Get Attachments', description: 'Needs the company; returns one item per attached file, as the API gives it', action: 'Get the attachments of a company' },
			method: 'GET',
			path: '/crm/companies/{id}/attachments',
			pathParams: companyPath,
			fields: [companyField],
		},
	},
});
