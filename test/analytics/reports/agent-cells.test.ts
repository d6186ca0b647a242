import { sumViews } from '../../../src/analytics/reports/agent-cells.js';
import { rng } from '../../support/rollup-fixtures.js';

describe('sumViews', () => {
  it('adds views per page as a map merge would, pages ascending, past the array and the dense limit too', () => {
    const random = rng(11);
    for (let round = 0; round < 100; round++) {
      const lists = Array.from({ length: 1 + Math.floor(random() * 5) }, () => {
        const views = new Map<number, number>();
        for (let i = Math.floor(random() * 40); i > 0; i--) {
          const page = [Math.floor(random() * 50), Math.floor(random() * 5000), (1 << 22) + Math.floor(random() * 9)][
            Math.floor(random() * 3)
          ];
          views.set(page, 1 + Math.floor(random() * 7));
        }
        return views;
      });
      const merged = new Map<number, number>();
      for (const views of lists) for (const [page, n] of views) merged.set(page, (merged.get(page) ?? 0) + n);
      const expected = [...merged].sort(([a], [b]) => a - b);
      const sum = sumViews(lists);
      expect(lists.length === 1 ? [...sum].sort(([a], [b]) => a - b) : [...sum]).toEqual(expected);
    }
  });
});
