import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { API_KEY_TYPE, PAT_TYPE } from './harness/world';
import { PACKAGE_DIR, PACKAGE_NAME, getEngine } from './harness/engine';

/**
 * The documentation links n8n shows (a credential's "Open docs", a node's "Docs") lead to a section of the README in
 * the repository the package is published from (package.json's `repository`, which `homepage` names too): the address
 * is derived from it, and the section is a heading of the README by GitHub's anchor rules.
 */

const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { homepage: string; repository: { type: string; url: string } };
const readme = readFileSync(join(PACKAGE_DIR, 'README.md'), 'utf8');

/** The repository's web address: `git+https://github.com/<owner>/<name>.git` without `git+` and `.git`. */
const repositoryAddress = manifest.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');

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

const anchors = new Set(anchorsOf(readme));

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

test('every documentation link is a README section of the repository in package.json', async () => {
	expect(manifest.repository.type).toBe('git');
	expect(repositoryAddress).toMatch(/^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/);
	expect(manifest.homepage).toBe(`${repositoryAddress}#readme`);
	const links = await documentationLinks();
	// Both credentials, and a node page and a credential page for every node.
	expect(Object.keys(links)).toHaveLength(2 + Object.keys((await getEngine()).loader.known.nodes).length * 2);
	for (const [where, url] of Object.entries(links)) {
		const [address, anchor] = url.split('#');
		expect({ where, address }).toEqual({ where, address: repositoryAddress });
		expect({ where, anchor, isReadmeSection: anchors.has(anchor) }).toEqual({ where, anchor, isReadmeSection: true });
	}
	expect(links[PAT_TYPE]).toBe(`${repositoryAddress}#credentials`);
	expect(links['schedulingPlatformInvoicing primaryDocumentation 0']).toBe(`${repositoryAddress}#invoicing-node`);
	expect(links['schedulingPlatformRouting primaryDocumentation 0']).toBe(`${repositoryAddress}#routing-node-beta`);
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

test('the README\'s own links to its sections lead to headings', () => {
	const sectionLinks = [...readme.matchAll(/\]\(#([^)\s]+)\)/g)].map((match) => match[1]);
	expect(sectionLinks.length).toBeGreaterThan(0);
	expect(sectionLinks.filter((anchor) => !anchors.has(anchor))).toEqual([]);
});
