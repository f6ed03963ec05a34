import type { World } from './world';

/** Set-up helpers of the CRM tests: parent records and an empty tenant, through the control API. */

/** A contact (`name` is its email), deal or CRM company of a tenant (the seed's Acme by default); its ID. */
export async function crmParent(world: World, kind: 'contact' | 'deal' | 'company', name: string, companyId = world.seed.companies.acme.id): Promise<string> {
	const created = (await world.control('POST', '/__sandbox/crm-parents', { companyId, kind, name })) as { id: string };
	return created.id;
}

/** A new tenant with one user (its owner), for lists that must hold only what the test made: the user's PAT and the IDs. */
export async function freshTenant(world: World): Promise<{ token: string; userId: string; companyId: string }> {
	const company = (await world.control('POST', '/__sandbox/companies', { name: 'Fresh Ltd.' })) as { id: string };
	const user = (await world.control('POST', '/__sandbox/users', { companyId: company.id, email: 'fay@fresh.example', givenName: 'Fay', familyName: 'Fresh' })) as { id: string };
	return { token: (await world.mintPat(user.id)).token, userId: user.id, companyId: company.id };
}
