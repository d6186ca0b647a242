import { segmentsOf, segmentsWithData } from '../../../src/analytics/reports/segments.js';

describe('segmentsWithData', () => {
  it('covers only the days between the first and the last with data, in aligned segments', () => {
    // 1970 to 9999: the days with data decide, not the range
    const generations = new Map([
      [20_001, 3],
      [20_030, 1],
    ]);
    const segments = segmentsWithData([0, 2_932_897], generations);
    expect(segments).toEqual(segmentsOf(20_001, 20_031));
    expect(segments.length).toBeLessThanOrEqual(12);
    expect(segmentsWithData([20_010, 20_020], generations)).toEqual(segmentsOf(20_010, 20_020));
    expect(segmentsWithData([0, 2_932_897], new Map())).toEqual([]);
  });
});
