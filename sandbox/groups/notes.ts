import { randomUUID } from 'node:crypto';
import { inTenant, singleParent } from '../crmParents';
import { Call, Group } from '../handler';
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
};

function visibleNote({ store, actor, params }: Call): Note {
	return inTenant(actor, store.notes.get(params.id), 'Note');
}
