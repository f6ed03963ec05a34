import type { INodeProperties } from 'n8n-workflow';

import { declareResource } from '../../shared/declare';
import { parentIds, parentProperties } from '../parents';

/**
 * Note (api-reference §3 Notes and communications): text on exactly one contact, deal or company. Notes are
 * listed by their record (Contact, Deal or Company > Get Notes), so a note is named by its ID.
 */

const content: INodeProperties = {
	displayName: 'Content',
	name: 'content',
	type: 'string',
	typeOptions: { rows: 4 },
	required: true,
	default: '',
	description: 'The text of the note',
};

const noteId: INodeProperties = {
	displayName: 'Note ID',
	name: 'noteId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 3b9d6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f',
	description: 'ID of the note, as Create or Get Notes of its record returns it',
};

const updateFields: INodeProperties = {
	displayName: 'Update Fields',
	name: 'updateFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [
		{ displayName: 'Content', name: 'content', type: 'string', typeOptions: { rows: 4 }, default: '', description: 'The new text of the note' },
		{ displayName: 'Pinned', name: 'isPinned', type: 'boolean', default: false, description: 'Whether the note is pinned to the top of its record' },
	],
};

export const { definitions: noteOperations, properties: noteProperties } = declareResource('note', {
	default: 'create',
	operations: {
		create: {
			option: { name: 'Create', description: 'Needs Content and one contact, deal or company; returns the note', action: 'Create a note on a CRM record' },
			method: 'POST',
			path: '/crm/notes',
			body: { content: { param: 'content', check: 'required' }, ...parentIds },
			fields: [...parentProperties(['contact', 'deal', 'company'], 'the note belongs to'), content],
		},
		delete: {
			option: { name: 'Delete', description: 'Needs the note ID; deletes it for good and returns { deleted: true }', action: 'Delete a note' },
			method: 'DELETE',
			path: '/crm/notes/{id}',
			pathParams: { id: 'noteId' },
			fields: [noteId],
		},
		update: {
			option: { name: 'Update', description: 'Needs the note ID and new content or Pinned; returns the note', action: 'Update a note' },
			method: 'PATCH',
			path: '/crm/notes/{id}',
			pathParams: { id: 'noteId' },
			body: { content: 'updateFields.content', isPinned: 'updateFields.isPinned' },
			check: (request, input) =>
				Object.keys(request.body ?? {}).length ? undefined : `Add at least one field under ${input.label('updateFields')}: Content or Pinned`,
			fields: [noteId, updateFields],
		},
	},
});
