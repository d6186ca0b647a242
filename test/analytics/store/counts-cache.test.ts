import { aiMissCounts, insertAiMisses, MISS_COUNTS } from '../../../src/analytics/store/ai-misses.js';
import { CountsCache, type RangeCounts } from '../../../src/analytics/store/counts-cache.js';
import { DayCache } from '../../../src/analytics/store/day-cache.js';
import { openSql, type Sql } from '../../../src/analytics/store/sql.js';
import { PROVIDERS, useTestDatabase } from '../../support/databases.js';

const DAY = 86_400_000;
const START = Date.UTC(2026, 10, 1);

/** A range's counts as plain rows, ordered. */
function rowsOf(counts: RangeCounts) {
  return counts.present
    .map((id) => [...counts.keys.key(id), ...counts.values.map((column) => column[id])])
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

describe.each(PROVIDERS)('per-day counts kept in memory on %s', (provider) => {
  const database = useTestDatabase(provider);
  let sql: Sql;
  beforeAll(async () => {
    sql = openSql(database.target);
    for (const projectId of ['prj_a', 'prj_b']) {
      const misses = Array.from({ length: 30 }, (_, i) => ({
        key: `${projectId}-${i}`,
        ts: START + (i % 5) * DAY + i,
        path: `/${projectId}/p${i % 7}`,
        agent: i % 2 ? 'GPTBot' : 'ClaudeBot',
        status: i % 3 ? 404 : 500,
      }));
      await insertAiMisses(sql, { projectId, misses });
    }
  });
  afterAll(async () => {
    await sql.close();
  });

  const range = { from: START, to: START + 5 * DAY };

  it('answer the same as reading every day again, whatever the key tables hold', async () => {
    const fresh = () => new CountsCache(new DayCache(1 << 20));
    const expected = {
      a: rowsOf(await aiMissCounts(sql, fresh(), { projectId: 'prj_a', range })),
      b: rowsOf(await aiMissCounts(sql, fresh(), { projectId: 'prj_b', range })),
    };
    expect(expected.a.length).toBeGreaterThan(5);
    // key tables so small that every read starts them over: cached days must not be read under the old ids
    const tight = new CountsCache(new DayCache(1 << 20), 4);
    for (const projectId of ['prj_a', 'prj_b', 'prj_a', 'prj_b', 'prj_a'] as const) {
      const counts = await aiMissCounts(sql, tight, { projectId, range });
      expect(rowsOf(counts)).toEqual(projectId === 'prj_a' ? expected.a : expected.b);
      // only the last read's keys are held
      expect(tight.keysHeld).toBe(counts.present.length);
    }
    // and with the cache off (budget 0), every day read each time
    const off = new CountsCache(new DayCache(0));
    for (let i = 0; i < 2; i++)
      expect(rowsOf(await aiMissCounts(sql, off, { projectId: 'prj_a', range }))).toEqual(expected.a);
    expect(MISS_COUNTS.values.map((v) => v.column)).toEqual(['count']);
  });

  it('read only the rows of the first-column values asked for, values first seen in that read included', async () => {
    const read = (counts: CountsCache, firsts?: string[]) =>
      counts.read(sql, {
        family: MISS_COUNTS,
        projectId: 'prj_a',
        fromDay: START / DAY,
        toDay: START / DAY + 5,
        firsts,
      });
    const all = rowsOf(await read(new CountsCache(new DayCache(1 << 20))));
    const asked = ['/prj_a/p1', '/prj_a/p4', '/never-missed'];
    const expected = all.filter(([path]) => asked.includes(path as string));
    expect(expected.length).toBeGreaterThan(1);
    expect(expected.length).toBeLessThan(all.length);
    // a new cache: its key table learns the paths while this very read loads the days
    expect(rowsOf(await read(new CountsCache(new DayCache(1 << 20)), asked))).toEqual(expected);
    // no values asked for, on a new cache: nothing read, nothing held
    expect(rowsOf(await read(new CountsCache(new DayCache(1 << 20)), []))).toEqual([]);
    // a warm one: the days come from memory
    const warm = new CountsCache(new DayCache(1 << 20));
    await read(warm);
    expect(rowsOf(await read(warm, asked))).toEqual(expected);
    expect(rowsOf(await read(warm, []))).toEqual([]);
  });

  it('hold a day read for some values in part, and read what a later read lacks of it, never a row twice', async () => {
    const read = (counts: CountsCache, firsts?: string[]) =>
      counts.read(sql, {
        family: MISS_COUNTS,
        projectId: 'prj_b',
        fromDay: START / DAY,
        toDay: START / DAY + 6,
        firsts,
      });
    const filtered = (rows: unknown[][], asked: string[]) => rows.filter(([path]) => asked.includes(path as string));
    const cache = new CountsCache(new DayCache(1 << 20));
    const pages = [['/prj_b/p1', '/prj_b/p2'], ['/prj_b/p2', '/prj_b/p3'], ['/prj_b/p1'], ['/prj_b/p3', '/prj_b/p5']];
    let missed = 0;
    for (const [round, asked] of pages.entries()) {
      // each read from a new cache, every day read whole, is the answer
      const expected = filtered(rowsOf(await read(new CountsCache(new DayCache(1 << 20)))), asked);
      expect(expected.length).toBeGreaterThan(0);
      expect(rowsOf(await read(cache, asked))).toEqual(expected);
      // a miss stored on a day held in part: that day is read again, the others keep what they hold
      if (round === 1)
        await insertAiMisses(sql, {
          projectId: 'prj_b',
          misses: [{ key: `late-${missed++}`, ts: START + DAY + 7, path: '/prj_b/p3', agent: 'GPTBot', status: 404 }],
        });
    }
    // a read of every row after reads of some: the days held in part are read whole
    expect(rowsOf(await read(cache))).toEqual(rowsOf(await read(new CountsCache(new DayCache(1 << 20)))));
    expect(rowsOf(await read(cache, ['/prj_b/p3']))).toEqual(
      filtered(rowsOf(await read(new CountsCache(new DayCache(1 << 20)))), ['/prj_b/p3']),
    );
  });

  it("keep a range's sum whole, hand out copies of it, and add it up again once a day of it or the days skipped change", async () => {
    /** a day cache that tells which kept range sums were handed out */
    class WatchedCache extends DayCache {
      sumsHit = 0;
      override get<T extends { bytes: number }>(key: string, version: string): T | undefined {
        const found = super.get<T>(key, version);
        if (found && key.includes(':countsum:')) this.sumsHit++;
        return found;
      }
    }
    const days = new WatchedCache(1 << 20);
    const cache = new CountsCache(days);
    const read = (counts: CountsCache, skip?: number[], firsts?: string[]) =>
      counts.read(sql, {
        family: MISS_COUNTS,
        projectId: 'prj_a',
        fromDay: START / DAY,
        toDay: START / DAY + 6,
        skip: skip && new Set(skip),
        firsts,
      });
    // every day read afresh, with no cache at all: the answer
    const uncached = (skip?: number[], firsts?: string[]) =>
      read(new CountsCache(new DayCache(0)), skip, firsts).then(rowsOf);
    const first = await read(cache);
    const expected = await uncached();
    expect(rowsOf(first)).toEqual(expected);
    expect(days.sumsHit).toBe(0);
    // a reader adds its edges' rows to what it got: neither the kept sum nor the next copy sees them
    first.add(['/prj_a/p0', 'GPTBot', 404], [1000]);
    const second = await read(cache);
    expect(days.sumsHit).toBe(1);
    expect(rowsOf(second)).toEqual(expected);
    second.add(['/prj_a/p1', 'ClaudeBot', 500], [7]);
    expect(rowsOf(await read(cache))).toEqual(expected);
    expect(days.sumsHit).toBe(2);
    // another set of skipped days is another sum
    const skipping = await uncached([START / DAY + 1]);
    expect(skipping).not.toEqual(expected);
    expect(rowsOf(await read(cache, [START / DAY + 1]))).toEqual(skipping);
    expect(days.sumsHit).toBe(2);
    // the rows of some first-column values are a sum of their own, in either order of the values
    const some = ['/prj_a/p0', '/prj_a/p3'];
    const someExpected = await uncached(undefined, some);
    expect(someExpected.length).toBeGreaterThan(0);
    expect(rowsOf(await read(cache, undefined, some))).toEqual(someExpected);
    expect(rowsOf(await read(cache, undefined, [...some].reverse()))).toEqual(someExpected);
    expect(days.sumsHit).toBe(3);
    // a miss stored on a day of the range: each sum is added up again, with it
    await insertAiMisses(sql, {
      projectId: 'prj_a',
      misses: [{ key: 'kept-sum-late', ts: START + 2 * DAY + 9, path: '/prj_a/p0', agent: 'GPTBot', status: 404 }],
    });
    const after = await uncached();
    expect(after).not.toEqual(expected);
    expect(rowsOf(await read(cache))).toEqual(after);
    const someAfter = await uncached(undefined, some);
    expect(someAfter).not.toEqual(someExpected);
    expect(rowsOf(await read(cache, undefined, some))).toEqual(someAfter);
    expect(days.sumsHit).toBe(3);
    expect(rowsOf(await read(cache))).toEqual(after);
    expect(days.sumsHit).toBe(4);
  });
});
