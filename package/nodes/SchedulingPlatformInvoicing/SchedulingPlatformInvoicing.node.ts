import type { IExecuteFunctions, INodeExecutionData, INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { actAsUserProperty, authenticationProperty } from '../shared/authentication';
import { testSchedulingPlatformCredential } from '../shared/credentialTest';
import { forTheEditor } from '../shared/editorLoaders';
import { executeDefinitions } from '../shared/executor';
import { searchActingUsers } from '../shared/listSearch';
import { requestOptionsProperty } from '../shared/parallel';
import { getProducts, getRecurringInvoices, searchBillingRuns, searchDocuments, searchProducts, searchRecurringInvoices } from './listSearch';
import { accountingExportOperations, accountingExportProperties } from './resources/accountingExport';
import { billingRunOperations, billingRunProperties } from './resources/billingRun';
import { documentOperations, documentProperties } from './resources/document';
import { productOperations, productProperties } from './resources/product';
import { recurringInvoiceOperations, recurringInvoiceProperties } from './resources/recurringInvoice';
import { settingsOperations, settingsProperties } from './resources/settings';
import { searchCompanies, searchContacts, searchDeals, contactResolvers } from '../SchedulingPlatformCrm/records';
import { invoicingErrorHints } from './errorHints';

/**
 * The Invoicing node (api-reference §6): offers and invoices from draft to paid, products, seller settings,
 * recurring invoices and their billing runs, and the accounting export, on the shared machinery of nodes/shared/.
 */

const properties: INodeProperties[] = [
	authenticationProperty,
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Accounting Export', value: 'accountingExport' },
			{ name: 'Billing Run', value: 'billingRun' },
			{ name: 'Document', value: 'document', description: 'Offers and invoices' },
			{ name: 'Product', value: 'product' },
			{ name: 'Recurring Invoice', value: 'recurringInvoice' },
			{ name: 'Setting', value: 'settings', description: 'The seller, number prefixes and defaults' },
		],
		default: 'document',
	},
	...documentProperties,
	...productProperties,
	...settingsProperties,
	...recurringInvoiceProperties,
	...billingRunProperties,
	...accountingExportProperties,
	actAsUserProperty,
	requestOptionsProperty,
];

/** The definitions of every resource, keyed like the Resource options. */
const resources = {
	document: documentOperations,
	product: productOperations,
	settings: settingsOperations,
	recurringInvoice: recurringInvoiceOperations,
	billingRun: billingRunOperations,
	accountingExport: accountingExportOperations,
};

export class SchedulingPlatformInvoicing implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Scheduling Platform Invoicing',
		name: 'schedulingPlatformInvoicing',
		icon: { light: 'file:../../icons/schedulingPlatformInvoicing.svg', dark: 'file:../../icons/schedulingPlatformInvoicing.dark.svg' },
		group: ['transform'],
		// 1.1: Simplify (on by default) on Get and Get Many of documents; version 1 outputs them whole (shared/simplify.ts).
		version: [1, 1.1],
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Create, finalise, send and collect offers and invoices with the Scheduling Platform; recurring billing and accounting exports',
		defaults: { name: 'Scheduling Platform Invoicing' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'schedulingPlatformPatApi',
				required: true,
				testedBy: 'schedulingPlatformCredentialTest',
				displayOptions: { show: { authentication: ['personalAccessToken'] } },
			},
			{
				name: 'schedulingPlatformApiKeyApi',
				required: true,
				testedBy: 'schedulingPlatformCredentialTest',
				displayOptions: { show: { authentication: ['apiKey'] } },
			},
		],
		properties,
	};

	methods = {
		credentialTest: { schedulingPlatformCredentialTest: testSchedulingPlatformCredential },
		listSearch: forTheEditor({
			searchActingUsers,
			searchContacts,
			searchCompanies,
			searchDeals,
			searchDocuments,
			searchProducts,
			searchRecurringInvoices,
			searchBillingRuns,
		}),
		loadOptions: forTheEditor({ getProducts, getRecurringInvoices }),
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeDefinitions(this, { resources, properties, resolvers: contactResolvers, hints: invoicingErrorHints });
	}
}
