import type { OperationDefinition } from './types';

/** A body key filled by a field, and the switch that clears it instead (sends null). Both are parameter names. */
export interface ClearSwitch {
	key: string;
	field: string;
	flag: string;
}

/**
 * The hooks of fields that a switch can clear: a value together with its switch on contradicts itself and is
 * refused before sending (the user must pick one); a switch on sends null.
 */
export function clearSwitches(switches: ClearSwitch[]): Required<Pick<OperationDefinition, 'check' | 'prepare'>> {
	return {
		check: (request, call) => {
			const both = switches.find(({ key, flag }) => request.body![key] !== undefined && call.read(flag) === true);
			if (!both) return undefined;
			const [text, clear] = [call.label(both.field), call.label(both.flag)];
			return `${text} and ${clear} contradict each other: remove the ${text} text or turn ${clear} off`;
		},
		prepare: async (call) => {
			for (const { key, flag } of switches) {
				if (call.read(flag) === true) call.request.body![key] = null;
			}
		},
	};
}
