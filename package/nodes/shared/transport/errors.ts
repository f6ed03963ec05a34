import type { IDataObject, INode, JsonObject } from 'n8n-workflow';

/** n8n-workflow's Failure (2.41), written out: older versions do not export it. */
type Failure = { cause: 'rate-limited' | 'temporarily-unavailable'; retryAfterMs?: number } | { cause: 'credential-invalid' | 'configuration-invalid' };
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/**
 * Turns an API error answer into a NodeApiError. The message (what n8n's toast shows) is the API's own
 * reason with the status, e.g. "The requested time slot is not available (HTTP 409)"; where the API gives
 * no words, what happened. The description says what happened, quotes the API in full and says how to fix
 * it, in full sentences. The fix is also kept in the error's context (`hint`) for the editor's lists.
 */

const WHAT_HAPPENED: Record<number, string> = {
	400: 'The API rejected the request as invalid',
	401: 'The API did not accept the credential',
	403: 'The API refused the request: the credential is not allowed to do this',
	404: 'The API could not find the requested resource',
	409: 'The request conflicts with the current state of the resource',
	429: 'The API rate limit was exceeded',
};

const HOW_TO_FIX: Record<number, string> = {
	400: 'Correct the fields the API names and run the node again.',
	401: 'Check the credential: the token or API key may be mistyped, revoked, deactivated or expired. Create a new one in the dashboard if needed and update the credential.',
	403: 'Use a credential whose user, role, plan or token scope allows this operation.',
	404: 'Check the ID: the resource may have been deleted, or it belongs to a user the credential cannot see.',
	409: 'Reload the resource, check its current state and adjust the request.',
	429: 'The API\'s limit for this credential (100 requests per minute by default) is shared by every workflow and n8n process that uses it, and others kept it busy for a minute. Run fewer workflows with this credential at the same time, or give them their own credentials; if your plan allows other numbers, set Requests per Minute and Burst in the credential.',
};

/** Fixes for the API's own sentences, more precise than the per-status fix (first match wins). */
const SPECIFIC_FIXES: Array<[RegExp, string]> = [
	// Acting user and credential
	[/x-service-api-user-id.*for API key/i, 'Set "Act As User" in the node, or a Default Acting User ID in the API Key credential.'],
	[/does not belong to company/i, 'The acting user is not a member of the API key\'s company: pick a user of that company in "Act As User" or in the credential\'s Default Acting User ID.'],
	[/API key has expired/i, 'API keys live 1 to 90 days: create a new key in the dashboard and update the credential.'],
	[/Access token has expired/i, 'Create a new Personal Access Token in the integrations area of the dashboard and update the credential.'],
	[/^Invalid API key$/i, 'The API key is mistyped, revoked or deactivated: check the credential, or create a new key in the dashboard and update the credential.'],
	[/^Invalid access token$/i, 'The token is mistyped or revoked: check the credential, or create a new Personal Access Token in the integrations area of the dashboard and update the credential.'],
	[/x-service-api-user-id must be a UUID/i, 'Act As User and the Default Acting User ID must be the UUID of a user of the company.'],
	[/header requires a Platform API Key/i, 'Personal Access Tokens always act as their owner: to act for another user, switch Authentication to Platform API Key and set Act As User.'],
	[/User management requires a Platform API Key/i, 'Switch the node\'s Authentication to Platform API Key: this operation is not available to Personal Access Tokens.'],
	[/^Forbidden resource$/i, 'Only admins may do this: use an admin\'s token, or a Platform API key.'],
	[/access token is not scoped for the (\S+) feature/i, 'Create a Personal Access Token that includes this feature\'s scope, or use a token without scope limits, and update the credential.'],
	// Scheduling
	[/requested time slot is not available/i, 'Take a start time from Booking → Get Open Slots for this meeting type (and hosts) in the same time zone; when rescheduling, pass the appointment as Rescheduling Appointment there, or turn on Ignore Availability.'],
	[/new host is not available/i, 'Pick a host who is free at the appointment\'s time (Handoff → Get Handoff Options shows who is), or turn on Ignore Availability.'],
	[/cancelled appointment cannot be/i, 'The appointment is cancelled and can no longer be changed: book a new one with Booking → Create (Appointment → Get shows its state).'],
	[/appointment is already cancelled/i, 'Nothing to do: the appointment was cancelled before (Appointment → Get shows its state).'],
	[/attendee is already cancelled/i, 'Nothing to do: the attendee was cancelled before (Attendee → Get shows its state).'],
	[/meeting type is disabled/i, 'Turn the meeting type on with Meeting Type → Update (Enabled), or book another meeting type.'],
	[/meeting type with this slug already exists/i, 'Slugs are unique within the company: choose another Slug, or leave it empty so the API makes one from the name.'],
	[/user with this slug already exists/i, 'Slugs are unique within the company: choose another Slug for this user.'],
	[/user with this email already exists/i, 'Each email belongs to one user: find the existing user with User → Get Many, or create the user with another email.'],
	[/company owner cannot be deleted/i, 'The company owner stays: delete another user, or transfer the ownership in the dashboard first.'],
	[/default availability cannot be deleted/i, 'Every user keeps a default availability: change it with Availability → Update instead, or make another availability the default in the dashboard first.'],
	[/availability is used by a meeting type/i, 'Give the meeting types that use it another availability in the dashboard first, or delete them with Meeting Type → Delete.'],
	[/guest is already invited/i, 'Nothing to do: this email is already a guest of the appointment.'],
	[/^Host not found$/i, 'Every host must be a user of the company: pick the hosts from the list, or check their IDs with User → Get Many.'],
	[/Expected hostIds or queueId/i, 'Pick Hosts, or give a Queue ID, or leave both empty so the node reads them from the meeting type.'],
	[/Quick mail limit reached/i, 'Each quick mail counts against its attendee for 5 minutes: wait up to 5 minutes before mailing this attendee again, or space the mails out (for example with a Wait node).'],
	// CRM
	[/data field named .* already exists/i, 'Data field names are unique: choose another Name (or Label, from which the name is made), or change the existing field with Data Field → Update.'],
	[/Contact is already on this deal/i, 'Nothing to add: change the contact\'s role with Deal → Update Contact Role instead.'],
	[/Deal is not open/i, 'Open the deal again with Deal → Reopen first.'],
	[/Deal is already open/i, 'Nothing to do: only a won or lost deal can be reopened.'],
	[/Pipeline has deals/i, 'Move its deals to another pipeline with Deal → Update, or delete them, then delete the pipeline.'],
	[/Too many bulk requests/i, 'The bulk endpoints allow 3 calls per minute per credential, and another workflow or n8n instance used them: run the bulk operations one at a time, or wait a minute.'],
	[/Exactly one of .*(contactId|crmCompanyId)/i, 'Choose one Parent Type and pick exactly one record of it.'],
	// Messenger
	[/24-hour customer-service window is closed/i, 'The contact last wrote more than 24 hours ago, or never: only an approved template can be sent now. Set Type to Template and pick an approved template (Template → Get Many lists them), or set If the Window Is Closed to Send a Template Instead. The window opens again for 24 hours when the contact writes.'],
	[/Exactly one of phone, userId or conversationId/i, 'Choose one Send To and fill only its field.'],
	[/Template ".*" \(.*\) is not approved/i, 'Only approved templates can be sent: pick one from the Template list, or wait for the approval (Template → Get Many shows each status).'],
	[/Template ".*" \(.*\) expects \d+ parameters?/i, 'Give one Template Parameters value per placeholder ({{1}}, {{2}}, ...) of the template, in order: Template → Get Many shows its text and parameterCount.'],
	[/Template ".*" \(.*\) does not exist/i, 'Pick the template from the Template list, or check its name and language with Template → Get Many.'],
	// Invoicing
	[/Only draft documents can be changed/i, 'Finalised documents never change: cancel the invoice (Document → Cancel) and create a corrected one; only drafts can be updated or deleted.'],
	[/Only draft documents can be finalised/i, 'Nothing to do: the document already has its number (Document → Get shows it).'],
	[/seller settings lack/i, 'Fill the named settings with Setting → Update of this node (a VAT ID or a Tax Number is enough), then finalise again.'],
	[/Drafts cannot be sent/i, 'Finalise the document first (Document → Finalise), then send it; or turn on Finalise Draft First in Document → Send.'],
	[/amount must not be greater than the amount due/i, 'Record at most the amount due (Document → Get shows amountDue). An overpayment is not booked: record the part that settles this invoice and refund or reassign the rest.'],
	[/Payments are recorded on invoices only/i, 'Convert the offer into an invoice (Document → Convert Offer to Invoice), finalise it, then record the payment there.'],
	[/Finalise the invoice before recording payments/i, 'Finalise the invoice (Document → Finalise) first.'],
	[/cancelled; payments cannot be recorded/i, 'The invoice was cancelled: record the payment on the invoice that replaced it.'],
	[/Invoices with payments cannot be cancelled/i, 'Delete its payments first (Document → Get Payments, then Delete Payment), or keep the invoice and settle the difference with a new document.'],
	[/Only overdue invoices can be dunned/i, 'Reminders go to sent invoices past their due date with an amount due: Document → Get Many with Status Overdue lists them.'],
	[/third and last reminder/i, 'Three reminders are the most the API sends: contact the customer or hand the claim to collection.'],
	[/already converted into invoice/i, 'Nothing to do: continue with the invoice the offer became (its ID is in the message).'],
	[/Only finalised or sent offers can be converted/i, 'Finalise a draft offer first; a declined or expired offer cannot be converted: create a new offer.'],
	[/Drafts are deleted, not cancelled/i, 'Delete the draft with Document → Delete instead.'],
	[/E-invoices exist for invoices only|Drafts have no e-invoice/i, 'Offers have a PDF only (Download PDF); finalise an invoice before downloading its e-invoice.'],
	[/Only finalised or sent offers can be cancelled/i, 'Delete a draft offer instead; an accepted offer stays with its invoice.'],
	[/is (cancelled|declined) and cannot be sent/i, 'A cancelled invoice or declined offer is not sent again: send the document that replaced it.'],
	[/archived product/i, 'Restore the product with Product → Update (Archived off), or pick another product.'],
	[/runDate must not be after today/i, 'Leave Run Date empty for today, or pick a day that has begun (the API counts days in UTC).'],
	[/startDate can only change before the first billing run/i, 'Create a new recurring invoice with the new start date, then delete or pause this one.'],
	[/Only (active|paused) recurring invoices can be/i, 'Nothing to do, or not possible now: Recurring Invoice → Get shows its status (an ended schedule needs a later End Date).'],
	// Routing
	[/is not a host of this queue/i, 'Add the user to the queue first (Queue → Add Host), then set their capacity, priority or link.'],
	[/mainGroupHostId must be a member of the group/i, 'Add the user to the group first (Queue User Group → Add Member), then make them its main host.'],
	[/queueId is not the queue of this meeting type/i, 'Use the meeting type\'s own queue (its queueId), or leave Hosts and Queue ID empty so the node takes it from the meeting type.'],
	[/The queue has no hosts/i, 'Add hosts to the queue first (Routing: Queue → Add Host).'],
	[/The provisional booking is (confirmed|declined_by_host|expired)/i, 'Nothing to decide any more: Provisional Booking → Get Many shows its status.'],
	[/template is already assigned to this user/i, 'Nothing to do: the user already has a meeting type from this template (Meeting Type → Get Many).'],
];

/** HTTP status texts: a body that says only this gives no reason of its own. */
const STATUS_TEXT = /^(Bad Request|Unauthorized|Forbidden|Not Found|Conflict|Too Many Requests|Internal Server Error|Bad Gateway|Service Unavailable|Gateway Timeout|Not Acceptable|Unprocessable Entity)$/i;
/** The message shows at most this many of a validation list's reasons, and at most this many characters of them. */
const REASONS_IN_MESSAGE = 2;
const MESSAGE_LENGTH = 160;

/** The API's reasons, one per constraint for a validation list; none when it gave no words of its own. */
export function apiReasons(body: unknown): string[] {
	if (body && typeof body === 'object') {
		const { message, errors } = body as IDataObject;
		if (Array.isArray(errors) && errors.length) {
			return (errors as IDataObject[]).map((e) => (e.field ? `${String(e.field)}: ${String(e.message)}` : String(e.message)));
		}
		if (Array.isArray(message)) return message.map(String).filter((text) => text.trim());
		if (typeof message === 'string' && message.trim() && !STATUS_TEXT.test(message.trim())) return [message.trim()];
		return [];
	}
	if (typeof body === 'string' && body.trim() && !/^\s*</.test(body)) return [body.trim().slice(0, 500)];
	return [];
}

/** The API's words as one text (for matching and logs). */
export function apiWords(body: unknown): string {
	const reasons = apiReasons(body);
	if (reasons.length) return reasons.join('; ');
	if (body && typeof body === 'object' && typeof (body as IDataObject).message === 'string') return String((body as IDataObject).message);
	return 'The API gave no further details.';
}

/** A text as a sentence: a full stop added when it ends without one. */
export function sentence(text: string): string {
	const trimmed = text.trim();
	return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** The reason for the message: the first reasons of a list, kept short; the rest is in the description. */
function reasonForMessage(reasons: string[]): string {
	let shown = reasons.slice(0, REASONS_IN_MESSAGE);
	if (shown.join('; ').length > MESSAGE_LENGTH) shown = shown.slice(0, 1);
	let text = shown.join('; ');
	if (text.length > MESSAGE_LENGTH) text = `${text.slice(0, MESSAGE_LENGTH - 1).trimEnd()}…`;
	const more = reasons.length - shown.length;
	return more > 0 ? `${text} (and ${more} more)` : text;
}

/** How to fix an error answer: the fix for the API's own words when there is one, else the status's. */
export function howToFix(status: number, words: string, body: IDataObject): string {
	if (status === 403 && body.code === 'PLAN_LIMIT_REACHED') {
		const feature = body.feature ? ` (${String(body.feature)})` : '';
		return `Your plan does not include this feature${feature}: upgrade the plan in the dashboard, or ask the company owner to.`;
	}
	const specific = SPECIFIC_FIXES.find(([pattern]) => pattern.test(words));
	if (specific) return specific[1];
	if (status >= 500) return 'This is a problem on the API side. Try again later; if it persists, contact the platform\'s support.';
	return HOW_TO_FIX[status] ?? 'Check the request and try again.';
}

/** The text with every secret replaced, and objects and lists with every text inside them. */
export function masked<T>(value: T, secrets: string[]): T {
	if (typeof value === 'string') return secrets.reduce((text, secret) => text.split(secret).join('***'), value as string) as T;
	if (Array.isArray(value)) return value.map((item) => masked(item, secrets)) as T;
	if (value && typeof value === 'object') {
		return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, masked(item, secrets)])) as T;
	}
	return value;
}

export function apiErrorFromResponse(
	node: INode,
	status: number,
	answer: unknown,
	itemIndex: number,
	options: { extra?: string; secrets?: string[]; retryAfterMs?: number } = {},
): NodeApiError {
	// Longest first, so a whole key is masked before its secret part.
	const body = masked(answer, [...(options.secrets ?? [])].sort((a, b) => b.length - a.length));
	const data: IDataObject = body && typeof body === 'object' ? (body as IDataObject) : {};
	const reasons = apiReasons(body);
	const happened = WHAT_HAPPENED[status] ?? (status >= 500 ? 'The API failed with a server error' : 'The API answered with an error');
	const fix = howToFix(status, reasons.join('; '), data);
	const statusText = typeof data.message === 'string' ? data.message.trim() : '';
	const said = reasons.length || statusText
		? `The API says: ${sentence(reasons.length ? reasons.join('; ') : statusText)}`
		: typeof body === 'string' && body.trim()
			? 'The answer was not JSON (an HTML page or plain text): the Base URL may not point at the API.'
			: 'The API gave no further details.';
	const error = new NodeApiError(node, { ...data, statusCode: status } as JsonObject, {
		message: `${reasons.length ? reasonForMessage(reasons) : happened} (HTTP ${status})`,
		description: `${happened}${options.extra ?? ''}. ${said} ${fix}`,
		httpCode: String(status),
		itemIndex,
	});
	error.context.hint = fix;
	declareFailure(error, failureOf(status, options.retryAfterMs));
	return error;
}

/**
 * Why a request failed, as n8n 2.x's poll backoff reads it (`failure` on the error: permanent causes wait 30 minutes,
 * timed ones the API's Retry-After): 401 the credential, 403 and 404 the node's settings, 429 the rate limit, 5xx
 * the API. Other statuses declare nothing and n8n decides by the status.
 */
function failureOf(status: number, retryAfterMs?: number): Failure | undefined {
	if (status === 401) return { cause: 'credential-invalid' };
	if (status === 403 || status === 404) return { cause: 'configuration-invalid' };
	if (status === 429) return retryAfterMs === undefined ? { cause: 'rate-limited' } : { cause: 'rate-limited', retryAfterMs };
	if (status >= 500) return { cause: 'temporarily-unavailable' };
	return undefined;
}

/** Set as a plain property: n8n-workflow before 2.41 has no `failure` option, and n8n reads the property alone. */
function declareFailure(error: NodeApiError | NodeOperationError, failure: Failure | undefined): void {
	if (failure) (error as { failure?: Failure }).failure = failure;
}

/**
 * A request that got no answer. The network code goes in the description only: n8n replaces a message that
 * names one with its own advice to retry immediately, which is wrong for a write that may have been applied.
 */
export function networkError(node: INode, code: string, mayHaveBeenApplied: boolean, itemIndex: number): NodeOperationError {
	if (mayHaveBeenApplied) {
		return new NodeOperationError(node, 'The connection broke before the API answered: the change may have been applied', {
			description: `Network error ${code}. It was not sent again, because it changes data. Check the resource in the platform before running the node again, so nothing is done twice.`,
			itemIndex,
		});
	}
	const error = new NodeOperationError(node, 'Could not get an answer from the API', {
		description: `Network error ${code}. Check the Base URL in the credential and that the API is reachable from n8n, then try again.`,
		itemIndex,
	});
	declareFailure(error, { cause: 'temporarily-unavailable' });
	return error;
}

/** A redirect that would take the credential to another origin, or from https to plain http: not followed. */
export function redirectError(node: INode, status: number, host: string, baseUrl: string, itemIndex: number, protocol?: string): NodeOperationError {
	const downgrade = protocol === 'http:' && baseUrl.startsWith('https:') ? ' over plain http' : '';
	return new NodeOperationError(node, `The API redirected the request (HTTP ${status}) to ${host}${downgrade}; the redirect was not followed`, {
		description: `Requests carry your credential, so they are only sent to the Base URL's own address (${baseUrl}). Check the Base URL in the credential: it may be an old or wrong address that now redirects elsewhere.`,
		itemIndex,
	});
}

/** Whether an error is the API's answer with this HTTP status (e.g. '404'). */
export function isApiStatus(error: unknown, status: string): boolean {
	return error instanceof NodeApiError && String(error.httpCode) === status;
}

/** Any error as n8n's: API and node errors as they are, anything else wrapped for the item. */
export function asNodeError(ctx: { getNode(): INode }, error: Error, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(ctx.getNode(), error, { itemIndex });
}
