import { DENSE_SPAN, PackedCounts, PageCounts } from '../../../src/analytics/store/page-counts.js';
import { countsMap, rng } from '../../support/rollup-fixtures.js';

/**
 * Random counts per page: small ids, ids past the first array, ids far beyond (past the arrays' span) and, from a
 * high base, ids below it, so the arrays grow both ways and pages move from the map into them.
 */
function randomLists(random: () => number, span: number): Map<number, number>[] {
  const base = random() < 0.5 ? 0 : 50_000_000;
  return Array.from({ length: 1 + Math.floor(random() * 5) }, () => {
    const views = new Map<number, number>();
    for (let i = Math.floor(random() * 40); i > 0; i--) {
      const page = [
        base + Math.floor(random() * 50),
        base + Math.floor(random() * (span / 1024) * 5),
        base + span + Math.floor(random() * 9),
        Math.max(0, base - 1 - Math.floor(random() * (span / 1024) * 3)),
        base + 2 * span + Math.floor(random() * 9),
      ][Math.floor(random() * 5)];
      views.set(page, Math.floor(random() * 7));
    }
    return views;
  });
}

function merged(lists: Map<number, number>[]): [number, number][] {
  const sum = new Map<number, number>();
  for (const views of lists) for (const [page, n] of views) sum.set(page, (sum.get(page) ?? 0) + n);
  return [...sum].sort(([a], [b]) => a - b);
}

// Each random property holds of arrays as wide as the service's (a few rounds: each round allocates and walks arrays of
// millions of pages) and of arrays 1/64 as wide, which take the same paths in many more rounds.
const widths = [
  { span: DENSE_SPAN, rounds: 12 },
  { span: DENSE_SPAN / 64, rounds: 300 },
];

describe.each(widths)('PageCounts spanning $span pages in an array', ({ span, rounds }) => {
  it('adds counts per page as a map merge would, pages ascending, however far apart', () => {
    const random = rng(11);
    for (let round = 0; round < rounds; round++) {
      const lists = randomLists(random, span);
      const expected = merged(lists);
      const sums = new PageCounts(span);
      for (const views of lists) views.forEach(sums.add);
      expect([...countsMap(sums)]).toEqual(expected);
      expect(sums.total()).toBe(expected.reduce((total, [, n]) => total + n, 0));
      for (const [page, n] of expected) expect(sums.get(page)).toBe(n);
      // a page with no entry has none (one with 0 added has an entry of 0)
      const absent = [5 * (span / 1024) + 1, 60, span + 10, 49_999_999].find(
        (page) => !expected.some(([p]) => p === page),
      )!;
      expect(sums.get(absent)).toBeUndefined();
    }
  });

  it('adds two sums as their maps merged, whichever spans more', () => {
    const random = rng(12);
    for (let round = 0; round < rounds; round++) {
      const [first, second] = [randomLists(random, span), randomLists(random, span)];
      const [a, b] = [new PageCounts(span), new PageCounts(span)];
      for (const views of first) views.forEach(a.add);
      for (const views of second) views.forEach(b.add);
      a.addSums(b);
      expect([...countsMap(a)]).toEqual(merged([...first, ...second]));
      // the added sum is left as it was
      expect([...countsMap(b)]).toEqual(merged(second));
    }
  });

  it('reserves a span without adding entries: counts added after are the same, within the span or beyond it', () => {
    const random = rng(14);
    for (let round = 0; round < rounds; round++) {
      const lists = randomLists(random, span);
      const low = Math.floor(random() * 60_000_000);
      const counts = new PageCounts(span);
      counts.reserve(low, low + Math.floor(random() * 2 * span));
      expect([...countsMap(counts)]).toEqual([]);
      for (const views of lists) views.forEach(counts.add);
      expect([...countsMap(counts)]).toEqual(merged(lists));
    }
  });
});

describe('PageCounts', () => {
  it('adds sums spanning thousands of pages into empty, lower, higher and overlapping ones', () => {
    const random = rng(13);
    const span = (from: number, pages: number) => {
      const views = new Map<number, number>();
      for (let page = from; page < from + pages; page++)
        if (random() < 0.8) views.set(page, 1 + Math.floor(random() * 9));
      return views;
    };
    for (const [into, added] of [
      [[], [span(0, 5000)]],
      [[], [span(70_000, 3000), span(60_500, 2000)]],
      [[span(9000, 10)], [span(0, 5000)]],
      [[span(0, 10)], [span(2000, 5000)]],
      [[span(1500, 3000)], [span(0, 5000), span(4000, 4000)]],
    ] as Map<number, number>[][][]) {
      const target = new PageCounts();
      for (const views of into) views.forEach(target.add);
      for (const views of added) {
        const other = new PageCounts();
        views.forEach(other.add);
        target.addSums(other);
      }
      expect([...countsMap(target)]).toEqual(merged([...into, ...added]));
    }
  });

  it('sets a count over what was added, as a map does', () => {
    const counts = new PageCounts();
    counts.add(3, 7);
    counts
      .set(7, 10)
      .set(2, 1)
      .set(1 << 23, 4);
    counts.add(1, 2);
    expect([...countsMap(counts)]).toEqual([
      [2, 2],
      [7, 10],
      [1 << 23, 4],
    ]);
  });
});

describe.each(widths)('PackedCounts added into sums spanning $span pages', ({ span, rounds }) => {
  it('answers as the map it packs: a page looked up, every page in order, and added into a sum', () => {
    const random = rng(15);
    for (let round = 0; round < rounds; round++) {
      const [views, other] = randomLists(random, span);
      const packed = [...views].sort(([a], [b]) => a - b);
      const counts = new PackedCounts(
        Uint32Array.from(packed, ([page]) => page),
        Uint32Array.from(packed, ([, n]) => n),
      );
      for (const [page, n] of packed) expect(counts.get(page)).toBe(n);
      for (const page of [0, 1, 49, 5 * (span / 1024) + 1, span + 3, 60_000_000])
        expect(counts.get(page)).toBe(views.get(page));
      const visited: [number, number][] = [];
      counts.forEach((n, page) => {
        visited.push([page, n]);
      });
      expect(visited).toEqual(packed);
      // added into a sum that already holds counts, of pages near and far
      const sum = new PageCounts(span);
      other?.forEach(sum.add);
      counts.addTo(sum);
      expect([...countsMap(sum)]).toEqual(merged([views, other ?? new Map()]));
    }
  });
});
