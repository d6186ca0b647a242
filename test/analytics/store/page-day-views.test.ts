import { DAY_MS } from '../../../src/calendar.js';
import {
  addView,
  decodePageDay,
  encodePageDay,
  mergeTimed,
  packViews,
  pendingViews,
  type TimedVisitors,
} from '../../../src/analytics/store/page-day-views.js';
import { KIND } from '../../../src/analytics/store/day-sets.js';

const timed = (pairs: [number, number][]): TimedVisitors => ({
  at: Uint32Array.from(pairs.map(([at]) => at)),
  visitors: Uint32Array.from(pairs.map(([, visitor]) => visitor)),
});
const pairsOf = (t: TimedVisitors) => [...t.at].map((at, i) => [at, t.visitors[i]]);

describe('a page day as packed', () => {
  it('merges views added in any order into the stored ones, in time order', () => {
    const stored = timed([
      [10, 1],
      [20, 2],
      [40, 3],
    ]);
    const merged = mergeTimed(stored, { at: [50, 5, 20, 30], visitors: [9, 8, 7, 6] });
    expect([...merged.at]).toEqual([5, 10, 20, 20, 30, 40, 50]);
    expect(pairsOf(merged)).toEqual([
      [5, 8],
      [10, 1],
      [20, 2],
      [20, 7],
      [30, 6],
      [40, 3],
      [50, 9],
    ]);
    expect(pairsOf(mergeTimed(undefined, { at: [3, 1], visitors: [1, 2] }))).toEqual([
      [1, 2],
      [3, 1],
    ]);
    expect(pairsOf(mergeTimed(stored, { at: [], visitors: [] }))).toEqual(pairsOf(stored));
  });

  it('reads back what it wrote from a blob at any offset, agents by name, and refuses a cut or an older one', () => {
    const views = {
      human: timed([[DAY_MS - 1, 2 ** 32 - 1]]),
      referred: timed([]),
      ai: [
        { agent: '', ...timed([[3, 4]]) },
        {
          agent: 'GPTBot',
          ...timed([
            [0, 7],
            [5, 8],
          ]),
        },
        // a name whose UTF-8 bytes are no whole number of words
        { agent: 'Bötchen', ...timed([[9, 9]]) },
      ],
    };
    const blob = encodePageDay(views);
    // the header, each agent's length and name length, the names padded to a word, two words a view
    expect(blob.length).toBe(4 * (4 + 2 * 3 + Math.ceil((6 + 8) / 4) + 2 * 5));
    const plain = (v: ReturnType<typeof decodePageDay>) => ({
      human: pairsOf(v.human),
      referred: pairsOf(v.referred),
      ai: v.ai.map((a) => [a.agent, pairsOf(a)]),
    });
    const unaligned = Buffer.concat([Buffer.from([0]), blob]).subarray(1);
    expect(plain(decodePageDay(unaligned))).toEqual(plain(views));
    // a blob that starts on a word is read in place, one that does not is copied
    expect(decodePageDay(blob).human.at.buffer).toBe(blob.buffer);
    expect(decodePageDay(unaligned).human.at.buffer).not.toBe(unaligned.buffer);
    expect(plain(decodePageDay(encodePageDay({ human: timed([]), referred: timed([]), ai: [] })))).toEqual({
      human: [],
      referred: [],
      ai: [],
    });
    expect(() => decodePageDay(blob.subarray(0, blob.length - 4))).toThrow('not a page day');
    expect(() => decodePageDay(Buffer.concat([blob, Buffer.alloc(4)]))).toThrow('not a page day');
    expect(() => decodePageDay(Buffer.concat([blob, Buffer.alloc(1)]))).toThrow('not a page day');
    expect(() => decodePageDay(Buffer.alloc(4))).toThrow('not a page day');
    // the layout before agents were kept: three lengths, then the views
    const older = Buffer.from(Uint32Array.from([1, 0, 0, 5, 6]).buffer);
    expect(() => decodePageDay(older)).toThrow('not a page day');
  });
});

describe('a page day while views are added', () => {
  it('puts humans in one class, those an assistant sent also in another, and each AI agent apart', () => {
    const views = pendingViews();
    addView(views, KIND.human, null, 30, 1);
    addView(views, KIND.human, 'via ChatGPT', 10, 2);
    addView(views, KIND.ai, 'GPTBot', 20, 3);
    addView(views, KIND.ai, null, 5, 4);
    addView(views, KIND.ai, 'ClaudeBot', 40, 5);
    addView(views, KIND.ai, 'GPTBot', 15, 6);
    const packed = packViews(views);
    expect(pairsOf(packed.human)).toEqual([
      [10, 2],
      [30, 1],
    ]);
    expect(pairsOf(packed.referred)).toEqual([[10, 2]]);
    // by name, a view that named no agent under ''; each in time order
    expect(packed.ai.map((a) => [a.agent, pairsOf(a)])).toEqual([
      ['', [[5, 4]]],
      ['ClaudeBot', [[40, 5]]],
      [
        'GPTBot',
        [
          [15, 6],
          [20, 3],
        ],
      ],
    ]);
    // merged into the stored: an agent new to the day joins in its place, the stored keep theirs
    const more = pendingViews();
    addView(more, KIND.ai, 'Bytespider', 1, 7);
    addView(more, KIND.ai, 'GPTBot', 17, 8);
    const merged = packViews(more, packed);
    expect(merged.ai.map((a) => [a.agent, pairsOf(a).map(([, v]) => v)])).toEqual([
      ['', [4]],
      ['Bytespider', [7]],
      ['ClaudeBot', [5]],
      ['GPTBot', [6, 8, 3]],
    ]);
    expect(pairsOf(merged.human)).toEqual(pairsOf(packed.human));
  });
});
