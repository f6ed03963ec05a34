/** The credential secrets of the run: every output and error of a node run is scanned for them (world.ts, webhooks.ts). */
const secrets = new Set<string>();

export function rememberSecret(secret: string): void {
	secrets.add(secret);
}

/** Throws when any known secret appears in the text. */
export function assertNoSecret(text: string): void {
	for (const secret of secrets) {
		const core = secret.includes(':') ? secret.split(':').slice(2).join(':') : secret.slice(4);
		if (text.includes(secret) || (core.length >= 8 && text.includes(core))) {
			throw new Error('A credential secret appears in a node output or error');
		}
	}
}
