import type { INodeProperties } from 'n8n-workflow';

import type { ResourceDefinitions } from '../../shared/types';

/** Company (api-reference §3): to be built (issue 9). */
export const companyOperations: ResourceDefinitions = {};

export const companyProperties: INodeProperties[] = [];
