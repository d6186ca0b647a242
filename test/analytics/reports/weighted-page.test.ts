import { kthLargest, weightedPage } from '../../../src/analytics/reports/weighted-page.js';
import { rng } from '../../support/rollup-fixtures.js';

describe('weightedPage', () => {
  const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const fullOrder = (a: { weight: number; name: string }, b: { weight: number; name: string }) =>
    b.weight - a.weight || byName(a, b);

  it('equals a full sort sliced, for random rows with many ties and every kind of page', () => {
    const random = rng(7);
    for (let round = 0; round < 200; round++) {
      const n = Math.floor(random() * 60);
      const spread = 1 + Math.floor(random() * 5);
      const rows = Array.from({ length: n }, (_, i) => ({ name: `r${i}`, weight: Math.floor(random() * spread) + 1 }));
      const sorted = [...rows].sort(fullOrder);
      for (const offset of [0, 1, Math.floor(random() * (n + 3)), n - 1, n, n + 4]) {
        for (const limit of [1, 2, Math.floor(random() * 20) + 1, n + 1]) {
          if (offset < 0) continue;
          const page = weightedPage(rows, (r) => r.weight, byName, { offset, limit });
          expect(page).toEqual({
            rows: sorted.slice(offset, offset + limit),
            hasMore: offset + limit < n,
          });
        }
      }
    }
  });

  it('leaves the rows it was given in their order', () => {
    const rows = [
      { name: 'b', weight: 1 },
      { name: 'a', weight: 2 },
      { name: 'c', weight: 1 },
    ];
    const copy = rows.map((r) => ({ ...r }));
    expect(weightedPage(rows, (r) => r.weight, byName, { offset: 0, limit: 1 }).rows).toEqual([
      { name: 'a', weight: 2 },
    ]);
    expect(rows).toEqual(copy);
  });
});

describe('kthLargest', () => {
  it('finds the k-th largest as a sort does, with ties, runs and every k', () => {
    const random = rng(8);
    for (let round = 0; round < 300; round++) {
      const n = 1 + Math.floor(random() * 80);
      const spread = [1, 3, 1000][round % 3];
      const shape = round % 4;
      const values = Array.from({ length: n }, (_, i) =>
        shape === 0 ? i : shape === 1 ? n - i : Math.floor(random() * spread),
      );
      const descending = [...values].sort((a, b) => b - a);
      for (let k = 1; k <= n; k++) expect(kthLargest(Float64Array.from(values), k)).toBe(descending[k - 1]);
    }
  });
});
