import { PageViews } from '../../../src/analytics/reports/page-views.js';
import { rng } from '../../support/rollup-fixtures.js';

/** Random views per page: small ids, ids past the first array, and ids past the dense limit. */
function randomLists(random: () => number): Map<number, number>[] {
  return Array.from({ length: 1 + Math.floor(random() * 5) }, () => {
    const views = new Map<number, number>();
    for (let i = Math.floor(random() * 40); i > 0; i--) {
      const page = [Math.floor(random() * 50), Math.floor(random() * 5000), (1 << 22) + Math.floor(random() * 9)][
        Math.floor(random() * 3)
      ];
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

describe('PageViews', () => {
  it('adds views per page as a map merge would, pages ascending, past the array and the dense limit too', () => {
    const random = rng(11);
    for (let round = 0; round < 100; round++) {
      const lists = randomLists(random);
      const expected = merged(lists);
      const sums = new PageViews();
      for (const views of lists) views.forEach(sums.add);
      expect([...sums.toMap()]).toEqual(expected);
      expect(sums.pages()).toEqual(expected.map(([page]) => page));
      expect(sums.total()).toBe(expected.reduce((total, [, n]) => total + n, 0));
      for (const [page, n] of expected) {
        expect(sums.get(page)).toBe(n);
        expect(sums.has(page)).toBe(true);
      }
      // a page with no entry: 0 views, not held (one with 0 views added is held)
      const absent = [5001, 60, (1 << 22) + 10].find((page) => !expected.some(([p]) => p === page))!;
      expect([sums.get(absent), sums.has(absent)]).toEqual([0, false]);
    }
  });

  it('adds two sums as their maps merged, whichever is longer', () => {
    const random = rng(12);
    for (let round = 0; round < 100; round++) {
      const [first, second] = [randomLists(random), randomLists(random)];
      const [a, b] = [new PageViews(), new PageViews()];
      for (const views of first) views.forEach(a.add);
      for (const views of second) views.forEach(b.add);
      a.addSums(b);
      expect([...a.toMap()]).toEqual(merged([...first, ...second]));
      // the added sum is left as it was
      expect([...b.toMap()]).toEqual(merged(second));
    }
  });
});
