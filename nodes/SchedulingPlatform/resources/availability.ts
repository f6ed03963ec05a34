import type { INodeProperties } from 'n8n-workflow';

import type { ResourceDefinitions } from '../types';

/** TODO(helper): operations of this resource. */
export const availabilityOperations: ResourceDefinitions = {};

export const availabilityProperties: INodeProperties[] = [];
