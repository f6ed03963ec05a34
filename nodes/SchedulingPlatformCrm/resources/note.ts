import type { INodeProperties } from 'n8n-workflow';

import type { ResourceDefinitions } from '../../shared/types';

/** Note (api-reference §3): to be built (issue 9). */
export const noteOperations: ResourceDefinitions = {};

export const noteProperties: INodeProperties[] = [];
