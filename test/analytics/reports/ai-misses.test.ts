import type { Sql } from '../../../src/analytics/store/sql.js';
import { compareCodePoints } from '../../../src/analytics/reports/compare-code-points.js';
import type { TimeRange } from '../../../src/calendar.js';
import { PROVIDERS } from '../../support/databases.js';
import type { Analytics } from '../../../src/analytics/analytics.js';
import {
  DAY,
  randomMisses,
  randomRanges,
  reportAnalytics,
  rng,
  START,
  UAS,
  useSeededReports,
} from '../../support/rollup-fixtures.js';

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

/** Random pages of a report with `total` rows: the whole list, the first, deep ones, single rows, past the end. */
function randomPages(random: () => number, total: number) {
  const pages = [
    { offset: 0, limit: total + 1 },
    { offset: 0, limit: 1 },
    { offset: total, limit: 5 },
  ];
  for (let i = 0; i < 4; i++)
    pages.push({ offset: Math.floor(random() * (total + 2)), limit: 1 + Math.floor(random() * 12) });
  return pages;
}

describe.each(PROVIDERS)('/ai/misses agrees with a recount of stored misses on %s', (provider) => {
  const seeded = useSeededReports(provider, [51, 52]);
  const all = (analytics: Analytics, projectId: string, range: TimeRange) =>
    analytics.aiMisses(projectId, range, { offset: 0, limit: 1_000_000 }).then((page) => page.rows);

  it('over random ranges and pages, with repeated log lines and late misses', async () => {
    const { analytics, sql } = seeded();
    // a log imported again, and an older one imported late
    await analytics.recordAiMisses('prj_a', randomMisses(rng(51), 60, 0, 40));
    await analytics.recordAiMisses('prj_a', randomMisses(rng(53), 80, 2, 10));
    const random = rng(55);
    for (const range of randomRanges(rng(54), 40)) {
      const expected = await naiveMisses(sql, 'prj_a', range);
      for (const page of randomPages(random, expected.length)) {
        const ours = await analytics.aiMisses('prj_a', range, page);
        expect({ range, page, ...ours }).toEqual({
          range,
          page,
          rows: expected.slice(page.offset, page.offset + page.limit),
          hasMore: page.offset + page.limit < expected.length,
        });
      }
    }
  });

  it('answers a range asked again (another page of its rows) without counting again, until misses are written', async () => {
    const { analytics, sql } = seeded();
    const range = { from: START + 2 * DAY, to: START + 20 * DAY };
    const before = await all(analytics, 'prj_b', range);
    expect(before.length).toBeGreaterThan(1);
    // the stored misses emptied behind the service's back: a counted answer would change, a kept one does not
    await sql.run('CREATE TABLE "KeptMisses" AS SELECT * FROM "AnalyticsAiMiss" WHERE "projectId" = ?', ['prj_b']);
    await sql.run('DELETE FROM "AnalyticsAiMiss" WHERE "projectId" = ?', ['prj_b']);
    expect(await all(analytics, 'prj_b', range)).toEqual(before);
    expect((await analytics.aiMisses('prj_b', range, { offset: 1, limit: 1 })).rows).toEqual([before[1]]);
    // a write of misses changes the stamp: counted again (the new miss alone)
    await analytics.recordAiMisses('prj_b', [
      { key: 'stamp-1', status: 404, view: { timestamp: START + 3 * DAY, url: '/after', userAgent: UAS[2] } },
    ]);
    expect((await all(analytics, 'prj_b', range)).map((r) => r.path)).toEqual(['/after']);
    // the misses put back, as the other tests expect them (and a write that changes the stamp again)
    await sql.run('INSERT INTO "AnalyticsAiMiss" SELECT * FROM "KeptMisses"');
    await sql.run('DROP TABLE "KeptMisses"');
    await analytics.recordAiMisses('prj_b', [
      { key: 'stamp-2', status: 404, view: { timestamp: START + 4 * DAY, url: '/after', userAgent: UAS[2] } },
    ]);
    expect(await all(analytics, 'prj_b', range)).toEqual(await naiveMisses(sql, 'prj_b', range));
  });

  it('reads a cached day again once misses are recorded on it, by this service or another on the database', async () => {
    const { analytics, sql, target } = seeded();
    const range = { from: START, to: START + 40 * DAY };
    const miss = (key: string, day: number, url: string) => ({
      key,
      status: 404,
      view: { timestamp: START + day * DAY + 5, url, userAgent: UAS[2] },
    });
    // read once: every day of the range is now cached
    expect(await all(analytics, 'prj_a', range)).toEqual(await naiveMisses(sql, 'prj_a', range));
    expect(await analytics.recordAiMisses('prj_a', [miss('late-1', 3, '/gone0'), miss('late-2', 3, '/new-a')])).toBe(2);
    expect(await all(analytics, 'prj_a', range)).toEqual(await naiveMisses(sql, 'prj_a', range));
    const replica = reportAnalytics(target);
    try {
      expect(await replica.recordAiMisses('prj_a', [miss('late-3', 7, '/gone1'), miss('late-4', 7, '/new-b')])).toBe(2);
    } finally {
      await replica.close();
    }
    const after = await all(analytics, 'prj_a', range);
    expect(after).toEqual(await naiveMisses(sql, 'prj_a', range));
    expect(after.map((r) => r.path)).toEqual(expect.arrayContaining(['/new-a', '/new-b']));
  });
});
