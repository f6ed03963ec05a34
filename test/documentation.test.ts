import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { API_KEY_TYPE, PAT_TYPE } from './harness/world';
import { PACKAGE_DIR, PACKAGE_NAME, getEngine } from './harness/engine';

/**
 * The documentation links n8n shows (a credential's "Open docs", a node's "Docs") lead to a section of the README in
 * the repository the package is published from (package.json's homepage): the address and the section both exist.
 */

const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { homepage: string; repository: { url: string } };
const readme = readFileSync(join(PACKAGE_DIR, 'README.md'), 'utf8');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) => heading.toLowerCase().replace(/[^\p{L}\p{N}\s-]/gu, '').trim().replace(/\s/g, '-');
const anchors = new Set([...readme.matchAll(/^#{2,3} (.+)$/gm)].map((match) => anchorOf(match[1])));

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
	const base = manifest.homepage.replace(/#.*$/, '');
	expect(manifest.repository.url).toBe(`git+${base}.git`);
	const links = await documentationLinks();
	// Both credentials, and a node page and a credential page for every node.
	expect(Object.keys(links)).toHaveLength(2 + Object.keys((await getEngine()).loader.known.nodes).length * 2);
	for (const [where, url] of Object.entries(links)) {
		const [address, anchor] = url.split('#');
		expect({ where, address }).toEqual({ where, address: base });
		expect({ where, anchor: anchors.has(anchor) }).toEqual({ where, anchor: true });
	}
	expect(links[PAT_TYPE]).toBe(`${base}#credentials`);
	expect(links['schedulingPlatformInvoicing primaryDocumentation 0']).toBe(`${base}#invoicing-node`);
});
