import type { Analytics } from '../../../src/analytics/analytics.js';
import { openSql, type Sql } from '../../../src/analytics/store/sql.js';
import { segmentsOf, segmentsWithData } from '../../../src/analytics/reports/segments.js';
import { createTestDatabase, PROVIDERS } from '../../support/databases.js';
import { DAY, reportAnalytics, seedTraffic, START } from '../../support/rollup-fixtures.js';

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

describe.each(PROVIDERS)('reports read stored segments in a new process on %s', (provider) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let sql: Sql;
  const opened: Analytics[] = [];
  /** a new process, as far as the reports go: a new service with an empty cache over the same database */
  const restart = () => {
    const analytics = reportAnalytics(database.target);
    opened.push(analytics);
    return analytics;
  };
  // 36 whole days from day 20732 (START is day 20727)
  const range = { from: START + 5 * DAY, to: START + 41 * DAY };
  const page = { limit: 1000, offset: 0 };
  const answers = async (analytics: Analytics) => ({
    visitors: await analytics.visitors('prj_a', range, page),
    purposes: await analytics.aiPurposes('prj_a', range),
    agents: await analytics.aiAgents('prj_a', range),
    views: await analytics.views('prj_a', range, page),
  });

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    sql = openSql(database.target);
    const seeding = restart();
    await seedTraffic(seeding, 'prj_a', 51);
  });
  afterAll(async () => {
    for (const analytics of opened) await analytics.close();
    await sql.close();
    await database.drop();
  });

  it('answer from the stored unions, and not from stored unions whose days changed since', async () => {
    const first = await answers(restart());
    const stored = await sql.query<{ name: string }>('SELECT "name" FROM "AnalyticsSegment" WHERE "projectId" = ?', [
      'prj_a',
    ]);
    const names = stored.map((r) => r.name);
    expect(names.some((n) => n.startsWith('sets:16:'))).toBe(true);
    expect(names.some((n) => n.startsWith('agents:4:'))).toBe(true);
    expect(names.some((n) => n.startsWith('views:16:'))).toBe(true);
    // the segments the range reads (cut to its days with data); those longer than a day were stored
    const rows = await sql.query<{ day: unknown; generation: unknown }>(
      'SELECT "day", "generation" FROM "AnalyticsDay" WHERE "projectId" = ?',
      ['prj_a'],
    );
    const generations = new Map(rows.map((r) => [Number(r.day), Number(r.generation)]));
    const united = segmentsWithData([range.from / DAY, range.to / DAY], generations).filter(([, size]) => size > 1);
    expect(united.filter(([, size]) => size === 16).length).toBeGreaterThan(0);

    // their days' sets, views and agent cells are gone, their generations unchanged: only stored unions can answer
    for (const [start, size] of united) {
      for (const table of ['AnalyticsDaySet', 'AnalyticsDayViews', 'AnalyticsAgentDaySet', 'AnalyticsAgentDayViews'])
        await sql.run(`DELETE FROM "${table}" WHERE "projectId" = ? AND "day" >= ? AND "day" < ?`, [
          'prj_a',
          start,
          start + size,
        ]);
    }
    expect(await answers(restart())).toEqual(first);

    // once the days change (a late event folded, say), their stored unions no longer count
    await sql.run('UPDATE "AnalyticsDay" SET "generation" = "generation" + 1 WHERE "projectId" = ?', ['prj_a']);
    const after = await answers(restart());
    expect(after.visitors.totals.total).toBeLessThan(first.visitors.totals.total);
    expect(after.views.totals.total).toBeLessThan(first.views.totals.total);
  });
});
