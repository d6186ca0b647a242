import type { Analytics } from '../../../src/analytics/analytics.js';
import { openSql, type Sql } from '../../../src/analytics/store/sql.js';
import { RoaringBitmap32 } from '../../../src/analytics/store/day-sets.js';
import { decodeDaySets, encodeDaySets } from '../../../src/analytics/store/read-days.js';
import { decodeCells, encodeCells } from '../../../src/analytics/store/rollups/agent-days.js';
import { RecordReader, RecordWriter, settledSegment } from '../../../src/analytics/store/segments.js';
import { DAY_MS } from '../../../src/calendar.js';
import { segmentsOf } from '../../../src/analytics/reports/range-sources.js';
import { createTestDatabase, PROVIDERS } from '../../support/databases.js';
import { DAY, reportAnalytics, seedTraffic, START } from '../../support/rollup-fixtures.js';

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
  // 36 whole days from day 20732 (START is day 20727): one 4-day segment and two 16-day ones, no single days
  const range = { from: START + 5 * DAY, to: START + 41 * DAY };
  const page = { limit: 1000, offset: 0 };
  const answers = async (analytics: Analytics) => ({
    visitors: await analytics.visitors('prj_a', range, page),
    purposes: await analytics.aiPurposes('prj_a', range),
    agents: await analytics.aiAgents('prj_a', range),
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
    expect(segmentsOf(range.from / DAY, range.to / DAY).map(([, size]) => size)).toEqual([4, 16, 16]);

    // the day sets and agent cells of the range are gone, their generations unchanged: only a stored union can answer
    const days = ['prj_a', range.from / DAY, range.to / DAY];
    for (const table of ['AnalyticsDaySet', 'AnalyticsAgentDaySet', 'AnalyticsAgentDayViews'])
      await sql.run(`DELETE FROM "${table}" WHERE "projectId" = ? AND "day" >= ? AND "day" < ?`, days);
    expect(await answers(restart())).toEqual(first);

    // once the days change (a late event folded, say), their stored unions no longer count
    await sql.run('UPDATE "AnalyticsDay" SET "generation" = "generation" + 1 WHERE "projectId" = ?', ['prj_a']);
    const after = await answers(restart());
    expect(after.visitors.totals.total).toBeLessThan(first.visitors.totals.total);
  });
});
