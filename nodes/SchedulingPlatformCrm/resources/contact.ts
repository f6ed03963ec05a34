import type { INodeProperties } from 'n8n-workflow';

import type { ResourceDefinitions } from '../../shared/types';

/** Contact (api-reference §3): to be built (issue 9). */
export const contactOperations: ResourceDefinitions = {};

export const contactProperties: INodeProperties[] = [];
