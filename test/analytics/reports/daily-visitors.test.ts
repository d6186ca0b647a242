import type { Sql } from '../../../src/analytics/store/sql.js';
import { DAY_MS, type TimeRange } from '../../../src/calendar.js';
import { PROVIDERS } from '../../support/databases.js';
import { DAY, randomRanges, rng, START, useSeededReports } from '../../support/rollup-fixtures.js';

/** Distinct visitors per UTC day the range touches (clipped to it), counted from the raw events. */
async function naiveDaily(sql: Sql, projectId: string, range: TimeRange) {
  const days = [];
  for (let start = Math.floor(range.from / DAY_MS) * DAY_MS; start < range.to; start += DAY_MS) {
    const [r] = await sql.query<{ human: unknown; ai: unknown; total: unknown }>(
      `SELECT COUNT(DISTINCT CASE WHEN "kind" = 1 THEN "visitorId" END) AS human, COUNT(DISTINCT CASE WHEN "kind" = 2 THEN "visitorId" END) AS ai,
              COUNT(DISTINCT "visitorId") AS total FROM "AnalyticsEvent" WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ? AND "kind" > 0`,
      [projectId, Math.max(start, range.from), Math.min(start + DAY_MS, range.to)],
    );
    const date = new Date(start).toISOString().slice(0, 10);
    days.push({ date, human: Number(r.human), ai: Number(r.ai), total: Number(r.total) });
  }
  return days;
}

describe.each(PROVIDERS)('/visitors/daily from the day sets agrees with a recount of raw events on %s', (provider) => {
  const seeded = useSeededReports(provider, [41, 42]);

  it('over random ranges, with duplicates, late events, unverified agents and bots', async () => {
    const { analytics, sql } = seeded();
    for (const range of randomRanges(rng(43), 30)) {
      const ours = await analytics.dailyVisitors('prj_a', range);
      expect({ range, days: ours }).toEqual({ range, days: await naiveDaily(sql, 'prj_a', range) });
    }
  });

  it('reads whole days from the site rollup, not the day sets: the same after the day sets are gone', async () => {
    const { analytics, sql } = seeded();
    const range = { from: START + 2 * DAY, to: START + 5 * DAY + 7_200_000 };
    const before = await analytics.dailyVisitors('prj_a', range);
    expect(before.slice(0, 3).every((d) => d.total > 0 && d.total <= d.human + d.ai)).toBe(true);
    const days = ['prj_a', (START + 2 * DAY) / DAY, (START + 5 * DAY) / DAY];
    const where = 'FROM "AnalyticsDaySet" WHERE "projectId" = ? AND "day" >= ? AND "day" < ?';
    const [sets] = await sql.query<{ n: unknown }>(`SELECT COUNT(*) AS n ${where}`, days);
    expect(Number(sets.n)).toBeGreaterThan(0);
    await sql.run(`DELETE ${where}`, days);
    // and no copy of them is left in memory: the generations a cached copy is kept under move on
    await sql.run('UPDATE "AnalyticsDay" SET "generation" = "generation" + 1 WHERE "projectId" = ?', ['prj_a']);
    expect(await analytics.dailyVisitors('prj_a', range)).toEqual(before);
  });

  it('reads whole days from the day sets and only the partial edges from raw events', async () => {
    const { analytics, sql } = seeded();
    const range = { from: START + 6 * DAY - 3_600_000, to: START + 9 * DAY };
    const before = await analytics.dailyVisitors('prj_b', range);
    await sql.run('DELETE FROM "AnalyticsEvent" WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ?', [
      'prj_b',
      range.from,
      range.to,
    ]);
    const after = await analytics.dailyVisitors('prj_b', range);
    // the partial first day was read from raw events, now gone; the whole days from the day sets
    expect(after[0].total).toBe(0);
    expect(before[0].total).toBeGreaterThan(0);
    expect(after.slice(1)).toEqual(before.slice(1));
    expect(after.slice(1).every((d) => d.total > 0)).toBe(true);
  });
});
