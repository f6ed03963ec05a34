import { Schema } from './contract';
import { attach } from './crmAttachments';
import { addContacts, addParent, ParentKind } from './crmParents';
import { apiError } from './errors';
import { NewFault } from './faults';
import { tenantOf } from './invoicing';
import { listOrderOf } from './listOrder';
import { deliverInbound } from './messenger';
import { RateLimitConfig } from './rateLimit';
import { bookMany } from './groups/booking';
import { addSyncedEmail, NewSyncedEmail } from './groups/emails';
import { actAsSigner, allSignatureRequests } from './groups/signatures';
import { seed } from './seed';
import { signingPage } from './signingPage';
import { resetState, SandboxState } from './state';
import { ApiKeyStatus, ApprovalKind, NewCalendarConnection, NewUser } from './store';
import { Fields, validateBody } from './validation';
import { visible } from './visibility';
import { addDeliveryFault, bookingBody, DeliveryFault, emit, EVENT_TYPES, EventType, sampleData, webhooksOf } from './webhooks';

const CONTROL_PREFIX = '/__sandbox';

interface ControlRoute {
	method: string;
	path: RegExp;
	/** 201 for what creates something, else 200. */
	status?: number;
	/** The answer is a web page (text), not JSON. */
	html?: boolean;
	body?: Schema;
	run: (state: SandboxState, body: Fields, params: string[]) => unknown;
}

const text: Schema = { type: 'string', minLength: 1 };
const uuid: Schema = { type: 'string', format: 'uuid' };
const texts: Schema = { type: 'array', items: { type: 'string' } };
const atLeast = (minimum: number): Schema => ({ type: 'integer', minimum });

const KEY_STATUS: Record<string, ApiKeyStatus> = { activate: 'active', deactivate: 'deactivated', revoke: 'revoked' };

const routes: ControlRoute[] = [
	{
		method: 'POST',
		path: /^\/reset$/,
		run: (state) => {
			resetState(state);
			return { reset: true };
		},
	},
	{ method: 'POST', path: /^\/seed$/, run: seed },
	{
		method: 'POST',
		path: /^\/companies$/,
		status: 201,
		body: object(['name'], { name: text, plan: text, excludedFeatures: texts }),
		run: (state, body) => state.store.createCompany(body.name as string, body.plan as string | undefined, body.excludedFeatures as string[] | undefined),
	},
	{
		method: 'POST',
		path: /^\/users$/,
		status: 201,
		body: object(['companyId', 'email', 'givenName', 'familyName'], {
			companyId: uuid,
			email: { type: 'string', format: 'email' },
			givenName: text,
			familyName: text,
			timezone: { type: 'string', format: 'iana-timezone', default: 'UTC' },
			isAdmin: { type: 'boolean' },
			userType: { $ref: '#/components/schemas/UserType' },
		}),
		run: (state, body) => state.store.createUser(found(state.store.companies, body.companyId, 'Company'), body as unknown as NewUser).user,
	},
	{
		method: 'POST',
		path: /^\/pats$/,
		status: 201,
		body: object(['userId'], { userId: uuid, expiresInSeconds: atLeast(1), scopes: texts }),
		run: (state, body) => {
			const user = found(state.store.users, body.userId, 'User');
			const { id, token } = state.store.createPat(user.id, body.expiresInSeconds as number | undefined, body.scopes as string[] | undefined);
			return { id, token };
		},
	},
	{
		method: 'POST',
		path: /^\/pats\/([^/]+)\/revoke$/,
		run: (state, _body, [id]) => {
			found(state.store.pats, id, 'Access token').revoked = true;
			return { id, revoked: true };
		},
	},
	{
		method: 'POST',
		path: /^\/api-keys$/,
		status: 201,
		body: object(['companyId', 'lifetimeDays'], { companyId: uuid, name: text, lifetimeDays: { type: 'integer', minimum: 1, maximum: 90 } }),
		run: (state, body) => {
			const company = found(state.store.companies, body.companyId, 'Company');
			const { id, key } = state.store.createApiKey(company.id, (body.name as string | undefined) ?? null, body.lifetimeDays as number);
			return { id, key };
		},
	},
	{
		method: 'POST',
		path: /^\/api-keys\/([^/]+)\/(activate|deactivate|revoke)$/,
		run: (state, _body, [id, action]) => {
			const apiKey = found(state.store.apiKeys, id, 'API key');
			if (apiKey.status === 'revoked') throw apiError(409, 'A revoked API key cannot be changed');
			apiKey.status = KEY_STATUS[action];
			return { id, status: apiKey.status };
		},
	},
	{
		method: 'POST',
		path: /^\/clock\/advance$/,
		body: object(['seconds'], { seconds: { type: 'number', minimum: 0 } }),
		run: (state, body) => {
			state.clock.advance(body.seconds as number);
			return { now: state.clock.iso() };
		},
	},
	{
		method: 'POST',
		path: /^\/clock\/set$/,
		body: object(['now'], { now: { type: 'string', format: 'date-time' } }),
		run: (state, body) => {
			state.clock.set(body.now as string);
			return { now: state.clock.iso() };
		},
	},
	{
		method: 'POST',
		path: /^\/calendar-connections$/,
		status: 201,
		body: object(['userId', 'provider', 'email'], {
			userId: uuid,
			provider: { type: 'string', enum: ['google', 'outlook'] },
			email: { type: 'string', format: 'email' },
			isPrimary: { type: 'boolean' },
			isConnected: { type: 'boolean', default: true },
		}),
		run: (state, body) => state.store.createCalendarConnection(found(state.store.users, body.userId, 'User'), body as unknown as NewCalendarConnection),
	},
	{
		method: 'POST',
		path: /^\/meeting-types\/([^/]+)\/approval$/,
		body: object([], { bookingType: { type: 'string', enum: ['doubleOptIn', 'requireHostConfirmation'], nullable: true } }),
		run: (state, body, [id]) => {
			const meetingType = found(state.store.meetingTypes, id, 'Meeting type');
			const kind = body.bookingType as ApprovalKind | null | undefined;
			if (kind) state.store.approvals.set(meetingType.id, kind);
			else state.store.approvals.delete(meetingType.id);
			return { meetingTypeId: meetingType.id, bookingType: kind ?? null };
		},
	},
	{
		method: 'POST',
		path: /^\/meeting-types\/([^/]+)\/workspace$/,
		body: object([], { workspaceId: { ...text, nullable: true } }),
		run: (state, body, [id]) => {
			const meetingType = found(state.store.meetingTypes, id, 'Meeting type');
			const workspaceId = (body.workspaceId as string | null | undefined) ?? null;
			if (workspaceId) state.store.workspaces.set(meetingType.id, workspaceId);
			else state.store.workspaces.delete(meetingType.id);
			return { meetingTypeId: meetingType.id, workspaceId };
		},
	},
	{
		method: 'POST',
		path: /^\/crm-parents$/,
		status: 201,
		body: object(['companyId', 'kind', 'name'], { companyId: uuid, kind: { type: 'string', enum: ['contact', 'deal', 'company'] }, name: text }),
		run: (state, body) => addParent(state.store, found(state.store.companies, body.companyId, 'Company').id, body.kind as ParentKind, body.name as string),
	},
	{
		// Many appointments at once, as bookings would make them (no slot check): windows larger than a poll reads.
		method: 'POST',
		path: /^\/appointments$/,
		status: 201,
		body: object(['meetingTypeId', 'starts'], {
			meetingTypeId: uuid,
			starts: { type: 'array', items: { type: 'string', format: 'date-time' }, maxItems: 20000 },
			email: { type: 'string', format: 'email' },
		}),
		run: (state, body) => ({
			ids: bookMany(state.store, found(state.store.meetingTypes, body.meetingTypeId, 'Meeting type'), body.starts as string[], (body.email as string | undefined) ?? 'seeded@example.com'),
		}),
	},
	{
		// Contacts as another channel (an import, a booking page) leaves them, createdAt given: a createdAt before the
		// clock is a record that becomes visible late (replication lag), as the trigger must expect (api-reference §8).
		method: 'POST',
		path: /^\/crm-contacts$/,
		status: 201,
		body: object(['companyId', 'contacts'], {
			companyId: uuid,
			contacts: { type: 'array', items: object(['email'], { email: { type: 'string', format: 'email' }, createdAt: { type: 'string', format: 'date-time' } }) },
		}),
		run: (state, body) => ({ ids: addContacts(state.store, found(state.store.companies, body.companyId, 'Company').id, body.contacts as Array<{ email: string; createdAt?: string }>) }),
	},
	{
		// An email a mailbox sync would have brought (groups/emails.ts), with its body; the company's first by default.
		method: 'POST',
		path: /^\/crm-emails$/,
		status: 201,
		body: object(['subject', 'fromEmail', 'toEmails', 'direction', 'sentAt', 'text'], {
			companyId: uuid,
			contactId: uuid,
			dealId: uuid,
			subject: { type: 'string' },
			fromEmail: { type: 'string', format: 'email' },
			toEmails: { type: 'array', items: { type: 'string', format: 'email' } },
			direction: { type: 'string', enum: ['inbound', 'outbound'] },
			sentAt: { type: 'string', format: 'date-time' },
			provider: { type: 'string', enum: ['google', 'microsoft', 'imap'] },
			threadId: text,
			text: { type: 'string' },
			html: { type: 'string' },
			attachments: { type: 'array', items: { type: 'object' } },
		}),
		run: (state, body) => addSyncedEmail(state.store, companyOrFirst(state, body.companyId), body as unknown as NewSyncedEmail),
	},
	{
		// A file entry on a contact, deal or CRM company, as given (its fields are unconfirmed: crmAttachments.ts).
		method: 'POST',
		path: /^\/crm-attachments$/,
		status: 201,
		body: object(['recordId', 'attachment'], { recordId: uuid, attachment: { type: 'object' } }),
		run: (state, body) => attach(state.store, body.recordId as string, body.attachment as Record<string, unknown>),
	},
	{
		// The signing page for people (signingPage.ts): every request, with buttons for the signer whose turn it is.
		method: 'GET',
		path: /^\/sign$/,
		html: true,
		run: (state) => signingPage(allSignatureRequests(state.store)),
	},
	{
		// The signing page of a signer (signatures.ts): signs or declines, in the signers' order.
		method: 'POST',
		path: /^\/signatures\/([^/]+)\/(sign|decline)$/,
		body: object(['email'], { email: { type: 'string', format: 'email' } }),
		run: (state, body, [id, action]) => actAsSigner(state.store, id, body.email as string, action as 'sign' | 'decline'),
	},
	{
		// The mails the invoicing group "sent" (documents and reminders) for a company: nothing is delivered.
		method: 'GET',
		path: /^\/invoicing\/([^/]+)\/outbox$/,
		run: (state, _body, [companyId]) => tenantOf(state.store, found(state.store.companies, companyId, 'Company').id).outbox,
	},
	{
		method: 'POST',
		path: /^\/messenger\/inbound$/,
		status: 201,
		// createdAt given: before the clock, a message that becomes visible late (replication lag, api-reference §8);
		// several deliveries with one createdAt share a moment.
		body: object(['text'], { phone: { type: 'string', pattern: '^\\+[1-9]\\d{6,14}$' }, userId: text, text, contactName: text, companyId: uuid, createdAt: { type: 'string', format: 'date-time' } }),
		run: (state, body) => {
			if ((body.phone === undefined) === (body.userId === undefined)) throw apiError(400, 'Exactly one of phone or userId must be provided');
			const at = body.createdAt === undefined ? undefined : Date.parse(body.createdAt as string);
			return deliverInbound(state.store, companyOrFirst(state, body.companyId), body as { phone?: string; userId?: string; text: string; contactName?: string }, at);
		},
	},
	{
		// A test event (the editor's "Listen for test event"): an appointment's body, the given data, or a sample.
		method: 'POST',
		path: /^\/webhooks\/emit$/,
		body: object(['webhookType'], { companyId: uuid, webhookType: { type: 'string', enum: [...EVENT_TYPES] }, appointmentId: text, data: { type: 'object' } }),
		run: (state, body) => {
			const webhookType = body.webhookType as EventType;
			if (body.appointmentId !== undefined && !webhookType.startsWith('booking_')) throw apiError(400, 'appointmentId is only for booking events');
			const appointment = body.appointmentId === undefined ? undefined : found(state.store.appointments, body.appointmentId, 'Appointment');
			const companyId = appointment && body.companyId === undefined ? appointment.companyId : companyOrFirst(state, body.companyId);
			const data = appointment ? bookingBody(state.store, appointment) : ((body.data as object | undefined) ?? sampleData(state.store, companyId, webhookType));
			return { deliveries: emit(state.store, companyId, webhookType, data) };
		},
	},
	{
		method: 'POST',
		path: /^\/webhooks\/delivery-faults$/,
		status: 201,
		body: object([], { repeat: atLeast(1), delayMs: atLeast(0), drop: { type: 'boolean' }, envelope: { type: 'boolean' }, times: atLeast(1) }),
		run: (state, body) => addDeliveryFault(state.store, body as Partial<DeliveryFault>),
	},
	{
		method: 'DELETE',
		path: /^\/webhooks\/delivery-faults$/,
		run: (state) => {
			webhooksOf(state.store).faults = [];
			return { deleted: true };
		},
	},
	{ method: 'GET', path: /^\/webhooks\/deliveries$/, run: (state) => webhooksOf(state.store).deliveries },
	{
		method: 'DELETE',
		path: /^\/webhooks\/deliveries$/,
		run: (state) => {
			webhooksOf(state.store).deliveries = [];
			return { deleted: true };
		},
	},
	{
		// How lists order their records (listOrder.ts): a sort ignored, ties in a new random order on every request.
		method: 'POST',
		path: /^\/list-order$/,
		body: object([], { ignoreSort: { type: 'boolean' }, shuffleTies: { type: 'boolean' } }),
		run: (state, body) => Object.assign(listOrderOf(state.store), body),
	},
	{
		method: 'POST',
		path: /^\/rate-limit$/,
		body: object(['perMinute', 'burst'], { perMinute: atLeast(1), burst: atLeast(1) }),
		run: (state, body) => {
			state.limiter.configure(body as unknown as RateLimitConfig);
			return body;
		},
	},
	{
		method: 'POST',
		path: /^\/faults$/,
		status: 201,
		body: object(['path'], {
			method: text,
			path: text,
			status: { type: 'integer', minimum: 100, maximum: 599 },
			body: {},
			retryAfter: { type: 'string' },
			headers: { type: 'object' },
			delayMs: atLeast(0),
			drop: { type: 'boolean' },
			times: atLeast(1),
			after: atLeast(0),
		}),
		run: (state, body) => state.faults.add(body as unknown as NewFault),
	},
	{
		method: 'DELETE',
		path: /^\/faults$/,
		run: (state) => {
			state.faults.clear();
			return { deleted: true };
		},
	},
	{ method: 'GET', path: /^\/requests$/, run: (state) => state.requests },
	{
		method: 'DELETE',
		path: /^\/requests$/,
		run: (state) => {
			state.requests = [];
			return { deleted: true };
		},
	},
];

/** Answers a request under `/__sandbox`: no auth, no rate limit, not logged. Returns status, body and (for a page) headers. */
export function control(state: SandboxState, method: string, path: string, body: unknown): { status: number; body: unknown; headers?: Record<string, string> } {
	const subpath = path.slice(CONTROL_PREFIX.length);
	for (const route of routes) {
		const match = route.method === method ? route.path.exec(subpath) : null;
		if (!match) continue;
		const input = route.body ? validateBody(route.body, body) : {};
		const headers = route.html ? { 'Content-Type': 'text/html; charset=utf-8' } : undefined;
		return { status: route.status ?? 200, body: route.run(state, input, match.slice(1)), headers };
	}
	throw apiError(404, `Cannot ${method} ${path}`);
}

export function isControlPath(path: string): boolean {
	return path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`);
}

function object(required: string[], properties: Record<string, Schema>): Schema {
	return { type: 'object', required, properties };
}

/** The company named, else the first one (Acme after a seed). */
function companyOrFirst(state: SandboxState, companyId: unknown): string {
	const id = companyId === undefined ? [...state.store.companies.keys()][0] : found(state.store.companies, companyId, 'Company').id;
	if (!id) throw apiError(404, 'Company not found');
	return id;
}

/** The control API sees everything: only a missing item is 404. */
function found<T>(items: Map<string, T>, id: unknown, what: string): T {
	return visible(items.get(id as string), () => true, what);
}
