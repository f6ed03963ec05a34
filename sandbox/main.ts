import { checkPorts, portSetting } from './ports';
import { Seed } from './seed';
import { startSandbox } from './server';

/** `npm run sandbox`: a seeded sandbox on SANDBOX_PORT (default 4010) until Ctrl+C. */
async function main(): Promise<void> {
	const setting = portSetting(process.env, 'SANDBOX_PORT', 4010, true);
	await checkPorts([setting], 'npm run sandbox');
	const sandbox = await startSandbox({ port: setting.port });
	const response = await fetch(`${sandbox.url}/__sandbox/seed`, { method: 'POST' });
	const seed = (await response.json()) as Seed;
	console.log(`Sandbox API listening on ${sandbox.url} (control API under ${sandbox.url}/__sandbox)`);
	console.log(`Owner PAT   (${seed.users.owner.email}): ${seed.credentials.ownerPat}`);
	console.log(`Member PAT  (${seed.users.member.email}): ${seed.credentials.memberPat}`);
	console.log(`API key     (${seed.companies.acme.name}): ${seed.credentials.apiKey}`);
	console.log(`Acting user ids: owner ${seed.users.owner.id}, member ${seed.users.member.id}`);
	process.once('SIGINT', () => void sandbox.close().then(() => process.exit(0)));
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
