import type { INodeProperties } from 'n8n-workflow';
import { companyLocator, contactOrEmailLocator, dealLocator } from './records';


/**
 * The record a note or communication belongs to: exactly one contact, deal or company, chosen with a Parent Type
 * switch that shows the matching locator. The hidden locators are unset, so a request never names two parents.
 */

export type ParentType = 'contact' | 'deal' | 'company';

const PARENTS: Record<ParentType, { name: string; label: string; locator: Pick<INodeProperties, 'modes'> }> = {
	company: { name: 'crmCompanyId', label: 'Company', locator: companyLocator },
	contact: { name: 'contactId', label: 'Contact', locator: contactOrEmailLocator },
	deal: { name: 'dealId', label: 'Deal', locator: dealLocator },
};

/** Body or query key → the locator that fills it (only the shown one gives a value). */
export const parentIds = { contactId: 'contactId', dealId: 'dealId', crmCompanyId: 'crmCompanyId' };

/** The Parent Type switch and one locator per type, for the operations whose blocks list them; `what` ends the descriptions ("the note belongs to"). */
export function parentProperties(types: ParentType[], what: string): INodeProperties[] {
	return [
		{
			displayName: 'Parent Type',
			name: 'parentType',
			type: 'options',
			noDataExpression: true,
			options: types.map((type) => ({ name: PARENTS[type].label, value: type })),
			default: 'contact',
			description: `The kind of record ${what}`,
		},
		...types.map(
			(type): INodeProperties => ({
				displayName: PARENTS[type].label,
				name: PARENTS[type].name,
				type: 'resourceLocator',
				default: { mode: 'list', value: '' },
				required: true,
				displayOptions: { show: { parentType: [type] } },
				description: `The ${PARENTS[type].label.toLowerCase()} ${what}`,
				...PARENTS[type].locator,
			}),
		),
	];
}
