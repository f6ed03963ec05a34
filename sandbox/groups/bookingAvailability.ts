import { Group } from '../handler';

/** TODO(helper): handlers of this group. */
export const bookingAvailability: Group = {};
