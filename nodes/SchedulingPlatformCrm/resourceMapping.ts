import type { IDataObject, ILoadOptionsFunctions, ResourceMapperFields } from 'n8n-workflow';

import { apiRequest } from '../shared/transport/request';
import type { DataField } from './contactFields';
import { DATA_FIELDS_REQUEST, mapperFields } from './contactFields';

/** Resource mapper loaders of the CRM node: the fields a record offers, with their types. */

/** A contact's own fields and the company's data fields (Import Many: the fields the bulk import takes). */
export async function getContactFields(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
	const operation = String(this.getNodeParameter('operation', ''));
	const answer = (await apiRequest(this, 0, DATA_FIELDS_REQUEST)) as IDataObject;
	return { fields: mapperFields(operation, (answer.dataFields ?? []) as DataField[]) };
}
