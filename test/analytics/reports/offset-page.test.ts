import { offsetPage } from '../../../src/analytics/reports/offset-page.js';

describe('an offset page of report rows', () => {
  const rows = ['a', 'b', 'c', 'd', 'e'];

  it('slices from the offset and says whether rows follow the slice', () => {
    expect(offsetPage(rows, { offset: 0, limit: 2 })).toEqual({ rows: ['a', 'b'], hasMore: true });
    expect(offsetPage(rows, { offset: 3, limit: 2 })).toEqual({ rows: ['d', 'e'], hasMore: false });
    expect(offsetPage(rows, { offset: 4, limit: 10 })).toEqual({ rows: ['e'], hasMore: false });
  });

  it('answers an offset past the end with no rows and nothing more', () => {
    expect(offsetPage(rows, { offset: 9, limit: 2 })).toEqual({ rows: [], hasMore: false });
  });
});
