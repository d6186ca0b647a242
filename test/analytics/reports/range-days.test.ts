import { type DayFamily, rangeAnswer, rangeDays } from '../../../src/analytics/reports/range-days.js';
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

describe('rangeDays', () => {
  const start = 16 * 1_300;
  const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

  /** a family whose data of a day is that day (none for `empty` days), recording each read */
  function family(empty = new Set<number>()) {
    const reads: number[][] = [];
    const days: DayFamily<Cached & { day: number }> = {
      name: 'days',
      loadDays: async (_projectId, asked) => {
        reads.push(asked);
        return new Map(asked.filter((day) => !empty.has(day)).map((day) => [day, { day, bytes: 8 }]));
      },
      empty: () => ({ day: -1, bytes: 0 }),
    };
    return {
      days,
      reads,
      get loads() {
        return reads.flat();
      },
    };
  }

  it('reads each whole day with data once, then from the cache until its generation changes', async () => {
    const generations = new Map(range(start, 10).map((day) => [day, 1]));
    generations.delete(start + 4);
    // a day with data outside the whole days is not read
    generations.set(start + 20, 1);
    const cache = new DayCache(1 << 20);
    const read = family();
    const edges = [{ from: (start + 10) * 86_400_000, to: (start + 10) * 86_400_000 + 5 }];
    const params = { ...planned({ days: [[start, start + 10]], raw: edges }, generations), cache };
    const first = await rangeDays(params, read.days);
    expect(first.days.map((d) => d.day)).toEqual(range(start, 10).filter((d) => d !== start + 4));
    expect(first.edges).toEqual(edges);
    // the days not cached read together
    expect(read.reads).toHaveLength(1);
    expect(read.loads).toHaveLength(9);
    // again: nothing loaded; a day folded again: that day alone
    await rangeDays(params, read.days);
    expect(read.loads).toHaveLength(9);
    generations.set(start + 2, 2);
    expect((await rangeDays(params, read.days)).days.map((d) => d.day)).toHaveLength(9);
    expect(read.loads).toEqual([...range(start, 10).filter((d) => d !== start + 4), start + 2]);
  });

  it('answers a day whose rows are gone as empty', async () => {
    const generations = new Map([
      [start, 1],
      [start + 1, 1],
    ]);
    const read = family(new Set([start + 1]));
    const params = {
      ...planned({ days: [[start, start + 2]], raw: [] }, generations),
      cache: new DayCache(1 << 20),
    };
    expect((await rangeDays(params, read.days)).days.map((d) => d.day)).toEqual([start, -1]);
  });

  it('costs what the days with data cost, whatever the range', async () => {
    const generations = new Map([
      [20_001, 3],
      [20_030, 1],
    ]);
    const read = family();
    const params = {
      ...planned({ days: [[0, 2_932_897]], raw: [] }, generations),
      cache: new DayCache(1 << 20),
    };
    expect((await rangeDays(params, read.days)).days.map((d) => d.day)).toEqual([20_001, 20_030]);
    expect(read.loads).toEqual([20_001, 20_030]);
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
    const cache = new DayCache(1 << 20);
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
