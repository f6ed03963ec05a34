import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { declareResource } from '../../shared/declare';
import { InputProblem } from '../../shared/inputChecks';
import type { InputReader, OperationCall } from '../../shared/types';
import { locatorField } from '../../shared/locators';
import { conversationLocator, templateLocator } from '../locators';
import { CONVERSATION_PATH, MESSAGES_PATH, TEMPLATES_PATH } from '../records';

/**
 * Message → Send (api-reference §4): to exactly one recipient (Send To shows one field; the hidden ones are not
 * sent), as text or as an approved template. Before sending, a template is checked against the templates (read
 * once per node run): approved, and as many parameters as it has placeholders. A text needs the conversation's
 * 24-hour window open: for a conversation it is read once per conversation per run, and a closed window either
 * stops the item before sending (Fail) or sends the template given beside the text instead. For a phone or user
 * ID the API's 400 says the window is closed; with Send a Template Instead the template then goes out.
 */

export const WINDOW_CLOSED_MESSAGE = 'The 24-hour customer-service window of this conversation is closed: only an approved template can be sent';
export const WINDOW_CLOSED_ADVICE =
	'The contact last wrote more than 24 hours ago, or never. Send an approved template instead: set Type to Template, or set If the Window Is Closed to Send a Template Instead and pick the template. The window opens again for 24 hours when the contact writes.';

interface TemplateRef extends IDataObject {
	name: string;
	language: string;
	parameters: string[];
}

/** The Template field (`name:language`) and the Template Parameters beside it, as the API's `template` object. */
function templateRef(value: unknown, input: InputReader): TemplateRef {
	const [name, language, ...rest] = String(value).split(':');
	if (!name || !language || rest.length) throw new InputProblem(`must be the template's name and language joined by a colon, such as lead_welcome:en; "${String(value)}" is not`);
	const given = (input.read('templateParameters') as { parameter?: Array<{ value?: unknown }> } | undefined)?.parameter ?? [];
	const parameters = given.map(({ value: parameter }) => (parameter === undefined || parameter === null ? '' : typeof parameter === 'string' ? parameter.trim() : String(parameter)));
	return { name, language, parameters };
}

/** Each value of Template Parameters must say something: the API would send an empty placeholder. */
function emptyParameter(request: OperationCall['request'], call: OperationCall): string | undefined {
	const parameters = (request.body?.template as TemplateRef | undefined)?.parameters ?? [];
	const empty = parameters.findIndex((parameter) => parameter === '');
	return empty < 0 ? undefined : `${call.label('templateParameters')}: value ${empty + 1} is empty; every parameter of a template needs a text`;
}

/** The template must be one of the company's approved templates and get exactly its number of parameters. */
async function checkTemplate(call: OperationCall): Promise<void> {
	const template = call.request.body?.template as TemplateRef | undefined;
	if (!template) return;
	const templates = (await call.lookup({ method: 'GET', path: TEMPLATES_PATH })) as IDataObject[];
	const found = templates.find((candidate) => candidate.name === template.name && candidate.language === template.language);
	const named = `"${template.name}" (${template.language})`;
	if (!found) {
		call.fail(`There is no template ${named}`, 'Pick the template from the Template list, which shows the approved templates, or check its name and language with Template → Get Many.');
	}
	if (found.status !== 'approved') {
		call.fail(
			`The template ${named} cannot be sent: its status is ${String(found.status)}, not approved`,
			'Only approved templates can be sent: pick an approved one from the Template list, or wait until this one is approved (Template → Get Many shows each status).',
		);
	}
	const expected = Number(found.parameterCount ?? 0);
	if (template.parameters.length !== expected) {
		call.fail(
			`${call.label('templateParameters')} must hold ${expected} value${expected === 1 ? '' : 's'} for the template ${named}; ${template.parameters.length} given`,
			`Give one value per placeholder ({{1}}, {{2}}, ...) of the template, in order. Its text: "${String(found.body ?? '')}". Then run the node again.`,
		);
	}
}

function windowClosedByApi(error: unknown): boolean {
	return error instanceof NodeApiError && /customer-service window is closed/i.test(error.message);
}

async function send(call: OperationCall): Promise<IDataObject[]> {
	const { template, ...body } = call.request.body ?? {};
	const post = async (sent: IDataObject) => [(await call.send({ ...call.request, body: sent })) as IDataObject];
	if (body.type === 'template') return await post({ ...body, template });
	const instead = () => {
		const recipient = { ...body };
		delete recipient.text;
		return post({ ...recipient, type: 'template', template });
	};
	const fallback = call.values.windowClosed === 'sendTemplate' && template !== undefined;
	if (body.conversationId !== undefined) {
		// Read once per conversation per node run (lookup keeps the answer): only an inbound message opens the window.
		const conversation = (await call.lookup({ method: 'GET', path: CONVERSATION_PATH, pathParams: { id: String(body.conversationId) } })) as IDataObject;
		if (conversation.windowOpen === false) {
			if (!fallback) call.fail(WINDOW_CLOSED_MESSAGE, WINDOW_CLOSED_ADVICE);
			return await instead();
		}
	}
	if (!fallback) return await post(body);
	// The API knows the window of a phone or user ID: its 400 sends the template instead (the error stays any other error).
	return await post(body).catch(async (error: unknown) => (windowClosedByApi(error) ? await instead() : await Promise.reject(error)));
}

/** Template and its parameters: shown for Type Template, and for Type Text with Send a Template Instead. */
function templateFields(show: IDisplayOptions['show']): INodeProperties[] {
	return [
		{ ...locatorField('Template', 'template', 'An approved template of the company, by name and language', templateLocator), required: true, displayOptions: { show } },
		{
			displayName: 'Template Parameters',
			name: 'templateParameters',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true, sortable: true },
			placeholder: 'Add Parameter',
			default: {},
			displayOptions: { show },
			description: 'The values of the template\'s placeholders {{1}}, {{2}}, ... in order: exactly as many as the template has.',
			options: [
				{
					displayName: 'Parameter',
					name: 'parameter',
					values: [{ displayName: 'Value', name: 'value', type: 'string', default: '', placeholder: 'e.g. Grace' }],
				},
			],
		},
	];
}

const sendTo: INodeProperties = {
	displayName: 'Send To',
	name: 'sendTo',
	type: 'options',
	noDataExpression: true,
	options: [
		{ name: 'Conversation', value: 'conversation', description: 'An existing conversation' },
		{ name: 'Phone Number', value: 'phone', description: 'A phone number; a new number opens a conversation' },
		{ name: 'User ID', value: 'userId', description: 'The user ID of a contact who withheld their phone number' },
	],
	default: 'phone',
	description: 'Who receives the message: exactly one recipient',
};

const phone: INodeProperties = {
	displayName: 'Phone Number',
	name: 'phone',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. +4915112345678',
	displayOptions: { show: { sendTo: ['phone'] } },
	description: 'The recipient\'s phone number in E.164 form: + and country code, digits only',
};

const userId: INodeProperties = {
	displayName: 'User ID',
	name: 'userId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. bsu_4099abbafdcc29e0',
	displayOptions: { show: { sendTo: ['userId'] } },
	description: 'The contact\'s user ID (a conversation\'s userId), for contacts who withheld their phone number',
};

const conversation: INodeProperties = { ...locatorField('Conversation', 'conversationId', 'The conversation to reply in', conversationLocator), required: true, displayOptions: { show: { sendTo: ['conversation'] } } };

const type: INodeProperties = {
	displayName: 'Type',
	name: 'type',
	type: 'options',
	options: [
		{ name: 'Template', value: 'template', description: 'An approved template: can always be sent' },
		{ name: 'Text', value: 'text', description: 'Free text: only while the 24-hour window is open' },
	],
	default: 'text',
	description: 'What to send. Free text is accepted only within 24 hours of the contact\'s last message; a template at any time.',
};

const text: INodeProperties = {
	displayName: 'Text',
	name: 'text',
	type: 'string',
	typeOptions: { rows: 4 },
	required: true,
	default: '',
	displayOptions: { show: { type: ['text'] } },
	description: 'The message text',
};

const windowClosed: INodeProperties = {
	displayName: 'If the Window Is Closed',
	name: 'windowClosed',
	type: 'options',
	options: [
		{ name: 'Fail', value: 'fail', description: 'Stop the item with an error that says to send an approved template' },
		{ name: 'Send a Template Instead', value: 'sendTemplate', description: 'Send the template given below instead of the text' },
	],
	default: 'fail',
	displayOptions: { show: { type: ['text'] } },
	description: 'What to do when the contact last wrote more than 24 hours ago (or never): then only an approved template can be sent',
};

export const { definitions: messageOperations, properties: messageProperties } = declareResource('message', {
	default: 'send',
	operations: {
		send: {
			option: {
				name: 'Send',
				description: 'Needs a phone number, user ID or conversation, and a text or an approved template; returns the message sent',
				action: 'Send a text or template message',
			},
			method: 'POST',
			path: MESSAGES_PATH,
			body: {
				phone: { param: 'phone', check: 'phone' },
				userId: 'userId',
				conversationId: 'conversationId',
				type: 'type',
				text: 'text',
				template: { param: 'template', convert: templateRef },
			},
			values: { windowClosed: 'windowClosed' },
			check: emptyParameter,
			prepare: checkTemplate,
			perform: send,
			fields: [
				sendTo,
				phone,
				userId,
				conversation,
				type,
				text,
				windowClosed,
				...templateFields({ type: ['template'] }),
				...templateFields({ type: ['text'], windowClosed: ['sendTemplate'] }),
			],
		},
	},
});
