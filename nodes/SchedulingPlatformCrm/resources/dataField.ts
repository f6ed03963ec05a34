import type { INodeProperties } from 'n8n-workflow';

import type { ResourceDefinitions } from '../../shared/types';

/** Data Field (api-reference §3): to be built (issue 9). */
export const dataFieldOperations: ResourceDefinitions = {};

export const dataFieldProperties: INodeProperties[] = [];
