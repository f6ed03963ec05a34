import { randomUUID } from 'node:crypto';
import { tenantRecord, tenantRecords } from '../crm';
import { onParent, ParentKey, singleParent } from '../crmParents';
import { Call, Group, Handler } from '../handler';
import { CrmParents, Note } from '../store';

/** CRM notes (api-reference §3 Notes and communications): on exactly one contact, deal or CRM company of the tenant. */
export const notes: Group = {
	createNote: (call) => {
		const { store, actor } = call;
		const input = call.body as Partial<CrmParents> & { content: string };
		const parents = singleParent(store, actor, input);
		const now = store.clock.iso();
		const note: Note = {
			id: randomUUID(),
			companyId: actor.company.id,
			content: input.content,
			isPinned: false,
			authorId: actor.user.id,
			authorName: actor.user.fullName,
			...parents,
			createdAt: now,
			updatedAt: now,
		};
		store.notes.set(note.id, note);
		return note;
	},

	updateNote: (call) => {
		const note = visibleNote(call);
		return Object.assign(note, call.body as Partial<Pick<Note, 'content' | 'isPinned'>>, { updatedAt: call.store.clock.iso() });
	},

	deleteNote: (call) => {
		call.store.notes.delete(visibleNote(call).id);
	},

	listContactNotes: notesOn('contactId', 'id'),

	listCrmCompanyNotes: notesOn('crmCompanyId', 'id'),

	listDealNotes: notesOn('dealId', 'dealId'),
};

/** The notes of the parent in the path parameter `param`: pinned first, then the newest first (designed). */
function notesOn(key: ParentKey, param: string): Handler {
	return ({ store, actor, params }) =>
		onParent(store, actor, tenantRecords(store.notes, actor), key, params[param]).sort((a, b) => Number(b.isPinned) - Number(a.isPinned) || b.createdAt.localeCompare(a.createdAt));
}

function visibleNote({ store, actor, params }: Call): Note {
	return tenantRecord(store, actor, 'notes', params.id);
}
