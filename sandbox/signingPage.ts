import { SignatureRequest } from './groups/signatures';

/**
 * The sandbox's signing page (GET /__sandbox/sign): what the platform's emails to signers would open. It lists every
 * signature request with its signers; the signer whose turn it is gets Sign and Decline buttons, which post to the
 * control API's `/__sandbox/signatures/{id}/sign` or `/decline` (the rules of `actAsSigner`: in order, pending only).
 * Not part of the API: `npm start` prints its address.
 */

const escape = (text: unknown) =>
	String(text ?? '').replace(/[&<>"']/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character]!);

function signerRow(request: SignatureRequest, signer: SignatureRequest['signers'][number], next: boolean): string {
	const state = signer.status === 'signed' ? `signed ${escape(signer.signedAt)}` : escape(signer.status);
	const buttons = next
		? ['sign', 'decline'].map((action) => `<button data-id="${escape(request.id)}" data-email="${escape(signer.email)}" data-action="${action}">${action === 'sign' ? 'Sign' : 'Decline'} as ${escape(signer.name)}</button>`).join(' ')
		: '';
	return `<li>${signer.order}. ${escape(signer.name)} &lt;${escape(signer.email)}&gt;: ${state} ${buttons}</li>`;
}

function requestSection(request: SignatureRequest): string {
	const next = request.status === 'pending' ? request.signers.find((signer) => signer.status === 'pending') : undefined;
	const signers = request.signers.map((signer) => signerRow(request, signer, signer === next)).join('');
	return `<section><h2>${escape(request.title)}</h2><p>Status: <b>${escape(request.status)}</b> · ID <code>${escape(request.id)}</code> · created ${escape(request.createdAt)}</p><ol>${signers}</ol></section>`;
}

const SCRIPT = `document.addEventListener('click', async (event) => {
	const button = event.target.closest('button[data-action]');
	if (!button) return;
	const answer = await fetch('/__sandbox/signatures/' + encodeURIComponent(button.dataset.id) + '/' + button.dataset.action, {
		method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: button.dataset.email }),
	});
	if (!answer.ok) alert((await answer.json()).message);
	location.reload();
});`;

export function signingPage(requests: SignatureRequest[]): string {
	const body = requests.length ? requests.map(requestSection).join('') : '<p>No signature requests yet: create one with the Signatures node (Signature Request → Create).</p>';
	return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sandbox signing page</title>
<style>body{font-family:sans-serif;max-width:56rem;margin:2rem auto;padding:0 1rem}section{border-top:1px solid #ccc}button{margin-left:.5rem}</style></head>
<body><h1>Sandbox signing page</h1><p>The platform emails each signer in turn; in the sandbox nobody gets an email, so sign here instead. The signer whose turn it is can sign or decline; when the last one signs, the request is completed and the signed PDF can be downloaded (Signature Request → Download Document).</p>
${body}<script>${SCRIPT}</script></body></html>`;
}
