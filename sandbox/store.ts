import { randomBytes, randomUUID } from 'node:crypto';
import { Clock } from './clock';
import { apiError } from './errors';
import { completeSchedule, defaultSchedule, Schedule } from './schedule';

export const BOOKING_BASE_URL = 'https://book.sandbox.invalid';

/** A user's booking page: `<base>/<user slug>`. */
export function userPageUrl(user: User): string {
	return `${BOOKING_BASE_URL}/${user.slug}`;
}

/**
 * Field order of a meeting type's meetingInfo, and the values a new one gets when not given (the channel of a
 * user's first meeting type is phone; POST /v4/meeting-type requires one).
 */
export const MEETING_INFO_DEFAULTS: MeetingInfo = {
	name: '',
	description: '',
	duration: 30,
	channel: 'phone',
	bufferBefore: 0,
	bufferAfter: 0,
	color: '#3b82f6',
	bufferMustStayWithinWorkingHours: false,
	showAvailableSlots: true,
	enableRedirect: false,
	redirect: null,
	passEventDetailsToRedirect: false,
	customChannelLink: null,
};

export interface Company {
	id: string;
	name: string;
	plan: { name: string; excludedFeatures: string[] };
	ownerId: string | null;
	createdAt: string;
}

export interface User {
	id: string;
	email: string;
	givenName: string;
	familyName: string;
	fullName: string;
	slug: string;
	timezone: string;
	language: string;
	userType: string;
	isAdmin: boolean;
	companyId: string;
	picture: string | null;
	title: string | null;
	createdAt: string;
	updatedAt: string;
}

export interface Pat {
	id: string;
	token: string;
	userId: string;
	scopes: string[] | null;
	expiresAt: string | null;
	revoked: boolean;
	createdAt: string;
}

export type ApiKeyStatus = 'active' | 'deactivated' | 'revoked';

export interface ApiKey {
	id: string;
	key: string;
	name: string | null;
	companyId: string;
	status: ApiKeyStatus;
	expiresAt: string;
	createdAt: string;
}

export interface Availability {
	id: string;
	userId: string;
	name: string;
	timezone: string;
	schedule: Schedule;
	availabilityExceptions: unknown[];
	isDefault: boolean;
	createdAt: string;
}

export interface MeetingInfo {
	name: string;
	description: string;
	duration: number;
	channel: string;
	bufferBefore: number;
	bufferAfter: number;
	color: string;
	/** A slot is offered only when its buffers also fall within the working hours. */
	bufferMustStayWithinWorkingHours: boolean;
	showAvailableSlots: boolean;
	/** After booking, people go to `redirect` (required when on). */
	enableRedirect: boolean;
	redirect: string | null;
	passEventDetailsToRedirect: boolean;
	/** Where a meeting of the custom channel takes place (required for it). */
	customChannelLink: string | null;
}

/** The booking settings of a meeting type (api-reference §2), kept as sent: a key is answered once it was set. */
export interface BookingSettings {
	meetingOptions?: Record<string, unknown>;
	timeslotInterval?: number;
	bookingMinimum?: number;
	daysIntoFuture?: Record<string, unknown>;
	locations?: string[];
	ics?: Record<string, string>;
	internalNotes?: string;
	metadata?: Record<string, string>;
}

const BOOKING_SETTINGS: Array<keyof BookingSettings> = [
	'meetingOptions',
	'timeslotInterval',
	'bookingMinimum',
	'daysIntoFuture',
	'locations',
	'ics',
	'internalNotes',
	'metadata',
];

/** The booking settings given in a request body (already reduced to the contract's keys). */
export function bookingSettingsOf(input: BookingSettings): BookingSettings {
	return Object.fromEntries(BOOKING_SETTINGS.filter((key) => input[key] !== undefined).map((key) => [key, input[key]]));
}

export interface MeetingType extends BookingSettings {
	id: string;
	slug: string;
	userId: string;
	queueId: string | null;
	spots: number;
	enabled: boolean;
	companyId: string;
	availabilityId: string;
	meetingInfo: MeetingInfo;
	createdAt: string;
	updatedAt: string;
}

export interface AvailabilityException {
	/** A number, as in the live service. */
	id: number;
	availabilityId: string;
	userId: string;
	/** true: extra time; false: blocked time. */
	available: boolean;
	start: string;
	end: string;
	title: string | null;
	note: string | null;
	createdAt: string;
	updatedAt: string;
}

export interface Attendee {
	id: string;
	appointmentId: string;
	email: string;
	firstname: string | null;
	lastname: string | null;
	fullname: string | null;
	phone: string | null;
	timezone: string | null;
	language: string | null;
	contactId: string | null;
	receiveReminders: boolean;
	/** Booking form answers keyed by label. */
	notes: Record<string, unknown>;
	guests: string[];
	isCancelled: boolean;
}

export interface Appointment {
	id: string;
	secret: string;
	/** The host whose calendar holds it: members see the appointments they host. */
	userId: string;
	companyId: string;
	start: string;
	end: string;
	isCancelled: boolean;
	cancel: { reason: string | null; actionAt: string; actionBy: string } | null;
	rescheduledAt: string | null;
	rescheduleCount: number;
	meetingTypeId: string;
	meetingInfo: MeetingInfo;
	hostIds: string[];
	attendees: Attendee[];
	location: string | null;
	notes: string | null;
	transcription: string | null;
	summary: string | null;
	/** Title and description of the calendar event, as booked. */
	icsTitle: string | null;
	icsDescription: string | null;
	createdAt: string;
	updatedAt: string;
}

export type ApprovalKind = 'doubleOptIn' | 'requireHostConfirmation';

export interface ProvisionalBooking {
	id: string;
	bookingType: ApprovalKind;
	status: 'pending' | 'confirmed' | 'expired' | 'declined_by_host';
	userId: string;
	companyId: string;
	meetingTypeId: string;
	start: string;
	end: string;
	hostIds: string[];
	attendee: Record<string, unknown>;
	/** The queue the booking went through, and its pick (null for hosts named directly). */
	queueId: string | null;
	queueBookingInfo: { userIds: string[]; selectionReason: string; groupId: string | null } | null;
	createdAt: string;
}

/** A CRM contact. The store is shared by bookings (which create or enrich contacts) and the CRM group. */
export interface Contact {
	id: string;
	companyId: string;
	firstName: string | null;
	lastName: string | null;
	email: string | null;
	phoneNumber: string | null;
	language: string | null;
	tags: string[];
	notes: string | null;
	crmCompanyId: string | null;
	accountOwnerId: string | null;
	additionalData: Record<string, unknown>;
	address: { line1?: string; line2?: string; line3?: string; city?: string; zip?: string; country?: string } | null;
	title: string | null;
	employer: string | null;
	seniority: string | null;
	function: string | null;
	location: string | null;
	noShowCount: number;
	createdAt: string;
	updatedAt: string;
}

/** A contact data field (api-reference §3 Data Fields): its `name` is the key in a contact's additionalData. */
export interface DataField {
	id: number;
	companyId: string;
	name: string;
	label: string;
	fieldType: string;
	required: boolean;
	hidden: boolean;
	options: Array<{ label: string; value: string }>;
	order: number;
}

/** A CRM company (api-reference §3 Companies); `companyId` is the tenant, as on every CRM record. */
export interface CrmCompany {
	id: string;
	companyId: string;
	name: string;
	domain: string | null;
	ownerId: string | null;
	customFields: Record<string, unknown>;
	createdAt: string;
	updatedAt: string;
	[field: string]: unknown;
}

/** A stage of a pipeline; a deal's stage must belong to the deal's pipeline. */
export interface Stage {
	id: string;
	pipelineId: string;
	name: string;
	color: string;
	order: number;
	isWon: boolean;
	isLost: boolean;
	winProbability: number | null;
	rottingDays: number | null;
}

export interface Pipeline {
	id: string;
	companyId: string;
	name: string;
	isDefault: boolean;
	stages: Stage[];
	createdAt: string;
	updatedAt: string;
}

/** A CRM deal (api-reference §3 Deals). */
export interface Deal {
	id: string;
	companyId: string;
	name: string;
	pipelineId: string;
	stageId: string;
	isOpen: boolean;
	isWon: boolean;
	isLost: boolean;
	crmCompanyId: string | null;
	contactId: string | null;
	ownerId: string | null;
	customFields: Record<string, unknown>;
	createdAt: string;
	updatedAt: string;
	[field: string]: unknown;
}

/** The parent ids of a task, note or communication: a CRM contact, deal or company of the same tenant. */
export interface CrmParents {
	contactId: string | null;
	dealId: string | null;
	crmCompanyId: string | null;
}

/** A CRM task (api-reference §3 Tasks); open while `completedAt` is null. */
export interface Task extends CrmParents {
	id: string;
	companyId: string;
	title: string;
	type: string;
	description: string | null;
	priority: string;
	dueDate: string | null;
	reminderAt: string | null;
	completedAt: string | null;
	assigneeId: string | null;
	createdAt: string;
	updatedAt: string;
}

/** A CRM note on exactly one parent. */
export interface Note extends CrmParents {
	id: string;
	companyId: string;
	content: string;
	isPinned: boolean;
	authorId: string;
	authorName: string;
	createdAt: string;
	updatedAt: string;
}

/** A logged call, email, SMS or messenger conversation on exactly one parent. */
export interface Communication extends CrmParents {
	id: string;
	companyId: string;
	type: string;
	direction: string;
	subject: string | null;
	body: string;
	durationSeconds: number | null;
	outcome: string | null;
	externalId: string | null;
	loggedById: string;
	loggedByName: string;
	occurredAt: string;
	createdAt: string;
	updatedAt: string;
}

/** A contact's part in a deal (api-reference §3 Deals: deal contacts with roles). */
export interface DealContact {
	id: string;
	dealId: string;
	contactId: string;
	role: 'primary' | 'decision_maker' | 'influencer' | 'user' | 'other';
	isPrimary: boolean;
}

/** A custom field of CRM companies or deals (GET/PUT /crm/settings/custom-fields). */
export interface CustomFieldSetting {
	id: string;
	key: string;
	label: string;
	type: string;
	required: boolean;
	options: string[];
	order: number;
}

/** The company's reasons for lost deals (GET/PUT /crm/settings/lost-reasons). */
export interface LostReasons {
	reasons: Array<{ key: string; label: string; archived: boolean }>;
	required: boolean;
}

export interface CalendarConnection {
	id: string;
	userId: string;
	provider: 'google' | 'outlook';
	email: string;
	isPrimary: boolean;
	isConnected: boolean;
	selectedCalendars: string[];
	primaryCalendar: string | null;
	validateAvailability: boolean;
	cancelIfDeclinedOrDeleted: boolean;
	disableAttendeeNotification: boolean;
	syncBuffersToCalendar: boolean;
	createdAt: string;
	updatedAt: string;
}

export interface OneTimeLink {
	id: string;
	userId: string;
	url: string;
	meetingTypeId: string;
	used: boolean;
	expiresAt: string | null;
	createdAt: string;
}

export interface PersonalPage {
	userId: string;
	url: string;
	description: string;
	primaryColor: string;
	secondaryColor: string;
	useCustomColors: boolean;
	showAllMeetingTypes: boolean;
	meetingTypeOrder: string[];
	headerImage: string | null;
	/** Profile name → address. */
	onlineProfiles: Record<string, string>;
	updatedAt: string;
}

export interface QuickMail {
	attendeeId: string;
	title: string;
	content: string;
	sentAt: number;
}

export interface NewUser {
	email: string;
	givenName: string;
	familyName: string;
	timezone: string;
	isAdmin?: boolean;
	userType?: string;
	availability?: { name?: string; timezone?: string; schedule?: Partial<Schedule> };
	meetingType?: { name?: string; duration?: number; slug?: string; channel?: string };
}

export interface NewCalendarConnection {
	provider: CalendarConnection['provider'];
	email: string;
	isPrimary?: boolean;
	isConnected?: boolean;
}

export interface NewMeetingType extends BookingSettings {
	meetingInfo: Partial<MeetingInfo> & { name: string };
	slug?: string;
	spots?: number;
	availabilityId: string;
}

/**
 * State a module keeps beside the store (signatures, messenger, invoicing, routing), made on first use: a reset makes
 * a new store, and so new state.
 */
export function perStore<T>(create: () => T): (store: Store) => T {
	const kept = new WeakMap<Store, T>();
	return (store) => {
		let state = kept.get(store);
		if (!state) kept.set(store, (state = create()));
		return state;
	};
}

/** The sandbox's whole state, in memory. Maps keep insertion order: lists come out in creation order. */
export class Store {
	readonly companies = new Map<string, Company>();
	readonly users = new Map<string, User>();
	readonly pats = new Map<string, Pat>();
	readonly apiKeys = new Map<string, ApiKey>();
	readonly availabilities = new Map<string, Availability>();
	readonly meetingTypes = new Map<string, MeetingType>();
	readonly availabilityExceptions = new Map<string, AvailabilityException>();
	readonly appointments = new Map<string, Appointment>();
	readonly provisionalBookings = new Map<string, ProvisionalBooking>();
	/** Meeting types that need approval before a booking becomes an appointment (set with the control API). */
	readonly approvals = new Map<string, ApprovalKind>();
	/** The workspace of each meeting type that belongs to one (set with the control API): its link is a workspace link. */
	readonly workspaces = new Map<string, string>();
	/** The id of each booking page link, by meeting type and host: kept, so a link keeps its id. */
	private readonly bookingLinkIds = new Map<string, string>();
	readonly contacts = new Map<string, Contact>();
	readonly dataFields = new Map<number, DataField>();
	nextDataFieldId = 1;
	/** When each bulk call (import, delete) of a credential was accepted, by `<credential> <operationId>`: 3 per minute. */
	readonly bulkCalls = new Map<string, number[]>();
	readonly crmCompanies = new Map<string, CrmCompany>();
	readonly pipelines = new Map<string, Pipeline>();
	readonly deals = new Map<string, Deal>();
	readonly tasks = new Map<string, Task>();
	readonly notes = new Map<string, Note>();
	readonly communications = new Map<string, Communication>();
	readonly dealContacts = new Map<string, DealContact>();
	/** Custom-field settings by tenant and record type: `<companyId>:company` or `<companyId>:deal`. */
	readonly customFieldSettings = new Map<string, CustomFieldSetting[]>();
	/** Lost reasons by tenant. */
	readonly lostReasons = new Map<string, LostReasons>();
	readonly calendarConnections = new Map<string, CalendarConnection>();
	readonly oneTimeLinks = new Map<string, OneTimeLink>();
	readonly personalPages = new Map<string, PersonalPage>();
	readonly quickMails: QuickMail[] = [];
	private nextExceptionId = 1;

	constructor(readonly clock: Clock) {}

	createCompany(name: string, plan = 'enterprise', excludedFeatures: string[] = []): Company {
		const company = { id: randomUUID(), name, plan: { name: plan, excludedFeatures }, ownerId: null, createdAt: this.clock.iso() };
		this.companies.set(company.id, company);
		return company;
	}

	/** A user with a default availability and meeting type. The company's first user is its owner, an admin. */
	createUser(company: Company, input: NewUser): { user: User; availability: Availability; meetingType: MeetingType } {
		const email = input.email.toLowerCase();
		if (this.companyUsers(company.id).some((user) => user.email.toLowerCase() === email)) {
			throw apiError(409, 'A user with this email already exists');
		}
		if (input.meetingType?.slug) this.assertSlugFree(company.id, input.meetingType.slug);
		const now = this.clock.iso();
		const fullName = `${input.givenName} ${input.familyName}`;
		const user: User = {
			id: randomUUID(),
			email: input.email,
			givenName: input.givenName,
			familyName: input.familyName,
			fullName,
			slug: uniqueSlug(slugify(fullName), (slug) => [...this.users.values()].some((other) => other.slug === slug)),
			timezone: input.timezone,
			language: 'en',
			userType: input.userType ?? 'standard',
			isAdmin: company.ownerId === null || (input.isAdmin ?? false),
			companyId: company.id,
			picture: null,
			title: null,
			createdAt: now,
			updatedAt: now,
		};
		this.users.set(user.id, user);
		company.ownerId ??= user.id;
		const availability = this.createAvailability(user, input.availability ?? {});
		const { name = '30 Minute Meeting', duration = 30, slug, channel = 'phone' } = input.meetingType ?? {};
		const meetingType = this.createMeetingType(user, { meetingInfo: { name, duration, channel }, slug, availabilityId: availability.id });
		return { user, availability, meetingType };
	}

	createMeetingType(user: User, input: NewMeetingType): MeetingType {
		if (input.slug) this.assertSlugFree(user.companyId, input.slug);
		const now = this.clock.iso();
		const meetingType: MeetingType = {
			id: randomUUID(),
			slug: input.slug ?? uniqueSlug(slugify(input.meetingInfo.name), (slug) => this.slugTaken(user.companyId, slug)),
			userId: user.id,
			queueId: null,
			spots: input.spots ?? 1,
			enabled: true,
			companyId: user.companyId,
			availabilityId: input.availabilityId,
			meetingInfo: { ...MEETING_INFO_DEFAULTS, ...input.meetingInfo },
			...bookingSettingsOf(input),
			createdAt: now,
			updatedAt: now,
		};
		this.meetingTypes.set(meetingType.id, meetingType);
		return meetingType;
	}

	/** 409 when another meeting type of the company has this slug. */
	assertSlugFree(companyId: string, slug: string, exceptId?: string): void {
		if (this.slugTaken(companyId, slug, exceptId)) throw apiError(409, 'A meeting type with this slug already exists');
	}

	companyUsers(companyId: string): User[] {
		return [...this.users.values()].filter((user) => user.companyId === companyId);
	}

	userMeetingTypes(userId: string): MeetingType[] {
		return [...this.meetingTypes.values()].filter((meetingType) => meetingType.userId === userId);
	}

	userAvailabilities(userId: string): Availability[] {
		return [...this.availabilities.values()].filter((availability) => availability.userId === userId);
	}

	/** The exceptions of an availability, ordered by start. */
	exceptionsOf(availabilityId: string): AvailabilityException[] {
		return [...this.availabilityExceptions.values()]
			.filter((exception) => exception.availabilityId === availabilityId)
			.sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
	}

	/** Removes the user with everything that is theirs, their access tokens included. */
	deleteUser(userId: string): void {
		const owned = [this.pats, this.availabilities, this.availabilityExceptions, this.meetingTypes, this.calendarConnections, this.oneTimeLinks, this.personalPages];
		for (const map of owned as Array<Map<string, { userId: string }>>) {
			for (const [id, item] of map) if (item.userId === userId) map.delete(id);
		}
		this.users.delete(userId);
	}

	/** A connected calendar, as the OAuth flow would leave it. A user's first connection is primary. */
	createCalendarConnection(user: User, input: NewCalendarConnection): CalendarConnection {
		const now = this.clock.iso();
		const connection: CalendarConnection = {
			id: randomUUID(),
			userId: user.id,
			provider: input.provider,
			email: input.email,
			isPrimary: input.isPrimary ?? ![...this.calendarConnections.values()].some((other) => other.userId === user.id),
			isConnected: input.isConnected ?? true,
			selectedCalendars: [input.email],
			primaryCalendar: input.email,
			validateAvailability: true,
			cancelIfDeclinedOrDeleted: false,
			disableAttendeeNotification: false,
			syncBuffersToCalendar: false,
			createdAt: now,
			updatedAt: now,
		};
		this.calendarConnections.set(connection.id, connection);
		return connection;
	}

	bookingLinkId(meetingTypeId: string, userId: string): string {
		const key = `${meetingTypeId}/${userId}`;
		if (!this.bookingLinkIds.has(key)) this.bookingLinkIds.set(key, randomUUID());
		return this.bookingLinkIds.get(key)!;
	}

	/** Availability exception ids are numbers, counted up from 1. */
	exceptionId(): number {
		return this.nextExceptionId++;
	}

	createPat(userId: string, expiresInSeconds?: number, scopes?: string[]): Pat {
		const now = this.clock.now();
		const pat: Pat = {
			id: randomUUID(),
			token: `rgo-${randomBytes(16).toString('hex')}`,
			userId,
			scopes: scopes ?? null,
			expiresAt: expiresInSeconds === undefined ? null : this.clock.iso(now + expiresInSeconds * 1000),
			revoked: false,
			createdAt: this.clock.iso(now),
		};
		this.pats.set(pat.id, pat);
		return pat;
	}

	createApiKey(companyId: string, name: string | null, lifetimeDays: number): ApiKey {
		const id = randomUUID();
		const now = this.clock.now();
		const apiKey: ApiKey = {
			id,
			key: `ak_live:${id}:${randomBytes(16).toString('hex')}`,
			name,
			companyId,
			status: 'active',
			expiresAt: this.clock.iso(now + lifetimeDays * 86400 * 1000),
			createdAt: this.clock.iso(now),
		};
		this.apiKeys.set(id, apiKey);
		return apiKey;
	}

	findPat(token: string): Pat | undefined {
		return [...this.pats.values()].find((pat) => pat.token === token);
	}

	findApiKey(key: string): ApiKey | undefined {
		return [...this.apiKeys.values()].find((apiKey) => apiKey.key === key);
	}

	/** A user's first availability is their default one. */
	createAvailability(user: User, input: NonNullable<NewUser['availability']>): Availability {
		const availability: Availability = {
			id: randomUUID(),
			userId: user.id,
			name: input.name ?? 'Working hours',
			timezone: input.timezone ?? user.timezone,
			schedule: input.schedule ? completeSchedule(input.schedule) : defaultSchedule(),
			availabilityExceptions: [],
			isDefault: this.userAvailabilities(user.id).length === 0,
			createdAt: this.clock.iso(),
		};
		this.availabilities.set(availability.id, availability);
		return availability;
	}

	private slugTaken(companyId: string, slug: string, exceptId?: string): boolean {
		return [...this.meetingTypes.values()].some((other) => other.companyId === companyId && other.slug === slug && other.id !== exceptId);
	}
}

function slugify(text: string): string {
	const slug = text
		.normalize('NFKD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-|-$/g, '');
	return slug || 'x';
}

function uniqueSlug(base: string, taken: (slug: string) => boolean): string {
	let slug = base;
	for (let n = 2; taken(slug); n++) slug = `${base}-${n}`;
	return slug;
}
