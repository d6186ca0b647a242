import { addDecodedViews, decodeViews, encodeViews } from '../../../../src/analytics/store/rollups/agent-days.js';
import { PageCounts } from '../../../../src/analytics/store/page-counts.js';
import { countsMap } from '../../../support/rollup-fixtures.js';
import { cellOf, isPlainHuman } from '../../../../src/analytics/store/rollups/agent-cell.js';

describe('the agent rollup cells', () => {
  it('puts each counted event in one cell, reading a stored null verification as unverifiable', () => {
    expect(cellOf({ kind: 2, agent: 'GPTBot', verification: 1 })).toEqual({
      kind: 2,
      agent: 'GPTBot',
      verification: 1,
    });
    expect(cellOf({ kind: 2, agent: 'GPTBot', verification: null })).toEqual({
      kind: 2,
      agent: 'GPTBot',
      verification: 2,
    });
    expect(cellOf({ kind: 2, agent: null, verification: 2 })).toEqual({ kind: 2, agent: '', verification: 2 });
    expect(cellOf({ kind: 1, agent: 'via ChatGPT', verification: null })).toEqual({
      kind: 1,
      agent: 'via ChatGPT',
      verification: 0,
    });
    expect(cellOf({ kind: 0, agent: 'unverified GPTBot', verification: null })).toEqual({
      kind: 0,
      agent: 'unverified GPTBot',
      verification: 0,
    });
  });

  it('keeps plain humans as a views-only cell and other bots out', () => {
    const human = cellOf({ kind: 1, agent: null, verification: null })!;
    expect(isPlainHuman(human)).toBe(true);
    expect(isPlainHuman(cellOf({ kind: 1, agent: 'via Claude', verification: null })!)).toBe(false);
    expect(cellOf({ kind: 0, agent: 'Googlebot', verification: null })).toBeUndefined();
    // the prefix is matched exactly (SQLite's LIKE would not care about case)
    expect(cellOf({ kind: 0, agent: 'Unverified GPTBot', verification: null })).toBeUndefined();
  });

  it('packs views by page and adds them back up', () => {
    const views = new Map([
      [70_000, 3],
      [2, 1],
      [4_000_000_000, 12],
    ]);
    const blob = encodeViews(views);
    expect(blob.length).toBe(24);
    expect(blob.readUInt32LE(0)).toBe(2); // ascending by page
    const sum = new Map([[2, 5]]);
    addDecodedViews(blob, sum);
    // into counts kept as arrays (pages 4 billion apart: the far one in their map), the same
    const counts = new PageCounts().set(2, 5);
    addDecodedViews(blob, counts);
    expect(countsMap(counts)).toEqual(sum);
    // packed as stored: the same counts, looked up and added
    const packed = decodeViews(blob);
    expect(packed.get(70_000)).toBe(3);
    expect(packed.get(3)).toBeUndefined();
    const added = new PageCounts().set(2, 5);
    packed.addTo(added);
    expect(countsMap(added)).toEqual(sum);
    const near = new PageCounts();
    addDecodedViews(
      encodeViews(
        new Map([
          [9, 1],
          [3_000, 2],
        ]),
      ),
      near,
    );
    expect(countsMap(near)).toEqual(
      new Map([
        [9, 1],
        [3_000, 2],
      ]),
    );
    expect(sum).toEqual(
      new Map([
        [2, 6],
        [70_000, 3],
        [4_000_000_000, 12],
      ]),
    );
  });
});
