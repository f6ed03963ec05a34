import type { INodeProperties } from 'n8n-workflow';

import { dateTime } from '../dates';
import type { ResourceDefinitions } from '../types';

/**
 * One Time Booking Link V4 and Booking Link V4 (api-reference §2). The one-time link list is a bare
 * array: Limit is applied by the node.
 */
export const bookingLinkOperations: ResourceDefinitions = {
	createOneTime: {
		method: 'POST',
		path: '/v4/one-time-booking-link/create/{meetingTypeId}',
		pathParams: { meetingTypeId: 'meetingTypeId' },
		body: { expiresAt: { param: 'additionalFields.expiresAt', convert: dateTime() } },
	},
	deleteOneTime: {
		method: 'DELETE',
		path: '/v4/one-time-booking-link/{id}',
		pathParams: { id: 'linkId' },
	},
	getAllOneTime: {
		method: 'GET',
		path: '/v4/one-time-booking-link',
		query: { meetingTypeId: 'filters.meetingTypeId' },
		pagination: { style: 'none' },
	},
	getPageLink: {
		method: 'GET',
		path: '/v4/booking-link',
		query: {
			meetingTypeId: { param: 'meetingTypeId', check: 'required' },
			email: { param: 'prefill.email', check: 'email' },
			firstname: 'prefill.firstname',
			lastname: 'prefill.lastname',
			phone: { param: 'prefill.phone', check: 'phone' },
		},
	},
};

const show = (operation: string[]) => ({ show: { resource: ['bookingLink'], operation } });

export const bookingLinkProperties: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['bookingLink'] } },
		options: [
			{
				name: 'Create One-Time Link',
				value: 'createOneTime',
				description: 'Create a booking link that works for a single booking',
				action: 'Create a one time booking link',
			},
			{
				name: 'Delete One-Time Link',
				value: 'deleteOneTime',
				description: 'Delete a one-time booking link so it can no longer be used',
				action: 'Delete a one time booking link',
			},
			{
				name: 'Get Booking Page Link',
				value: 'getPageLink',
				description: 'Get the shareable booking page address of a meeting type, optionally prefilled with a person\'s details',
				action: 'Get a booking page link',
			},
			{
				name: 'Get Many One-Time Links',
				value: 'getAllOneTime',
				description: 'List the one-time booking links of the acting user',
				action: 'Get many one time booking links',
			},
		],
		default: 'getPageLink',
	},
	{
		displayName: 'Meeting Type',
		name: 'meetingTypeId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		displayOptions: show(['createOneTime', 'getPageLink']),
		description: 'The meeting type the link books',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchMeetingTypes', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 3b9d6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f',
			},
		],
	},
	{
		displayName: 'Link ID',
		name: 'linkId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 3b9d6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f',
		displayOptions: show(['deleteOneTime']),
		description: 'ID of the one-time link, as Create One-Time Link or Get Many One-Time Links returns it',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: show(['createOneTime']),
		options: [
			{
				displayName: 'Expires At',
				name: 'expiresAt',
				type: 'dateTime',
				default: '',
				description: 'When the link stops working if nobody has booked with it; must be in the future. Empty: it works until used.',
			},
		],
	},
	{
		displayName: 'Prefill',
		name: 'prefill',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: show(['getPageLink']),
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
	},
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		displayOptions: show(['getAllOneTime']),
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: 50,
		displayOptions: { show: { resource: ['bookingLink'], operation: ['getAllOneTime'], returnAll: [false] } },
		description: 'Max number of results to return',
	},
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: show(['getAllOneTime']),
		options: [
			{
				displayName: 'Meeting Type',
				name: 'meetingTypeId',
				type: 'resourceLocator',
				default: { mode: 'list', value: '' },
				description: 'Only the links of this meeting type',
				modes: [
					{
						displayName: 'From List',
						name: 'list',
						type: 'list',
						typeOptions: { searchListMethod: 'searchMeetingTypes', searchable: true },
					},
					{
						displayName: 'By ID',
						name: 'id',
						type: 'string',
						placeholder: 'e.g. 3b9d6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f',
					},
				],
			},
		],
	},
];
