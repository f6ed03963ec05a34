import { existsSync, readFileSync } from 'fs';
import { dirname, join } from 'path';

export const PACKAGE_NAME = 'n8n-nodes-scheduling-platform';

/** The repository's root (tests, sandbox, scripts, docs, examples), whether this file runs from scripts (jest) or build/scripts (the compiled scripts). */
function findRepoDir(from: string): string {
	const manifest = join(from, 'package', 'package.json');
	if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === PACKAGE_NAME) return from;
	if (dirname(from) === from) throw new Error(`${PACKAGE_NAME} not found above ${__dirname}`);
	return findRepoDir(dirname(from));
}

export const REPO_DIR = findRepoDir(__dirname);
/** The n8n package itself (package.json, nodes, credentials, dist): what npm publishes. */
export const PACKAGE_DIR = join(REPO_DIR, 'package');
