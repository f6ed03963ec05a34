// Lint gate. package.json, nodes/ and credentials/ get exactly the rule sets of n8n's verification
// scanner (@n8n/scan-community-package): community-nodes "recommended", no-console, and the
// eslint-plugin-n8n-nodes-base sets "community", "credentials" and "nodes" with the scanner's own
// off-switches. `npm run lint` passes --no-inline-config, so eslint-disable comments are ignored as
// the scanner ignores them. Everything else gets ordinary typescript-eslint rules.
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import tsParser from '@typescript-eslint/parser';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesPlugin from 'eslint-plugin-n8n-nodes-base';

const packageFiles = ['package.json', '{nodes,credentials}/**/*.{ts,js,json}'];

export default defineConfig(
	{ ignores: ['dist/**', 'build/**', 'node_modules/**', 'coverage/**', 'package-lock.json', '**/*.json', '!package.json', '!nodes/**/*.json'] },
	{ files: packageFiles, extends: [n8nCommunityNodesPlugin.configs.recommended] },
	{ files: packageFiles, rules: { 'no-console': 'error' } },
	{ plugins: { 'n8n-nodes-base': n8nNodesPlugin } },
	{ files: ['package.json'], rules: { ...n8nNodesPlugin.configs.community.rules } },
	{
		files: ['**/credentials/**/*.ts'],
		rules: {
			...n8nNodesPlugin.configs.credentials.rules,
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},
	{
		files: ['**/nodes/**/*.ts'],
		rules: {
			...n8nNodesPlugin.configs.nodes.rules,
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
	{ files: ['**/*.json'], languageOptions: { parser: tsParser } },
	{ files: ['**/*.ts'], languageOptions: { parser: tsParser } },
	{
		files: ['sandbox/**/*.ts', 'test/**/*.ts', 'scripts/**/*.ts'],
		extends: [tseslint.configs.recommended],
	},
);
