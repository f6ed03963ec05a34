import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { OperationDefinition, ResourceDefinitions } from './types';

/**
 * One operation of a resource, declared in one block: its Operation option, what it sends (the definition the executor
 * runs, types.ts) and the fields the editor shows for it, in order. A field object listed by several operations is one
 * field, shown for each of them; its own displayOptions (another field's value, a node version) stay as they are.
 */
export interface OperationDeclaration extends OperationDefinition {
	/** The Operation option: its name in the list, what it needs and returns, and its action (the panel's and AI tools' line). */
	option: { name: string; description: string; action: string };
	fields?: INodeProperties[];
}

export interface ResourceDeclaration {
	/** The operation a new node of this resource starts with. */
	default: string;
	operations: Record<string, OperationDeclaration>;
}

/** What the executor runs of an operation's declaration: all but its option and fields. */
function definitionOf(declaration: OperationDeclaration): OperationDefinition {
	const definition: Partial<OperationDeclaration> = { ...declaration };
	delete definition.option;
	delete definition.fields;
	return definition as OperationDefinition;
}

/** The resource's definitions (for the executor) and its properties (the Operation field, then the fields), built from its declarations. */
export function declareResource(resource: string, { default: start, operations }: ResourceDeclaration): { definitions: ResourceDefinitions; properties: INodeProperties[] } {
	const entries = Object.entries(operations);
	const definitions = Object.fromEntries(entries.map(([value, declaration]) => [value, definitionOf(declaration)]));
	const options: INodePropertyOptions[] = entries
		.map(([value, { option }]) => ({ name: option.name, value, description: option.description, action: option.action }))
		.sort((a, b) => a.name.localeCompare(b.name));
	const operation: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options,
		default: start,
	};
	const lists = entries.map(([value, { fields = [] }]): [string, INodeProperties[]] => [value, fields]);
	return { definitions, properties: [operation, ...gatheredFields(resource, lists, (operations) => ({ resource: [resource], operation: operations }))] };
}

/**
 * Each field once, shown for the entries (operations, events) that list it (`shownFor` makes the displayOptions that
 * name them), in an order that keeps each entry's own order of its fields (where entries list shared fields in
 * contradicting orders, the declaration is refused at load). A field's own displayOptions must not name what
 * `shownFor` names.
 */
export function gatheredFields(owner: string, lists: Array<[string, INodeProperties[]]>, shownFor: (values: string[]) => Record<string, string[]>): INodeProperties[] {
	const listedBy = new Map<INodeProperties, string[]>();
	const before = new Map<INodeProperties, Set<INodeProperties>>();
	for (const [value, fields] of lists) {
		fields.forEach((field, index) => {
			const named = Object.keys(shownFor([])).filter((key) => field.displayOptions?.show?.[key]);
			if (named.length) throw new Error(`${owner}: the field "${field.name}" names its ${named.join(' and ')} itself; list it in the blocks that show it instead`);
			listedBy.set(field, [...(listedBy.get(field) ?? []), value]);
			if (!before.has(field)) before.set(field, new Set());
			if (index > 0) before.get(field)!.add(fields[index - 1]);
		});
	}
	const pending = [...listedBy.keys()];
	const placed = new Set<INodeProperties>();
	while (pending.length) {
		const next = pending.findIndex((field) => [...before.get(field)!].every((earlier) => placed.has(earlier)));
		if (next < 0) throw new Error(`${owner}: the fields ${pending.map((field) => `"${field.name}"`).join(', ')} are listed in contradicting orders`);
		placed.add(pending.splice(next, 1)[0]);
	}
	return [...placed].map((field) => ({
		...field,
		displayOptions: { ...field.displayOptions, show: { ...shownFor(listedBy.get(field)!), ...field.displayOptions?.show } },
	}));
}
