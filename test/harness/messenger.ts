import type { IDataObject } from 'n8n-workflow';

import type { World } from './world';

/** Set-up helpers of the Messenger tests, through the control API and the sandbox API (the owner's PAT). */

/** An inbound message from a phone (its conversation opened on the first), as the messenger channel delivers it. */
export async function inbound(world: World, phone: string, text: string, contactName?: string): Promise<{ conversation: IDataObject & { id: string }; message: IDataObject & { id: string } }> {
	return (await world.control('POST', '/__sandbox/messenger/inbound', { phone, text, contactName })) as { conversation: IDataObject & { id: string }; message: IDataObject & { id: string } };
}

/** GET through the sandbox API with the owner's PAT; the request log is cleared after. */
export async function read(world: World, path: string): Promise<IDataObject & IDataObject[]> {
	const answer = await world.api('GET', path, world.seed.credentials.ownerPat);
	if (answer.status !== 200) throw new Error(`GET ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
	await world.clearRequests();
	return answer.body;
}

/** The company's conversations as the API lists them (latest message first by default). */
export async function conversations(world: World, query = ''): Promise<Array<IDataObject & { id: string }>> {
	return (await read(world, `/v4/messenger/conversations?limit=100${query}`)).conversations as Array<IDataObject & { id: string }>;
}

/** The seeded conversation of this contact name. */
export async function conversationOf(world: World, contactName: string): Promise<IDataObject & { id: string }> {
	const found = (await conversations(world)).find((conversation) => conversation.contactName === contactName);
	if (!found) throw new Error(`No conversation of ${contactName}`);
	return found;
}

/** Every message of a conversation, newest first. */
export async function messagesOf(world: World, conversationId: string): Promise<IDataObject[]> {
	return (await read(world, `/v4/messenger/conversations/${conversationId}/messages?limit=100`)).messages as IDataObject[];
}
