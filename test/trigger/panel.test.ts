import { readFileSync } from 'fs';
import { join } from 'path';

import type { INodeProperties, INodePropertyOptions, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';

import { crmArea } from '../../package/nodes/SchedulingPlatformCrm/events';
import { invoicingArea } from '../../package/nodes/SchedulingPlatformInvoicing/events';
import { messengerArea } from '../../package/nodes/SchedulingPlatformMessenger/events';
import { schedulingArea } from '../../package/nodes/SchedulingPlatform/events';
import { signaturesArea } from '../../package/nodes/SchedulingPlatformSignatures/events';
import { PACKAGE_DIR, getEngine } from '../../scripts/engine';

/**
 * The node panel as n8n's editor builds it (1.123 and 2.41: editor-ui nodeCreator/composables/useActionsGeneration.ts),
 * applied to the nodes as n8n loads them (PackageDirectoryLoader, with their codex files), every node of package.json.
 * The rules:
 * - A trigger merges into the action node whose type name is the trigger's without its first "Trigger", when that node
 *   has actions; the entry keeps the action node's name, icon and aliases and takes the trigger's description.
 *   Otherwise the trigger is an entry of its own.
 * - A trigger's events are the options of its first field named "Event", "Events" or "Trigger On", and only a trigger
 *   whose name says "Trigger" lists them.
 * - The search reads only an entry's name and aliases.
 */

type Description = INodeTypeDescription & { codex?: { alias?: string[] } };

const AREAS = {
	schedulingPlatform: ['newBooking', 'bookingCancelled', 'bookingRescheduled', 'appointmentStartingSoon', 'appointmentEnded'],
	schedulingPlatformCrm: ['newContact', 'newDeal', 'dealWon', 'dealLost'],
	schedulingPlatformMessenger: ['newConversation', 'newInboundMessage'],
	schedulingPlatformSignatures: ['signatureCompleted'],
	schedulingPlatformInvoicing: ['invoicePaid', 'invoiceOverdue', 'offerAccepted'],
};

/** What people search for an area (issue 25): each word must find the area's entry. */
const SEARCHED = {
	schedulingPlatform: ['booking', 'appointment'],
	schedulingPlatformCrm: ['contact', 'deal', 'crm'],
	schedulingPlatformMessenger: ['whatsapp', 'message', 'conversation'],
	schedulingPlatformSignatures: ['signature'],
	schedulingPlatformInvoicing: ['invoice', 'offer'],
};

/** The descriptions n8n's editor gets: one per node (a node of several versions describes them all in one). */
async function nodes(): Promise<Description[]> {
	return (await getEngine()).loader.types.nodes as Description[];
}

/** The actions n8n lists for an action node: the options of its Operation fields. */
function actionsOf(description: Description): INodePropertyOptions[] {
	return description.properties.filter((property) => property.name === 'operation').flatMap((property) => (property.options ?? []) as INodePropertyOptions[]);
}

/** The events n8n lists for a trigger: the options of its first Event / Events / Trigger On field. */
function eventsOf(description: Description): string[] {
	if (!description.displayName.includes('Trigger')) return [];
	const field = description.properties.find((property) => ['event', 'events', 'trigger on'].includes(property.displayName.toLowerCase()));
	return ((field?.options ?? []) as INodePropertyOptions[]).map((option) => String(option.value));
}

/** The node panel's entries: action nodes with the triggers merged into them, and the triggers of their own. */
async function panel(): Promise<Map<string, { app?: Description; trigger?: Description }>> {
	const all = await nodes();
	const entries = new Map<string, { app?: Description; trigger?: Description }>();
	for (const app of all.filter((description) => !description.group.includes('trigger'))) entries.set(app.name, { app });
	for (const trigger of all.filter((description) => description.group.includes('trigger'))) {
		const merged = entries.get(trigger.name.replace('Trigger', ''));
		if (merged?.app && actionsOf(merged.app).length > 0) merged.trigger = trigger;
		else entries.set(trigger.name, { trigger });
	}
	return entries;
}

test('every node of package.json is loaded', async () => {
	const files = (JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { n8n: { nodes: string[] } }).n8n.nodes;
	expect((await nodes()).map((description) => description.name).sort()).toEqual(files.map((file) => file.replace(/^.*\/(\w)(\w*)\.node\.js$/, (_all, first: string, rest: string) => first.toLowerCase() + rest)).sort());
});

test('each product area\'s entry lists its own trigger events, and only those', async () => {
	const entries = await panel();
	for (const [name, events] of Object.entries(AREAS)) {
		const entry = entries.get(name)!;
		expect({ name, trigger: entry.trigger?.name, polling: entry.trigger?.polling }).toEqual({ name, trigger: `${name}Trigger`, polling: true });
		expect(eventsOf(entry.trigger!)).toEqual(events);
	}
});

test('every polling trigger merges into an action node; the Webhook Trigger is an entry of its own, with its events', async () => {
	const entries = [...(await panel()).values()];
	const alone = entries.filter((entry) => entry.trigger && !entry.app).map((entry) => entry.trigger!);
	expect(alone.map((trigger) => trigger.name)).toEqual(['schedulingPlatformWebhookTrigger']);
	expect(eventsOf(alone[0])).toEqual(expect.arrayContaining(['booking_created', 'booking_cancelled', 'signature_completed']));
	// The Routing node (Beta) has no events to poll: n8n offers its placeholders (Schedule, Webhook) there.
	expect(entries.filter((entry) => entry.app && !entry.trigger).map((entry) => entry.app!.name)).toEqual(['schedulingPlatformRouting']);
});

test('the words people search find each area\'s entry (its name and aliases), and the Webhook Trigger by its events', async () => {
	const entries = await panel();
	const keys = (description: Description) => [description.displayName, ...(description.codex?.alias ?? [])].map((key) => key.toLowerCase());
	for (const [name, words] of Object.entries(SEARCHED)) {
		const searchable = keys(entries.get(name)!.app!);
		for (const word of words) expect({ name, word, found: searchable.some((key) => key.includes(word)) }).toEqual({ name, word, found: true });
	}
	const webhook = keys(entries.get('schedulingPlatformWebhookTrigger')!.trigger!);
	for (const word of ['webhook', 'instant', 'booking', 'appointment', 'cancel', 'signature', 'form', 'review']) expect({ word, found: webhook.includes(word) }).toEqual({ word, found: true });
});

test('descriptions say how each trigger starts a workflow: the merged entries (the trigger\'s) polled, the Webhook Trigger instant', async () => {
	const entries = [...(await panel()).values()];
	for (const { app, trigger } of entries.filter((entry) => entry.app && entry.trigger)) {
		expect({ app: app!.name, polled: trigger!.description.endsWith('(polled)'), startsWorkflows: trigger!.description.includes('start workflows ') }).toEqual({ app: app!.name, polled: true, startsWorkflows: true });
	}
	const webhook = entries.find((entry) => entry.trigger?.name === 'schedulingPlatformWebhookTrigger')!.trigger!;
	expect(webhook.description).toMatch(/^Instant, no polling: /);
});

test('the triggers\' fields start with the Event (after the Poll Times n8n puts first), then Authentication; the optional Act As User comes last before Options', async () => {
	for (const trigger of (await nodes()).filter((description) => description.group.includes('trigger'))) {
		const names = trigger.properties.map((property: INodeProperties) => property.name).filter((name) => name !== 'notice');
		const own = trigger.polling ? names.slice(names.indexOf('pollTimes') + 1) : names;
		const events = own.findIndex((name) => name !== 'event' && name !== 'events');
		expect({ trigger: trigger.name, pollTimesFirst: trigger.polling ? names[0] === 'pollTimes' : true, events, next: own[events], last: own.slice(-2) }).toEqual({
			trigger: trigger.name,
			pollTimesFirst: true,
			events: trigger.name === 'schedulingPlatformTrigger' ? 2 : 1,
			next: 'authentication',
			last: ['actAsUser', 'options'],
		});
	}
});

test('the action nodes\' Act As User comes below the operations\' own fields, last before Request Options', async () => {
	for (const node of (await nodes()).filter((description) => !description.group.includes('trigger'))) {
		const names = node.properties.map((property: INodeProperties) => property.name);
		expect({ node: node.name, first: names[0], last: names.slice(-2) }).toEqual({ node: node.name, first: 'authentication', last: ['actAsUser', 'requestOptions'] });
	}
});

test('Options → Full Record is offered for exactly the events that read each record on its own', () => {
	// An event made from the node's options at each poll, made here with each option's default.
	const defaults = { getNodeParameter: (_name: string, fallback: unknown) => fallback } as unknown as IPollFunctions;
	for (const area of [schedulingArea, crmArea, messengerArea, signaturesArea, invoicingArea]) {
		const reading = Object.entries(area.events).filter(([, event]) => {
			const made = typeof event === 'function' ? event(defaults) : event;
			return 'detail' in made && made.detail !== undefined;
		});
		expect(area.fullRecord).toEqual(reading.map(([name]) => name));
	}
});
