import { createHash } from 'crypto';
import { existsSync, readFileSync, writeFileSync } from 'fs';
import type { INodeProperties } from 'n8n-workflow';
import { join } from 'path';

import { actionNodes, operationsOf, shownFor } from './harness/displayOptions';

/**
 * What the editor shows for each operation of each action node at each version, recorded before the operations were
 * declared one block each (issue 34): the Resource and Operation fields with their options and defaults, then every
 * field shown for the operation, in order, as it is (its name and a digest of the rest). Which operations list a field is left out (the declarations
 * gather it), and so are key orders. Rerecord only for a change users are meant to see: RECORD_OPERATION_FIELDS=1.
 */

const FIXTURE = join(__dirname, 'fixtures', 'operation-fields.json');

/** A value with its objects' keys sorted, so that only content counts. */
function canonical(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(canonical);
	if (value && typeof value === 'object') return Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical((value as Record<string, unknown>)[key])]));
	return value;
}

/** A field without the resources and operations it is shown for, as its name and a digest of the rest. */
function asShown(property: INodeProperties): string {
	const { displayOptions, ...rest } = property;
	const strip = (conditions?: Record<string, unknown>) => {
		const other = Object.fromEntries(Object.entries(conditions ?? {}).filter(([key]) => key !== 'resource' && key !== 'operation'));
		return Object.keys(other).length ? other : undefined;
	};
	const show = strip(displayOptions?.show);
	const hide = strip(displayOptions?.hide);
	const field = canonical({ ...rest, ...(show || hide ? { displayOptions: { ...(show && { show }), ...(hide && { hide }) } } : {}) });
	return `${property.name} ${createHash('sha256').update(JSON.stringify(field)).digest('hex').slice(0, 16)}`;
}

async function shownFields(): Promise<Record<string, unknown>> {
	const shown: Record<string, unknown> = {};
	for (const { name, version, description, resources } of await actionNodes()) {
		for (const resource of resources) {
			for (const operation of operationsOf(description, resource, version)) {
				const fields = description.properties.filter((property) => shownFor(property, { resource, operation, version }));
				shown[`${name} ${version} ${resource} ${operation}`] = fields.map(asShown);
			}
		}
	}
	return shown;
}

test('every operation shows the same fields, in the same order, as before its declaration moved into one block', async () => {
	const now = await shownFields();
	if (process.env.RECORD_OPERATION_FIELDS === '1' || !existsSync(FIXTURE)) writeFileSync(FIXTURE, `${JSON.stringify(now, null, '\t')}\n`);
	const recorded = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Record<string, unknown>;
	expect(Object.keys(now).sort()).toEqual(Object.keys(recorded).sort());
	const changed = Object.keys(recorded).filter((key) => JSON.stringify(now[key]) !== JSON.stringify(recorded[key]));
	expect(changed).toEqual([]);
	expect(Object.keys(recorded).length).toBeGreaterThan(150);
});
