import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

import { API_KEY_TYPE, PAT_TYPE } from './harness/world';
import { PACKAGE_NAME, getEngine } from '../scripts/engine';
import { PACKAGE_DIR, REPO_DIR } from '../scripts/packageDir';

/**
 * The documentation: package/README.md is the npm page (npm shows about 64,000 characters of it, with no files of the
 * repository beside it), the manual is docs/*.md on GitHub, and the root README.md points at both.
 *
 * - The documentation links n8n shows (a credential's "Open docs", a node's "Docs") lead to a heading of a page in the
 *   repository the package is published from (package.json's `repository`, which `homepage` names too): the address
 *   is derived from it, mapped back to the local file, and the heading found by GitHub's anchor rules.
 * - package/README.md links only absolutely (it is read on npm too); its links into the repository (GitHub pages of
 *   files and folders, raw images) lead to files that exist, and to their headings.
 * - docs/*.md and the root README.md link relatively (they are read on GitHub only); every such link leads to a file
 *   or folder of the repository and, with an anchor, to a heading of it.
 */

const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { homepage: string; repository: { type: string; url: string } };
const readme = readFileSync(join(PACKAGE_DIR, 'README.md'), 'utf8');

/** The repository's web address: `git+https://github.com/<owner>/<name>.git` without `git+` and `.git`. */
const repositoryAddress = manifest.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
/** Its raw file address (images): `https://raw.githubusercontent.com/<owner>/<name>`. */
const rawAddress = repositoryAddress.replace(/^https:\/\/github\.com\//, 'https://raw.githubusercontent.com/');

/** The Markdown pages of the manual (docs/*.md) and the root README.md, each by its path from the repository. */
const docsDir = join(REPO_DIR, 'docs');
const manualPages = readdirSync(docsDir).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`);
const relativePages = [...manualPages, 'README.md'];

/** The headings of a Markdown text (ATX, levels 1 to 6), outside fenced code blocks. */
function headingsOf(markdown: string): string[] {
	const headings: string[] = [];
	let fenced = false;
	for (const line of markdown.split('\n')) {
		if (/^ {0,3}(```|~~~)/.test(line)) fenced = !fenced;
		const heading = fenced ? null : /^ {0,3}#{1,6}\s+(.*?)(\s+#+)?\s*$/.exec(line);
		if (heading) headings.push(heading[1]);
	}
	return headings;
}

/**
 * GitHub's anchors of headings: the text as shown (links, code and emphasis marks dropped), lower case, every
 * character other than a letter, digit, space, hyphen or underscore removed, each space a hyphen; a repeated anchor
 * gets -1, -2, ...
 */
function anchorsOf(markdown: string): string[] {
	const seen = new Map<string, number>();
	return headingsOf(markdown).map((heading) => {
		const text = heading.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*]/g, '');
		const anchor = text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
		const repeats = seen.get(anchor);
		seen.set(anchor, (repeats ?? -1) + 1);
		return repeats === undefined ? anchor : `${anchor}-${repeats + 1}`;
	});
}

/**
 * The link and image targets of a Markdown text (`[text](target)`, `![alt](target "title")`, `[name]: target`,
 * `<https://...>`), outside fenced code blocks and code spans.
 */
function linksOf(markdown: string): string[] {
	const links: string[] = [];
	let fenced = false;
	for (const line of markdown.split('\n')) {
		if (/^ {0,3}(```|~~~)/.test(line)) {
			fenced = !fenced;
			continue;
		}
		if (fenced) continue;
		const text = line.replace(/`[^`]*`/g, '``');
		for (const match of text.matchAll(/\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)) links.push(match[1]);
		for (const match of text.matchAll(/<((?:https?|mailto):[^>\s]+)>/g)) links.push(match[1]);
		const reference = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(\s+"[^"]*")?\s*$/.exec(text);
		if (reference) links.push(reference[1]);
	}
	return links;
}

function splitAnchor(target: string): { path: string; anchor?: string } {
	const hash = target.indexOf('#');
	return hash < 0 ? { path: target } : { path: target.slice(0, hash), anchor: decodeURIComponent(target.slice(hash + 1)) };
}

/**
 * The local file of an address in this repository on GitHub (`<repository>/blob/main/<path>`, `/tree/main/<path>`,
 * `raw.githubusercontent.com/<owner>/<name>/main/<path>`), with its anchor; undefined for any other address.
 */
function localTarget(url: string): { file: string; anchor?: string; kind: 'blob' | 'tree' | 'raw' } | undefined {
	const { path, anchor } = splitAnchor(url);
	for (const [prefix, kind] of [[`${repositoryAddress}/blob/main/`, 'blob'], [`${repositoryAddress}/tree/main/`, 'tree'], [`${rawAddress}/main/`, 'raw']] as const) {
		if (path.startsWith(prefix)) return { file: join(REPO_DIR, decodeURIComponent(path.slice(prefix.length))), anchor, kind };
	}
	return undefined;
}

/**
 * What is wrong with a link to a local file (a file of the repository, and a heading of it for an anchor), or
 * undefined when it leads where it says. `blob` and raw addresses name files, `tree` addresses folders or files.
 */
function problemOf(file: string, anchor: string | undefined, kind: 'blob' | 'tree' | 'raw' | 'relative'): string | undefined {
	const inRepository = relative(REPO_DIR, file);
	if (inRepository.startsWith('..') || inRepository.startsWith(sep)) return 'outside the repository';
	if (!existsSync(file)) return `no file ${inRepository}`;
	const isFile = statSync(file).isFile();
	if ((kind === 'blob' || kind === 'raw') && !isFile) return `${inRepository} is a folder`;
	if (anchor === undefined || anchor === '') return undefined;
	if (!isFile || !file.endsWith('.md')) return `an anchor into ${inRepository}, which has no headings`;
	return anchorsOf(readFileSync(file, 'utf8')).includes(anchor) ? undefined : `no heading #${anchor} in ${inRepository}`;
}

const isAbsolute = (target: string) => /^(https?:\/\/|mailto:)/i.test(target);

async function documentationLinks(): Promise<Record<string, string>> {
	const { loader, nodeTypes } = await getEngine();
	const links: Record<string, string> = {};
	for (const type of [PAT_TYPE, API_KEY_TYPE]) links[type] = String(loader.getCredential(type).type.documentationUrl);
	for (const name of Object.keys(loader.known.nodes)) {
		const type = `${PACKAGE_NAME}.${name}`;
		const { primaryDocumentation, credentialDocumentation } = nodeTypes.getByNameAndVersion(type).description.codex?.resources ?? {};
		for (const [kind, entries] of Object.entries({ primaryDocumentation, credentialDocumentation })) {
			for (const [index, entry] of (entries ?? []).entries()) links[`${type.split('.')[1]} ${kind} ${index}`] = entry.url;
		}
	}
	return links;
}

test('every documentation link n8n shows is a heading of a page in the repository of package.json', async () => {
	expect(manifest.repository.type).toBe('git');
	expect(repositoryAddress).toMatch(/^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/);
	expect(manifest.homepage).toBe(`${repositoryAddress}/tree/main/package#readme`);
	const links = await documentationLinks();
	// Both credentials, and a node page and a credential page for every node.
	expect(Object.keys(links)).toHaveLength(2 + Object.keys((await getEngine()).loader.known.nodes).length * 2);
	for (const [where, url] of Object.entries(links)) {
		const target = localTarget(url);
		expect({ where, url, inRepository: target?.kind === 'blob' }).toEqual({ where, url, inRepository: true });
		expect({ where, url, hasAnchor: Boolean(target?.anchor) }).toEqual({ where, url, hasAnchor: true });
		expect({ where, url, problem: problemOf(target!.file, target!.anchor, 'blob') }).toEqual({ where, url, problem: undefined });
	}
	// The credentials' page, and each node's own page of the manual.
	const docs = `${repositoryAddress}/blob/main/docs`;
	expect(links[PAT_TYPE]).toBe(`${docs}/credentials.md#credentials`);
	expect(links[API_KEY_TYPE]).toBe(`${docs}/credentials.md#credentials`);
	const pages: Record<string, string> = {
		schedulingPlatform: 'scheduling.md#scheduling-platform-node',
		schedulingPlatformCrm: 'crm.md#crm-node',
		schedulingPlatformMessenger: 'messenger.md#messenger-node',
		schedulingPlatformSignatures: 'signatures.md#signatures-node',
		schedulingPlatformInvoicing: 'invoicing.md#invoicing-node',
		schedulingPlatformRouting: 'routing.md#routing-node-beta',
		schedulingPlatformTrigger: 'triggers.md#trigger-nodes',
		schedulingPlatformCrmTrigger: 'triggers.md#trigger-nodes',
		schedulingPlatformMessengerTrigger: 'triggers.md#trigger-nodes',
		schedulingPlatformSignaturesTrigger: 'triggers.md#trigger-nodes',
		schedulingPlatformInvoicingTrigger: 'triggers.md#trigger-nodes',
		schedulingPlatformWebhookTrigger: 'webhook-trigger.md#webhook-trigger-node',
	};
	const nodes = Object.keys((await getEngine()).loader.known.nodes);
	expect([...nodes].sort()).toEqual(Object.keys(pages).sort());
	for (const node of nodes) {
		expect({ node, url: links[`${node} primaryDocumentation 0`] }).toEqual({ node, url: `${docs}/${pages[node]}` });
		expect({ node, url: links[`${node} credentialDocumentation 0`] }).toEqual({ node, url: `${docs}/credentials.md#credentials` });
	}
});

test('anchors follow GitHub\'s rules: punctuation and code marks dropped, underscores kept, repeats numbered, nothing from code blocks', () => {
	const markdown = [
		'# n8n-nodes-scheduling-platform',
		'## Try it: `npm start`',
		'## Routing node (Beta)',
		'### Recipe: scheduled invoice runs (bill, finalise, send, dun)',
		'### Product, Setting, Recurring Invoice, Billing Run, Accounting Export',
		'### The [24-hour](https://example.com) window of *WhatsApp*',
		'### act_as_user and Größe',
		'### Contact',
		'### Contact',
		'```',
		'## Not a heading',
		'```',
	].join('\n');
	expect(anchorsOf(markdown)).toEqual([
		'n8n-nodes-scheduling-platform',
		'try-it-npm-start',
		'routing-node-beta',
		'recipe-scheduled-invoice-runs-bill-finalise-send-dun',
		'product-setting-recurring-invoice-billing-run-accounting-export',
		'the-24-hour-window-of-whatsapp',
		'act_as_user-and-größe',
		'contact',
		'contact-1',
	]);
});

test('links are read from links, images and references, not from code', () => {
	const markdown = [
		'See [a](docs/a.md#x) and ![b](https://example.com/b.png "B") and [`c`](../c/).',
		'`[not](a-link)` and <https://example.com/auto>',
		'[ref]: https://example.com/ref',
		'```',
		'[not](a-link-either)',
		'```',
	].join('\n');
	expect(linksOf(markdown)).toEqual(['docs/a.md#x', 'https://example.com/b.png', '../c/', 'https://example.com/auto', 'https://example.com/ref']);
	expect(localTarget(`${repositoryAddress}/blob/main/docs/crm.md#crm-node`)).toEqual({ file: join(REPO_DIR, 'docs', 'crm.md'), anchor: 'crm-node', kind: 'blob' });
	expect(localTarget(`${rawAddress}/main/docs/images/editor-example.png`)).toEqual({ file: join(REPO_DIR, 'docs', 'images', 'editor-example.png'), anchor: undefined, kind: 'raw' });
	expect(localTarget('https://docs.n8n.io/hosting/scaling/queue-mode/')).toBeUndefined();
	expect(problemOf(join(REPO_DIR, 'docs', 'crm.md'), 'no-such-heading', 'blob')).toBe('no heading #no-such-heading in docs/crm.md');
	expect(problemOf(join(REPO_DIR, 'docs'), undefined, 'blob')).toBe('docs is a folder');
});

test('package/README.md, the npm page, is under 60,000 characters (npm shows about 64,000)', () => {
	expect(readme.length).toBeLessThan(60_000);
});

test('every link of package/README.md is absolute, and each into the repository leads to a file and heading there', () => {
	const links = linksOf(readme);
	expect(links.length).toBeGreaterThan(0);
	expect(links.filter((link) => !isAbsolute(link))).toEqual([]);
	const intoRepository = links.filter((link) => localTarget(link) !== undefined);
	// The manual's pages, the examples and the images are linked from the npm page.
	expect(intoRepository.some((link) => link.startsWith(`${repositoryAddress}/blob/main/docs/`))).toBe(true);
	expect(intoRepository.some((link) => link.startsWith(`${repositoryAddress}/blob/main/examples/`))).toBe(true);
	const problems = intoRepository.map((link) => ({ link, target: localTarget(link)! })).map(({ link, target }) => ({ link, problem: problemOf(target.file, target.anchor, target.kind) }));
	expect(problems.filter(({ problem }) => problem !== undefined)).toEqual([]);
	// Images: none relative (npm has no files beside the README), and those of the repository by their raw address.
	const images = [...readme.matchAll(/!\[[^\]]*\]\(\s*<?([^)\s>]*)/g)].map((match) => match[1]);
	expect(images.filter((image) => image.includes('/images/') && !image.startsWith(`${rawAddress}/main/`))).toEqual([]);
});

test('every relative link of docs/*.md and the root README.md leads to a file of the repository and a heading of it', () => {
	expect(manualPages.length).toBeGreaterThan(10);
	const problems: Array<{ page: string; link: string; problem: string }> = [];
	let sectionLinks = 0;
	for (const page of relativePages) {
		const file = join(REPO_DIR, page);
		for (const link of linksOf(readFileSync(file, 'utf8'))) {
			let problem: string | undefined;
			if (/^[a-z][a-z\d+.-]*:/i.test(link)) {
				const target = localTarget(link);
				problem = target && problemOf(target.file, target.anchor, target.kind);
			} else {
				const { path, anchor } = splitAnchor(link);
				if (path === '') sectionLinks += 1;
				problem = link === '' ? 'empty link' : problemOf(path === '' ? file : resolve(dirname(file), decodeURIComponent(path)), anchor, 'relative');
			}
			if (problem) problems.push({ page, link, problem });
		}
	}
	expect(problems).toEqual([]);
	// The pages link to their own sections too (checked above like any other link).
	expect(sectionLinks).toBeGreaterThan(0);
});

test('the manual\'s index (docs/README.md) links every page of the manual', () => {
	const index = readFileSync(join(docsDir, 'README.md'), 'utf8');
	const linked = new Set(linksOf(index).filter((link) => !isAbsolute(link)).map((link) => splitAnchor(link).path));
	expect(manualPages.map((page) => page.slice('docs/'.length)).filter((page) => page !== 'README.md' && !linked.has(page))).toEqual([]);
});
