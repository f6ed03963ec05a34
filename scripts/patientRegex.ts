import { createContext, Script } from 'node:vm';

import { setSafeRegexEngine } from 'n8n-workflow';

/**
 * n8n-workflow checks a locator's By ID form and regex display rules with its safe-regex engine: each match in a `vm`
 * script stopped after 250 ms of wall time. On this two-core machine, with the smoke tests' n8n processes running
 * beside the engine tests, a match of a UUID can wait that long for the CPU and fail the item ("Regular expression
 * execution timed out"). The engine tests use the same engine with a 5 s stop: the same matches, not the same clock.
 */

const TIMEOUT_MS = 5_000;

export function usePatientRegexEngine(): void {
	const context = createContext({ pattern: '', flags: '', input: '', replacement: '', result: undefined as unknown });
	const script = (body: string) => new Script(`result = ${body}`);
	const scripts = {
		exec: script('new RegExp(pattern, flags).exec(input)'),
		test: script('new RegExp(pattern, flags).test(input)'),
		replace: script('input.replace(new RegExp(pattern, flags), replacement)'),
		matchAll: script('Array.from(input.matchAll(new RegExp(pattern, flags)))'),
		split: script('input.split(new RegExp(pattern, flags))'),
	};
	const run = (name: keyof typeof scripts, pattern: string, input: string, flags = '', replacement = '') => {
		Object.assign(context, { pattern, input, flags, replacement, result: undefined });
		scripts[name].runInContext(context, { timeout: TIMEOUT_MS });
		return context.result as never;
	};
	setSafeRegexEngine({
		exec: (pattern, input, flags) => run('exec', pattern, input, flags),
		test: (pattern, input, flags) => run('test', pattern, input, flags),
		replace: (pattern, input, flags, replacement) => run('replace', pattern, input, flags, replacement),
		matchAll: (pattern, input, flags) => run('matchAll', pattern, input, flags?.includes('g') ? flags : `${flags ?? ''}g`),
		split: (pattern, input, flags) => run('split', pattern, input, flags),
	});
}
