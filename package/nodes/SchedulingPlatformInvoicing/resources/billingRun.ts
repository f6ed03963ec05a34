import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { calendarDay } from '../../shared/dates';
import { declareResource } from '../../shared/declare';
import { returnAllFields } from '../../shared/getMany';
import type { OperationCall } from '../../shared/types';
import { locatorField } from '../../shared/locators';
import { billingRunLocator } from '../locators';

/**
 * Billing Run (api-reference §6 Billing runs, designed): bills every active schedule due by the run date, once
 * per period (a second run for the same date bills nothing). Start can put out one item per invoice made, so
 * Finalise and Send can follow directly; with nothing billed it puts out no item and the chain stops.
 */

const RUNS = '/invoicing/billing-runs';

/** The run, or one item per invoice it made (`documentId`, the run's id and date); a dry run made none: the run. */
function runOutput(answer: unknown, call: OperationCall): IDataObject[] {
	const run = answer as IDataObject;
	if (call.values.output !== 'documents' || run.dryRun === true) return [run];
	return ((run.createdDocumentIds ?? []) as string[]).map((documentId) => ({ documentId, billingRunId: run.id, runDate: run.runDate, dryRun: run.dryRun }));
}

const output: INodeProperties = {
	displayName: 'Output',
	name: 'output',
	type: 'options',
	options: [
		{ name: 'Billing Run', value: 'run', description: 'One item: the run with its created, skipped and failed schedules' },
		{ name: 'One Item per Created Invoice', value: 'documents', description: 'Its document ID, to finalise or send next; none when nothing was billed (a dry run puts out the run)' },
	],
	default: 'run',
	description: 'What the node puts out',
};

const runOptions: INodeProperties = {
	displayName: 'Run Options',
	name: 'runOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{ displayName: 'Dry Run', name: 'dryRun', type: 'boolean', default: false, description: 'Whether to only list what would be billed (plannedDocuments), changing nothing' },
		{
			displayName: 'Recurring Invoice Names or IDs',
			name: 'recurringIds',
			type: 'multiOptions',
			typeOptions: { loadOptionsMethod: 'getRecurringInvoices' },
			default: [],
			description:
				'Bill only these schedules (default: all active ones). Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
		{ displayName: 'Run Date', name: 'runDate', type: 'dateTime', default: '', description: 'Bill the periods due by this day (empty: today; not later than today)' },
	],
};

const billingRunId: INodeProperties = { ...locatorField('Billing Run', 'billingRunId', 'The billing run to get', billingRunLocator), required: true };

export const { definitions: billingRunOperations, properties: billingRunProperties } = declareResource('billingRun', {
	default: 'start',
	operations: {
		get: {
			option: { name: 'Get', description: 'Needs the billing run ID; returns the run', action: 'Get a billing run by ID' },
			method: 'GET',
			path: `${RUNS}/{id}`,
			pathParams: { id: 'billingRunId' },
			fields: [billingRunId],
		},
		getAll: {
			option: { name: 'Get Many', description: 'Needs nothing; returns one item per billing run, newest first', action: 'Get many billing runs' },
			method: 'GET',
			path: RUNS,
			pagination: { style: 'page1', itemsKey: 'billingRuns' },
			fields: returnAllFields(),
		},
		start: {
			option: {
				name: 'Start',
				description: 'Needs nothing (Run Date optional); returns the run, or one item per invoice it created',
				action: 'Start a billing run of the due invoices',
			},
			method: 'POST',
			path: RUNS,
			body: {
				runDate: { param: 'runOptions.runDate', convert: calendarDay },
				recurringIds: { param: 'runOptions.recurringIds', convert: (ids) => ((ids as string[]).length ? ids : undefined) },
				dryRun: 'runOptions.dryRun',
			},
			values: { output: 'output' },
			output: runOutput,
			fields: [output, runOptions],
		},
	},
});
