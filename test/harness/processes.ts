import type { IDataObject, IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { join } from 'path';

import { PACKAGE_DIR } from '../../scripts/packageDir';

/**
 * Several n8n processes on one credential inside one jest process: each is a copy of the compiled transport with
 * its own module state, so with its own rate-limit buckets, as each n8n process (a queue-mode worker, another
 * instance) has its own. The context gives the transport what it needs of n8n for a PAT credential.
 */

export type Transport = typeof import('../../package/dist/nodes/shared/transport/request');
export type Parallel = typeof import('../../package/dist/nodes/shared/parallel');

export const distFile = (file: string) => join(PACKAGE_DIR, 'dist/nodes/shared', file);

/** A copy of the compiled transport with module state of its own. */
export function separateTransport(): Transport {
	let transport: Transport | undefined;
	jest.isolateModules(() => {
		transport = jest.requireActual<Transport>(distFile('transport/request.js'));
	});
	return transport as Transport;
}

/** An answer as n8n's request helper gives it with `returnFullResponse`. */
export interface FullResponse {
	statusCode: number;
	headers: IDataObject;
	body: unknown;
}

/** What the transport needs of n8n: the PAT credential and a request helper that sends with `send`. */
export function transportContext(credential: IDataObject, send: (options: IHttpRequestOptions) => Promise<FullResponse>): IExecuteFunctions {
	return {
		getNodeParameter: (name: string, _index: number, fallback: unknown) => (name === 'authentication' ? 'personalAccessToken' : fallback),
		getCredentials: async () => credential,
		getNode: () => ({ name: 'Scheduling Platform', type: 'schedulingPlatform', typeVersion: 1, position: [0, 0], parameters: {}, id: 'n' }),
		helpers: { httpRequestWithAuthentication: async (_type: string, options: IHttpRequestOptions) => await send(options) },
	} as unknown as IExecuteFunctions;
}
