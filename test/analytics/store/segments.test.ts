import { RoaringBitmap32 } from '../../../src/analytics/store/day-sets.js';
import { decodeDaySets, encodeDaySets } from '../../../src/analytics/store/read-days.js';
import { decodeCells, encodeCells } from '../../../src/analytics/store/rollups/agent-days.js';
import { RecordReader, RecordWriter, settledSegment } from '../../../src/analytics/store/segments.js';
import { DAY_MS } from '../../../src/calendar.js';

describe('stored segments', () => {
  it('encode day sets and agent cells and decode them to the same members', () => {
    const sets = new Map([
      [1, new Map([[0, new RoaringBitmap32([1, 2, 65_540])]])],
      [2, new Map([[3, new RoaringBitmap32([7])]])],
    ]);
    const decoded = decodeDaySets(encodeDaySets({ sets, bytes: 0 }));
    expect([...decoded.sets].map(([k, parts]) => [k, [...parts].map(([p, b]) => [p, b.toArray()])])).toEqual([
      [1, [[0, [1, 2, 65_540]]]],
      [2, [[3, [7]]]],
    ]);
    const cells = [
      {
        cell: { kind: 2, agent: 'GPTBot ✓', verification: 1 },
        parts: new Map([[0, new RoaringBitmap32([5, 9])]]),
        views: new Map([[4, 3]]),
      },
      { cell: { kind: 1, agent: '', verification: 0 }, parts: new Map(), views: new Map([[1, 10]]) },
    ];
    const back = decodeCells(encodeCells(cells));
    expect(back.map((c) => ({ ...c, parts: [...c.parts].map(([p, b]) => [p, b.toArray()]) }))).toEqual(
      cells.map((c) => ({ ...c, parts: [...c.parts].map(([p, b]) => [p, b.toArray()]) })),
    );
  });

  it('refuse a truncated record instead of reading past it', () => {
    const data = new RecordWriter().u32(1).bytes(Buffer.from('abcdef')).finish();
    const reader = new RecordReader(data.subarray(0, data.length - 2));
    expect(reader.u32()).toBe(1);
    expect(() => reader.bytes()).toThrow('truncated');
  });

  it('are stored only once their days are past the late events', () => {
    const now = Date.UTC(2026, 10, 24, 15);
    const today = Math.floor(now / DAY_MS);
    expect(settledSegment(today - 1, now)).toBe(true); // ends before yesterday
    expect(settledSegment(today, now)).toBe(false); // holds yesterday
    expect(settledSegment(today + 1, now)).toBe(false);
  });
});
