import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { clearSwitches } from '../../shared/clearSwitches';
import { declareResource } from '../../shared/declare';
import { InputProblem, inputProblem } from '../../shared/inputChecks';
import type { Converter } from '../../shared/types';

/** Personal Page V4 (api-reference §2): the acting user's own booking page, listing their meeting types. */

/** Profiles entered as Name/URL pairs → { name: url }: each with a name, given once, and a web address. */
const onlineProfiles: Converter = (value) => {
	const entries = ((value as IDataObject).profiles ?? []) as Array<{ name?: unknown; url?: unknown }>;
	const profiles: IDataObject = {};
	for (const [index, entry] of entries.entries()) {
		const [name, url] = [String(entry.name ?? '').trim(), String(entry.url ?? '').trim()];
		if (!name) throw new InputProblem(`entry ${index + 1} needs a name, such as linkedin`);
		if (name in profiles) throw new InputProblem(`has "${name}" twice: give each profile once`);
		if (!url) throw new InputProblem(`entry "${name}" needs a URL`);
		const problem = inputProblem('url', url);
		if (problem) throw new InputProblem(`entry "${name}" ${problem}`);
		profiles[name] = url;
	}
	return profiles;
};

const updateFields: INodeProperties = {
	displayName: 'Update Fields',
	name: 'updateFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [
		{
			displayName: 'Description',
			name: 'description',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			description: 'Text shown at the top of the page; empty clears it',
		},
		{
			displayName: 'Header Image',
			name: 'headerImage',
			type: 'string',
			default: '',
			placeholder: 'e.g. https://example.com/header.png',
			description: 'Address of the image shown at the top of the page. To remove the image, use Remove Header Image.',
		},
		{
			displayName: 'Meeting Type Order',
			name: 'meetingTypeOrder',
			type: 'string',
			typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Meeting Type ID' },
			default: [],
			placeholder: 'e.g. 3b9d6c1e-0f4a-4c2b-9e7d-5a6b7c8d9e0f',
			description: 'IDs of your meeting types in the order the page lists them. Replaces the current order.',
		},
		{
			displayName: 'Online Profiles',
			name: 'onlineProfiles',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add Profile',
			default: {},
			description: 'Profiles linked from the page. Replaces the current ones; added without a profile, it removes them all.',
			options: [
				{
					displayName: 'Profile',
					name: 'profiles',
					values: [
						{
							displayName: 'Name',
							name: 'name',
							type: 'string',
							default: '',
							placeholder: 'e.g. linkedin',
							description: 'Name of the profile, such as linkedin, twitter or website',
						},
						{
							displayName: 'URL',
							name: 'url',
							type: 'string',
							default: '',
							placeholder: 'e.g. https://www.linkedin.com/in/ada-admin',
							description: 'Address of the profile',
						},
					],
				},
			],
		},
		{
			displayName: 'Primary Color',
			name: 'primaryColor',
			type: 'color',
			default: '#1a73e8',
			description: 'Main color of the page, used when Use Custom Colors is on',
		},
		{
			displayName: 'Remove Header Image',
			name: 'removeHeaderImage',
			type: 'boolean',
			default: true,
			description: 'Whether to remove the header image (cannot be combined with a Header Image address)',
		},
		{
			displayName: 'Secondary Color',
			name: 'secondaryColor',
			type: 'color',
			default: '#ffffff',
			description: 'Second color of the page, used when Use Custom Colors is on',
		},
		{
			displayName: 'Show All Meeting Types',
			name: 'showAllMeetingTypes',
			type: 'boolean',
			default: true,
			description: 'Whether the page lists every enabled meeting type of the user',
		},
		{
			displayName: 'Use Custom Colors',
			name: 'useCustomColors',
			type: 'boolean',
			default: false,
			description: 'Whether the page uses the primary and secondary colors instead of the company\'s',
		},
	],
};

export const { definitions: personalPageOperations, properties: personalPageProperties } = declareResource('personalPage', {
	default: 'get',
	operations: {
		get: {
			option: { name: 'Get', description: 'Needs nothing: the acting user\'s page; returns the page', action: 'Get the personal booking page' },
			method: 'GET',
			path: '/v4/personal-page/me',
		},
		update: {
			option: {
				name: 'Update',
				description: 'Needs the text, colors, header image, profiles or meeting types to change; returns the page',
				action: 'Update the personal booking page',
			},
			method: 'PATCH',
			path: '/v4/personal-page/me',
			body: {
				description: { param: 'updateFields.description', sendEmpty: true },
				primaryColor: 'updateFields.primaryColor',
				secondaryColor: 'updateFields.secondaryColor',
				useCustomColors: 'updateFields.useCustomColors',
				showAllMeetingTypes: 'updateFields.showAllMeetingTypes',
				meetingTypeOrder: 'updateFields.meetingTypeOrder',
				headerImage: { param: 'updateFields.headerImage', check: 'url' },
				onlineProfiles: { param: 'updateFields.onlineProfiles', convert: onlineProfiles },
			},
			...clearSwitches([{ key: 'headerImage', field: 'updateFields.headerImage', flag: 'updateFields.removeHeaderImage' }]),
			fields: [updateFields],
		},
	},
});
