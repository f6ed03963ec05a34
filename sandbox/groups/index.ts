import { Group } from '../handler';
import { meetingTypes } from './meetingTypes';
import { users } from './users';

/** Every operationId of the contract has its handler here: one line per group. */
export const handlers: Group = {
	...users,
	...meetingTypes,
};
