import { existsSync, readFileSync } from 'fs';
import { dirname, join } from 'path';

export const PACKAGE_NAME = 'n8n-nodes-scheduling-platform';

/** The package root, whether this file runs from test/harness (jest) or build/test/harness (scripts). */
function findPackageDir(from: string): string {
	const manifest = join(from, 'package.json');
	if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === PACKAGE_NAME) return from;
	if (dirname(from) === from) throw new Error(`${PACKAGE_NAME} not found above ${__dirname}`);
	return findPackageDir(dirname(from));
}

export const PACKAGE_DIR = findPackageDir(__dirname);
