import { LineOccurrences } from '../../../src/analytics/ingest/line-occurrences.js';

describe('LineOccurrences', () => {
  it('numbers the copies of each line from 1, line by line', () => {
    const occurrences = new LineOccurrences();
    expect(['a', 'b', 'a', 'a', 'c', 'b'].map((l) => occurrences.next(l))).toEqual([1, 1, 2, 3, 1, 2]);
  });

  it('forgets a line not seen for a window of lines, and only then', () => {
    const occurrences = new LineOccurrences(3);
    // 'a' again 3 lines after its first copy is its second copy (and is now remembered from there)
    expect(['a', 'x', 'y', 'a'].map((l) => occurrences.next(l))).toEqual([1, 1, 1, 2]);
    // 4 lines after that it is forgotten, and numbered as a first copy again
    expect(['p', 'q', 'r', 'a'].map((l) => occurrences.next(l))).toEqual([1, 1, 1, 1]);
  });

  it('counts the window in lines, however few distinct lines fill it', () => {
    const occurrences = new LineOccurrences(3);
    expect(['a', 'x', 'x', 'a'].map((l) => occurrences.next(l))).toEqual([1, 1, 2, 2]);
    expect(['x', 'x', 'x', 'a'].map((l) => occurrences.next(l))).toEqual([3, 4, 5, 1]);
  });
});
