import type { Sql } from '../../../src/analytics/store/sql.js';
import { compareCodePoints } from '../../../src/analytics/reports/compare-code-points.js';
import type { TimeRange } from '../../../src/calendar.js';
import { PROVIDERS } from '../../support/databases.js';
import { DAY, randomMisses, randomRanges, rng, START, useSeededReports } from '../../support/rollup-fixtures.js';

/** Misses by path, agent and status counted from the stored misses, ordered as the report orders them. */
async function naiveMisses(sql: Sql, projectId: string, range: TimeRange) {
  const rows = await sql.query<{ path: string; agent: string; status: unknown; count: unknown }>(
    `SELECT "path" AS "path", "agent" AS "agent", "status" AS "status", COUNT(*) AS "count" FROM "AnalyticsAiMiss"
      WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ? GROUP BY "path", "agent", "status"`,
    [projectId, range.from, range.to],
  );
  return rows
    .map((r) => ({ path: r.path, agent: r.agent, status: Number(r.status), count: Number(r.count) }))
    .sort(
      (a, b) =>
        b.count - a.count ||
        compareCodePoints(a.path, b.path) ||
        compareCodePoints(a.agent, b.agent) ||
        a.status - b.status,
    );
}

describe.each(PROVIDERS)(
  '/ai/misses from the misses per day agrees with a recount of stored misses on %s',
  (provider) => {
    const seeded = useSeededReports(provider, [51, 52]);

    it('over random ranges, with repeated log lines and late misses', async () => {
      const { analytics, sql } = seeded();
      // a log imported again, and an older one imported late
      await analytics.recordAiMisses('prj_a', randomMisses(rng(51), 60, 0, 40));
      await analytics.recordAiMisses('prj_a', randomMisses(rng(53), 80, 2, 10));
      for (const range of randomRanges(rng(54), 40)) {
        const ours = await analytics.aiMisses('prj_a', range);
        expect({ range, rows: ours }).toEqual({ range, rows: await naiveMisses(sql, 'prj_a', range) });
      }
    });

    it('reads whole days from the misses per day and only the partial edges from the stored misses', async () => {
      const { analytics, sql } = seeded();
      const whole = { from: START + 2 * DAY, to: START + 20 * DAY };
      const partial = { from: START + DAY + 1, to: START + 20 * DAY };
      const before = await analytics.aiMisses('prj_b', whole);
      expect(before.length).toBeGreaterThan(0);
      await sql.run('DELETE FROM "AnalyticsAiMiss" WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ?', [
        'prj_b',
        whole.from,
        whole.to,
      ]);
      expect(await naiveMisses(sql, 'prj_b', whole)).toEqual([]);
      expect(await analytics.aiMisses('prj_b', whole)).toEqual(before);
      const edge = await naiveMisses(sql, 'prj_b', { from: partial.from, to: whole.from });
      const sum = (rows: { count: number }[]) => rows.reduce((n, r) => n + r.count, 0);
      expect(sum(edge)).toBeGreaterThan(0);
      expect(sum(await analytics.aiMisses('prj_b', partial))).toBe(sum(before) + sum(edge));
    });
  },
);
