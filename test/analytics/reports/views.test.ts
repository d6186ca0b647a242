import type { Sql } from '../../../src/analytics/store/sql.js';
import { compareCodePoints } from '../../../src/analytics/reports/compare-code-points.js';
import type { TimeRange } from '../../../src/calendar.js';
import { PROVIDERS } from '../../support/databases.js';
import { DAY, randomRanges, reportAnalytics, rng, START, useSeededReports } from '../../support/rollup-fixtures.js';
import { countViews } from '../../../src/analytics/reports/views.js';
import { event, expectKeptUntilFolded, storeFolded, useReportStore } from '../../support/ai-report-suite.js';

/** Views per page and class counted from the raw events, ordered as the report orders them. */
async function naiveViews(sql: Sql, projectId: string, range: TimeRange) {
  const rows = await sql.query<{ path: string; human: unknown; ai: unknown }>(
    `SELECT p."path" AS "path", SUM(CASE WHEN e."kind" = 1 THEN 1 ELSE 0 END) AS human, SUM(CASE WHEN e."kind" = 2 THEN 1 ELSE 0 END) AS ai
       FROM "AnalyticsEvent" e JOIN "AnalyticsPage" p ON p."id" = e."pageId"
      WHERE e."projectId" = ? AND e."ts" >= ? AND e."ts" < ? AND e."kind" > 0 GROUP BY p."path"`,
    [projectId, range.from, range.to],
  );
  const pages = rows.map((r) => ({
    path: r.path,
    human: Number(r.human),
    ai: Number(r.ai),
    total: Number(r.human) + Number(r.ai),
  }));
  pages.sort((a, b) => b.total - a.total || compareCodePoints(a.path, b.path));
  const sum = (k: 'human' | 'ai' | 'total') => pages.reduce((n, p) => n + p[k], 0);
  return { totals: { human: sum('human'), ai: sum('ai'), total: sum('total') }, rows: pages, hasMore: false };
}

describe.each(PROVIDERS)('/views from the day views agrees with a recount of raw events on %s', (provider) => {
  const seeded = useSeededReports(provider, [21, 22]);

  it('over random ranges, with duplicates, late events, unverified agents and bots', async () => {
    const { analytics, sql } = seeded();
    const [kinds] = await sql.query<{ unverified: unknown; bots: unknown }>(
      `SELECT SUM(CASE WHEN "agent" LIKE 'unverified %' THEN 1 ELSE 0 END) AS unverified, SUM(CASE WHEN "kind" = 0 THEN 1 ELSE 0 END) AS bots FROM "AnalyticsEvent"`,
    );
    expect(Number(kinds.unverified)).toBeGreaterThan(0);
    expect(Number(kinds.bots)).toBeGreaterThan(Number(kinds.unverified));
    for (const range of randomRanges(rng(31), 40)) {
      const ours = await analytics.views('prj_a', range, { limit: 250, offset: 0 });
      expect({ range, ...ours }).toEqual({ range, ...(await naiveViews(sql, 'prj_a', range)) });
    }
  });

  it('reads whole days from the day views and only the partial edges from raw events', async () => {
    const { analytics, sql, target } = seeded();
    const whole = { from: START + 4 * DAY, to: START + 12 * DAY };
    const partial = { from: START + 4 * DAY, to: START + 12 * DAY + 3_600_000 };
    const before = await analytics.views('prj_b', whole, { limit: 250, offset: 0 });
    // raw events of the whole days gone behind the fold's back: a report from raw events would lose them
    await sql.run('DELETE FROM "AnalyticsEvent" WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ?', [
      'prj_b',
      whole.from,
      whole.to,
    ]);
    expect((await naiveViews(sql, 'prj_b', whole)).totals.total).toBe(0);
    // read by another service on the database, which kept nothing from the first read
    const other = reportAnalytics(target);
    try {
      expect(await other.views('prj_b', whole, { limit: 250, offset: 0 })).toEqual(before);
    } finally {
      await other.close();
    }
    const edge = await naiveViews(sql, 'prj_b', { from: whole.to, to: partial.to });
    expect(edge.totals.total).toBeGreaterThan(0);
    expect((await analytics.views('prj_b', partial, { limit: 250, offset: 0 })).totals.total).toBe(
      before.totals.total + edge.totals.total,
    );
  });
});

describe.each(PROVIDERS)('every page’s views on %s', (provider) => {
  const ctx = useReportStore(provider);

  it('are summed once for a range of whole folded days and again after a fold changes one of them', async () => {
    const at = (d: number) => Date.UTC(2026, 10, d, 10);
    const range = { from: Date.UTC(2026, 10, 19), to: Date.UTC(2026, 10, 21) };
    await storeFolded(ctx(), [
      event({ ts: at(19), kind: 1, visitorHash: 'a' }),
      event({ ts: at(20), kind: 1, visitorHash: 'a' }),
      event({ ts: at(20), kind: 2, visitorHash: 'b', agent: 'GPTBot' }),
    ]);
    await expectKeptUntilFolded({
      ...ctx(),
      answer: () => countViews({ ...ctx(), range }),
      late: [event({ ts: at(20), kind: 1, visitorHash: 'c' })],
      expected: { before: { human: 2, ai: 1, total: 3 }, after: { human: 3, ai: 1, total: 4 } },
    });
  });
});
