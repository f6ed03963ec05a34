import { distFile } from './harness/processes';

/**
 * The sharing policy's transitions (package/nodes/shared/transport/sharingPolicy.ts), one rule each, as pure functions:
 * times are in tokens of the credential's limit (at 100 per minute, 60 s are 100 tokens). The virtual-time simulations
 * of several processes in rateLimit.test.ts are the acceptance gate of the rules together.
 */

type SharingPolicy = typeof import('../package/dist/nodes/shared/transport/sharingPolicy');
type Sharing = import('../package/dist/nodes/shared/transport/sharingPolicy').Sharing;

const policy = jest.requireActual<SharingPolicy>(distFile('transport/sharingPolicy.js'));
const { ALONE, REFILL_SLOWER, afterAnswer, afterRateLimited, drainIfDue, measuredShare, nearRunEnd, nextShare, shareOf } = policy;

/** A process sharing since a 429 at token time 1,000, measured, at a third of the limit, its next drain at 1,500. */
const sharing = (changes: Partial<Sharing> = {}): Sharing => ({
	state: 'sharing',
	share: 1 / 3,
	measured: true,
	since: 1000,
	answers: 0,
	drainAt: 1500,
	drainWait: 500,
	endDrainBelow: Infinity,
	...changes,
});

/** `answers` at the share's own rate over `span` tokens: what a process gets through when the others keep to theirs. */
const atRate = (share: number, span: number) => Math.round((share / REFILL_SLOWER) * span);

describe('alone', () => {
	test('a process starts alone: the whole limit, and answers teach it nothing', () => {
		expect(shareOf(ALONE)).toBe(1);
		expect(afterAnswer(ALONE)).toBe(ALONE);
		expect(drainIfDue(ALONE, 1e9)).toBe(ALONE);
		expect(nearRunEnd(ALONE, 1, 0)).toBe(ALONE);
	});

	test('the first 429 starts sharing: half the limit, not yet measured, a drain after 150 tokens (a stray 429 soon finds it alone), give or take a quarter', () => {
		const next = afterRateLimited(ALONE, 1000, 0.5);
		expect(next).toEqual({ state: 'sharing', share: 0.5, measured: false, since: 1000, answers: 0, drainAt: 1150, drainWait: 150, endDrainBelow: Infinity });
		expect((afterRateLimited(ALONE, 1000, 0) as Sharing).drainAt).toBe(1000 + 0.75 * 150);
		expect((afterRateLimited(ALONE, 1000, 1) as Sharing).drainAt).toBe(1000 + 1.25 * 150);
	});
});

describe('sharing: measuring between 429s', () => {
	test('every answer but a 429 counts towards the share measured at the next 429', () => {
		expect(afterAnswer(sharing({ answers: 4 }))).toEqual(sharing({ answers: 5 }));
	});

	test('the first measurement spans at least 75 tokens (the burst is shared out meanwhile), later ones and drains 20', () => {
		const first = sharing({ measured: false, answers: 37 });
		expect(measuredShare(first, 1074)).toBeUndefined();
		expect(measuredShare(first, 1075)).toBeCloseTo(37 / 75);
		expect(measuredShare(sharing({ answers: 5 }), 1019)).toBeUndefined();
		expect(measuredShare(sharing({ answers: 5 }), 1020)).toBe(0.25);
		expect(measuredShare(sharing({ state: 'draining', measured: false, answers: 5 }), 1020)).toBe(0.25);
		expect(measuredShare(sharing({ answers: 500 }), 1100)).toBe(1);
	});

	test('a 429 too soon to measure changes nothing', () => {
		const before = sharing({ answers: 3 });
		expect(afterRateLimited(before, 1010, 0.5)).toBe(before);
	});

	test('the first measurement sets the share to the one got through, 5 % less, and plans the next drain after 600 tokens', () => {
		const next = afterRateLimited(sharing({ share: 0.5, measured: false, answers: 30, drainAt: 1150, drainWait: 150 }), 1100, 0.5) as Sharing;
		expect(next.share).toBeCloseTo(0.3 * 0.95);
		expect(next).toMatchObject({ state: 'sharing', measured: true, since: 1100, answers: 0, drainAt: 1700, drainWait: 600 });
	});

	test('a share got through 15 % below the rate means someone came: the share is measured again', () => {
		const crowded = sharing({ answers: Math.floor(atRate(1 / 3, 100) * 0.8) });
		expect(nextShare(crowded, measuredShare(crowded, 1100) as number, 1100)).toBeCloseTo((crowded.answers / 100) * 0.95);
		expect(afterRateLimited(crowded, 1100, 0.5)).toMatchObject({ since: 1100, answers: 0, drainAt: 1500 });
	});

	test('any other 429 (now and then, as the shares meet) keeps the share and the drain planned', () => {
		const holding = sharing({ answers: atRate(1 / 3, 100) });
		expect(afterRateLimited(holding, 1100, 0.5)).toEqual(sharing({ since: 1100 }));
	});

	test('the share never drops below 5 % of the limit', () => {
		expect(nextShare(sharing(), 0.01, 1100)).toBe(0.05);
	});
});

describe('draining: finding the room others left', () => {
	test('a drain starts when due, but not within 60 tokens of the last 429 (too little could be saved to tell)', () => {
		expect(drainIfDue(sharing(), 1499).state).toBe('sharing');
		expect(drainIfDue(sharing(), 1500)).toEqual(sharing({ state: 'draining' }));
		expect(drainIfDue(sharing({ drainAt: 1010 }), 1059).state).toBe('sharing');
		expect(drainIfDue(sharing({ drainAt: 1010 }), 1060).state).toBe('draining');
	});

	test('a drain that found room (20 % of the limit more than the rate, 10 tokens in all) takes it as its share and drains again after 30 tokens', () => {
		const drain = sharing({ state: 'draining', since: 1000, answers: 60 });
		const next = afterRateLimited(drain, 1100, 0.5) as Sharing;
		expect(next.share).toBeCloseTo(0.6 * 0.95);
		expect(next).toMatchObject({ state: 'sharing', drainWait: 30, drainAt: 1130, since: 1100, answers: 0 });
	});

	test('a drain that found only the margins keeps the share and drains again after 300 answers or when 400 tokens could have been left unused, whichever is first', () => {
		const drain = sharing({ state: 'draining', since: 1000, answers: 40 });
		const next = afterRateLimited(drain, 1100, 0.5) as Sharing;
		expect(next.share).toBe(1 / 3);
		expect(next.drainWait).toBeCloseTo(Math.min(400 / (1 - 0.4), 300 * 3));
		expect(next.state).toBe('sharing');
	});

	test('a drain that measures 95 % of the limit or more: the others have stopped, alone again', () => {
		expect(afterRateLimited(sharing({ state: 'draining', answers: 95 }), 1100, 0.5)).toBe(ALONE);
	});

	test('a drain ended by a 429 too soon to measure is planned again after the same wait', () => {
		expect(afterRateLimited(sharing({ state: 'draining', answers: 2 }), 1010, 0.5)).toEqual(sharing({ answers: 2, drainAt: 1510 }));
	});
});

describe('the end of a node run', () => {
	test('with few items left (what the share sends in 200 tokens) the process drains at once, and again when a quarter of those are left', () => {
		const ending = nearRunEnd(sharing(), 60, 1200) as Sharing;
		expect(ending).toMatchObject({ drainAt: 1200, endDrainBelow: 15 });
		const later = sharing({ drainAt: 1300, endDrainBelow: 15 });
		expect(nearRunEnd(later, 16, 1250)).toBe(later);
		expect(nearRunEnd(later, 15, 1250)).toMatchObject({ drainAt: 1250, endDrainBelow: 15 / 4 });
	});

	test('a run with more items left makes the end drains due again', () => {
		expect(nearRunEnd(sharing({ endDrainBelow: 3 }), 500, 1200)).toMatchObject({ endDrainBelow: Infinity, drainAt: 1500 });
	});

	test('a drain due, not yet started, while the end is within 40 % of its wait: it waits for the end drain instead', () => {
		// 100 items at a third of the limit take 300 tokens: more than 200 (not the end yet), within 40 % of a 900 tokens' wait.
		expect(nearRunEnd(sharing({ drainWait: 900 }), 100, 1600)).toMatchObject({ drainAt: 1600 + 300, endDrainBelow: Infinity });
		expect(nearRunEnd(sharing({ drainWait: 900 }), 1000, 1600)).toMatchObject({ drainAt: 1500 });
		expect(nearRunEnd(sharing({ drainWait: 900, state: 'draining' }), 100, 1600)).toMatchObject({ drainAt: 1500 });
	});
});
