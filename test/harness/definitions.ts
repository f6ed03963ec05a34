import { readdirSync } from 'fs';
import { join } from 'path';

import type { ResourceDefinitions } from '../../package/nodes/shared/types';
import { PACKAGE_DIR } from '../../scripts/packageDir';

/**
 * Every operation definition of the package: each `<resource>Operations` export of the compiled resource files
 * (dist/nodes/<node>/resources/<group>.js), with its file and resource name.
 */
export async function definitions(): Promise<Array<{ file: string; resource: string; operations: ResourceDefinitions }>> {
	const nodesDir = join(PACKAGE_DIR, 'dist', 'nodes');
	const files = readdirSync(nodesDir, { recursive: true, encoding: 'utf8' }).filter((file) => /^[^/]+\/resources\/[^/]+\.js$/.test(file));
	const found = [];
	for (const file of files) {
		const exported = (await import(join(nodesDir, file))) as Record<string, unknown>;
		for (const [name, operations] of Object.entries(exported)) {
			if (name.endsWith('Operations')) found.push({ file: file.split('/').pop()!, resource: name.slice(0, -'Operations'.length), operations: operations as ResourceDefinitions });
		}
	}
	return found;
}
