import { STATUS_CODES } from 'node:http';

/** An error answered as it is: status, JSON body and extra headers. */
export class ApiError extends Error {
	constructor(
		readonly status: number,
		readonly body: Record<string, unknown>,
		readonly headers: Record<string, string> = {},
	) {
		super(String(body.message));
	}
}

/** A NestJS-style error body: `{ statusCode, message, error, ...extra }`. */
export function apiError(
	status: number,
	message: string | string[],
	extra: Record<string, unknown> = {},
	headers: Record<string, string> = {},
): ApiError {
	const body = { statusCode: status, message, error: STATUS_CODES[status], ...extra };
	return new ApiError(status, body, headers);
}
