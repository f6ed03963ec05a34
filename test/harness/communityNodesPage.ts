import { mkdirSync } from 'fs';
import { join } from 'path';
import type { Browser, Locator, Page } from 'playwright-core';
import { chromium, selectors } from 'playwright-core';

import { REPO_DIR } from '../../scripts/packageDir';
import { OWNER } from './n8nServer';

/**
 * n8n's Settings → Community Nodes as a person uses it, in Debian's Chromium driven by playwright-core (as the browser
 * test does): install by package name with the risk checkbox, the Update button a newer version brings, and
 * Uninstall from the card's menu. Same page and test IDs in n8n 1.123 and 2.41.
 */

export const SCREENSHOTS = join(REPO_DIR, '.screenshots');
/** Debian's Chromium, or the one CHROMIUM_PATH names (the browser tests' one browser). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface Editor {
	browser: Browser;
	page: Page;
	/** A screenshot in .screenshots/ named `<prefix>-<name>.png`. */
	shot(name: string): Promise<void>;
	/** Runs a step; when it fails, a screenshot `<prefix>-failed-<name>.png` is taken before the error goes on. */
	step<T>(name: string, run: () => Promise<T>): Promise<T>;
	close(): Promise<void>;
}

/** Launches Chromium (nothing but loopback reachable from the page) and logs in to n8n as the owner. */
export async function openEditor(editorUrl: string, prefix: string): Promise<Editor> {
	mkdirSync(SCREENSHOTS, { recursive: true });
	selectors.setTestIdAttribute('data-test-id');
	const browser = await chromium.launch({
		executablePath: CHROMIUM,
		args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
	});
	const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
	// Generous: two n8n processes, npm and Chromium share two cores while the tests run.
	page.setDefaultTimeout(60_000);
	// The editor asks n8n's servers and the public registry about community packages: nothing leaves this machine.
	await page.route(/^https?:\/\/(?!localhost[:/]|127\.0\.0\.1[:/])/, (route) => route.abort());
	const shot = async (name: string): Promise<void> => {
		await page.screenshot({ path: join(SCREENSHOTS, `${prefix}-${name}.png`), animations: 'disabled' });
	};
	const editor: Editor = {
		browser,
		page,
		shot,
		async step(name, run) {
			try {
				return await run();
			} catch (error) {
				await shot(`failed-${name}`).catch(() => undefined);
				throw error;
			}
		},
		close: async () => await browser.close(),
	};
	await editor.step('login', async () => {
		await page.goto(`${editorUrl}/signin`);
		await page.getByTestId('emailOrLdapLoginId').locator('input').fill(OWNER.email);
		await page.getByTestId('password').locator('input').fill(OWNER.password);
		await page.getByTestId('form-submit-button').click();
		await page.waitForURL(/\/home\//);
	});
	return editor;
}

/** The page's install button: "Install a community node" on the empty page, "Install" above the cards; either once the list has loaded. */
function installButton(editor: Editor): Locator {
	const { page } = editor;
	return page.getByRole('button', { name: 'Install a community node' }).or(page.getByRole('button', { name: 'Install', exact: true })).first();
}

/** Opens Settings → Community Nodes and waits for its list; each opening lets n8n check the installed packages for updates. */
export async function openCommunityNodes(editor: Editor, editorUrl: string): Promise<void> {
	await editor.page.goto(`${editorUrl}/settings/community-nodes`);
	await installButton(editor).waitFor();
}

/** The card of an installed package. */
export function packageCard(editor: Editor, name: string): Locator {
	return editor.page.getByTestId('community-package-card').filter({ hasText: name });
}

/**
 * Install → package name → "I understand the risks…" → Install, as on an empty page (its "Install a community node")
 * or a page with packages (its "Install"); returns once the modal has answered (it closes, or shows an error).
 */
export async function installFromPage(editor: Editor, name: string): Promise<void> {
	const { page } = editor;
	await installButton(editor).click();
	const input = page.locator('input[data-test-id="package-name-input"], [data-test-id="package-name-input"] input');
	await input.fill(name);
	await page.getByTestId('user-agreement-checkbox').click();
	await page.getByTestId('install-community-package-button').click();
}

/** The text of the error notification n8n shows (e.g. when an install is refused). */
export async function errorNotification(editor: Editor): Promise<string> {
	const notification = editor.page.locator('.el-notification').filter({ has: editor.page.locator('.el-notification__icon, [class*="error"]') }).last();
	await notification.waitFor();
	return (await notification.innerText()).replace(/\s+/g, ' ').trim();
}

/** The confirmation n8n asks for an update or an uninstall (it lists the workflows that use the package's nodes). */
function confirmation(editor: Editor): Locator {
	return editor.page.getByTestId('communityPackageManageConfirm-modal');
}

/** Update on the package's card; returns the confirmation, open. */
export async function startUpdate(editor: Editor, name: string): Promise<Locator> {
	await packageCard(editor, name).getByRole('button', { name: 'Update' }).click();
	const dialog = confirmation(editor);
	await dialog.getByRole('button', { name: 'Confirm update' }).waitFor();
	return dialog;
}

/** Uninstall from the card's menu; returns the confirmation, open. */
export async function startUninstall(editor: Editor, name: string): Promise<Locator> {
	await packageCard(editor, name).getByTestId('action-toggle').click();
	await editor.page.getByText('Uninstall package', { exact: true }).filter({ visible: true }).click();
	const dialog = confirmation(editor);
	await dialog.getByRole('button', { name: 'Confirm uninstall' }).waitFor();
	return dialog;
}

/** Clicks the confirmation's button ("Confirm update", "Confirm uninstall") and waits until n8n is done and it closes. */
export async function confirm(dialog: Locator, button: string): Promise<void> {
	await dialog.getByRole('button', { name: button }).click();
	await dialog.waitFor({ state: 'hidden' });
}
