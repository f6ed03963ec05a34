import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { crmParent } from './harness/crm';
import { useWorld } from './harness/world';

/**
 * Property test of the sandbox's money (fast-check): random documents of 1-8 lines (quantities with up to 3 decimals,
 * unit prices with up to 4, discounts with up to 2, common VAT rates) are created over HTTP, and their amounts must
 * equal what exact integer arithmetic in this file gives: each line's net rounded half up to the cent, the lines summed
 * per rate, each rate's tax rounded half up, gross = net + tax. The JSON numbers travel as floats, so this also checks
 * that no float error reaches a cent. `INVOICING_MONEY_RUNS` changes the number of documents (default 300).
 */

const world = useWorld();
const RUNS = Number(process.env.INVOICING_MONEY_RUNS ?? 300);

/** a / b rounded half up (both positive). */
const halfUp = (a: bigint, b: bigint) => (2n * a + b) / (2n * b);

interface Line {
	/** Thousandths, ten-thousandths, hundredths of a percent, hundredths of a percent. */
	quantity: number;
	unitPrice: number;
	discount: number;
	taxRate: number;
}

const RATES = [0, 500, 700, 770, 1000, 1900, 2000, 2100, 2500];

const line = fc.record({
	quantity: fc.integer({ min: 1, max: 1_000_000 }),
	unitPrice: fc.oneof(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100_000_000 })),
	discount: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 10_000 })),
	taxRate: fc.constantFrom(...RATES),
});

/** What the document must say, in cents. */
function expected(lines: Line[]) {
	const nets = lines.map((entry) => halfUp(BigInt(entry.quantity) * BigInt(entry.unitPrice) * BigInt(10_000 - entry.discount), 1_000_000_000n));
	const byRate = new Map<number, bigint>();
	lines.forEach((entry, index) => byRate.set(entry.taxRate, (byRate.get(entry.taxRate) ?? 0n) + nets[index]));
	const taxes = [...byRate.entries()].sort(([a], [b]) => b - a).map(([rate, net]) => ({ rate, net, tax: halfUp(net * BigInt(rate), 10_000n) }));
	const net = taxes.reduce((sum, group) => sum + group.net, 0n);
	const tax = taxes.reduce((sum, group) => sum + group.tax, 0n);
	return { nets, taxes, net, tax, gross: net + tax };
}

/** An API amount (a decimal with two places) in cents. */
const cents = (amount: unknown) => BigInt(Math.round(Number(amount) * 100));

let contactId: string;
beforeAll(async () => {
	await world().control('POST', '/__sandbox/rate-limit', { perMinute: 100_000, burst: 100_000 });
	contactId = await crmParent(world(), 'contact', 'money@example.com');
});

test(`${RUNS} random documents: every line, tax group and total equals exact integer arithmetic`, async () => {
	let checkedLines = 0;
	await fc.assert(
		fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 8 }), async (lines) => {
			const lineItems = lines.map((entry, index) => ({
				description: `Line ${index + 1}`,
				quantity: entry.quantity / 1000,
				unitPrice: entry.unitPrice / 10_000,
				discountPercent: entry.discount / 100,
				taxRate: entry.taxRate / 100,
			}));
			const answer = await world().api('POST', '/invoicing/documents', world().seed.credentials.ownerPat, { body: { type: 'invoice', contactId, lineItems } });
			if (answer.status !== 201) throw new Error(`${answer.status} ${JSON.stringify(answer.body)}`);
			const document = answer.body;
			const want = expected(lines);
			expect((document.lineItems as IDataObject[]).map((entry) => cents(entry.netAmount))).toEqual(want.nets);
			expect((document.taxes as IDataObject[]).map((group) => [Math.round(Number(group.taxRate) * 100), cents(group.netAmount), cents(group.taxAmount)])).toEqual(want.taxes.map((group) => [group.rate, group.net, group.tax]));
			expect([cents(document.netTotal), cents(document.taxTotal), cents(document.grossTotal), cents(document.amountDue)]).toEqual([want.net, want.tax, want.gross, want.gross]);
			checkedLines += lines.length;
		}),
		{ numRuns: RUNS, seed: process.env.INVOICING_MONEY_SEED ? Number(process.env.INVOICING_MONEY_SEED) : undefined },
	);
	console.log(`Invoicing money property: ${RUNS} documents, ${checkedLines} lines`);
});
