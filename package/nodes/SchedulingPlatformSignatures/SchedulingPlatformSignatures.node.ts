import type { IExecuteFunctions, INodeExecutionData, INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { actAsUserProperty, authenticationProperty } from '../shared/authentication';
import { testSchedulingPlatformCredential } from '../shared/credentialTest';
import { forTheEditor } from '../shared/editorLoaders';
import { executeDefinitions } from '../shared/executor';
import { searchActingUsers } from '../shared/listSearch';
import { requestOptionsProperty } from '../shared/parallel';
import { searchSignatureRequests } from './listSearch';
import { signatureRequestOperations, signatureRequestProperties } from './resources/signatureRequest';

/**
 * The Signatures node (api-reference §5): PDFs sent for electronic signature, their state, reminders, and the
 * signed result as binary data, on the shared machinery of nodes/shared/ (files in and out: binary.ts).
 */

const properties: INodeProperties[] = [
	authenticationProperty,
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [{ name: 'Signature Request', value: 'signatureRequest' }],
		default: 'signatureRequest',
	},
	...signatureRequestProperties,
	actAsUserProperty,
	requestOptionsProperty,
];

/** The definitions of every resource, keyed like the Resource options. */
const resources = {
	signatureRequest: signatureRequestOperations,
};

export class SchedulingPlatformSignatures implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Scheduling Platform Signatures',
		name: 'schedulingPlatformSignatures',
		icon: { light: 'file:../../icons/schedulingPlatformSignatures.svg', dark: 'file:../../icons/schedulingPlatformSignatures.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Send PDFs for electronic signature with the Scheduling Platform and download the signed result',
		defaults: { name: 'Scheduling Platform Signatures' },
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
		listSearch: forTheEditor({ searchActingUsers, searchSignatureRequests }),
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeDefinitions(this, { resources, properties });
	}
}
