import { apiError } from '../errors';
import { Call, Group } from '../handler';
import { publicHolidays } from '../holidays';
import { Availability, AvailabilityException, Store } from '../store';
import { canSeeOwnedBy, visible } from '../visibility';
import { visibleAvailability } from './availability';

type ExceptionFields = Pick<AvailabilityException, 'available' | 'start' | 'end' | 'title' | 'note'>;
type ExceptionInput = Partial<ExceptionFields> & { availabilityId: string };
type NewException = Pick<ExceptionFields, 'available' | 'start' | 'end'> & Partial<ExceptionFields>;
type HolidayInput = { year: number; country: string; germanState?: string };
type ExceptionQuery = { availabilityId: string; from?: string; to?: string };

/**
 * availability-exception: extra time (available) or blocked time on a date range of one availability.
 * Also PATCH /availability/{id}/holiday-exceptions (tag availability), which makes blocked-time exceptions.
 */
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
		return addException(store, target, input as ExceptionFields);
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

	/** One blocked whole day per public holiday not blocked yet; answers the created ones only. */
	addHolidayExceptions: (call) => {
		const { store } = call;
		const { year, country, germanState } = call.body as HolidayInput;
		if (germanState && country !== 'DE') throw apiError(400, ['germanState can only be used with country DE']);
		const target = visibleAvailability(call, call.params.id);
		return publicHolidays(year, country, germanState, target.timezone)
			.filter((day) => !isBlocked(store, target, day))
			.map((day) => addException(store, target, { available: false, ...day }));
	},
};

/** The whole span is inside one blocked-time exception of the availability. */
function isBlocked(store: Store, target: Availability, span: Pick<ExceptionFields, 'start' | 'end'>): boolean {
	return store
		.exceptionsOf(target.id)
		.some((exception) => !exception.available && Date.parse(exception.start) <= Date.parse(span.start) && Date.parse(exception.end) >= Date.parse(span.end));
}

/** A new exception of the availability, stored and returned. */
function addException(store: Store, target: Availability, input: NewException): AvailabilityException {
	const now = store.clock.iso();
	const exception: AvailabilityException = {
		id: store.exceptionId(),
		availabilityId: target.id,
		userId: target.userId,
		available: input.available,
		start: input.start,
		end: input.end,
		title: input.title ?? null,
		note: input.note ?? null,
		createdAt: now,
		updatedAt: now,
	};
	store.availabilityExceptions.set(String(exception.id), exception);
	return exception;
}

/** Ids arrive as strings and match as strings; visibility follows the availability's owner. */
function visibleException({ actor, params, store }: Call): AvailabilityException {
	return visible(store.availabilityExceptions.get(params.id), (exception) => canSeeOwnedBy(store, actor, exception.userId), 'Availability exception');
}

function assertEndAfterStart({ start, end }: Pick<ExceptionFields, 'start' | 'end'>): void {
	if (Date.parse(end) <= Date.parse(start)) throw apiError(400, ['end must be later than start']);
}
