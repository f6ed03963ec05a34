import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { searchUsers } from '../shared/listSearch';
import { userLocator } from '../shared/locators';
import { declareArea } from '../shared/trigger/pollingNode';
import type { RecordCheck } from '../shared/trigger/eventParts';
import type { WatchedEvent } from '../shared/trigger/watch';
import { pipelineLocator, searchPipelines } from './records';

/**
 * CRM events (api-reference §3 and §8): contacts and deals newest first by creation. Won and lost deals: the list
 * filtered by isWon / isLost, newest first by updatedAt (a deal's update time is never before its wonAt / lostAt),
 * read down to the watermark; the event's moment is wonAt / lostAt. Deal sorts are not documented: the trigger
 * checks the order that comes back (shared/trigger/watch.ts) and reads the whole list when it was ignored. A deal may
 * be reopened (and closed again) before the next poll, so a close read cannot wait for room (`changes`): every close
 * read comes out at once, and a list that moved while it was read is read again in the same poll.
 */

const contactOfRow = (row: IDataObject) => ({ ...(row.item as IDataObject), appointments: row.appointments, nextAppointmentIso: row.nextAppointmentIso });
const dealPagination = { style: 'page1', itemsKey: 'deals' } as const;
const dealFilters = { pipelineId: 'dealFilters.pipeline', ownerId: 'dealFilters.owner' };
const userCheck: RecordCheck = { noun: 'user', path: '/v4/user/{id}' };
const dealFilterRecords: Record<string, RecordCheck> = {
	'dealFilters.pipeline': { noun: 'pipeline', path: '/crm/pipelines', inList: true },
	'dealFilters.owner': userCheck,
};
const dealDetail = { path: '/crm/deals/{id}' };
const closed = (flag: 'isWon' | 'isLost', field: 'wonAt' | 'lostAt'): WatchedEvent => ({
	noun: flag === 'isWon' ? 'won deal' : 'lost deal',
	list: { path: '/crm/deals', qs: { [flag]: true, sortBy: 'updatedAt', sortOrder: 'DESC' }, pagination: dealPagination },
	filters: dealFilters,
	filterRecords: dealFilterRecords,
	happenedAt: (deal) => deal[field] ?? undefined,
	sortedBy: (deal) => deal.updatedAt,
	key: (deal) => `${String(deal.id)}:${String(deal[field])}`,
	// Reopened (and closed again) before the next poll, a deal's close would be missed: nothing read waits.
	changes: true,
	detail: dealDetail,
});

const ownerField = (description: string): INodeProperties => ({
	displayName: 'Owner',
	name: 'owner',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	description,
	...userLocator,
});

const contactFilters: INodeProperties = {
	displayName: 'Filters',
	name: 'contactFilters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options: [ownerField('Only contacts this user owns')],
};

const dealFilterField: INodeProperties = {
	displayName: 'Filters',
	name: 'dealFilters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options: [
		{
			displayName: 'Pipeline',
			name: 'pipeline',
			type: 'resourceLocator',
			default: { mode: 'list', value: '' },
			description: 'Only deals of this pipeline',
			...pipelineLocator,
		},
		ownerField('Only deals this user owns'),
	],
};

/** The Scheduling Platform CRM Trigger's events. */
export const crmArea = declareArea(
	{
		newContact: {
			option: { name: 'New Contact', description: 'A CRM contact is created (also by a booking or an import)' },
			read: {
				noun: 'contact',
				list: {
					path: '/crm',
					qs: { sortBy: 'createdAt', sortOrder: 'DESC' },
					pagination: { style: 'page1', pick: (answer) => (((answer as IDataObject).result ?? []) as IDataObject[]).map(contactOfRow) },
				},
				filters: { ownerId: 'contactFilters.owner' },
				filterRecords: { 'contactFilters.owner': userCheck },
				happenedAt: (contact) => contact.createdAt,
				detail: { path: '/crm/details', qs: (contact) => ({ contactId: contact.id }), pick: (answer) => contactOfRow(answer as IDataObject) },
			},
			fields: [contactFilters],
			fullRecord: true,
		},
		newDeal: {
			option: { name: 'New Deal', description: 'A deal is created' },
			read: {
				noun: 'deal',
				list: { path: '/crm/deals', qs: { sortBy: 'createdAt', sortOrder: 'DESC' }, pagination: dealPagination },
				filters: dealFilters,
				filterRecords: dealFilterRecords,
				happenedAt: (deal) => deal.createdAt,
				detail: dealDetail,
			},
			fields: [dealFilterField],
			fullRecord: true,
		},
		dealWon: { option: { name: 'Deal Won', description: 'A deal is marked as won' }, read: closed('isWon', 'wonAt'), fields: [dealFilterField], fullRecord: true },
		dealLost: { option: { name: 'Deal Lost', description: 'A deal is marked as lost' }, read: closed('isLost', 'lostAt'), fields: [dealFilterField], fullRecord: true },
	},
	{ searchUsers, searchPipelines },
);
