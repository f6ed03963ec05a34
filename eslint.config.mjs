// Lint of the development code: the sandbox API, the tests and the scripts. The package itself (package/) is linted by
// n8n's own tool with n8n's default configuration (`npm run lint --workspace package`, i.e. `n8n-node lint` in strict
// mode), and CI runs n8n's verification scanner on its source and its packed tarball (scripts/scanPackage.ts).
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
	{ ignores: ['package/**', 'build/**', 'node_modules/**', 'coverage/**', 'bench/**', '.n8n-*/**'] },
	{ files: ['sandbox/**/*.ts', 'test/**/*.ts', 'scripts/**/*.ts'], extends: [tseslint.configs.recommended] },
);
