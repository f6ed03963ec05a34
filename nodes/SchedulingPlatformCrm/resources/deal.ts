import type { INodeProperties } from 'n8n-workflow';

import type { ResourceDefinitions } from '../../shared/types';

/** Deal (api-reference §3): to be built (issue 9). */
export const dealOperations: ResourceDefinitions = {};

export const dealProperties: INodeProperties[] = [];
