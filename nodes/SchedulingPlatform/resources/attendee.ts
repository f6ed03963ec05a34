import type { INodeProperties } from 'n8n-workflow';

import type { ResourceDefinitions } from '../types';

/** TODO(helper): operations of this resource. */
export const attendeeOperations: ResourceDefinitions = {};

export const attendeeProperties: INodeProperties[] = [];
