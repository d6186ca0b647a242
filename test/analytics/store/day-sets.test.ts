import {
  addPageVisitors,
  addPair,
  countPartVisitors,
  pageOf,
  pairsBlob,
  partOf,
  RoaringBitmap32,
  SITE_PAGE,
} from '../../../src/analytics/store/day-sets.js';
import { pageBitmaps } from '../../support/page-bitmaps.js';
import { planWithin, splitRange } from '../../../src/analytics/store/split-range.js';

describe('day sets', () => {
  it('count distinct visitors per page, across parts', () => {
    const keys = new Map<number, number[]>();
    const views: [number, number][] = [
      [1, 5],
      [1, 5],
      [1, 70_000],
      [2, 5],
      [70_001, 5],
      [70_001, 9],
      [3, 1_000_000],
    ];
    for (const [page, visitor] of views) addPair(keys, page, visitor);
    const counts = new Map<number, number>();
    for (const [part, list] of keys) countPartVisitors(part, [{ blobs: [pairsBlob(list)], counts }]);
    expect(Object.fromEntries(counts)).toEqual({ [SITE_PAGE]: 4, 1: 2, 2: 1, 3: 1, 70001: 2 });
  });

  it('place pages and visitors above 16 bits in their own parts', () => {
    expect(partOf(70_001, 5)).toBe(65536);
    expect(partOf(1, 70_000)).toBe(1);
    expect(pageOf(65536, 70_001 & 0xffff)).toBe(70_001);
  });

  it('reads run-compressed bitmaps too', () => {
    const bitmap = new RoaringBitmap32();
    bitmap.addRange((7 << 16) >>> 0, ((7 << 16) | 5000) >>> 0);
    bitmap.runOptimize();
    const counts = new Map<number, number>();
    countPartVisitors(0, [{ blobs: [Buffer.from(bitmap.serialize(true))], counts }]);
    expect(counts.get(7)).toBe(5000);
  });
});

describe('addPageVisitors', () => {
  it("reads one page's visitors from a stored blob, whatever its container's kind and wherever it sits", () => {
    let checked = 0;
    for (const { bitmap, blob, pages, random } of pageBitmaps(7, 200)) {
      const part = 3 * 65536 + random(4);
      for (const page of [...pages, random(65_536), 65_536 + pages[0]]) {
        const keys = bitmap.rangeUint32Array(
          page ? bitmap.rank(page * 65536 - 1) : 0,
          bitmap.rangeCardinality(page * 65536, page * 65536 + 65536),
        );
        // the part's block (page ids above 65,535 live in other parts' blobs); visitors are the part's high bits and
        // the key's low ones
        const pageId = 3 * 65536 + (page % 65536);
        const want = page >= 65536 ? new Uint32Array() : keys.map((key) => (part % 65536) * 65536 + (key & 0xffff));
        const visitors = new RoaringBitmap32([1]);
        addPageVisitors(part, blob, page >= 65536 ? page : pageId, visitors);
        visitors.remove(1);
        if (!want.includes(1)) expect(visitors.has(1)).toBe(false);
        else visitors.add(1);
        // compared as bytes: a deep equality of arrays this long takes most of the test's time
        expect(visitors.size).toBe(want.length);
        expect(
          Buffer.from(visitors.toUint32Array().buffer).equals(
            Buffer.from(want.buffer, want.byteOffset, want.byteLength),
          ),
        ).toBe(true);
        checked += visitors.size;
        visitors.dispose();
      }
    }
    expect(checked).toBeGreaterThan(100_000);
  });
});

type ColumnFigures = Record<'human' | 'ai' | 'total', Map<number, number>>;

/** countPartVisitors over a human and an AI class, their visitors together in `total`. */
function countColumns(
  part: number,
  blobs: { human: Buffer[]; ai: Buffer[] },
  into: ColumnFigures,
  pages?: Set<number>,
) {
  const classes = [
    { blobs: blobs.human, counts: into.human },
    { blobs: blobs.ai, counts: into.ai },
  ];
  countPartVisitors(part, classes, { both: into.total, pages });
}

describe('countPartVisitors', () => {
  /** Distinct visitors per page of each class and of both, recounted from the pairs themselves. */
  function recount(part: number, pairs: { human: number[][]; ai: number[][] }, pages?: Set<number>): ColumnFigures {
    const sets = { human: new Map<number, Set<number>>(), ai: new Map<number, Set<number>>(), total: new Map() };
    for (const column of ['human', 'ai'] as const)
      for (const keys of pairs[column])
        for (const key of keys) {
          const page = pageOf(part, key >>> 16);
          if (pages && !pages.has(page)) continue;
          for (const map of [sets[column], sets.total]) {
            if (!map.has(page)) map.set(page, new Set());
            map.get(page)!.add(key & 0xffff);
          }
        }
    const sizes = (map: Map<number, Set<number>>) => new Map([...map].map(([page, set]) => [page, set.size]));
    return { human: sizes(sets.human), ai: sizes(sets.ai), total: sizes(sets.total) };
  }

  it('counts each page of several blobs per class as the union of their pairs, whatever the containers', () => {
    let counted = 0;
    // each bitmap is freed once the next is made: its keys are read as it comes
    const bitmaps: { keys: number[]; blob: Buffer }[] = [];
    for (const { bitmap, blob } of pageBitmaps(11, 12)) bitmaps.push({ keys: bitmap.toArray(), blob });
    for (let round = 0; round < 4; round++) {
      // a part of the second block of pages, so page numbers are told from container keys
      const part = 65536 + round;
      const human = bitmaps.slice(round, round + 4 + round);
      const ai = bitmaps.slice(6 + (round % 3), 8 + round);
      const empty = Buffer.from(new RoaringBitmap32().serialize(true));
      const counts: ColumnFigures = { human: new Map(), ai: new Map(), total: new Map() };
      countColumns(part, { human: [...human.map((b) => b.blob), empty], ai: ai.map((b) => b.blob) }, counts);
      const expected = recount(part, { human: human.map((b) => b.keys), ai: ai.map((b) => b.keys) });
      expect(counts).toEqual(expected);
      // those pages alone: a page chosen, one with no pairs, and the site
      const pages = new Set([...expected.total.keys()].slice(0, 2).concat([65536 + 65535, SITE_PAGE]));
      const some: ColumnFigures = { human: new Map(), ai: new Map(), total: new Map() };
      countColumns(part, { human: human.map((b) => b.blob), ai: ai.map((b) => b.blob) }, some, pages);
      expect(some).toEqual(recount(part, { human: human.map((b) => b.keys), ai: ai.map((b) => b.keys) }, pages));
      // many pages: walked rather than found one by one, the asked pages' counts the same (others may come along)
      const many = new Set([...expected.total.keys(), ...Array.from({ length: 100 }, (_, i) => 65536 + 60_000 + i)]);
      const walked: ColumnFigures = { human: new Map(), ai: new Map(), total: new Map() };
      countColumns(part, { human: human.map((b) => b.blob), ai: ai.map((b) => b.blob) }, walked, many);
      expect(walked).toEqual(expected);
      counted += [...expected.total.values()].reduce((a, b) => a + b, 0);
    }
    expect(counted).toBeGreaterThan(50_000);
  });

  it('adds to the counts already there: a page over two parts of visitors', () => {
    const counts: ColumnFigures = { human: new Map([[7, 2]]), ai: new Map(), total: new Map([[7, 2]]) };
    const blob = Buffer.from(new RoaringBitmap32([(7 << 16) | 1, (7 << 16) | 2]).serialize(true));
    countColumns(1, { human: [blob], ai: [blob] }, counts);
    expect(counts).toEqual({ human: new Map([[7, 4]]), ai: new Map([[7, 2]]), total: new Map([[7, 4]]) });
  });
});

describe('splitRange', () => {
  const DAY = 86_400_000;
  it('splits a range into whole days and partial edges', () => {
    expect(splitRange({ from: 10 * DAY, to: 13 * DAY })).toEqual({ days: [10, 13], edges: [] });
    expect(splitRange({ from: 10 * DAY - 5, to: 13 * DAY + 7 })).toEqual({
      days: [10, 13],
      edges: [
        { from: 10 * DAY - 5, to: 10 * DAY },
        { from: 13 * DAY, to: 13 * DAY + 7 },
      ],
    });
    expect(splitRange({ from: 10 * DAY + 1, to: 11 * DAY + 1 })).toEqual({
      days: null,
      edges: [{ from: 10 * DAY + 1, to: 11 * DAY + 1 }],
    });
  });
});

describe('planWithin', () => {
  const DAY = 86_400_000;
  // a range from 10:00 on day 10 to 06:00 on day 16, day 13 not folded yet
  const range = { from: 10 * DAY + 10 * 3_600_000, to: 16 * DAY + 6 * 3_600_000 };
  const plan = {
    days: [
      [11, 13],
      [14, 16],
    ] as [number, number][],
    raw: [
      { from: range.from, to: 11 * DAY },
      { from: 16 * DAY, to: range.to },
      { from: 13 * DAY, to: 14 * DAY },
    ],
  };

  it('answers each day of the range as planning that day would: derived, late or an edge', () => {
    expect(planWithin(plan, { from: range.from, to: 11 * DAY })).toEqual({ days: [], raw: [plan.raw[0]] });
    expect(planWithin(plan, { from: 12 * DAY, to: 13 * DAY })).toEqual({ days: [[12, 13]], raw: [] });
    expect(planWithin(plan, { from: 13 * DAY, to: 14 * DAY })).toEqual({ days: [], raw: [plan.raw[2]] });
    expect(planWithin(plan, { from: 16 * DAY, to: range.to })).toEqual({ days: [], raw: [plan.raw[1]] });
  });

  it('cuts runs and raw ranges to a longer sub-range, and a partial day to its part', () => {
    expect(planWithin(plan, { from: 12 * DAY + 5, to: 15 * DAY })).toEqual({
      days: [[14, 15]],
      raw: [{ from: 13 * DAY, to: 14 * DAY }],
    });
    expect(planWithin(plan, range)).toEqual(plan);
    // while a rebuild runs the whole range is raw: so is any part of it
    const rebuilding = { days: [], raw: [range] };
    expect(planWithin(rebuilding, { from: 12 * DAY, to: 13 * DAY })).toEqual({
      days: [],
      raw: [{ from: 12 * DAY, to: 13 * DAY }],
    });
  });
});
