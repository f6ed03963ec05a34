import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { dateTime } from '../../shared/dates';
import { declareResource } from '../../shared/declare';
import { returnAllFields } from '../../shared/getMany';
import type { OperationCall } from '../../shared/types';
import { locatorField } from '../../shared/locators';
import { meetingTypeLocator } from '../records';

/**
 * One Time Booking Link V4 and Booking Link V4 (api-reference §2). The one-time link list is a bare
 * array: Limit is applied by the node. GET /v4/booking-link answers every link of the acting user at once
 * (personal ones, and those of their workspaces by meeting type); the node picks and prefills a link itself.
 */

interface LinksAnswer {
	personalLinks?: IDataObject[];
	workspaceLinks?: Array<{ workspaceId: string; meetingTypesLinks: Array<{ meetingTypeId: string; links: IDataObject[] }> }>;
}

/** The prefill fields of a booking page link, in the order they are added to it. */
const PREFILL_KEYS = ['email', 'firstname', 'lastname', 'phone'];

/** Every link of the answer, personal ones first, each with its workspaceId (null for a personal link). */
function allLinks(answer: unknown): IDataObject[] {
	const { personalLinks = [], workspaceLinks = [] } = answer as LinksAnswer;
	const ofWorkspaces = workspaceLinks.flatMap(({ workspaceId, meetingTypesLinks }) =>
		meetingTypesLinks.flatMap(({ meetingTypeId, links }) => links.map((link) => ({ meetingTypeId, ...link, workspaceId }))),
	);
	return [...personalLinks.map((link) => ({ ...link, workspaceId: null })), ...ofWorkspaces];
}

/** The link with the filled prefill fields added as its query, URL-encoded (after & when it has a query already). */
function withPrefill(link: string, values: IDataObject): string {
	const query = PREFILL_KEYS.filter((key) => values[key] !== undefined)
		.map((key) => `${key}=${encodeURIComponent(String(values[key]))}`)
		.join('&');
	if (!query) return link;
	return `${link}${link.includes('?') ? '&' : '?'}${query}`;
}

/** The meeting type's link item (a personal one before a workspace one), with `url`: its link, prefilled. */
function pageLink(answer: unknown, call: OperationCall): IDataObject[] {
	const meetingTypeId = String(call.values.meetingTypeId);
	const found = allLinks(answer).find((link) => link.meetingTypeId === meetingTypeId);
	if (!found) {
		call.fail(
			`Meeting type ${meetingTypeId} has no booking page link`,
			'the acting user\'s links (their own and their workspaces\') do not include this meeting type: it is disabled, or another user\'s. Enable it, act as its host, or pick a meeting type from Booking Link\'s Get Many.',
		);
	}
	return [{ ...found, url: withPrefill(String(found.link), call.values) }];
}

const meetingTypeId: INodeProperties = { ...locatorField('Meeting Type', 'meetingTypeId', 'The meeting type the link books', meetingTypeLocator), required: true };

const linkId: INodeProperties = {
	displayName: 'Link ID',
	name: 'linkId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 3b9d6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f',
	description: 'ID of the one-time link, as Create One-Time Link or Get Many One-Time Links returns it',
};

const additionalFields: INodeProperties = {
	displayName: 'Additional Fields',
	name: 'additionalFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [
		{
			displayName: 'Expires At',
			name: 'expiresAt',
			type: 'dateTime',
			default: '',
			description: 'When the link stops working if nobody has booked with it; must be in the future. Empty: it works until used.',
		},
	],
};

const prefill: INodeProperties = {
	displayName: 'Prefill',
	name: 'prefill',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	description: 'Details filled in on the booking form for the person who opens the link',
	options: [
		{ displayName: 'Email', name: 'email', type: 'string', placeholder: 'name@email.com', default: '' },
		{ displayName: 'First Name', name: 'firstname', type: 'string', default: '' },
		{ displayName: 'Last Name', name: 'lastname', type: 'string', default: '' },
		{
			displayName: 'Phone',
			name: 'phone',
			type: 'string',
			placeholder: 'e.g. +4915112345678',
			default: '',
			description: 'Phone number in international (E.164) form: + and country code, digits only',
		},
	],
};

const returnAll = returnAllFields();

const oneTimeFilters: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options: [
		locatorField('Meeting Type', 'meetingTypeId', 'Only the links of this meeting type', meetingTypeLocator),
	],
};

const linkFilters: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options: [
		{
			displayName: 'Workspace ID',
			name: 'workspaceId',
			type: 'string',
			default: '',
			description: 'Only the workspace links of this workspace; the acting user\'s own links are always listed',
		},
	],
};

export const { definitions: bookingLinkOperations, properties: bookingLinkProperties } = declareResource('bookingLink', {
	default: 'getPageLink',
	operations: {
		createOneTime: {
			option: {
				name: 'Create One-Time Link',
				description: 'Needs the meeting type (Expires At optional); returns the link with its URL',
				action: 'Create a one time booking link',
			},
			method: 'POST',
			path: '/v4/one-time-booking-link/create/{meetingTypeId}',
			pathParams: { meetingTypeId: 'meetingTypeId' },
			body: { expiresAt: { param: 'additionalFields.expiresAt', convert: dateTime() } },
			fields: [meetingTypeId, additionalFields],
		},
		deleteOneTime: {
			option: { name: 'Delete One-Time Link', description: 'Needs the one-time link\'s ID; returns { deleted: true }', action: 'Delete a one time booking link' },
			method: 'DELETE',
			path: '/v4/one-time-booking-link/{id}',
			pathParams: { id: 'linkId' },
			fields: [linkId],
		},
		getAllOneTime: {
			option: {
				name: 'Get Many One-Time Links',
				description: 'Needs nothing (Meeting Type optional); returns one item per one-time link',
				action: 'Get many one time booking links',
			},
			method: 'GET',
			path: '/v4/one-time-booking-link',
			query: { meetingTypeId: 'filters.meetingTypeId' },
			pagination: { style: 'none' },
			fields: [...returnAll, oneTimeFilters],
		},
		getAll: {
			option: {
				name: 'Get Many',
				description: 'Needs nothing; returns one item per booking page link of the acting user and their workspaces',
				action: 'Get many booking links',
			},
			method: 'GET',
			path: '/v4/booking-link',
			query: { workspaceId: 'filters.workspaceId' },
			pagination: { style: 'none', pick: allLinks },
			fields: [...returnAll, linkFilters],
		},
		getPageLink: {
			option: {
				name: 'Get Booking Page Link',
				description: 'Needs the meeting type (prefill fields optional); returns the link item with its URL',
				action: 'Get the booking page link of a meeting type',
			},
			method: 'GET',
			path: '/v4/booking-link',
			values: {
				meetingTypeId: { param: 'meetingTypeId', check: 'required' },
				email: { param: 'prefill.email', check: 'email' },
				firstname: 'prefill.firstname',
				lastname: 'prefill.lastname',
				phone: { param: 'prefill.phone', check: 'phone' },
			},
			readOnce: true,
			output: pageLink,
			fields: [meetingTypeId, prefill],
		},
	},
});
