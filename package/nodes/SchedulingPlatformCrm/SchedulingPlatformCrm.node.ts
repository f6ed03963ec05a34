import type { IExecuteFunctions, INodeExecutionData, INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { actAsUserProperty, authenticationProperty } from '../shared/authentication';
import { testSchedulingPlatformCredential } from '../shared/credentialTest';
import { forTheEditor } from '../shared/editorLoaders';
import { executeDefinitions } from '../shared/executor';
import { searchActingUsers, searchUsers } from '../shared/listSearch';
import { requestOptionsProperty } from '../shared/parallel';
import { getCustomFields } from './customFields';
import { getCustomFieldKeys, getLostReasons, getPipelineStages, searchDataFields, searchTasks } from './listSearch';
import { getContactFields } from './resourceMapping';
import { contactOperations, contactProperties } from './resources/contact';
import { dataFieldOperations, dataFieldProperties } from './resources/dataField';
import { companyOperations, companyProperties } from './resources/company';
import { dealOperations, dealProperties } from './resources/deal';
import { pipelineOperations, pipelineProperties } from './resources/pipeline';
import { taskOperations, taskProperties } from './resources/task';
import { noteOperations, noteProperties } from './resources/note';
import { communicationOperations, communicationProperties } from './resources/communication';
import { customFieldOperations, customFieldProperties } from './resources/customField';
import { emailOperations, emailProperties } from './resources/email';
import { lostReasonOperations, lostReasonProperties } from './resources/lostReason';
import { searchCompanies, searchContacts, searchDeals, searchPipelines, contactResolvers } from './records';
import { crmErrorHints } from './errorHints';

/**
 * The CRM node (api-reference §3): contacts and their data fields, companies, deals, pipelines, tasks, notes,
 * communications, synced emails, and the custom-field and lost-reason settings, on the shared machinery of nodes/shared/.
 */

const properties: INodeProperties[] = [
	authenticationProperty,
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Communication', value: 'communication' },
			{ name: 'Company', value: 'company' },
			{ name: 'Contact', value: 'contact' },
			{ name: 'Custom Field', value: 'customField' },
			{ name: 'Data Field', value: 'dataField' },
			{ name: 'Deal', value: 'deal' },
			{ name: 'Email', value: 'email' },
			{ name: 'Lost Reason', value: 'lostReason' },
			{ name: 'Note', value: 'note' },
			{ name: 'Pipeline', value: 'pipeline' },
			{ name: 'Task', value: 'task' },
		],
		default: 'contact',
	},
	...contactProperties,
	...dataFieldProperties,
	...companyProperties,
	...dealProperties,
	...pipelineProperties,
	...taskProperties,
	...noteProperties,
	...communicationProperties,
	...emailProperties,
	...customFieldProperties,
	...lostReasonProperties,
	actAsUserProperty,
	requestOptionsProperty,
];

/** The definitions of every resource, keyed like the Resource options. */
const resources = {
	contact: contactOperations,
	dataField: dataFieldOperations,
	company: companyOperations,
	deal: dealOperations,
	pipeline: pipelineOperations,
	task: taskOperations,
	note: noteOperations,
	communication: communicationOperations,
	email: emailOperations,
	customField: customFieldOperations,
	lostReason: lostReasonOperations,
};

export class SchedulingPlatformCrm implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Scheduling Platform CRM',
		name: 'schedulingPlatformCrm',
		icon: { light: 'file:../../icons/schedulingPlatformCrm.svg', dark: 'file:../../icons/schedulingPlatformCrm.dark.svg' },
		group: ['transform'],
		// 1.1: Simplify (on by default) on Get and Get Many of contacts and deals; version 1 outputs them whole (shared/simplify.ts).
		version: [1, 1.1],
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Manage the Scheduling Platform CRM: contacts, data fields, companies, deals, pipelines, tasks, notes, communications, synced emails and the CRM settings',
		defaults: { name: 'Scheduling Platform CRM' },
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
			searchUsers,
			searchCompanies,
			searchContacts,
			searchDataFields,
			searchDeals,
			searchPipelines,
			searchTasks,
		}),
		loadOptions: forTheEditor({ getCustomFieldKeys, getLostReasons, getPipelineStages }),
		resourceMapping: forTheEditor({ getContactFields, getCustomFields }),
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeDefinitions(this, { resources, properties, resolvers: contactResolvers, hints: crmErrorHints });
	}
}
