import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { declareResource } from '../../shared/declare';
import type { Pagination } from '../../shared/transport/pagination';

/**
 * Email (api-reference §3, synced e-mails): the emails the platform syncs from its users' mailboxes. Contacts and
 * deals list theirs (Get Emails: headers and previews, newest first); an email's body is read here, one email per
 * request, from the mailbox provider on demand. The API has no route that sends an email.
 */

/** The emails of a contact or deal: limit and offset pages, answered as { data, total }. */
export const EMAIL_PAGES: Pagination = { style: 'offset', itemsKey: 'data' };

const emailId: INodeProperties = {
	displayName: 'Email ID',
	name: 'emailId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 3b9d6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f',
	description: 'ID of a synced email, as Contact or Deal → Get Emails outputs it',
};

export const { definitions: emailOperations, properties: emailProperties } = declareResource('email', {
	default: 'getBody',
	operations: {
		getBody: {
			option: {
				name: 'Get Body',
				description: 'Needs the email ID (from Get Emails); returns its text, HTML and attachment list',
				action: 'Get the body of a synced email',
			},
			method: 'GET',
			path: '/crm/emails/{emailId}/body',
			pathParams: { emailId: 'emailId' },
			output: (answer, call) => [{ emailId: call.request.pathParams!.emailId, ...(answer as IDataObject) }],
			fields: [emailId],
		},
		getSendCapability: {
			option: {
				name: 'Get Send Capability',
				description: 'Needs nothing; returns whether the acting user\'s mailbox can send, and its provider (no route sends)',
				action: 'Get whether the mailbox can send',
			},
			method: 'GET',
			path: '/crm/emails/send-capability',
			readOnce: true,
		},
	},
});
