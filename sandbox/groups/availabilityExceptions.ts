import { apiError } from '../errors';
import { Call, Group } from '../handler';
import { AvailabilityException } from '../store';
import { canSeeOwnedBy, visible } from '../visibility';
import { visibleAvailability } from './availability';

type ExceptionFields = Pick<AvailabilityException, 'available' | 'start' | 'end' | 'title' | 'note'>;
type ExceptionInput = Partial<ExceptionFields> & { availabilityId: string };
type ExceptionQuery = { availabilityId: string; from?: string; to?: string };

/** availability-exception: extra time (available) or blocked time on a date range of one availability. */
export const availabilityExceptions: Group = {
	listAvailabilityExceptions: (call) => {
		const { availabilityId, from, to } = call.query as ExceptionQuery;
		const target = visibleAvailability(call, availabilityId);
		return call.store.exceptionsOf(target.id).filter(
			(exception) => (!from || Date.parse(exception.end) > Date.parse(from)) && (!to || Date.parse(exception.start) < Date.parse(to)),
		);
	},

	createAvailabilityException: (call) => {
		const { store } = call;
		const input = call.body as ExceptionInput;
		const target = visibleAvailability(call, input.availabilityId);
		assertEndAfterStart(input as ExceptionFields);
		const now = store.clock.iso();
		const exception: AvailabilityException = {
			id: store.exceptionId(),
			availabilityId: target.id,
			userId: target.userId,
			available: input.available!,
			start: input.start!,
			end: input.end!,
			title: input.title ?? null,
			note: input.note ?? null,
			createdAt: now,
			updatedAt: now,
		};
		store.availabilityExceptions.set(String(exception.id), exception);
		return exception;
	},

	updateAvailabilityException: (call) => {
		const exception = visibleException(call);
		const changes = call.body as Partial<ExceptionFields>;
		assertEndAfterStart({ ...exception, ...changes });
		return Object.assign(exception, changes, { updatedAt: call.store.clock.iso() });
	},

	deleteAvailabilityException: (call) => {
		call.store.availabilityExceptions.delete(String(visibleException(call).id));
	},
};

/** Ids arrive as strings and match as strings; visibility follows the availability's owner. */
function visibleException({ actor, params, store }: Call): AvailabilityException {
	return visible(store.availabilityExceptions.get(params.id), (exception) => canSeeOwnedBy(store, actor, exception.userId), 'Availability exception');
}

function assertEndAfterStart({ start, end }: Pick<ExceptionFields, 'start' | 'end'>): void {
	if (Date.parse(end) <= Date.parse(start)) throw apiError(400, ['end must be later than start']);
}
