import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { matches } from '../listSearch';
import { locator } from '../locators';
import { apiRequest } from '../transport/request';

/** Meeting types, which the Scheduling, Routing and trigger nodes pick: the "From List" loader and the resource locator. */

export const meetingTypeLocator = locator('searchMeetingTypes', 'Meeting Type ID');

export async function searchMeetingTypes(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const meetingTypes = (await apiRequest(this, 0, { method: 'GET', path: '/v4/meeting-type' })) as IDataObject[];
	return {
		results: meetingTypes
			.filter((type) => matches(filter, (type.meetingInfo as IDataObject)?.name, type.slug, type.id))
			.map((type) => ({ name: String((type.meetingInfo as IDataObject)?.name ?? type.slug), value: String(type.id) })),
	};
}
