import type { INodeProperties } from 'n8n-workflow';

import type { ResourceDefinitions } from '../../shared/types';

/** Communication (api-reference §3): to be built (issue 9). */
export const communicationOperations: ResourceDefinitions = {};

export const communicationProperties: INodeProperties[] = [];
