import { readdirSync, readFileSync, statSync } from 'fs';
import { dirname, join, relative, resolve, sep } from 'path';

/**
 * The layout is the architecture (ARCHITECTURE.md): nodes/shared is the one machinery, and each node folder imports
 * only itself and nodes/shared. A picker or field several nodes use lives in nodes/shared/records, never in one
 * node's folder imported sideways by another; nodes/shared imports no node folder.
 */

const NODES = resolve(__dirname, '..', 'package', 'nodes');

function sources(folder: string): string[] {
	return readdirSync(folder).flatMap((name) => {
		const path = join(folder, name);
		if (statSync(path).isDirectory()) return sources(path);
		return name.endsWith('.ts') ? [path] : [];
	});
}

/** The top folder under nodes/ of each relative import of a file. */
function importedFolders(file: string): string[] {
	const specifiers = [...readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)].map((match) => match[1]);
	return specifiers.map((specifier) => relative(NODES, resolve(dirname(file), specifier)).split(sep)[0]);
}

test.each(readdirSync(NODES))('nodes/%s imports only itself and nodes/shared', (folder) => {
	const allowed = folder === 'shared' ? ['shared'] : [folder, 'shared'];
	const sideways = sources(join(NODES, folder)).flatMap((file) =>
		importedFolders(file)
			.filter((imported) => !allowed.includes(imported))
			.map((imported) => `${relative(NODES, file)} → ${imported}`),
	);
	expect(sideways).toEqual([]);
});
