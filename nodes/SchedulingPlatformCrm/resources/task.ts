import type { INodeProperties } from 'n8n-workflow';

import type { ResourceDefinitions } from '../../shared/types';

/** Task (api-reference §3): to be built (issue 9). */
export const taskOperations: ResourceDefinitions = {};

export const taskProperties: INodeProperties[] = [];
