import type { INodeProperties } from 'n8n-workflow';

import type { ResourceDefinitions } from '../../shared/types';
import { parentIds, parentProperties } from '../parents';

/**
 * Note (api-reference §3 Notes and communications): text on exactly one contact, deal or company. Notes are
 * listed by their record (Contact, Deal or Company > Get Notes), so a note is named by its ID.
 */
export const noteOperations: ResourceDefinitions = {
	create: {
		method: 'POST',
		path: '/crm/notes',
		body: { content: { param: 'content', check: 'required' }, ...parentIds },
	},
	delete: { method: 'DELETE', path: '/crm/notes/{id}', pathParams: { id: 'noteId' } },
	update: {
		method: 'PATCH',
		path: '/crm/notes/{id}',
		pathParams: { id: 'noteId' },
		body: { content: 'updateFields.content', isPinned: 'updateFields.isPinned' },
		check: (request, input) =>
			Object.keys(request.body ?? {}).length ? undefined : `Add at least one field under ${input.label('updateFields')}: Content or Pinned`,
	},
};

const show = (operation: string[]) => ({ show: { resource: ['note'], operation } });

export const noteProperties: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['note'] } },
		options: [
			{ name: 'Create', value: 'create', description: 'Needs Content and one contact, deal or company; returns the note', action: 'Create a note on a CRM record' },
			{ name: 'Delete', value: 'delete', description: 'Needs the note ID; deletes it for good and returns { deleted: true }', action: 'Delete a note' },
			{ name: 'Update', value: 'update', description: 'Needs the note ID and new content or Pinned; returns the note', action: 'Update a note' },
		],
		default: 'create',
	},
	...parentProperties('note', ['create'], ['contact', 'deal', 'company'], 'the note belongs to'),
	{
		displayName: 'Content',
		name: 'content',
		type: 'string',
		typeOptions: { rows: 4 },
		required: true,
		default: '',
		displayOptions: show(['create']),
		description: 'The text of the note',
	},
	{
		displayName: 'Note ID',
		name: 'noteId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 3b9d6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f',
		displayOptions: show(['delete', 'update']),
		description: 'ID of the note, as Create or Get Notes of its record returns it',
	},
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: show(['update']),
		options: [
			{ displayName: 'Content', name: 'content', type: 'string', typeOptions: { rows: 4 }, default: '', description: 'The new text of the note' },
			{ displayName: 'Pinned', name: 'isPinned', type: 'boolean', default: false, description: 'Whether the note is pinned to the top of its record' },
		],
	},
];
