/** Tests run the compiled package (dist/) through n8n's engine against the sandbox over HTTP. */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.dev.json' }] },
	maxWorkers: 2,
	testTimeout: 60000,
};
