import type { ILoadOptionsFunctions, ResourceMapperFields } from 'n8n-workflow';

import { withFixInMessage } from '../shared/editorLoaders';
import { failWith, readItems } from '../shared/transport/answers';
import { apiRequest } from '../shared/transport/request';
import type { DataField } from './contactFields';
import { DATA_FIELDS_REQUEST, mapperFields, notLoadedField } from './contactFields';
import { DATA_FIELD_ITEMS } from './resources/dataField';

/** Resource mapper loaders of the CRM node: the fields a record offers, with their types. */

/** The company's data fields, or why they could not be read (the error's message with its fix). */
async function dataFields(ctx: ILoadOptionsFunctions): Promise<DataField[] | string> {
	try {
		return readItems(await apiRequest(ctx, 0, DATA_FIELDS_REQUEST), DATA_FIELD_ITEMS, failWith(ctx.getNode())) as unknown as DataField[];
	} catch (error) {
		const explained = withFixInMessage(error);
		return explained instanceof Error ? explained.message : String(explained);
	}
}

/**
 * A contact's own fields (fixed, always listed) and the company's data fields (Import Many: the fields the bulk
 * import takes). When the data fields cannot be read (a wrong Base URL, an expired token), the own fields are still
 * listed, with a read-only line that says why the data fields are missing; in Map Automatically mode n8n shows the
 * reason as the mapper's notice.
 */
export async function getContactFields(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
	const operation = String(this.getNodeParameter('operation', ''));
	const loaded = await dataFields(this);
	if (typeof loaded !== 'string') return { fields: mapperFields(operation, loaded) };
	const notice = `The company's data fields could not be loaded, so only the contact's own fields are listed: ${loaded}`;
	return { fields: [...mapperFields(operation, []), notLoadedField(loaded)], emptyFieldsNotice: escapeHtml(notice) };
}

/** n8n shows the notice as HTML: the reason is text. */
function escapeHtml(text: string): string {
	return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
