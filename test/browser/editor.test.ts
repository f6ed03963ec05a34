import { mkdirSync, mkdtempSync, statSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import type { Browser, Locator, Page } from 'playwright-core';
import { chromium, selectors } from 'playwright-core';

import { freePort } from '../../scripts/realN8n';
import { LOGIN, exampleWorkflows, startDemo } from '../../scripts/start';
import type { Demo } from '../../scripts/start';
import { PACKAGE_NAME } from '../../scripts/packageDir';
import { CHROMIUM, SCREENSHOTS } from '../harness/communityNodesPage';

/**
 * The editor as a user meets it: `npm start`'s n8n (startDemo, in a fresh user folder) in Debian's
 * Chromium, driven by playwright-core. Logs in, runs each example workflow twice (the second run writes nothing),
 * builds a booking from an empty canvas (the start picked from the open slots), meets the 409 of a taken slot, opens
 * a booking saved before Start offered the list, creates credentials, loads a list with an API key that has no
 * acting user, finds each product area's trigger by search,
 * builds a workflow from the node panel (a trigger, "+" and the next node, a field of the trigger's output dragged
 * onto a parameter) and listens for a test event of the Webhook Trigger. Each test is a step of that walk and leaves
 * at least one screenshot in .screenshots/ (ignored) for a person to look at.
 */

jest.setTimeout(15 * 60_000);

let demo: Demo;
let browser: Browser;
let page: Page;

/** The screenshots the running test took: every test is a step of the walk and leaves at least one (see afterEach). */
let shotsOfTest: string[] = [];

/** A screenshot in .screenshots/ (a panel still sliding in is shown where it stops). */
async function shot(name: string): Promise<void> {
	const path = join(SCREENSHOTS, `${name}.png`);
	await page.screenshot({ path, animations: 'disabled' });
	shotsOfTest.push(path);
}

/** Marks the requests a test makes itself (to set the scene or check it), which the request lists leave out. */
const OWN_REQUEST = 'x-browser-test';

interface LoggedRequest {
	method: string;
	path: string;
	query: string;
	headers: Record<string, string>;
	body: unknown;
}

/** The requests the sandbox received since the last clear, without the test's own. */
async function sandboxRequests(): Promise<LoggedRequest[]> {
	const requests = (await (await fetch(`${demo.sandbox.url}/__sandbox/requests`)).json()) as LoggedRequest[];
	return requests.filter((request) => request.headers[OWN_REQUEST] === undefined);
}

async function clearRequests(): Promise<void> {
	await fetch(`${demo.sandbox.url}/__sandbox/requests`, { method: 'DELETE' });
}

/** The API as the seeded owner, for what a test sets up or compares with (never through the node). */
async function ownerCall(method: string, path: string, body?: unknown): Promise<unknown> {
	const headers = { authorization: `Bearer ${demo.seed.credentials.ownerPat}`, 'content-type': 'application/json', [OWN_REQUEST]: '1' };
	const answer = await fetch(`${demo.sandbox.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
	if (!answer.ok) throw new Error(`${method} ${path} failed (HTTP ${answer.status}): ${await answer.text()}`);
	return answer.status === 204 ? undefined : await answer.json();
}

async function ownerApi(path: string): Promise<unknown> {
	return await ownerCall('GET', path);
}

const day = (days: number): string => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** Books the last open slot of the owner's first meeting type in the coming week for a person; returns the appointment's ID. */
async function book(firstname: string, lastname: string): Promise<string> {
	const [meetingType] = (await ownerApi('/v4/meeting-type')) as Array<{ id: string; userId: string }>;
	const slots = (await ownerApi(`/v4/booking-availability?meetingTypeId=${meetingType.id}&hostIds=${meetingType.userId}&start=${day(2)}&end=${day(9)}`)) as { dates: Array<{ spots: Array<{ startTime: string }> }> };
	const attendee = { email: `${firstname}.${lastname}@client.example`.toLowerCase(), firstname, lastname, receiveReminders: true, notes: {} };
	const start = slots.dates.at(-1)!.spots.at(-1)!.startTime;
	const booked = (await ownerCall('POST', '/v4/booking', { meetingTypeId: meetingType.id, start, hostIds: [meetingType.userId], attendee })) as { appointmentId: string };
	return booked.appointmentId;
}

/** An appointment that ended a minute ago: booked, then moved into the past. */
async function endedAppointment(firstname: string, lastname: string): Promise<string> {
	const id = await book(firstname, lastname);
	const { start, end } = (await ownerApi(`/v4/appointment/${id}`)) as { start: string; end: string };
	const moved = new Date(Date.now() - 60_000 - (Date.parse(end) - Date.parse(start))).toISOString();
	await ownerCall('POST', `/v4/appointment/${id}/reschedule`, { start: moved, ignoreAvailability: true });
	return id;
}

interface Subscription {
	id: number;
	endpoint: string;
	eventTypes: string[];
}

async function subscriptions(): Promise<Subscription[]> {
	return (await ownerApi('/webhooks')) as Subscription[];
}

/** Asks until `check` gives a value (n8n registers and removes test webhooks on its own time). */
async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		const value = await check();
		if (value !== undefined) return value;
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	throw new Error(`Waited ${timeoutMs / 1000} s for ${what}`);
}

/** The subscription n8n makes while the editor listens for a test event: to its test URL (webhook-test/...). */
async function testSubscription(): Promise<Subscription> {
	const testUrl = new RegExp(`^${demo.editorUrl}/webhook-test/[0-9a-f-]{36}/webhook$`);
	return await until('the test subscription', async () => (await subscriptions()).find((subscription) => testUrl.test(subscription.endpoint)));
}

async function noSubscriptionLeft(): Promise<void> {
	await until('the test subscription to be deleted', async () => ((await subscriptions()).length ? undefined : true));
}

/** A node on the canvas by its name (not by any text in it: a Switch node shows its outputs' names too). */
function canvasNode(name: string): Locator {
	return page.locator(`[data-test-id="canvas-node"][data-node-name=${JSON.stringify(name)}]`);
}

/** Opens a node's details (double click on the canvas) and returns its output panel. */
async function openNode(name: string): Promise<Locator> {
	await canvasNode(name).dblclick();
	const output = page.getByTestId('output-panel');
	await output.waitFor();
	return output;
}

async function closeNode(): Promise<void> {
	await page.getByTestId('ndv-close-button').click();
	await page.getByTestId('ndv').waitFor({ state: 'hidden' });
}

/** Opens the node creator on an empty canvas and types a search. */
async function searchNodes(text: string): Promise<Locator> {
	await page.goto(`${demo.editorUrl}/workflow/new`);
	await page.getByTestId('canvas-plus-button').click();
	await page.getByTestId('node-creator').waitFor();
	await page.keyboard.type(text);
	return page.getByTestId('node-creator');
}

/**
 * From an empty canvas as a person does it: search the node, pick one of its actions, choose the credential. Returns
 * the name of the credential n8n chose for the new node by itself, before that.
 */
async function addSchedulingAction(action: string, credentialId: string, actionsShot?: string): Promise<string> {
	await searchNodes('scheduling');
	await page.getByTestId('node-creator-item-name').getByText('Scheduling Platform', { exact: true }).click();
	// On an empty canvas n8n lists the node's trigger events first ("On new booking", ...), its actions folded below.
	await page.getByText('On new booking', { exact: true }).waitFor();
	const item = page.getByText(action, { exact: true });
	if (!(await item.isVisible())) await page.getByText(/^Actions \(\d+\)$/).click();
	if (actionsShot) await shot(actionsShot);
	await item.click();
	await page.getByTestId('ndv').waitFor();
	const select = page.getByTestId('node-credentials-select');
	const chosen = await until('the credential n8n chooses', async () => (await select.locator('input').inputValue()) || undefined, 10_000);
	await select.click();
	await page.getByTestId(`node-credentials-select-item-${credentialId}`).click();
	return chosen;
}

beforeAll(async () => {
	mkdirSync(SCREENSHOTS, { recursive: true });
	const userFolder = mkdtempSync(join(tmpdir(), 'n8n-editor-'));
	demo = await startDemo({ userFolder, n8nPort: await freePort(), sandboxPort: 0, timezone: 'UTC' });
	selectors.setTestIdAttribute('data-test-id');
	browser = await chromium.launch({
		executablePath: CHROMIUM,
		args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
	});
	page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
	page.setDefaultTimeout(30_000);
	// The editor asks n8n's servers about community packages and more: nothing leaves this machine.
	await page.route(/^https?:\/\/(?!localhost[:/]|127\.0\.0\.1[:/])/, (route) => route.abort());
	// Log in as a person would, with the login npm start prints; every test starts from this session.
	await page.goto(`${demo.editorUrl}/signin`);
	await page.getByTestId('emailOrLdapLoginId').locator('input').fill(LOGIN.email);
	await page.getByTestId('password').locator('input').fill(LOGIN.password);
	await page.getByTestId('form-submit-button').click();
	await page.waitForURL(/\/home\//);
});

beforeEach(() => {
	shotsOfTest = [];
});

afterEach(() => {
	const step = expect.getState().currentTestName;
	expect({ step, screenshots: shotsOfTest.length > 0 && shotsOfTest.every((path) => statSync(path).size > 0) }).toEqual({ step, screenshots: true });
});

afterAll(async () => {
	await browser?.close();
	await demo?.stop();
});

test('the login npm start prints opens the overview with every example workflow', async () => {
	await page.goto(`${demo.editorUrl}/home/workflows`);
	for (const workflow of exampleWorkflows()) await page.getByTestId('workflow-card-name').getByText(workflow.name, { exact: true }).waitFor();
	await shot('01-overview');
});

/**
 * Each example: its last node, what its output (table view) shows, and the writes it makes at the API. `before` sets
 * the scene, `event` makes the event an instant trigger listens for (after Execute workflow). Then every example runs
 * once more (a polling trigger fetches the same test event, an instant one's event is pinned: `pin` names its
 * trigger) and writes nothing: the run ends at `stopsAt`, the check that finds the first run's work, and the last
 * node does not run again, unless `stopsAt` is the last node itself (it runs and writes nothing: `againShows`).
 */
interface Example {
	id: string;
	lastNode: string;
	shows: string | RegExp;
	writes: unknown[];
	stopsAt: string;
	againShows?: string;
	pin?: string;
	before?: () => Promise<void>;
	event?: () => Promise<void>;
}

const EXAMPLES: Example[] = [
	// The manual examples: each looks first (the lead's upcoming appointment, the users, the conversations of the
	// lead's phone, the signature requests) and stops there on the second run.
	{ id: 'spExampleBook001', lastNode: 'Book Slot', shows: 'booked', writes: ['POST /v4/booking'], stopsAt: 'Not Booked Yet' },
	{ id: 'spExampleSync001', lastNode: 'Create or Update Contacts', shows: 'created', writes: ['POST /crm', 'POST /crm', 'POST /crm'], stopsAt: 'Create or Update Contacts', againShows: 'unchanged' },
	{ id: 'spExampleHost001', lastNode: 'Booking Page Link', shows: /email=first\.client%40client\.example/, writes: ['POST /v4/user', 'POST /availability', 'POST /v4/meeting-type'], stopsAt: 'Not a User Yet' },
	{ id: 'spExampleReply01', lastNode: 'Send Welcome Template', shows: 'queued', writes: ['POST /v4/messenger/messages'], stopsAt: 'No Conversation Yet' },
	{ id: 'spExampleSign001', lastNode: 'Check Status', shows: 'pending', writes: ['POST /v4/signatures'], stopsAt: 'Not Sent Yet' },
	// Reads only: both runs write nothing and end with the report.
	{ id: 'spExampleRprt001', lastNode: 'Weekly Report', shows: /^Open deals: /, writes: [], stopsAt: 'Weekly Report', againShows: 'Open deals' },
	// The invoicing examples on the demo's invoicing data (scripts/start.ts): the recurring invoice due today is billed,
	// finalised and sent, the overdue invoice reminded; yesterday's appointment is invoiced to its contact (who exists).
	// Run again: nothing is due, every invoice is sent, the reminder is recent, the appointment's invoice is found.
	{
		id: 'spExampleBill001',
		lastNode: 'Send',
		shows: 'sent',
		writes: ['POST /invoicing/billing-runs', expect.stringMatching(/^POST \/invoicing\/documents\/[0-9a-f-]{36}\/finalise$/), expect.stringMatching(/\/send$/), expect.stringMatching(/\/dunning$/)],
		stopsAt: 'Next Step',
	},
	{
		id: 'spExampleInv001',
		lastNode: 'Send Invoice',
		shows: 'sent',
		writes: ['POST /invoicing/documents', expect.stringMatching(/^POST \/invoicing\/documents\/[0-9a-f-]{36}\/finalise$/), expect.stringMatching(/\/send$/)],
		stopsAt: 'Still to Do',
	},
	// The trigger examples, executed from the editor, take the newest event (Fetch Test Event): the booking made by the
	// first example (its contact exists already, so Create or Update writes nothing; no phone, so no template), and
	// the conversation the reply example's template opened (its phone number has no contact yet).
	{ id: 'spExampleDeal001', lastNode: 'Deal', shows: /with Ada Lovelace/, writes: ['POST /crm/deals'], stopsAt: 'No Deal Yet' },
	{
		id: 'spExampleConv001',
		lastNode: 'Log Communication',
		shows: 'messenger',
		writes: [expect.stringMatching(/^PATCH \/v4\/messenger\/conversations\/[0-9a-f-]{36}$/), 'POST /crm', 'POST /crm/communications'],
		stopsAt: 'Not Logged Yet',
	},
	// Last: its template opens a conversation, which would be the newest one for the conversation example. The routing
	// example on the demo's abandoned booking form: a new CRM contact, the approved template, and the entry marked.
	{
		id: 'spExampleAban001',
		lastNode: 'Mark as Followed Up',
		shows: /^\d+$/,
		writes: ['POST /crm', 'POST /v4/messenger/messages', expect.stringMatching(/^PATCH \/v4\/attendee\/pending\/\d+$/)],
		stopsAt: 'To Follow Up',
	},
	// The instant trigger: Execute workflow listens (n8n subscribes its test URL), a booking is cancelled, the
	// attendee's contact (made by the booking) gets a note; n8n then deletes the subscription. The same event again
	// (pinned) finds the note and writes nothing.
	{
		id: 'spExampleCncl001',
		lastNode: 'Note the Cancellation',
		shows: /^Booking cancelled: .+ \(appointment [0-9a-f-]{36}\)$/,
		event: async () => {
			await testSubscription();
			await ownerCall('POST', `/v4/appointment/${await book('Hedy', 'Lamarr')}/cancel`, { reason: 'Travelling' });
		},
		writes: ['POST /crm/notes'],
		stopsAt: 'Not Noted Yet',
		pin: 'Booking Cancelled',
	},
	// The newest ended appointment (one made to end a minute ago) gets a follow-up task on its contact; run again, the
	// task is found and nothing is written.
	{
		id: 'spExampleEnd0001',
		lastNode: 'Follow-Up Task',
		shows: /^Follow up: .+ with Margaret Hamilton$/,
		before: async () => void (await endedAppointment('Margaret', 'Hamilton')),
		writes: ['POST /crm/tasks'],
		stopsAt: 'No Task Yet',
	},
];

const isSubscriptionCall = (write: string) => /^[A-Z]+ \/webhooks\b/.test(write);

/** The writes (not GET) n8n made at the API since the last clear. */
async function writesMade(): Promise<string[]> {
	return (await sandboxRequests()).filter((request) => request.method !== 'GET').map((request) => `${request.method} ${request.path}`);
}

/** Pins the trigger's output, as a person does to run a workflow again with the same event. */
async function pinTrigger(trigger: string): Promise<void> {
	await openNode(trigger);
	await page.getByTestId('ndv-pin-data').click();
	await closeNode();
}

interface Execution {
	id: string;
	status: string;
}

/** The newest execution of a workflow, from n8n's REST API as the editor reads it (with the browser's ID). */
async function newestExecution(workflowId: string): Promise<Execution | undefined> {
	const browserId = String(await page.evaluate('localStorage.getItem("n8n-browserId")'));
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const answer = await page.request.get(`${demo.editorUrl}/rest/executions?filter=${filter}&limit=1`, { headers: { 'browser-id': browserId } });
	return (((await answer.json()) as { data: { results: Execution[] } }).data.results)[0];
}

/**
 * The sticky notes of the open workflow whose text runs past their edge (the note's wrapper hides it), by their first
 * words; a note without the wrapper n8n 2.x renders is named too, so a changed editor cannot pass unseen.
 */
async function cutOffStickies(): Promise<string[]> {
	return await page.getByTestId('sticky').evaluateAll((notes) =>
		notes
			.map((note) => {
				const sticky = note.classList.contains('n8n-sticky') ? note : note.querySelector('.n8n-sticky');
				return { wrapper: sticky?.querySelector(':scope > [class*="_wrapper_"]'), text: (note.textContent ?? '').trim().slice(0, 60) };
			})
			.filter(({ wrapper }) => !wrapper || wrapper.scrollHeight > wrapper.clientHeight + 1 || wrapper.scrollWidth > wrapper.clientWidth + 1)
			.map(({ wrapper, text }) => (wrapper ? text : `(no wrapper) ${text}`)),
	);
}

/** Runs the open example once more: the run ends at its check (the node after it does not run) and writes nothing. */
async function runAgain({ id, lastNode, stopsAt, againShows, pin }: Example): Promise<void> {
	if (pin) await pinTrigger(pin);
	const before = await newestExecution(id);
	await clearRequests();
	await page.getByTestId('execute-workflow-button').click();
	const run = await until('the second run to end', async () => {
		const newest = await newestExecution(id);
		return newest && newest.id !== before?.id && !['new', 'running', 'waiting'].includes(newest.status) ? newest : undefined;
	});
	expect(run.status).toBe('success');
	await page.getByTestId('execute-workflow-button').filter({ hasText: 'Execute workflow' }).waitFor();
	await canvasNode(stopsAt).getByTestId('canvas-node-status-success').waitFor();
	await shot(`03-example-${id}-again`);
	expect(await writesMade()).toEqual([]);
	if (stopsAt !== lastNode) expect(await canvasNode(lastNode).getByTestId('canvas-node-status-success').count()).toBe(0);
	if (againShows) {
		await (await openNode(lastNode)).getByText(againShows).first().waitFor();
		await closeNode();
	}
}

test.each(EXAMPLES)('example workflow $id shows its sticky notes whole, runs from the editor and shows its output; run again, it writes nothing', async (example) => {
	const { id, lastNode, shows, writes } = example;
	expect(exampleWorkflows().map((workflow) => workflow.id)).toContain(id);
	await example.before?.();
	await page.goto(`${demo.editorUrl}/workflow/${id}`);
	await canvasNode(lastNode).waitFor();
	await page.getByTestId('sticky').first().waitFor();
	expect(await cutOffStickies()).toEqual([]);
	await clearRequests();
	await page.getByTestId('execute-workflow-button').click();
	await example.event?.();
	await canvasNode(lastNode).getByTestId('canvas-node-status-success').waitFor();
	await shot(`02-example-${id}`);
	const output = await openNode(lastNode);
	await output.getByText(shows).first().waitFor();
	await shot(`03-example-${id}-output`);
	await closeNode();
	const made = await writesMade();
	if (example.event) {
		// n8n deletes the test subscription as soon as the event has started the run, while its nodes still work.
		await noSubscriptionLeft();
		expect(made.filter(isSubscriptionCall)).toEqual(['POST /webhooks', expect.stringMatching(/^DELETE \/webhooks\/\d+$/)]);
	}
	expect(made.filter((write) => !isSubscriptionCall(write))).toEqual(writes);
	await runAgain(example);
});

test('a booking from an empty canvas: search the node, pick the credential, choose the meeting type and an open slot from the lists, execute; the same slot again shows the API\'s reason', async () => {
	const meetingTypes = (await ownerApi('/v4/meeting-type')) as Array<{ id: string; userId: string; meetingInfo: { name: string } }>;
	const productDemo = meetingTypes.find((type) => type.meetingInfo.name === 'Product Demo') as { id: string; userId: string };
	// What Start's list asks for: the open slots from today on, 14 days, in the host's time zone.
	const query = `meetingTypeId=${productDemo.id}&start=${day(0)}&end=${day(13)}&hostIds=${productDemo.userId}`;
	const slots = (await ownerApi(`/v4/booking-availability?${query}`)) as { timezone: string; dates: Array<{ date: string; spots: Array<{ startTime: string }> }> };
	const [{ date, spots }] = slots.dates;
	const slotStart = spots[0].startTime;
	const weekday = new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', { weekday: 'short', timeZone: 'UTC' });

	// n8n gives a new node the credential updated last of the types it takes: the demo imports the owner's token last.
	expect(await addSchedulingAction('Create a booking at an open slot', 'spDemoOwnerPat01', '04-node-actions')).toBe('Demo Token (Ada Admin)');
	await page.getByTestId('resource-locator-meetingTypeId').getByTestId('rlc-input').click();
	await page.getByText('Product Demo', { exact: true }).click();
	await page.getByTestId('resource-locator-start').getByTestId('rlc-input').click();
	const slot = page.getByText(`${weekday} ${date}, ${slotStart.slice(11, 16)} (${slots.timezone})`, { exact: true });
	await slot.waitFor();
	await shot('05-booking-open-slots');
	await slot.click();
	await page.getByTestId('parameter-input-email').locator('input').fill('lead@client.example');
	await page.getByTestId('parameter-input-firstName').locator('input').fill('Lea');
	await page.getByTestId('parameter-input-lastName').locator('input').fill('Lead');
	await shot('05-booking-filled');

	await clearRequests();
	await page.getByTestId('node-execute-button').click();
	const output = page.getByTestId('output-panel');
	await output.getByText('booked').waitFor();
	await shot('06-booking-booked');
	const [booking] = (await sandboxRequests()).filter((request) => request.method === 'POST');
	expect(booking.path).toBe('/v4/booking');
	expect(booking.headers.authorization).toBe(`Bearer ${demo.seed.credentials.ownerPat}`);
	expect(booking.body).toEqual(expect.objectContaining({ meetingTypeId: productDemo.id, start: slotStart }));

	await page.getByTestId('node-execute-button').click();
	await page.getByTestId('node-error-message').waitFor();
	expect(await page.getByTestId('node-error-message').innerText()).toBe('The requested time slot is not available (HTTP 409)');
	expect(await page.getByTestId('node-error-description').innerText()).toMatch(/Get Open Slots/);
	// The toast n8n shows shows the message: the API's reason.
	await page.locator('.el-notification').getByText('The requested time slot is not available (HTTP 409)').waitFor();
	await shot('07-booking-conflict');
	await closeNode();
});

/** Creates through n8n's REST API as the logged-in person (a workflow, a credential); the new ID. */
async function restCreate(path: string, data: object): Promise<string> {
	// n8n's REST API wants the browser's ID with the session cookie, as the editor sends it.
	const browserId = await page.evaluate('localStorage.getItem("n8n-browserId")');
	const created = await page.request.post(`${demo.editorUrl}/rest/${path}`, { headers: { 'browser-id': String(browserId) }, data });
	expect(created.ok()).toBe(true);
	return ((await created.json()) as { data: { id: string } }).data.id;
}

test('a booking node saved before Start offered the list (version 1.1) opens with its date picker as it was saved, and books it', async () => {
	const [{ id: meetingTypeId, userId }] = (await ownerApi('/v4/meeting-type')) as Array<{ id: string; userId: string }>;
	const slots = (await ownerApi(`/v4/booking-availability?meetingTypeId=${meetingTypeId}&start=${day(2)}&end=${day(9)}&hostIds=${userId}`)) as { dates: Array<{ spots: Array<{ startTime: string }> }> };
	// As the date picker stored it: the time in n8n's time zone (UTC here), without the zone.
	const saved = new Date(slots.dates[0].spots.at(-1)!.startTime).toISOString().slice(0, 19);
	const booking = {
		resource: 'booking',
		operation: 'create',
		meetingTypeId: { __rl: true, mode: 'id', value: meetingTypeId },
		start: saved,
		email: 'saved.before@client.example',
		firstName: 'Saved',
		lastName: 'Before',
	};
	const id = await restCreate('workflows', {
		name: 'Booking Saved Before the Slot List',
		nodes: [
			{ id: 'trigger', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{ id: 'book', name: 'Book', type: `${PACKAGE_NAME}.schedulingPlatform`, typeVersion: 1.1, position: [220, 0], parameters: booking, credentials: { schedulingPlatformPatApi: { id: 'spDemoOwnerPat01', name: 'Demo Token (Ada Admin)' } } },
		],
		connections: { Start: { main: [[{ node: 'Book', type: 'main', index: 0 }]] } },
		settings: {},
	});
	await page.goto(`${demo.editorUrl}/workflow/${id}`);
	const output = await openNode('Book');
	// Node version 1.1 keeps the date picker it was saved with (the list is version 1.2's), showing the saved moment.
	expect(await page.getByTestId('resource-locator-start').count()).toBe(0);
	expect(await page.getByTestId('parameter-input-start').locator('input').inputValue()).toBe(saved.replace('T', ' '));
	await shot('05-booking-saved-before');
	await clearRequests();
	await page.getByTestId('node-execute-button').click();
	await output.getByText('booked').waitFor();
	const [posted] = (await sandboxRequests()).filter((request) => request.method === 'POST');
	expect(posted.body).toEqual(expect.objectContaining({ meetingTypeId, start: `${saved}+00:00` }));
	await closeNode();
});

test('an invoice a stopped run of the invoicing example left as a draft is finalised and sent by the next run, not billed again', async () => {
	// An appointment that took place yesterday (its attendee's contact made by the booking), and the draft invoice a run
	// that stopped after Invoice left for it, its line naming the appointment as the example's lines do.
	const id = await book('Katherine', 'Coleman');
	const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
	await ownerCall('POST', `/v4/appointment/${id}/reschedule`, { start: `${yesterday}T10:00:00Z`, ignoreAvailability: true });
	const appointment = (await ownerApi(`/v4/appointment/${id}`)) as { attendees: Array<{ contactId: string }>; meetingInfo: { name: string } };
	const line = { description: `${appointment.meetingInfo.name} on ${yesterday} (appointment ${id})`, quantity: 0.5, unitPrice: 120 };
	const draft = (await ownerCall('POST', '/invoicing/documents', { type: 'invoice', contactId: appointment.attendees[0].contactId, lineItems: [line] })) as { id: string };

	await page.goto(`${demo.editorUrl}/workflow/spExampleInv001`);
	await canvasNode('Send Invoice').waitFor();
	await clearRequests();
	await page.getByTestId('execute-workflow-button').click();
	await canvasNode('Send Invoice').getByTestId('canvas-node-status-success').waitFor();
	await shot('03-example-spExampleInv001-finished');
	// The writes for this appointment (run alone, the demo's appointment of yesterday is billed as well): no new invoice.
	const writes = (await sandboxRequests()).filter((request) => request.method !== 'GET' && (request.path.includes(draft.id) || JSON.stringify(request.body ?? '').includes(id)));
	expect(writes.map((request) => `${request.method} ${request.path}`)).toEqual([`POST /invoicing/documents/${draft.id}/finalise`, `POST /invoicing/documents/${draft.id}/send`]);
});

test('the invoicing node in the editor: a line row\'s Product dropdown lists the products with their prices', async () => {
	await page.goto(`${demo.editorUrl}/workflow/spExampleInv001`);
	await canvasNode('Invoice').dblclick();
	const ndv = page.getByTestId('ndv');
	await ndv.waitFor();
	// The panel renders its fields in steps: a click before the options are loaded may close the dropdown again.
	const product = page.getByText('Consulting hour (120.00 EUR per hour)', { exact: true });
	for (let attempt = 0; attempt < 5 && !(await product.isVisible()); attempt++) {
		await ndv.getByTestId('parameter-input-productId').click();
		await product.waitFor({ timeout: 5_000 }).catch(() => undefined);
	}
	await product.waitFor();
	await shot('18-invoicing-product-list');
	const options = await page.locator('.el-select-dropdown__item').allInnerTexts();
	expect(options.map((option) => option.trim())).toEqual(expect.arrayContaining(['- None -', 'Consulting hour (120.00 EUR per hour)', 'Handbook (24.90 EUR per piece)', 'Workshop day (950.00 EUR per day)']));
	await page.keyboard.press('Escape');
	await closeNode();
});

/** Creates a credential in n8n's "Add new credential" dialog and returns what its automatic test says. */
async function testCredential(typeName: string, fields: Record<string, string>, shotName: string): Promise<{ name: string; result: string }> {
	await page.goto(`${demo.editorUrl}/home/credentials/create`);
	await page.getByTestId('new-credential-type-select').waitFor();
	await page.keyboard.type(typeName);
	await page.getByTestId('new-credential-type-select-option').filter({ hasText: typeName }).click();
	await page.getByTestId('new-credential-type-button').click();
	const dialog = page.getByTestId('editCredential-modal');
	const name = (await dialog.getByTestId('credential-name').innerText()).trim();
	for (const [field, value] of Object.entries(fields)) await dialog.getByTestId(`parameter-input-${field}`).locator('input').fill(value);
	await dialog.getByTestId('credential-save-button').click();
	const success = dialog.getByTestId('credentials-config-container-test-success');
	const failure = dialog.getByText('More details');
	await success.or(failure).first().waitFor();
	if (await failure.isVisible()) await failure.click();
	await shot(shotName);
	const result = (await dialog.innerText()).split('\n').find((line) => /tested successfully|expired|invalid|Could not reach|refused|did not accept/.test(line)) ?? '';
	await page.keyboard.press('Escape');
	return { name, result: result.trim() };
}

async function mintPat(expiresInSeconds?: number): Promise<{ id: string; token: string }> {
	const answer = await fetch(`${demo.sandbox.url}/__sandbox/pats`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ userId: demo.seed.users.owner.id, ...(expiresInSeconds ? { expiresInSeconds } : {}) }),
	});
	return (await answer.json()) as { id: string; token: string };
}

test('new credentials get readable default names, and their test tells a valid, expired, revoked or unknown secret and a wrong Base URL apart', async () => {
	const base = demo.sandbox.url;
	const expired = await mintPat(1);
	const revoked = await mintPat();
	await fetch(`${base}/__sandbox/pats/${revoked.id}/revoke`, { method: 'POST' });
	await new Promise((resolve) => setTimeout(resolve, 1500));
	const closedPort = await freePort();

	await clearRequests();
	expect(await testCredential('Scheduling Platform Personal Access Token API', { baseUrl: base, token: demo.seed.credentials.ownerPat }, '08-credential-ok')).toEqual({
		name: 'Scheduling Platform Personal Access Token account',
		result: 'Connection tested successfully',
	});
	const [testRequest] = await sandboxRequests();
	expect(`${testRequest.method} ${testRequest.path}`).toBe('GET /v4/user/me');
	expect(testRequest.headers.authorization).toBe(`Bearer ${demo.seed.credentials.ownerPat}`);

	expect((await testCredential('Scheduling Platform Personal Access Token API', { baseUrl: base, token: expired.token }, '09-credential-expired')).result).toBe(
		'The Personal Access Token has expired: create a new one in the integrations area of the dashboard and paste it into the credential.',
	);
	expect((await testCredential('Scheduling Platform Personal Access Token API', { baseUrl: base, token: revoked.token }, '10-credential-revoked')).result).toBe(
		'The Personal Access Token is invalid or revoked (the API answers the same for both): copy it again, or create a new one in the integrations area of the dashboard.',
	);
	const unknownKey = 'ak_live:6f1c2a7e-1b2c-4d5e-8f90-123456789abc:not-a-real-secret';
	const invalid = await testCredential('Scheduling Platform API', { baseUrl: base, apiKey: unknownKey }, '11-credential-invalid-key');
	expect(invalid).toEqual({
		name: 'Scheduling Platform account',
		result: 'The API key is invalid or revoked (the API answers the same for an unknown, revoked or deactivated key): copy the whole key again, or create a new one in the dashboard.',
	});
	const wrongUrl = await testCredential('Scheduling Platform API', { baseUrl: `http://127.0.0.1:${closedPort}`, apiKey: unknownKey }, '12-credential-wrong-url');
	expect(wrongUrl.result).toBe(`Could not reach the API at http://127.0.0.1:${closedPort}: check the Base URL (ECONNREFUSED).`);
});

test('with an API key that has no acting user, the Meeting Type list loads as the company owner', async () => {
	const id = await restCreate('credentials', { name: 'API Key Without Acting User', type: 'schedulingPlatformApiKeyApi', data: { baseUrl: demo.sandbox.url, apiKey: demo.seed.credentials.apiKey } });

	await addSchedulingAction('Create a booking at an open slot', id);
	await clearRequests();
	await page.getByTestId('resource-locator-meetingTypeId').getByTestId('rlc-input').click();
	await page.getByText('Product Demo', { exact: true }).waitFor();
	await page.getByText('Strategy Workshop', { exact: true }).waitFor();
	await shot('13-list-without-acting-user');
	const requests = await sandboxRequests();
	expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /v4/user/me', 'GET /v4/meeting-type']);
	expect(requests[0].headers['x-service-api-user-id']).toBeUndefined();
	expect(requests[1].headers['x-service-api-user-id']).toBe(demo.seed.users.owner.id);
	await page.keyboard.press('Escape');
	await closeNode();
});

/**
 * What people search for a product area, and the entry n8n's node panel shows for it: the area's node with its trigger's
 * events merged in (n8n merges schedulingPlatformCrmTrigger into schedulingPlatformCrm, and so on), listed first on an
 * empty canvas as "On <event>". Another area's events are not there.
 */
const AREA_SEARCHES = [
	{ word: 'contact', entry: 'Scheduling Platform CRM', events: ['On new contact', 'On new deal', 'On deal won', 'On deal lost'] },
	{ word: 'deal', entry: 'Scheduling Platform CRM', events: ['On new contact', 'On new deal', 'On deal won', 'On deal lost'] },
	{ word: 'invoice', entry: 'Scheduling Platform Invoicing', events: ['On invoice paid', 'On invoice overdue', 'On offer accepted'] },
	{ word: 'whatsapp', entry: 'Scheduling Platform Messenger', events: ['On new conversation', 'On new inbound message'] },
	{ word: 'signature', entry: 'Scheduling Platform Signatures', events: ['On signature request completed'] },
];

test.each(AREA_SEARCHES)('searching "$word" finds $entry, whose triggers are its own events', async ({ word, entry, events }) => {
	const creator = await searchNodes(word);
	await creator.getByTestId('node-creator-item-name').getByText(entry, { exact: true }).click();
	for (const event of events) await creator.getByText(event, { exact: true }).waitFor();
	await shot(`22-search-${word}-triggers`);
	expect(await creator.getByText(/^No .* Triggers available/).count()).toBe(0);
	expect(await creator.getByText('On new booking', { exact: true }).count()).toBe(0);
	await page.keyboard.press('Escape');
});

test('searching "signature" or "cancel" also finds the instant Webhook Trigger, an entry of its own', async () => {
	for (const word of ['signature', 'cancel']) {
		const creator = await searchNodes(word);
		await creator.getByTestId('node-creator-item-name').getByText('Scheduling Platform Webhook', { exact: true }).waitFor();
		await shot(`22-search-${word}-webhook-trigger`);
		await page.keyboard.press('Escape');
	}
});

test('Fetch Test Event with nothing to show: n8n\'s notice "No … data found", not an error', async () => {
	// The demo has no lost deal.
	const creator = await searchNodes('deal');
	await creator.getByTestId('node-creator-item-name').getByText('Scheduling Platform CRM', { exact: true }).click();
	await creator.getByText('On deal lost', { exact: true }).click();
	await page.getByTestId('ndv').waitFor();
	await page.getByTestId('node-credentials-select').click();
	await page.getByTestId('node-credentials-select-item-spDemoOwnerPat01').click();
	await page.getByTestId('node-execute-button').click();
	// n8n may show the notice twice (one per run of the poll it starts); one is enough.
	await page.locator('.el-notification').getByText('No Scheduling Platform CRM data found').first().waitFor();
	await shot('23-trigger-nothing-to-show');
	expect(await page.getByTestId('node-error-message').count()).toBe(0);
	await closeNode();
});

// n8n's search is fuzzy: "crm" also matches the letters of "sCheduling platfoRM", below the node it names.
test('the node search offers each node for what it does: "crm" the CRM node first, "booking" the scheduling node first, "invoice" the invoicing node, "round robin" the routing node', async () => {
	const names = async (text: string): Promise<string[]> => {
		const creator = await searchNodes(text);
		await creator.getByTestId('node-creator-item-name').first().waitFor();
		await page.waitForTimeout(300);
		return (await creator.getByTestId('node-creator-item-name').allInnerTexts()).map((name) => name.trim()).filter((name) => name.startsWith('Scheduling Platform'));
	};
	expect((await names('crm'))[0]).toBe('Scheduling Platform CRM');
	await shot('14-search-crm');
	expect((await names('booking'))[0]).toBe('Scheduling Platform');
	expect((await names('invoice'))[0]).toBe('Scheduling Platform Invoicing');
	expect((await names('round robin'))[0]).toBe('Scheduling Platform Routing');
});

test('a list that fails shows its fix in the popup: a member\'s token cannot list users', async () => {
	await addSchedulingAction('Get a user by ID', 'spDemoMemberPat1');
	await page.getByTestId('resource-locator-userId').getByTestId('rlc-input').click();
	const popupText = page.getByText(/Forbidden resource \(HTTP 403\)\. Only admins may do this/);
	await popupText.waitFor();
	await shot('15-list-error');
	await page.keyboard.press('Escape');
	await closeNode();
});

/**
 * From an empty canvas, as a person starts a workflow: the Scheduling Platform entry of the node panel, its trigger
 * event On new booking, the owner's token; then Fetch Test Event, which shows the newest booking (`shots` names the
 * screenshots of the events and of the test event). Returns the output panel.
 */
async function newBookingTrigger(shots: { events: string; testEvent: string }): Promise<Locator> {
	await searchNodes('scheduling');
	await page.getByTestId('node-creator-item-name').getByText('Scheduling Platform', { exact: true }).click();
	await page.getByText('On new booking', { exact: true }).waitFor();
	await shot(shots.events);
	await page.getByText('On new booking', { exact: true }).click();
	await page.getByTestId('ndv').waitFor();
	await page.getByTestId('node-credentials-select').click();
	await page.getByTestId('node-credentials-select-item-spDemoOwnerPat01').click();
	await clearRequests();
	await page.getByTestId('node-execute-button').click();
	const output = page.getByTestId('output-panel');
	await output.getByText('attendees').first().waitFor();
	await shot(shots.testEvent);
	return output;
}

test('the trigger from an empty canvas: its events are listed as n8n lists triggers; On new booking fetches the newest booking as a test event', async () => {
	// A booking made on the booking page (the API, as the owner) is the newest one.
	const appointmentId = await book('Tess', 'Trigger');
	const output = await newBookingTrigger({ events: '16-trigger-events', testEvent: '17-trigger-test-event' });
	await output.getByText(appointmentId).first().waitFor();
	expect((await sandboxRequests()).map((request) => `${request.method} ${request.path}?${request.query}`)).toEqual([
		'GET /v4/appointment/paginated?sortBy=appointment.createdAt&sortDirection=DESC&page=0&pageSize=100',
	]);
	await closeNode();
});

test('a workflow from the node panel: "+" after the trigger adds Contact → Get; the attendee\'s email dragged from the input panel onto Contact (By Email) becomes an expression, and Execute step looks up that email', async () => {
	const appointmentId = await book('Mae', 'Jemison');
	const { attendees } = (await ownerApi(`/v4/appointment/${appointmentId}`)) as { attendees: Array<{ email: string; contactId: string }> };
	const [{ email, contactId }] = attendees;
	await newBookingTrigger({ events: '24-build-trigger-events', testEvent: '25-build-trigger-test-event' });
	await closeNode();

	// The "+" at the trigger's output opens the node panel for the next step; the new node is named after its action.
	const [trigger, action] = ['Scheduling Platform Trigger', 'Get a contact by ID or email'];
	await page.locator(`[data-test-id="canvas-node-output-handle"][data-node-name="${trigger}"] [data-test-id="canvas-handle-plus"]`).click();
	const creator = page.getByTestId('node-creator');
	await creator.waitFor();
	await page.keyboard.type('contact');
	await creator.getByTestId('node-creator-item-name').getByText('Scheduling Platform CRM', { exact: true }).click();
	await creator.getByText(action, { exact: true }).waitFor();
	await shot('26-build-node-panel');
	await creator.getByText(action, { exact: true }).click();
	await page.getByTestId('ndv').waitFor();
	await page.getByTestId('node-credentials-select').click();
	await page.getByTestId('node-credentials-select-item-spDemoOwnerPat01').click();

	// Contact By Email, and the email of the trigger's attendee (found with the input panel's search) dropped on it.
	const contact = page.getByTestId('resource-locator-contactId');
	await contact.getByTestId('rlc-mode-selector').click();
	await page.getByTestId('mode-email').filter({ visible: true }).click();
	const input = page.getByTestId('ndv-input-panel');
	await input.getByTestId('ndv-search').click();
	await page.keyboard.type('email');
	await input.locator('[data-target="mappable"][data-path=".attendees[0].email"]').dragTo(page.getByTestId('parameter-input-contactId'));
	const expression = contact.getByTestId('inline-expression-editor-input');
	await expression.waitFor();
	await shot('27-build-field-mapped');
	expect((await expression.innerText()).trim()).toBe('{{ $json.attendees[0].email }}');
	expect(await contact.getByTestId('rlc-mode-selector').locator('input').inputValue()).toBe('By Email');

	await clearRequests();
	await page.getByTestId('node-execute-button').click();
	await page.getByTestId('output-panel').getByText(contactId).first().waitFor();
	await shot('28-build-step-executed');
	const requests = await sandboxRequests();
	expect(requests.map((request) => `${request.method} ${request.path}?${request.query}`)).toEqual([
		`GET /crm?searchTerm=${encodeURIComponent(email)}&page=1&limit=100`,
		`GET /crm/details?contactId=${contactId}`,
	]);
	expect(requests.map((request) => request.headers.authorization)).toEqual([`Bearer ${demo.seed.credentials.ownerPat}`, `Bearer ${demo.seed.credentials.ownerPat}`]);
	await closeNode();

	await page.locator(`[data-test-id="edge"][data-source-node-name="${trigger}"][data-target-node-name="${action}"]`).waitFor({ state: 'attached' });
	await shot('29-build-workflow');
});

test('the Webhook Trigger from the node panel: Listen for test event subscribes n8n\'s test URL for the chosen event, shows the event the platform sends, and unsubscribes', async () => {
	await searchNodes('scheduling');
	// Its own entry (n8n drops "Trigger" from the name), listing its events as n8n lists triggers.
	await page.getByTestId('node-creator-item-name').getByText('Scheduling Platform Webhook', { exact: true }).click();
	await page.getByText('On booking cancelled', { exact: true }).waitFor();
	await shot('19-webhook-trigger-events');
	await page.getByText('On booking cancelled', { exact: true }).click();
	await page.getByTestId('ndv').waitFor();
	await page.getByTestId('node-credentials-select').click();
	await page.getByTestId('node-credentials-select-item-spDemoOwnerPat01').click();
	await clearRequests();
	await page.getByTestId('node-execute-button').click();
	// n8n runs checkExists and create with its test URL while the editor listens (http is allowed on loopback).
	await page.getByText('Stop Listening').first().waitFor();
	const subscription = await testSubscription();
	expect(subscription.eventTypes).toEqual(['booking_cancelled']);
	await shot('20-webhook-trigger-listening');
	const emitted = await fetch(`${demo.sandbox.url}/__sandbox/webhooks/emit`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ webhookType: 'booking_cancelled' }) });
	expect(await emitted.json()).toEqual({ deliveries: 1 });
	const output = page.getByTestId('output-panel');
	await output.getByText('jane.sample@example.com').first().waitFor();
	await output.getByText('booking_cancelled').first().waitFor();
	await shot('21-webhook-trigger-test-event');
	// After the event n8n runs delete: the subscription is gone.
	await noSubscriptionLeft();
	const deliveries = (await (await fetch(`${demo.sandbox.url}/__sandbox/webhooks/deliveries`)).json()) as Array<{ endpoint: string; status: number | null }>;
	expect(deliveries.filter((delivery) => delivery.endpoint === subscription.endpoint).map((delivery) => delivery.status)).toEqual([200]);
	expect(await writesMade()).toEqual(['POST /webhooks', `DELETE /webhooks/${subscription.id}`]);
	await closeNode();
});
