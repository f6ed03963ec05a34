import type { ILoadOptionsFunctions, INodeExecutionData, INodeListSearchResult, INodeProperties, INodePropertyOptions, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { actAsUserProperty, authenticationProperty } from '../authentication';
import { gatheredFields } from '../declare';
import { forTheEditor } from '../editorLoaders';
import { testSchedulingPlatformCredential } from '../credentialTest';
import { searchActingUsers } from '../listSearch';
import type { TriggerEvent } from './watch';
import { pollEvent } from './watch';

/**
 * What the polling trigger nodes are made of. n8n's node panel lists a trigger's events under the action node whose
 * type name is the trigger's without "Trigger" (schedulingPlatformCrmTrigger under schedulingPlatformCrm), and its
 * search reads only the action node's name and aliases: so each product area has a trigger of its own, offering
 * the area's events (each area's events.ts, declared with declareArea). All of them poll alike (watch.ts, snapshot.ts).
 */

type ListSearch = (this: ILoadOptionsFunctions, filter?: string, paginationToken?: string) => Promise<INodeListSearchResult>;

/** One product area's events, as its trigger offers them. */
export interface TriggerArea {
	/** What each event reads, by its value in the Event list. */
	events: Record<string, TriggerEvent>;
	/** The Event list's entries. */
	options: INodePropertyOptions[];
	/** The fields that narrow the events, each shown for its events. */
	filters: INodeProperties[];
	/** The events whose records have a read of their own (Options → Full Record). */
	fullRecord: string[];
	/** The lists the filters load (resource locators' From List mode). */
	listSearch: Record<string, ListSearch>;
}

/** One polling event of an area, declared in one entry: its Event option, what it reads, and the fields shown for it. */
export interface EventDeclaration {
	option: { name: string; description: string };
	read: TriggerEvent;
	/** The fields that narrow or set it (filters, minutes), in order; a field listed by several events is one field shown for each. */
	fields?: INodeProperties[];
	/** Whether its records have a read of their own (Options → Full Record). */
	fullRecord?: boolean;
}

/** An area's trigger events from their declarations (the Event list in declaration order), and the lists its fields load. */
export function declareArea(events: Record<string, EventDeclaration>, listSearch: Record<string, ListSearch>): TriggerArea {
	const entries = Object.entries(events);
	return {
		events: Object.fromEntries(entries.map(([value, { read }]) => [value, read])),
		options: entries.map(([value, { option }]) => ({ name: option.name, value, description: option.description })),
		filters: gatheredFields('trigger events', entries.map(([value, { fields = [] }]) => [value, fields]), (values) => ({ event: values })),
		fullRecord: entries.filter(([, { fullRecord }]) => fullRecord).map(([value]) => value),
		listSearch,
	};
}

/** The Event list of these areas; with `version`, shown only on that version of the node. */
export function eventField(areas: TriggerArea[], version?: number): INodeProperties {
	const first = areas[0].options[0].value;
	return {
		displayName: 'Event',
		name: 'event',
		type: 'options',
		noDataExpression: true,
		options: areas.flatMap((area) => area.options),
		default: first,
		...(version === undefined ? {} : { displayOptions: { show: { '@version': [version] } } }),
	};
}

const notice: INodeProperties = {
	displayName:
		'Fires once for each new event after the workflow is published (set active in n8n 1.x); what existed before is not emitted. Fetch Test Event shows the newest one. Each poll uses the credential\'s rate limit, shared with every other node that uses it.',
	name: 'notice',
	type: 'notice',
	default: '',
};

function fullRecordOption(events: string[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: { event: events } },
		options: [
			{
				displayName: 'Full Record',
				name: 'fullRecord',
				type: 'boolean',
				default: false,
				description: 'Whether to read each new record on its own (one request each) and output that answer instead of the list\'s',
			},
		],
	};
}

/**
 * A polling trigger's fields, the Event list first (n8n itself puts Poll Times above the fields of every polling
 * node): what it costs, Authentication, the events' filters, Act As User (optional) and Full Record. `events`
 * replaces the one Event list of the areas (one list per version of the node).
 */
export function triggerProperties(areas: TriggerArea[], events: INodeProperties[] = [eventField(areas)]): INodeProperties[] {
	const filters = areas.flatMap((area) => area.filters);
	return [...events, notice, authenticationProperty, ...filters, actAsUserProperty, fullRecordOption(areas.flatMap((area) => area.fullRecord))];
}

/** The canvas shows the chosen event's name under the node. */
export function triggerSubtitle(areas: TriggerArea[]): string {
	const names = Object.fromEntries(areas.flatMap((area) => area.options).map((option) => [option.value, option.name]));
	return `={{ ${JSON.stringify(names)}[$parameter["event"]] }}`;
}

/** The lists of the trigger's fields: Act As User's and the filters'. */
export function triggerListSearch(areas: TriggerArea[]): Record<string, ListSearch> {
	return forTheEditor(Object.assign({ searchActingUsers }, ...areas.map((area) => area.listSearch)) as Record<string, ListSearch>);
}

/** One poll of the node's Event, one of these areas' events. */
export async function pollTrigger(ctx: IPollFunctions, areas: TriggerArea[], properties: INodeProperties[]): Promise<INodeExecutionData[][] | null> {
	const event = ctx.getNodeParameter('event') as string;
	const area = areas.find((candidate) => candidate.options.some((option) => option.value === event));
	if (!area) {
		throw Object.assign(
			new NodeOperationError(ctx.getNode(), `This trigger has no event "${event}"`, {
				description: 'Pick one from its Event list. Each product area has a trigger of its own: Scheduling Platform (bookings), CRM, Messenger, Signatures and Invoicing Trigger.',
			}),
			{ failure: { cause: 'configuration-invalid' } },
		);
	}
	return await pollEvent(ctx, event, area.events[event], properties);
}

/**
 * What an area's trigger node adds to its description (which stays a literal in its own file, for n8n's lint): the
 * credential test, the lists, and the poll of its events.
 */
export function pollingMembers(areas: TriggerArea[], properties: INodeProperties[]) {
	return {
		methods: {
			credentialTest: { schedulingPlatformCredentialTest: testSchedulingPlatformCredential },
			listSearch: triggerListSearch(areas),
		},
		async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
			return await pollTrigger(this, areas, properties);
		},
	};
}
