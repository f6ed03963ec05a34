import type { INodeProperties } from 'n8n-workflow';

import type { ResourceDefinitions } from '../../shared/types';

/** Pipeline (api-reference §3): to be built (issue 9). */
export const pipelineOperations: ResourceDefinitions = {};

export const pipelineProperties: INodeProperties[] = [];
