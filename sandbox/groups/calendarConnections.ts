import { randomBytes } from 'node:crypto';
import { apiError } from '../errors';
import { Call, Group } from '../handler';
import { CalendarConnection } from '../store';
import { isWebAddress } from '../validation';
import { assertMayList, canSeeOwnedBy, companyUser, visible } from '../visibility';

type ConnectionChanges = Partial<Pick<CalendarConnection, 'primaryCalendar' | 'selectedCalendars'>>;

const PROVIDERS = ['google', 'outlook'];

/** The OAuth consent address of each provider, and the parameters the platform sends it. */
const OAUTH: Record<string, { address: string; params: Record<string, string> }> = {
	google: {
		address: 'https://accounts.google.com/o/oauth2/v2/auth',
		params: {
			client_id: 'sandbox-google-client',
			response_type: 'code',
			scope: 'https://www.googleapis.com/auth/calendar',
			access_type: 'offline',
			prompt: 'consent',
		},
	},
	outlook: {
		address: 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize',
		params: {
			client_id: 'sandbox-outlook-client',
			response_type: 'code',
			response_mode: 'query',
			scope: 'offline_access Calendars.ReadWrite',
		},
	},
};

/** Calendar Connections V4 (and the address of Calendar Auth V4 that starts a connection). */
export const calendarConnections: Group = {
	listCalendarConnections: (call) => {
		const userId = namedUser(call);
		const connections = [...call.store.calendarConnections.values()].filter((connection) => connection.userId === userId);
		return { connections, total: connections.length };
	},

	updateCalendarConnection: (call) => {
		const connection = visibleConnection(call);
		const changes = call.body as ConnectionChanges;
		const selected = changes.selectedCalendars ?? connection.selectedCalendars;
		const primary = changes.primaryCalendar ?? connection.primaryCalendar;
		if (primary !== null && !selected.includes(primary)) throw apiError(400, 'primaryCalendar must be one of selectedCalendars');
		return Object.assign(connection, changes, { updatedAt: call.store.clock.iso() });
	},

	deleteCalendarConnection: (call) => {
		call.store.calendarConnections.delete(visibleConnection(call).id);
	},

	getCalendarAuthUrl: (call) => {
		const { params, query } = call;
		const redirectUrl = query.redirectUrl as string;
		const errors: string[] = [];
		if (!PROVIDERS.includes(params.provider)) errors.push(`provider must be one of the following values: ${PROVIDERS.join(', ')}`);
		if (!isWebAddress(redirectUrl)) errors.push('redirectUrl must be a URL address');
		if (errors.length) throw apiError(400, errors);
		const { address, params: fixed } = OAUTH[params.provider];
		const state = { userId: namedUser(call), setAsCalendarSync: query.setAsCalendarSync === true, nonce: randomBytes(8).toString('hex') };
		const search = new URLSearchParams({
			...fixed,
			redirect_uri: redirectUrl,
			state: Buffer.from(JSON.stringify(state)).toString('base64url'),
		});
		return { authUrl: `${address}?${search.toString()}` };
	},
};

/** The user named by `userId` (a member may name only themselves: 403; another company's: 404), else the acting user. */
function namedUser({ actor, query, store }: Call): string {
	const userId = (query.userId as string | undefined)?.toLowerCase() ?? actor.user.id;
	assertMayList(actor, userId);
	return companyUser(store, actor, userId).id;
}

/** Members see their own connections, admins those of any user of their company; with `userId`, only that user's. */
function visibleConnection(call: Call): CalendarConnection {
	const { actor, params, query, store } = call;
	const owner = query.userId === undefined ? undefined : namedUser(call);
	const seen = (connection: CalendarConnection) => canSeeOwnedBy(store, actor, connection.userId) && (owner === undefined || connection.userId === owner);
	return visible(store.calendarConnections.get(params.connectionId), seen, 'Calendar connection');
}
