import { existsSync, readFileSync } from 'fs';
import { dirname, join } from 'path';

export const PACKAGE_NAME = 'n8n-nodes-scheduling-platform';

/**
 * The package's node types, as n8n names them (engine.ts and realN8n.ts pass them on): the action nodes, the polling
 * triggers (one per product area; the Scheduling area's version 1 offered every event) and the webhook trigger.
 */
export const NODE_TYPE = `${PACKAGE_NAME}.schedulingPlatform`;
export const CRM_NODE_TYPE = `${PACKAGE_NAME}.schedulingPlatformCrm`;
export const MESSENGER_NODE_TYPE = `${PACKAGE_NAME}.schedulingPlatformMessenger`;
export const SIGNATURES_NODE_TYPE = `${PACKAGE_NAME}.schedulingPlatformSignatures`;
export const INVOICING_NODE_TYPE = `${PACKAGE_NAME}.schedulingPlatformInvoicing`;
export const ROUTING_NODE_TYPE = `${PACKAGE_NAME}.schedulingPlatformRouting`;
export const TRIGGER_NODE_TYPE = `${PACKAGE_NAME}.schedulingPlatformTrigger`;
export const CRM_TRIGGER_NODE_TYPE = `${PACKAGE_NAME}.schedulingPlatformCrmTrigger`;
export const MESSENGER_TRIGGER_NODE_TYPE = `${PACKAGE_NAME}.schedulingPlatformMessengerTrigger`;
export const SIGNATURES_TRIGGER_NODE_TYPE = `${PACKAGE_NAME}.schedulingPlatformSignaturesTrigger`;
export const INVOICING_TRIGGER_NODE_TYPE = `${PACKAGE_NAME}.schedulingPlatformInvoicingTrigger`;
export const WEBHOOK_TRIGGER_NODE_TYPE = `${PACKAGE_NAME}.schedulingPlatformWebhookTrigger`;

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
