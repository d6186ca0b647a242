import { batchResult } from '../../../src/analytics/ingest/batch-result.js';

describe('batch result', () => {
  it("maps the store's rejections back to request indexes and merges the invalid items, in request order", () => {
    const result = batchResult({
      result: { accepted: 2, duplicates: 1, rejected: [{ index: 1, error: 'not a page' }] },
      indexes: [0, 2, 3],
      invalid: [
        { index: 4, error: 'path: required' },
        { index: 1, error: 'timestamp: is in the future' },
      ],
    });
    expect(result).toEqual({
      accepted: 2,
      duplicates: 1,
      rejected: [
        { index: 1, error: 'timestamp: is in the future' },
        { index: 2, error: 'not a page' },
        { index: 4, error: 'path: required' },
      ],
    });
  });

  it('keeps an all-valid batch as the store counted it', () => {
    const result = { accepted: 3, duplicates: 0, rejected: [] };
    expect(batchResult({ result, indexes: [0, 1, 2], invalid: [] })).toEqual(result);
  });
});
