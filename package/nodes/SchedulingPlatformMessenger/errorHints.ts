import type { ErrorHints } from '../shared/transport/errors';

/**
 * How to fix the Messenger API's own error sentences (first match wins), more precise than the fix for the HTTP status:
 * the executor puts the first that matches the API's words into the error's description and hint (shared/transport/errors.ts).
 */
export const messengerErrorHints: ErrorHints = [
	[/24-hour customer-service window is closed/i, 'The contact last wrote more than 24 hours ago, or never: only an approved template can be sent now. Set Type to Template and pick an approved template (Template → Get Many lists them), or set If the Window Is Closed to Send a Template Instead. The window opens again for 24 hours when the contact writes.'],
	[/Exactly one of phone, userId or conversationId/i, 'Choose one Send To and fill only its field.'],
	[/Template ".*" \(.*\) is not approved/i, 'Only approved templates can be sent: pick one from the Template list, or wait for the approval (Template → Get Many shows each status).'],
	[/Template ".*" \(.*\) expects \d+ parameters?/i, 'Give one Template Parameters value per placeholder ({{1}}, {{2}}, ...) of the template, in order: Template → Get Many shows its text and parameterCount.'],
	[/Template ".*" \(.*\) does not exist/i, 'Pick the template from the Template list, or check its name and language with Template → Get Many.'],
];
