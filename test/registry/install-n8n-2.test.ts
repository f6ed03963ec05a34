import { PACKAGE_NAME } from '../../scripts/packageDir';
import { standInForPublicRegistry } from '../harness/registry';
import type { PublicRegistryStandIn } from '../harness/registry';
import { confirm, installFromPage, openCommunityNodes, openEditor, packageCard, startUninstall, startUpdate } from '../harness/communityNodesPage';
import type { Editor } from '../harness/communityNodesPage';
import { activateWorkflow, executionIds, getWorkflow, installedPackages, runWorkflow, startServer, until } from '../harness/n8nServer';
import type { N8nServer, StoredWorkflow } from '../harness/n8nServer';
import { N8N_V2, realN8n } from '../../scripts/realN8n';
import {
	V010,
	V011,
	book,
	bookingPolls,
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
 * The package installed into the real n8n 2.41 the way users install it: published to a registry, installed by name
 * in Settings → Community Nodes in a headless Chromium, updated there when a newer version is published, uninstalled
 * there. Each step is a test; they run in order on one n8n.
 *
 * The registry: n8n installs community packages from https://registry.npmjs.org; N8N_COMMUNITY_PACKAGES_REGISTRY
 * needs a license with `feat:communityNodes:customRegistry` (CommunityPackagesService.getNpmRegistry in
 * dist/modules/community-packages/community-packages.service.js; without one the install fails with "Your license
 * does not allow for feat:communityNodes:customRegistry", which install-n8n-1.test.ts shows in 1.123's page). So the
 * local registry (Verdaccio) stands in for registry.npmjs.org: n8n and the npm it runs go through a loopback HTTPS
 * proxy that answers for registry.npmjs.org with a certificate of a CA made for this run and passes the requests
 * to Verdaccio; every other host is refused (n8n asks api.n8n.io whether a package is banned and which packages it has
 * vetted; without an answer it installs an unverified package all the same).
 *
 * How n8n 2.41 installs (same file): it checks that the version exists (GET <registry>/<name>/<version> with its own
 * HTTP client, `npm view` if that fails), then `npm pack <name>@<version> --registry=…` into ~/.n8n/nodes, unpacks the tarball
 * into node_modules/<name>, drops its dev/peer/optional dependencies, `npm install --ignore-scripts` in it, records
 * the version in ~/.n8n/nodes/package.json and the database, and loads the nodes without a restart. How it learns of
 * updates (community-packages.lifecycle.service.js, listInstalledPackages): each time the Community Nodes page asks for
 * the installed packages it runs `npm outdated --json` in ~/.n8n/nodes (npm's own registry setting, not the variable)
 * and offers Update where npm names a newer `latest`; Update installs `latest` the same way. Unverified packages need
 * no setting (N8N_UNVERIFIED_PACKAGES_ENABLED is true by default).
 */

const VERSION = N8N_V2;
const SHOTS = 'registry-n8n-2';

let scene: Scene;
let standIn: PublicRegistryStandIn;
let server: N8nServer;
let editor: Editor;
let userFolder: string;
let credential: { id: string; name: string };
let readWorkflow: StoredWorkflow;
let triggerWorkflow: StoredWorkflow;
/** The trigger's position in static data right before the update. */
let stateBefore: { watch: string; since: string } | undefined;

beforeAll(async () => {
	const host = realN8n(VERSION);
	scene = await setUpScene();
	standIn = await standInForPublicRegistry(scene.registry);
	userFolder = newUserFolder('n8n-registry-2-');
	server = await startServer(host, userFolder, standIn.env);
	editor = await openEditor(server.editorUrl, SHOTS);
}, 4 * 60_000);

afterAll(async () => {
	await editor?.close();
	await server?.stop();
	await standIn?.close();
	await tearDownScene(scene);
}, 60_000);

test(
	`n8n ${VERSION}: Settings → Community Nodes installs ${PACKAGE_NAME} ${V010} by its name from the registry; its nodes load without a restart`,
	async () => {
		await editor.step('install', async () => {
			await openCommunityNodes(editor, server.editorUrl);
			await installFromPage(editor, PACKAGE_NAME);
			await packageCard(editor, PACKAGE_NAME).getByText(`v${V010}`).waitFor();
		});
		await editor.shot('01-installed');
		const card = await packageCard(editor, PACKAGE_NAME).innerText();
		expect(card).toContain(`${packageNodeTypes().length} nodes`);
		expect(card).toContain('Scheduling Platform Trigger');
		const [installed] = await installedPackages(server);
		expect(installed).toEqual(expect.objectContaining({ packageName: PACKAGE_NAME, installedVersion: V010 }));
		expect(installed.installedNodes.map((node) => node.type).sort()).toEqual(packageNodeTypes().sort());
		expect(await loadedPackageTypes(server)).toEqual(packageNodeTypes());
		expect(versionOnDisk(userFolder)).toBe(V010);
		// The tarball came from the local registry, through the stand-in.
		expect(standIn.requests).toContain(`GET /${PACKAGE_NAME}/-/${PACKAGE_NAME}-${V010}.tgz`);
	},
	3 * 60_000,
);

test(
	`n8n ${VERSION}: a workflow with the package's node runs with a PAT credential and lists the owner's meeting types`,
	async () => {
		credential = await ownerCredential(server, scene);
		readWorkflow = await createReadWorkflow(server, credential);
		await clearSandboxRequests(scene);
		const execution = await runWorkflow(server, readWorkflow, 'Start');
		expect({ status: execution.status, error: execution.error?.message }).toEqual({ status: 'success', error: undefined });
		expect(meetingTypeNames(execution)).toEqual(await ownerMeetingTypeNames(scene));
		const reads = (await sandboxRequests(scene)).filter((request) => request.path === '/v4/meeting-type');
		expect(reads.map((request) => request.headers.authorization)).toEqual([`Bearer ${scene.ownerPat}`]);
	},
	2 * 60_000,
);

test(
	`n8n ${VERSION}: an active workflow with the Scheduling Trigger (New Booking) polls at activation and stores its position in static data`,
	async () => {
		triggerWorkflow = await createTriggerWorkflow(server, credential);
		await activateWorkflow(server, triggerWorkflow);
		const state = await until('the activation poll to store the trigger\'s position', async () => await triggerState(server, triggerWorkflow.id));
		expect(JSON.parse(state.watch)).toEqual(['newBooking', {}]);
	},
	2 * 60_000,
);

test(
	`n8n ${VERSION}: once ${V011} is published the page offers Update (npm outdated at each visit); Update installs ${V011}, and the trigger workflow stays active with its static data as it was`,
	async () => {
		await scene.registry.publish(scene.nextTarball);
		expect((await scene.registry.packument(PACKAGE_NAME))['dist-tags'].latest).toBe(V011);
		await editor.step('update-offered', async () => {
			// A person reloads the page; n8n asks npm then.
			await openCommunityNodes(editor, server.editorUrl);
			await packageCard(editor, PACKAGE_NAME).getByRole('button', { name: 'Update' }).waitFor();
		});
		await editor.shot('02-update-offered');
		expect((await installedPackages(server))[0]).toEqual(expect.objectContaining({ installedVersion: V010, updateAvailable: V011 }));

		// The trigger polls at second 0 of each minute: the update starts early in a minute, so that no poll moves the
		// stored position while it runs, and the position is compared as it was.
		await until('an early second of a minute', async () => (new Date().getSeconds() >= 2 && new Date().getSeconds() <= 20 ? true : undefined), 70_000, 250);
		const polls = await bookingPolls(scene);
		stateBefore = await triggerState(server, triggerWorkflow.id);
		const dialog = await editor.step('update-confirmation', async () => await startUpdate(editor, PACKAGE_NAME));
		// n8n names the workflows the update affects (it looks them up after the dialog opens), the active trigger's among them.
		await editor.step('update-affects', async () => {
			await dialog.getByText(readWorkflow.name, { exact: true }).waitFor();
			await dialog.getByText(triggerWorkflow.name, { exact: true }).waitFor();
		});
		await editor.shot('03-update-confirmation');
		await editor.step('update', async () => {
			await confirm(dialog, 'Confirm update');
			await packageCard(editor, PACKAGE_NAME).getByText(`v${V011}`).waitFor();
		});
		const stateAfter = await triggerState(server, triggerWorkflow.id);
		expect(await bookingPolls(scene)).toBe(polls);
		await editor.shot('04-updated');
		expect(stateAfter).toEqual(stateBefore);
		const [updated] = await installedPackages(server);
		expect(updated).toEqual(expect.objectContaining({ installedVersion: V011 }));
		expect(updated.updateAvailable).toBeUndefined();
		expect(versionOnDisk(userFolder)).toBe(V011);
		expect(standIn.requests).toContain(`GET /${PACKAGE_NAME}/-/${PACKAGE_NAME}-${V011}.tgz`);
		expect(await loadedPackageTypes(server)).toEqual(packageNodeTypes());
		expect((await getWorkflow(server, triggerWorkflow.id)).active).toBe(true);
	},
	3 * 60_000,
);

test(
	`n8n ${VERSION}: after the update the workflow still runs with its credential, and the trigger's next poll emits the booking made since, only that one`,
	async () => {
		const execution = await runWorkflow(server, readWorkflow, 'Start');
		expect({ status: execution.status, error: execution.error?.message }).toEqual({ status: 'success', error: undefined });
		expect(meetingTypeNames(execution)).toEqual(await ownerMeetingTypeNames(scene));

		// A reset position would make the next poll start watching anew and emit nothing.
		const seen = await executionIds(server, triggerWorkflow.id);
		const appointmentId = await book(scene, 'Ursula');
		const emitted = await nextTriggerExecution(server, triggerWorkflow.id, seen, 100_000);
		expect(emitted.status).toBe('success');
		expect(emittedIds(emitted)).toEqual([appointmentId]);
		const state = await triggerState(server, triggerWorkflow.id);
		expect(state?.watch).toBe(stateBefore?.watch);
		expect(Date.parse(state!.since)).toBeGreaterThanOrEqual(Date.parse(stateBefore!.since));
	},
	3 * 60_000,
);

test(
	`n8n ${VERSION}: Uninstall (the card's menu) removes the package: its nodes leave /types/nodes.json, the page and the nodes folder`,
	async () => {
		await editor.step('uninstall', async () => {
			await openCommunityNodes(editor, server.editorUrl);
			await confirm(await startUninstall(editor, PACKAGE_NAME), 'Confirm uninstall');
			await editor.page.getByRole('button', { name: 'Install a community node' }).waitFor();
		});
		await editor.shot('05-uninstalled');
		expect(await installedPackages(server)).toEqual([]);
		expect(await loadedPackageTypes(server)).toEqual([]);
		expect(versionOnDisk(userFolder)).toBeUndefined();
	},
	2 * 60_000,
);
