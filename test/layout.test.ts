import { readdirSync, readFileSync, statSync } from 'fs';
import { dirname, join, relative, resolve, sep } from 'path';

/**
 * The layout is the architecture (ARCHITECTURE.md): nodes/shared is the one machinery, and each product area has one
 * folder with its action node, its triggers, its events, its pickers and records and its error hints. An area imports
 * only itself, nodes/shared and what another area offers every node: its `records.ts` (Invoicing picks CRM contacts,
 * Routing the Scheduling meeting types) and its `errorHints.ts`. Version 1 of the Scheduling trigger offered every
 * area's events, so it alone imports the other areas' `events.ts`. nodes/shared imports no area and names no product
 * API path but the users list every credential's acting user is picked from (api-reference §1).
 */

const NODES = resolve(__dirname, '..', 'package', 'nodes');

function sources(folder: string): string[] {
	return readdirSync(folder).flatMap((name) => {
		const path = join(folder, name);
		if (statSync(path).isDirectory()) return sources(path);
		return name.endsWith('.ts') ? [path] : [];
	});
}

/** The top folder under nodes/ and the module's name (its file without folder) of each relative import of a file. */
function importedModules(file: string): Array<[string, string]> {
	const specifiers = [...readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)].map((match) => match[1]);
	return specifiers.map((specifier) => {
		const parts = relative(NODES, resolve(dirname(file), specifier)).split(sep);
		return [parts[0], parts[parts.length - 1]];
	});
}

const AREAS = readdirSync(NODES).filter((folder) => folder !== 'shared');

/** What a file of an area may import from another area. */
const OFFERED = ['records', 'errorHints'];

test.each(AREAS)('nodes/%s imports only itself, nodes/shared and other areas\' records and error hints', (folder) => {
	const sideways = sources(join(NODES, folder)).flatMap((file) =>
		importedModules(file)
			.filter(([area, module]) => area !== folder && area !== 'shared' && !OFFERED.includes(module))
			.filter(([, module]) => !(relative(NODES, file) === join('SchedulingPlatform', 'SchedulingPlatformTrigger.node.ts') && module === 'events'))
			.map(([area, module]) => `${relative(NODES, file)} → ${area}/${module}`),
	);
	expect(sideways).toEqual([]);
});

test('nodes/shared imports no area and names no product API path (only the users list of the acting user, §1)', () => {
	const files = sources(join(NODES, 'shared'));
	expect(files.flatMap((file) => importedModules(file).filter(([area]) => area !== 'shared').map(([area, module]) => `${relative(NODES, file)} → ${area}/${module}`))).toEqual([]);
	const paths = files.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/path: '([^']+)'/g)].map((match) => `${relative(NODES, file)}: ${match[1]}`));
	expect(paths.filter((path) => !/: \/v4\/user(\/me)?$/.test(path))).toEqual([]);
});

test('every area folder holds nodes the package lists, and every node file the package lists is in an area folder', () => {
	const listed = (JSON.parse(readFileSync(join(NODES, '..', 'package.json'), 'utf8')).n8n.nodes as string[]).map((file) => file.replace(/^dist\/nodes\//, '').replace(/\.js$/, '.ts'));
	const found = AREAS.flatMap((folder) => readdirSync(join(NODES, folder)).filter((name) => name.endsWith('.node.ts')).map((name) => `${folder}/${name}`));
	expect(found.sort()).toEqual([...listed].sort());
	expect(AREAS.every((folder) => found.some((file) => file === `${folder}/${folder}.node.ts`))).toBe(true);
});
