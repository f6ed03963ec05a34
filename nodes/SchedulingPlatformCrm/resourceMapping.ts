import type { ILoadOptionsFunctions, ResourceMapperFields } from 'n8n-workflow';

import { failWith, readItems } from '../shared/transport/answers';
import { apiRequest } from '../shared/transport/request';
import type { DataField } from './contactFields';
import { DATA_FIELDS_REQUEST, mapperFields } from './contactFields';
import { DATA_FIELD_ITEMS } from './resources/dataField';

/** Resource mapper loaders of the CRM node: the fields a record offers, with their types. */

/** A contact's own fields and the company's data fields (Import Many: the fields the bulk import takes). */
export async function getContactFields(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
	const operation = String(this.getNodeParameter('operation', ''));
	const answer = await apiRequest(this, 0, DATA_FIELDS_REQUEST);
	return { fields: mapperFields(operation, readItems(answer, DATA_FIELD_ITEMS, failWith(this.getNode())) as unknown as DataField[]) };
}
