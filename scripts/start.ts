import type { ChildProcess } from 'child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'fs';
import { join } from 'path';

import { startSandbox } from '../sandbox/server';
import type { Sandbox } from '../sandbox/server';
import type { Seed } from '../sandbox/seed';
import { PACKAGE_NAME, REPO_DIR } from './packageDir';
import { startPorts } from '../sandbox/ports';
import { N8N_V2, importAll, installPackage, realN8n, setUpOwner, startN8n, waitForRest } from './realN8n';
import type { CliResult, RealN8n } from './realN8n';

/**
 * `npm start`: the sandbox with demo data and the real n8n application with this package, the demo
 * credentials and the example workflows (examples/), until Ctrl+C. The browser test starts the same
 * thing with `startDemo` in a fresh user folder.
 */

export const LOGIN = { email: 'demo@example.com', password: 'Demo-Password-1', firstName: 'Demo', lastName: 'Builder' };
export const EXAMPLES_DIR = join(REPO_DIR, 'examples');

export interface DemoOptions {
	/** The n8n version (installed into the cache on first use); default the 2.x line. */
	version?: string;
	userFolder: string;
	n8nPort?: number;
	/** 0 picks a free port. */
	sandboxPort?: number;
	/** n8n's default time zone (GENERIC_TIMEZONE), in which the editor's date fields are read; default this machine's. */
	timezone?: string;
	showProgress?: boolean;
}

export interface Demo {
	host: RealN8n;
	editorUrl: string;
	sandbox: Sandbox;
	seed: Seed;
	credentials: DemoCredential[];
	stop(): Promise<void>;
}

export interface DemoCredential {
	id: string;
	name: string;
	type: string;
	data: Record<string, string>;
}

/** The demo credentials, with fixed IDs so the example workflows find them (their secrets change with each seed). */
export function demoCredentials(sandboxUrl: string, seed: Seed): DemoCredential[] {
	const { owner, member } = seed.users;
	return [
		{ id: 'spDemoOwnerPat01', name: `Demo Token (${owner.givenName} ${owner.familyName})`, type: 'schedulingPlatformPatApi', data: { baseUrl: sandboxUrl, token: seed.credentials.ownerPat } },
		{ id: 'spDemoMemberPat1', name: `Demo Token (${member.givenName} ${member.familyName}, member)`, type: 'schedulingPlatformPatApi', data: { baseUrl: sandboxUrl, token: seed.credentials.memberPat } },
		{
			id: 'spDemoApiKey0001',
			name: `Demo API Key (acting as ${owner.givenName} ${owner.familyName})`,
			type: 'schedulingPlatformApiKeyApi',
			data: { baseUrl: sandboxUrl, apiKey: seed.credentials.apiKey, actingUserId: owner.id },
		},
	];
}

export function exampleWorkflows(): Array<{ id: string; name: string }> {
	return readdirSync(EXAMPLES_DIR)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => JSON.parse(readFileSync(join(EXAMPLES_DIR, file), 'utf8')) as { id: string; name: string });
}

type DemoCall = (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>;

interface DemoAttendee {
	email: string;
	firstname: string;
	lastname: string;
}

const DAY_MS = 86_400_000;

/** Books the first open slot of the owner's first meeting type for the attendee, then moves it to `start` (past hours ignore availability). */
async function bookAt(call: DemoCall, seed: Seed, attendee: DemoAttendee, start: (durationMinutes: number) => number): Promise<string> {
	const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);
	const [meetingType] = (await call('GET', '/v4/meeting-type')) as unknown as Array<{ id: string; meetingInfo: { duration: number } }>;
	const slots = (await call('GET', `/v4/booking-availability?meetingTypeId=${meetingType.id}&hostIds=${seed.users.owner.id}&start=${day(1)}&end=${day(8)}`)) as { dates: Array<{ spots: Array<{ startTime: string }> }> };
	const booking = { meetingTypeId: meetingType.id, start: slots.dates[0].spots[0].startTime, hostIds: [seed.users.owner.id], attendee: { ...attendee, receiveReminders: true, notes: {} } };
	const booked = await call('POST', '/v4/booking', booking);
	const moment = new Date(start(meetingType.meetingInfo.duration)).toISOString();
	await call('POST', `/v4/appointment/${String(booked.appointmentId)}/reschedule`, { start: moment, ignoreAvailability: true });
	return String(booked.appointmentId);
}

/**
 * Ended a few minutes before now, for the Appointment Ended example's test event (it looks 8 hours back); never
 * before today's midnight (UTC), so that the invoicing example, which bills yesterday's appointments, leaves it.
 */
function endedJustNow(durationMinutes: number): number {
	const now = Date.now();
	return Math.max(now - (durationMinutes + 10) * 60_000, now - (now % DAY_MS));
}

/**
 * Demo data of the invoicing, routing and follow-up examples: an appointment that took place yesterday (booked,
 * then moved there; its attendee became a CRM contact), a monthly recurring invoice for that contact due today, an
 * invoice to them that is overdue (sent, due 16 days ago), someone who left the booking form unfinished, an
 * appointment that ended just now, and two emails with the first contact as a mailbox sync would bring them.
 */
async function addDemoData(sandboxUrl: string, seed: Seed): Promise<void> {
	const call: DemoCall = async (method, path, body) => {
		const headers = { authorization: `Bearer ${seed.credentials.ownerPat}`, 'content-type': 'application/json' };
		const answer = await fetch(`${sandboxUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
		if (!answer.ok) throw new Error(`Demo data: ${method} ${path} failed (HTTP ${answer.status}): ${await answer.text()}`);
		return (await answer.json()) as Record<string, unknown>;
	};
	const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);
	const attendee = { email: 'mary.jackson@client.example', firstname: 'Mary', lastname: 'Jackson' };
	await bookAt(call, seed, attendee, () => Date.parse(`${day(-1)}T09:00:00Z`));
	const [row] = (await call('GET', `/crm?searchTerm=${encodeURIComponent(attendee.email)}`)).result as Array<{ item: { id: string } }>;
	const contactId = row.item.id;
	await call('POST', '/invoicing/recurring', { name: 'Support plan', contactId, lineItems: [{ description: 'Support plan', quantity: 1, unitPrice: 290 }], interval: 'monthly', startDate: day(0) });
	const overdue = await call('POST', '/invoicing/documents', { type: 'invoice', contactId, issueDate: day(-30), dueDate: day(-16), lineItems: [{ description: 'Workshop day', quantity: 1, unitPrice: 950 }] });
	await call('POST', `/invoicing/documents/${String(overdue.id)}/finalise`);
	await call('POST', `/invoicing/documents/${String(overdue.id)}/send`, {});
	await call('POST', '/v4/attendee/pending', { email: 'dorothy.vaughan@client.example', firstname: 'Dorothy', lastname: 'Vaughan', phone: '+4915790002222', notes: { Company: 'NACA' } });
	await bookAt(call, seed, { email: 'annie.easley@client.example', firstname: 'Annie', lastname: 'Easley' }, endedJustNow);
	const owner = seed.users.owner.email;
	const thread = { companyId: seed.companies.acme.id, contactId, threadId: 'demo-support-plan' };
	await call('POST', '/__sandbox/crm-emails', { ...thread, subject: 'Support plan', direction: 'inbound', fromEmail: attendee.email, toEmails: [owner], sentAt: `${day(-2)}T08:15:00Z`, text: 'Hi Ada, does the support plan include weekend calls? Best, Mary' });
	await call('POST', '/__sandbox/crm-emails', { ...thread, subject: 'Re: Support plan', direction: 'outbound', fromEmail: owner, toEmails: [attendee.email], sentAt: `${day(-2)}T09:40:00Z`, text: 'Hi Mary, yes: weekend calls are included. Ada' });
}

/** Seeds the sandbox and adds the demo data of the examples; the seed. */
export async function seedDemo(sandboxUrl: string): Promise<Seed> {
	const seed = (await (await fetch(`${sandboxUrl}/__sandbox/seed`, { method: 'POST' })).json()) as Seed;
	await addDemoData(sandboxUrl, seed);
	return seed;
}

/**
 * The demo credentials as imported, the first one (the owner's token) updated last: n8n's editor gives a new node the
 * usable credential updated last among all the types the node takes (both of ours share one credential list).
 */
function newestFirst(credentials: DemoCredential[]): object[] {
	return credentials.map((credential, index) => ({ ...credential, updatedAt: new Date(Date.now() - index * 1000).toISOString() }));
}

/**
 * Imports the demo credentials, and the examples not imported into this user folder before, so a person's changes
 * to one are kept (`env`: the database settings of queue mode).
 */
export async function importExamples(host: RealN8n, userFolder: string, credentials: DemoCredential[], env: Record<string, string> = {}): Promise<void> {
	const record = join(userFolder, 'examples-imported.json');
	const done = existsSync(record) ? (JSON.parse(readFileSync(record, 'utf8')) as string[]) : [];
	const fresh = exampleWorkflows().filter((workflow) => !done.includes(workflow.id));
	await importAll(host, userFolder, newestFirst(credentials), fresh, env);
	writeFileSync(record, JSON.stringify([...done, ...fresh.map((workflow) => workflow.id)]));
}

async function stopChild(child: ChildProcess, done: Promise<CliResult>): Promise<void> {
	if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
	await done;
}

export async function startDemo(options: DemoOptions): Promise<Demo> {
	const { userFolder, showProgress = false } = options;
	const host = realN8n(options.version ?? N8N_V2, showProgress);
	const sandbox = await startSandbox({ port: options.sandboxPort ?? 0 });
	try {
		const seed = await seedDemo(sandbox.url);
		installPackage(userFolder);
		const credentials = demoCredentials(sandbox.url, seed);
		await importExamples(host, userFolder, credentials);
		const port = options.n8nPort ?? 5678;
		const editorUrl = `http://localhost:${port}`;
		const { child, done } = await startN8n(host, userFolder, ['start'], 0, {
			N8N_PORT: String(port),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: 'localhost',
			N8N_LOG_LEVEL: 'warn',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_HIRING_BANNER_ENABLED: 'false',
			N8N_SECURE_COOKIE: 'false',
			GENERIC_TIMEZONE: options.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
		});
		let exited: CliResult | undefined;
		void done.then((result) => (exited = result));
		try {
			await setUpOwner(editorUrl, await waitForRest(editorUrl, () => exited), LOGIN);
		} catch (error) {
			await stopChild(child, done);
			throw error;
		}
		return { host, editorUrl, sandbox, seed, credentials, stop: async () => { await stopChild(child, done); await sandbox.close(); } };
	} catch (error) {
		await sandbox.close();
		throw error;
	}
}

function instructions(demo: Demo): string {
	const examples = exampleWorkflows().map((workflow) => `     - ${workflow.name}`).join('\n');
	const credentials = demo.credentials.map((credential) => `     - ${credential.name}`).join('\n');
	return `
n8n ${demo.host.version} is running with ${PACKAGE_NAME} and the sandbox API.

  Editor:       ${demo.editorUrl}
  Log in with:  ${LOGIN.email} / ${LOGIN.password}
  Sandbox API:  ${demo.sandbox.url} (demo data, fresh on every start)
  Signing page: ${demo.sandbox.url}/__sandbox/sign (sign the signature requests you send; nobody gets an email)

  What to try first:
   1. Open a workflow under Overview and click "Execute workflow":
${examples}
   2. Build your own: on an empty canvas press Tab, search "Scheduling Platform" (or "CRM"),
      pick an action such as "Create a booking", choose a demo credential, pick from the lists and
      click "Execute step". The demo credentials:
${credentials}

  Ctrl+C stops n8n and the sandbox.
`;
}

async function main(): Promise<void> {
	const { n8nPort, sandboxPort } = await startPorts(process.env, 'npm start');
	const demo = await startDemo({ version: process.env.N8N_VERSION, userFolder: join(REPO_DIR, '.n8n-start'), n8nPort, sandboxPort, showProgress: true });
	process.stdout.write(instructions(demo));
	let stopping = false;
	const stop = (): void => {
		if (stopping) return;
		stopping = true;
		process.stdout.write('\nStopping n8n and the sandbox...\n');
		void demo.stop().then(() => process.exit(0));
	};
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
}

if (require.main === module) {
	main().catch((error: Error) => {
		process.stderr.write(`${error.message}\n`);
		process.exit(1);
	});
}
