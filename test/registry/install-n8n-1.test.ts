import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { PACKAGE_NAME } from '../../scripts/packageDir';
import { npmIn } from '../harness/registry';
import { errorNotification, installFromPage, openCommunityNodes, openEditor } from '../harness/communityNodesPage';
import type { Editor } from '../harness/communityNodesPage';
import { activateWorkflow, executionIds, getWorkflow, installedPackages, runWorkflow, startServer, until } from '../harness/n8nServer';
import type { N8nServer, StoredWorkflow } from '../harness/n8nServer';
import { N8N_V1, realN8n } from '../../scripts/realN8n';
import type { RealN8n } from '../../scripts/realN8n';
import {
	V010,
	V011,
	book,
	clearSandboxRequests,
	createReadWorkflow,
	createTriggerWorkflow,
	emittedIds,
	loadedPackageTypes,
	meetingTypeNames,
	newUserFolder,
	nextTriggerExecution,
	ownerCredential,
	ownerMeetingTypeNames,
	packageNodeTypes,
	sandboxRequests,
	setUpScene,
	tearDownScene,
	triggerState,
	versionOnDisk,
} from './installSuite';
import type { Scene } from './installSuite';

/**
 * The package from a registry in the real n8n 1.123, by the route that works there without a license.
 *
 * n8n 1.123's Settings → Community Nodes is the same page as 2.41's (install by name, Update, Uninstall) and installs
 * the same way (`npm pack <name>@<version> --registry=…`, unpack into ~/.n8n/nodes/node_modules, `npm install` in it;
 * dist/modules/community-packages/community-packages.service.js), but it, too, honours N8N_COMMUNITY_PACKAGES_REGISTRY
 * only with a license that has `feat:communityNodes:customRegistry` (getNpmRegistry, same file): the first test shows
 * the page refusing it. Its update check differs from 2.41's: the page's list (community-packages.controller.js,
 * getInstalledPackages) runs `npm outdated --json` in ~/.n8n/nodes with an environment of PATH, NODE_PATH and
 * NODE_ENV only (no HOME, no proxy), so it would ask the public registry whatever n8n's environment says. So here the
 * package takes the README's by-hand route, the one documented for Docker and queue mode, with the local registry
 * named to npm: `npm install <name> --registry=<local>` in ~/.n8n/nodes and a restart; `npm outdated` names the
 * newer version, `npm install <name>@latest` and a restart update it; `npm uninstall <name>` and a restart remove it.
 * After each restart the same outcomes as in install-n8n-2.test.ts are checked.
 */

const VERSION = N8N_V1;
const SHOTS = 'registry-n8n-1';

let host: RealN8n;
let scene: Scene;
let server: N8nServer | undefined;
let editor: Editor | undefined;
let userFolder: string;
let nodesFolder: string;
let npmCache: string;
let credential: { id: string; name: string };
let readWorkflow: StoredWorkflow;
let triggerWorkflow: StoredWorkflow;

/** n8n in the test's user folder; N8N_COMMUNITY_PACKAGES_REGISTRY stays set throughout (the by-hand route does not read it). */
async function start(): Promise<N8nServer> {
	server = await startServer(host, userFolder, { N8N_COMMUNITY_PACKAGES_REGISTRY: scene.registry.url });
	return server;
}

async function stop(): Promise<void> {
	await server?.stop();
	server = undefined;
}

/** npm in ~/.n8n/nodes with the local registry named, as the README's by-hand commands with `--registry`. */
async function npm(...args: string[]) {
	return await npmIn(nodesFolder, [...args, `--registry=${scene.registry.url}/`], npmCache);
}

function running(): N8nServer {
	if (!server) throw new Error('n8n is not running');
	return server;
}

beforeAll(async () => {
	host = realN8n(VERSION);
	scene = await setUpScene();
	userFolder = newUserFolder('n8n-registry-1-');
	nodesFolder = join(userFolder, '.n8n', 'nodes');
	npmCache = mkdtempSync(join(tmpdir(), 'sp-npm-cache-'));
	await start();
}, 4 * 60_000);

afterAll(async () => {
	await editor?.close();
	await stop();
	await tearDownScene(scene);
}, 60_000);

test(
	`n8n ${VERSION} without a license refuses N8N_COMMUNITY_PACKAGES_REGISTRY: Settings → Community Nodes → Install names the license feature, and nothing is installed`,
	async () => {
		const { editorUrl } = running();
		editor = await openEditor(editorUrl, SHOTS);
		const message = await editor.step('refused', async () => {
			await openCommunityNodes(editor!, editorUrl);
			await installFromPage(editor!, PACKAGE_NAME);
			return await errorNotification(editor!);
		});
		await editor.shot('01-custom-registry-refused');
		expect(message).toContain('Your license does not allow for feat:communityNodes:customRegistry');
		await editor.close();
		editor = undefined;
		expect(await installedPackages(running())).toEqual([]);
		expect(versionOnDisk(userFolder)).toBeUndefined();
	},
	3 * 60_000,
);

test(
	`n8n ${VERSION}, by hand: npm install from the registry into ~/.n8n/nodes and a restart load ${V010}; a workflow with its node runs with a PAT credential; an active trigger stores its position`,
	async () => {
		await stop();
		// The README's commands, with the registry named.
		mkdirSync(nodesFolder, { recursive: true });
		if (!existsSync(join(nodesFolder, 'package.json'))) writeFileSync(join(nodesFolder, 'package.json'), '{ "name": "installed-nodes", "private": true }\n');
		const installed = await npm('install', PACKAGE_NAME);
		expect({ code: installed.code, stderr: installed.stderr }).toEqual({ code: 0, stderr: '' });
		expect(versionOnDisk(userFolder)).toBe(V010);
		expect((JSON.parse(readFileSync(join(nodesFolder, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies).toEqual({ [PACKAGE_NAME]: `^${V010}` });

		const n8n = await start();
		expect(await loadedPackageTypes(n8n)).toEqual(packageNodeTypes());
		// A by-hand install is not recorded as an installed package (so the page lists nothing, as the README says).
		expect(await installedPackages(n8n)).toEqual([]);

		credential = await ownerCredential(n8n, scene);
		readWorkflow = await createReadWorkflow(n8n, credential);
		const expected = await ownerMeetingTypeNames(scene);
		await clearSandboxRequests(scene);
		const execution = await runWorkflow(n8n, readWorkflow, 'Start');
		expect({ status: execution.status, error: execution.error?.message }).toEqual({ status: 'success', error: undefined });
		expect(meetingTypeNames(execution)).toEqual(expected);
		const reads = (await sandboxRequests(scene)).filter((request) => request.path === '/v4/meeting-type');
		expect(reads.map((request) => request.headers.authorization)).toEqual([`Bearer ${scene.ownerPat}`]);

		triggerWorkflow = await createTriggerWorkflow(n8n, credential);
		await activateWorkflow(n8n, triggerWorkflow);
		const state = await until('the activation poll to store the trigger\'s position', async () => await triggerState(n8n, triggerWorkflow.id));
		expect(JSON.parse(state.watch)).toEqual(['newBooking', {}]);
	},
	3 * 60_000,
);

test(
	`n8n ${VERSION}, by hand: npm outdated names ${V011} once published; npm install @latest and a restart load it; the workflow still runs, the trigger is still active and emits the booking made meanwhile, only that one`,
	async () => {
		await scene.registry.publish(scene.nextTarball);
		// How a person learns of the update on this route.
		const outdated = await npm('outdated', '--json');
		expect(outdated.code).toBe(1);
		expect(JSON.parse(outdated.stdout)).toEqual({ [PACKAGE_NAME]: expect.objectContaining({ current: V010, wanted: V011, latest: V011 }) });

		const before = running();
		const stateBefore = await triggerState(before, triggerWorkflow.id);
		const seen = await executionIds(before, triggerWorkflow.id);
		await stop();
		// Booked while n8n is stopped: the trigger's first poll after the restart must find it from the kept position.
		const appointmentId = await book(scene, 'Grace');
		const updated = await npm('install', `${PACKAGE_NAME}@latest`);
		expect({ code: updated.code, stderr: updated.stderr }).toEqual({ code: 0, stderr: '' });
		expect(versionOnDisk(userFolder)).toBe(V011);

		const n8n = await start();
		expect(await loadedPackageTypes(n8n)).toEqual(packageNodeTypes());
		expect((await getWorkflow(n8n, triggerWorkflow.id)).active).toBe(true);
		const emitted = await nextTriggerExecution(n8n, triggerWorkflow.id, seen, 100_000);
		expect(emitted.status).toBe('success');
		expect(emittedIds(emitted)).toEqual([appointmentId]);
		const state = await triggerState(n8n, triggerWorkflow.id);
		expect(state?.watch).toBe(stateBefore?.watch);
		expect(Date.parse(state!.since)).toBeGreaterThanOrEqual(Date.parse(stateBefore!.since));

		const execution = await runWorkflow(n8n, readWorkflow, 'Start');
		expect({ status: execution.status, error: execution.error?.message }).toEqual({ status: 'success', error: undefined });
		expect(meetingTypeNames(execution)).toEqual(await ownerMeetingTypeNames(scene));
	},
	3 * 60_000,
);

test(
	`n8n ${VERSION}, by hand: npm uninstall and a restart remove the package: its nodes leave /types/nodes.json`,
	async () => {
		await stop();
		const removed = await npm('uninstall', PACKAGE_NAME);
		expect({ code: removed.code, stderr: removed.stderr }).toEqual({ code: 0, stderr: '' });
		expect(versionOnDisk(userFolder)).toBeUndefined();
		const n8n = await start();
		expect(await loadedPackageTypes(n8n)).toEqual([]);
	},
	2 * 60_000,
);
