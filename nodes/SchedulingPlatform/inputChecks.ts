import { isUuid } from './transport/credentialChecks';

/** Checks of user input that can be made before a request is sent. Each returns a problem or undefined. */

/**
 * A value that cannot be sent, said as the end of a sentence about it ("must be an email address...").
 * Converters throw it; the executor names the field and the item.
 */
export class InputProblem extends Error {}

export type InputCheck = 'email' | 'timezone' | 'uuid' | 'required' | 'phone' | 'url';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const E164 = /^\+[1-9]\d{6,14}$/;

function isWebAddress(value: string): boolean {
	try {
		return ['http:', 'https:'].includes(new URL(value).protocol);
	} catch {
		return false;
	}
}

function isTimezone(value: string): boolean {
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: value });
		return true;
	} catch {
		return false;
	}
}

const CHECKS: Record<InputCheck, (value: string) => string | undefined> = {
	required: (value) => (value.trim() === '' ? 'is required' : undefined),
	email: (value) => (EMAIL.test(value) ? undefined : 'must be an email address such as jane@example.com'),
	timezone: (value) => (isTimezone(value) ? undefined : 'must be an IANA time zone such as Europe/Berlin or America/New_York'),
	uuid: (value) => (isUuid(value) ? undefined : 'must be an ID in UUID form, such as 6f1c2a7e-1b2c-4d5e-8f90-123456789abc'),
	phone: (value) => (E164.test(value) ? undefined : 'must be a phone number in E.164 form: + and country code, digits only, such as +4915112345678'),
	url: (value) => (isWebAddress(value) ? undefined : 'must be a web address starting with https:// or http://'),
};

export function inputProblem(check: InputCheck, value: unknown): string | undefined {
	if (check !== 'required' && (value === undefined || value === '')) return undefined;
	return CHECKS[check](String(value ?? ''));
}
