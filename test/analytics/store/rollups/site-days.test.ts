import { addPair, RoaringBitmap32 } from '../../../../src/analytics/store/day-sets.js';
import { siteCounts } from '../../../../src/analytics/store/rollups/site-days.js';

/** One part's day set of a class, built as the fold builds it from (page, visitor) views. */
function daySet(views: [page: number, visitor: number][]) {
  const parts = new Map<number, number[]>();
  for (const [page, visitor] of views) addPair(parts, page, visitor);
  expect([...parts.keys()]).toEqual([0]);
  return new RoaringBitmap32(parts.get(0)!);
}

describe('the site rollup counts a part from its page-0 containers', () => {
  it('counts each class apart and a visitor seen in both once in the total', () => {
    const human = daySet([
      [3, 10],
      [4, 10],
      [3, 11],
      [7, 12],
    ]);
    const ai = daySet([
      [3, 12],
      [9, 13],
      [9, 14],
    ]);
    // visitors 10, 11, 12 human; 12, 13, 14 AI; 12 is both
    expect(siteCounts(human, ai)).toEqual({ human: 3, ai: 3, total: 5 });
  });

  it("never counts another page's container: the same visitor numbers on pages only", () => {
    // keys of page 5 whose low 16 bits equal visitors of the site container must not be mistaken for them
    // human: visitor 3 on the site, and page 5's container holding visitor 1 without its site key (as no fold
    // would store it); AI: visitor 1 on page 5 and the site. Only the site containers meet: 3 and 1 are two visitors.
    const human = new RoaringBitmap32([3, (5 << 16) | 1, (5 << 16) | 2]);
    const ai = daySet([[5, 1]]);
    expect(siteCounts(human, ai)).toEqual({ human: 1, ai: 1, total: 2 });
  });

  it('answers for a class with no set', () => {
    expect(siteCounts(undefined, daySet([[1, 2]]))).toEqual({ human: 0, ai: 1, total: 1 });
    expect(siteCounts(daySet([[1, 2]]), undefined)).toEqual({ human: 1, ai: 0, total: 1 });
    expect(siteCounts(undefined, undefined)).toEqual({ human: 0, ai: 0, total: 0 });
  });
});
