// n8n's verification scanner (@n8n/scan-community-package) on this package, without a registry: its two lint legs with
// its own configuration (buildScanConfig) and file patterns, the way `npx @n8n/scan-community-package <name>` runs them
// after fetching a published version. The provenance check and the downloads are the only parts left out (they need a
// version published from GitHub; .github/workflows/publish.yml publishes with provenance).
//   source leg: the files git would commit (tracked, and new files not ignored), where the scanner finds the package's
//               root by its name, then package.json and {nodes,credentials}/**/*.{js,ts,json};
//   tarball leg: `npm pack` of package/ (after `npm run build`), unpacked, then **/*.js and package.json.
// Any error or warning fails (the scanner itself fails on errors only). Usage: node scripts/scan-package.mjs
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import glob from 'fast-glob';
import { SOURCE_FILE_PATTERNS, buildScanConfig, findPackageRoot } from '@n8n/scan-community-package/scanner/scanner.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const packageName = JSON.parse(readFileSync(join(repo, 'package', 'package.json'), 'utf8')).name;
const work = mkdtempSync(join(tmpdir(), 'scan-package-'));

/** The scanner's lint of one folder: its config, inline comments ignored, the files of the patterns. */
async function lintLeg(label, dir, patterns) {
	const eslint = new ESLint({ cwd: dir, allowInlineConfig: false, overrideConfigFile: true, overrideConfig: await buildScanConfig() });
	const files = glob.sync(patterns, { cwd: dir, absolute: true, ignore: ['node_modules/**', '**/package-lock.json'] });
	if (files.length === 0) throw new Error(`${label}: no files to lint in ${dir}`);
	const results = await eslint.lintFiles(files);
	const errors = results.reduce((sum, result) => sum + result.errorCount, 0);
	const warnings = results.reduce((sum, result) => sum + result.warningCount, 0);
	if (errors + warnings > 0) console.log(await (await eslint.loadFormatter('stylish')).format(results));
	console.log(`scanner ${label}: ${files.length} files, ${errors} errors, ${warnings} warnings`);
	return errors + warnings;
}

function sourceCheckout() {
	const source = join(work, 'source');
	const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: repo, encoding: 'utf8' }).split('\0').filter(Boolean);
	for (const file of files) {
		mkdirSync(dirname(join(source, file)), { recursive: true });
		cpSync(join(repo, file), join(source, file), { dereference: true, errorOnExist: false });
	}
	const root = findPackageRoot(source, packageName);
	if (!root) throw new Error(`source leg: no package.json named ${packageName} in the repository`);
	return root;
}

function unpackedTarball() {
	const packed = join(work, 'packed');
	mkdirSync(packed);
	const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', work], { cwd: join(repo, 'package'), encoding: 'utf8' }).trim().split('\n').pop();
	execFileSync('tar', ['-xzf', join(work, tarball), '-C', packed, '--strip-components=1']);
	return packed;
}

try {
	const problems = (await lintLeg('source leg', sourceCheckout(), SOURCE_FILE_PATTERNS)) + (await lintLeg('tarball leg', unpackedTarball(), ['**/*.js', 'package.json']));
	process.exitCode = problems === 0 ? 0 : 1;
} finally {
	rmSync(work, { recursive: true, force: true });
}
