import {
  rangeAnswer,
  rangeSegments,
  segmentOf,
  segmentsOf,
  segmentsWithData,
  type SegmentFamily,
} from '../../../src/analytics/reports/segments.js';
import { DayCache, type Cached } from '../../../src/analytics/store/day-cache.js';
import type { Sql } from '../../../src/analytics/store/sql.js';
import type { RangePlan } from '../../../src/analytics/store/split-range.js';

/**
 * What a reader of a range is handed with the range's plan and its days' generations read already (as plannedOnce
 * reads them), over a range that holds every day: no statement is run (the connection has no method to run one).
 */
function planned(plan: RangePlan, generations: Map<number, number>) {
  const range = { from: 0, to: 2 ** 50 };
  return { sql: {} as Sql, projectId: 'p', range, planned: { projectId: 'p', range, plan, generations } };
}

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

describe('segmentOf', () => {
  /** a family whose data is the set of days it covers, recording what each union was made of */
  function family() {
    const unions: number[][][] = [];
    const loads: number[] = [];
    const days: SegmentFamily<Cached & { days: number[] }> = {
      name: 'days',
      loadDay: async (_projectId, day) => {
        loads.push(day);
        return { days: [day], bytes: 8 };
      },
      unite: (pieces) => {
        unions.push(pieces.map((piece) => piece.days));
        return { days: pieces.flatMap((piece) => piece.days).sort((a, b) => a - b), bytes: 8 };
      },
    };
    return { days, unions, loads };
  }
  const start = 16 * 1_300;
  const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

  it('unites a segment from its days at once when nothing is cached, and from cached unions when they are', async () => {
    const generations = new Map(
      range(start, 16)
        .filter((day) => day !== start + 5)
        .map((day) => [day, 1]),
    );
    const cache = new DayCache(1 << 20).lease();
    const ctx = { cache, projectId: 'p', generations };
    const cold = family();
    // a day without data is no piece; the sixteen days are one union, with no four-day union built first
    expect((await segmentOf(ctx, cold.days, start, 16))?.days).toEqual(range(start, 16).filter((d) => d !== start + 5));
    expect(cold.unions).toEqual([
      range(start, 16)
        .filter((d) => d !== start + 5)
        .map((d) => [d]),
    ]);

    // with one four-day union cached (and the days it was made of), a new sixteen-day segment is made of it and the
    // other twelve days
    const warm = family();
    const fresh = { cache: new DayCache(1 << 20).lease(), projectId: 'p', generations };
    await segmentOf(fresh, warm.days, start + 8, 4);
    expect((await segmentOf(fresh, warm.days, start, 16))?.days).toEqual(
      range(start, 16).filter((d) => d !== start + 5),
    );
    expect(warm.unions.at(-1)).toEqual([
      ...range(start, 8)
        .filter((d) => d !== start + 5)
        .map((d) => [d]),
      range(start + 8, 4),
      ...range(start + 12, 4).map((d) => [d]),
    ]);
    // each day loaded once across both segments
    expect(warm.loads.sort((a, b) => a - b)).toEqual(range(start, 16).filter((d) => d !== start + 5));
    // a changed day makes the segment over it new; the days not changed are not loaded again
    generations.set(start + 1, 2);
    await segmentOf(fresh, warm.days, start, 16);
    expect(warm.loads.filter((d) => d === start + 1)).toHaveLength(2);
    expect(warm.loads.filter((d) => d === start)).toHaveLength(1);
  });

  it('reads the cached segments and the days of the others, building no union, when asked not to unite', async () => {
    const generations = new Map(range(start, 32).map((day) => [day, 1]));
    const cache = new DayCache(1 << 20).lease();
    const read = family();
    const params = { ...planned({ days: [[start, start + 32]], raw: [] }, generations), cache };
    // nothing cached: every day, no union
    const cold = await rangeSegments({ ...params, unite: false }, read.days);
    expect(cold.segments.map((s) => s.days)).toEqual(range(start, 32).map((d) => [d]));
    expect(read.unions).toEqual([]);
    // with the first sixteen days' union cached by a uniting reader, that union and the other days
    await segmentOf({ cache, projectId: 'p', generations }, read.days, start, 16);
    const warm = await rangeSegments({ ...params, unite: false }, read.days);
    expect(warm.segments.map((s) => s.days)).toEqual([range(start, 16), ...range(start + 16, 16).map((d) => [d])]);
    expect(read.unions).toHaveLength(1);
    // each day loaded once
    expect(read.loads).toHaveLength(32);
  });
});

describe('rangeAnswer', () => {
  const start = 16 * 1_300;
  function setup(raw: { from: number; to: number }[] = []) {
    const generations = new Map([
      [start, 1],
      [start + 3, 2],
    ]);
    let computed = 0;
    const compute = async () => ({ answer: ++computed, bytes: 8 });
    const cache = new DayCache(1 << 20).lease();
    const params = { ...planned({ days: [[start, start + 8]], raw }, generations), cache, name: 'n' };
    const ask = () => rangeAnswer(params, compute);
    return { generations, ask, computed: () => computed };
  }

  it('answers again from the cache while the days are unchanged, and anew when one changes or gains data', async () => {
    const { generations, ask, computed } = setup();
    expect((await ask()).answer).toBe(1);
    expect((await ask()).answer).toBe(1);
    expect(computed()).toBe(1);
    // a day folded again
    generations.set(start + 3, 3);
    expect((await ask()).answer).toBe(2);
    expect((await ask()).answer).toBe(2);
    // a day without data until now
    generations.set(start + 7, 1);
    expect((await ask()).answer).toBe(3);
    // a day with data outside the range's whole days changes nothing
    generations.set(start + 8, 1);
    expect((await ask()).answer).toBe(3);
    expect(computed()).toBe(3);
  });

  it('computes every time, keeping nothing, when part of the range is read raw', async () => {
    const { ask, computed } = setup([{ from: 5, to: 6 }]);
    await ask();
    await ask();
    expect(computed()).toBe(2);
  });
});
