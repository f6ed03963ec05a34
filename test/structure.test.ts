import { existsSync, readFileSync, readdirSync, statSync } from 'fs';
import { dirname, join, relative, resolve } from 'path';
import { preProcessFile } from 'typescript';

import { REPO_DIR } from '../scripts/packageDir';

/**
 * The import graph of the repository's TypeScript (ARCHITECTURE.md): no import circles anywhere (type imports
 * included: a circle of types is a circle of meaning), the package imports nothing outside itself, scripts/ and
 * sandbox/ import no test code, and the sandbox imports no script.
 */

const FOLDERS = ['package/nodes', 'package/credentials', 'scripts', 'sandbox', 'test'];

function sources(folder: string): string[] {
	return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
		const path = join(folder, entry.name);
		if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name.startsWith('.') ? [] : sources(path);
		return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
	});
}

/**
 * The repository's files a file imports (relative imports only: packages are not the repository's); an import of
 * the compiled package (package/dist, what tests and scripts run) counts as one of its source.
 */
function importsOf(file: string): string[] {
	const { importedFiles } = preProcessFile(readFileSync(file, 'utf8'), true, true);
	return importedFiles
		.filter(({ fileName }) => fileName.startsWith('.'))
		.map(({ fileName }) => {
			const target = resolve(dirname(file), fileName).replace(join(REPO_DIR, 'package', 'dist'), join(REPO_DIR, 'package'));
			const found = [`${target}.ts`, join(target, 'index.ts'), target].find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
			if (!found) throw new Error(`${relative(REPO_DIR, file)} imports ${fileName}, which is not there`);
			return found;
		});
}

const files = FOLDERS.flatMap((folder) => sources(join(REPO_DIR, folder)));
const graph = new Map(files.map((file) => [file, importsOf(file)]));
const name = (file: string) => relative(REPO_DIR, file);

/** Every circle once, as the files along it. */
function circles(): string[][] {
	const found: string[][] = [];
	const state = new Map<string, 'open' | 'done'>();
	const path: string[] = [];
	const visit = (file: string) => {
		state.set(file, 'open');
		path.push(file);
		for (const next of graph.get(file) ?? []) {
			if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next].map(name));
			else if (!state.has(next)) visit(next);
		}
		path.pop();
		state.set(file, 'done');
	};
	for (const file of files) if (!state.has(file)) visit(file);
	return found;
}

/** Imports from files under `from` into files under `into`, as "importer -> imported". */
function importsAcross(from: string, into: string): string[] {
	return [...graph].flatMap(([file, imported]) => (name(file).startsWith(from) ? imported.filter((target) => name(target).startsWith(into)).map((target) => `${name(file)} -> ${name(target)}`) : []));
}

test('the repository\'s TypeScript has no import circles', () => {
	expect(graph.size).toBeGreaterThan(200);
	expect(circles()).toEqual([]);
});

test('the package imports only itself; scripts/ and sandbox/ import no test code; the sandbox imports no script', () => {
	const outside = [...graph].flatMap(([file, imported]) => (name(file).startsWith('package/') ? imported.filter((target) => !name(target).startsWith('package/')).map((target) => `${name(file)} -> ${name(target)}`) : []));
	expect(outside).toEqual([]);
	expect([...importsAcross('scripts/', 'test/'), ...importsAcross('sandbox/', 'test/'), ...importsAcross('sandbox/', 'scripts/')]).toEqual([]);
});

test('the circle check finds a circle when there is one', () => {
	const [a, b] = files;
	graph.set(a, [...(graph.get(a) ?? []), b]);
	graph.set(b, [...(graph.get(b) ?? []), a]);
	try {
		expect(circles().some((circle) => circle.includes(name(a)) && circle.includes(name(b)))).toBe(true);
	} finally {
		graph.set(a, importsOf(a));
		graph.set(b, importsOf(b));
	}
	expect(circles()).toEqual([]);
});
