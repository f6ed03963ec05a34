import { IncomingHttpHeaders } from 'node:http';
import { Operation } from './contract';
import { apiError } from './errors';
import { ApiKey, Company, Pat, Store, User } from './store';
import { UUID } from './validation';

/** Who a request acts as, and the credential that is rate limited. */
export interface Actor {
	user: User;
	company: Company;
	credentialId: string;
}

type Credential = { kind: 'pat'; pat: Pat } | { kind: 'apiKey'; apiKey: ApiKey };

const PAT_FOR_OTHER_USER =
	'The x-service-api-user-id header requires a Platform API Key; Personal Access Tokens always act as the token owner';
const MISSING_ACTING_USER = 'Missing required header `x-service-api-user-id` for API key authentication';

/** The rules of api-reference §1.1, in order: credential, acting user, then what the operation demands of them. */
export function authenticate(store: Store, operation: Operation, headers: IncomingHttpHeaders): Actor {
	const credential = identify(store, bearerToken(headers.authorization));
	const user = actingUser(store, credential, operation, headerValue(headers['x-service-api-user-id']));
	const company = store.companies.get(user.companyId)!;
	authorize(credential, user, company, operation);
	return { user, company, credentialId: credential.kind === 'pat' ? credential.pat.id : credential.apiKey.id };
}

function bearerToken(header: string | undefined): string {
	if (header === undefined) throw apiError(401, 'Missing authorization header');
	const token = /^Bearer (\S+)$/i.exec(header)?.[1];
	if (!token) throw apiError(401, 'Malformed authorization header');
	return token;
}

function identify(store: Store, token: string): Credential {
	const now = store.clock.now();
	if (token.startsWith('ak_live:')) {
		const apiKey = store.findApiKey(token);
		if (apiKey?.status !== 'active') throw apiError(401, 'Invalid API key');
		if (now >= Date.parse(apiKey.expiresAt)) throw apiError(401, 'API key has expired');
		return { kind: 'apiKey', apiKey };
	}
	const pat = token.startsWith('rgo-') ? store.findPat(token) : undefined;
	if (!pat || pat.revoked) throw apiError(401, 'Invalid access token');
	if (pat.expiresAt && now >= Date.parse(pat.expiresAt)) throw apiError(401, 'Access token has expired');
	return { kind: 'pat', pat };
}

function actingUser(store: Store, credential: Credential, operation: Operation, header: string | undefined): User {
	if (header !== undefined && !UUID.test(header)) throw apiError(400, 'x-service-api-user-id must be a UUID');
	if (credential.kind === 'pat') {
		if (header !== undefined && header !== credential.pat.userId) throw apiError(403, PAT_FOR_OTHER_USER);
		return store.users.get(credential.pat.userId)!;
	}
	if (header === undefined && operation['x-acting-user'] !== 'optional') throw apiError(400, MISSING_ACTING_USER);
	const userId = header ?? store.companies.get(credential.apiKey.companyId)?.ownerId;
	const user = userId ? store.users.get(userId) : undefined;
	if (user?.companyId !== credential.apiKey.companyId) throw apiError(500, 'API user does not belong to company');
	return user;
}

function authorize(credential: Credential, user: User, company: Company, operation: Operation): void {
	const pat = credential.kind === 'pat' ? credential.pat : undefined;
	if (pat && operation['x-user-management']) throw apiError(403, 'User management requires a Platform API Key');
	if (pat && operation['x-workspace-list'] && !user.isAdmin) throw apiError(403, 'Forbidden resource');
	const feature = operation['x-feature'];
	if (!feature) return;
	if (company.plan.excludedFeatures.includes(feature)) {
		throw apiError(403, `Your plan does not include the ${feature} feature`, { code: 'PLAN_LIMIT_REACHED', feature });
	}
	if (pat?.scopes && !pat.scopes.includes(feature)) throw apiError(403, `This access token is not scoped for the ${feature} feature`);
}

/** An empty header counts as absent; UUIDs compare lower-cased. */
function headerValue(value: string | string[] | undefined): string | undefined {
	const text = Array.isArray(value) ? value.join(', ') : value;
	return text ? text.toLowerCase() : undefined;
}
