import type { IDataObject } from 'n8n-workflow';

/**
 * The outputs of a bulk import call (contacts, deals), one per row in the order sent: the row's email, whether the
 * API took it (an issue with the row's index: not, with the issue's message) and the call's counts. Issues that name
 * no row (their form is unconfirmed for deals) stay with the counts.
 */
export function rowOutcomes(answer: unknown, rows: IDataObject[]): IDataObject[] {
	const { issues, ...counts } = (answer ?? {}) as IDataObject;
	const all = (Array.isArray(issues) ? issues : []) as IDataObject[];
	const placed = all.filter((issue) => typeof issue.index === 'number');
	const unplaced = all.filter((issue) => !placed.includes(issue));
	const call = { rows: rows.length, ...counts, ...(unplaced.length > 0 && { issues: unplaced }) };
	return rows.map((row, index) => {
		const issue = placed.find((candidate) => candidate.index === index);
		return { email: row.email ?? null, accepted: !issue, ...(issue && { problem: issue.message }), call };
	});
}
