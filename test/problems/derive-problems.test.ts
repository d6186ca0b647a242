import type { ProblemSignals } from '../../src/analytics/reports/problem-signals.js';
import { deriveProblems, previousRange } from '../../src/problems/derive-problems.js';

const DAY = 86_400_000;
const range = { from: 20 * DAY, to: 27 * DAY };

describe('deriveProblems', () => {
  it('asks for every kind, and for both ranges, at once: a database with several connections answers them side by side', async () => {
    const asked: string[] = [];
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const signals = {
      // the missing URLs wait until the others have been asked: read one after another, they never would be
      missingUrls: async (params: { range: { from: number } }) => {
        asked.push(`misses ${params.range.from === range.from ? 'now' : 'before'}`);
        await gate;
        return params.range.from === range.from
          ? [{ path: '/gone', requests: 4, readers: 3, firstSeen: range.from, lastSeen: range.from + 5 }]
          : [{ path: '/gone', requests: 1, readers: 1, firstSeen: 0, lastSeen: 1 }];
      },
      negativeFeedback: async (params: { range: { from: number } }) => {
        asked.push(`feedback ${params.range.from === range.from ? 'now' : 'before'}`);
        return [];
      },
      searchTerms: async () => {
        asked.push('searches now');
        return [];
      },
    } as unknown as ProblemSignals;
    const derived = deriveProblems({
      signals,
      projectId: 'p',
      range,
      kinds: new Set(['missing-page', 'negative-feedback', 'search-gap']),
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect([...asked].sort()).toEqual([
      'feedback before',
      'feedback now',
      'misses before',
      'misses now',
      'searches now',
    ]);
    open();
    const problems = await derived;
    expect(problems).toEqual([
      expect.objectContaining({ kind: 'missing-page', paths: ['/gone'], readers: 3, previousReaders: 1 }),
    ]);
    expect(previousRange(range)).toEqual({ from: 13 * DAY, to: 20 * DAY });
  });
});
