import { DAY_MS } from '../../../src/calendar.js';
import { openSql, type Sql } from '../../../src/analytics/store/sql.js';
import { planRange } from '../../../src/analytics/store/split-range.js';
import { createMigratedDatabase, type TestDatabase } from '../../support/databases.js';
import { plansMatching, recordingSql } from '../../support/recording-sql.js';

const DAY0 = Date.UTC(2026, 10, 10) / DAY_MS;
/** a million events: fewer, and PostgreSQL plans the old statement along the key by chance */
const EVENTS = 1_000_000;
/** 30 days over the events */
const SPACING_MS = 2592;

/**
 * A range's plan reads the days of the events after the fold's watermark. Right after a bulk import PostgreSQL has no
 * statistics for the events table (autovacuum has not analysed it yet): every statement planRange runs must still be
 * planned along an index, never as a scan of every event — which would cost every report a third of a second per
 * million events until the table is analysed.
 */
describe('planRange on PostgreSQL before the events table is analysed', () => {
  let database: TestDatabase;
  let sql: Sql;
  beforeAll(async () => {
    database = await createMigratedDatabase('postgresql');
    sql = openSql(database.target);
    // a million events of two projects over 30 days; all but the last 7 folded
    await sql.run(
      `INSERT INTO "AnalyticsEvent" ("projectId", "ts", "pageId", "visitorId", "kind")
       SELECT CASE WHEN i % 2 = 0 THEN 'p1' ELSE 'p2' END, ? + i::bigint * ${SPACING_MS}, i % 50, i % 1000, 1
         FROM generate_series(1, ${EVENTS}) AS i`,
      [DAY0 * DAY_MS],
    );
    // the watermark, as a fold writes it: under the derived lock
    await sql.transaction(
      (tx) => tx.run(`INSERT INTO "AnalyticsState" ("name", "value") VALUES ('folded', ${EVENTS - 7})`),
      ['derived'],
    );
  }, 60_000);
  afterAll(async () => {
    await sql?.close();
    await database?.drop();
  });

  it('finds the days not folded yet, reading along an index', async () => {
    const { recording, statements } = recordingSql(sql);
    const range = { from: DAY0 * DAY_MS + 5000, to: (DAY0 + 31) * DAY_MS };
    const plan = await planRange(recording, { projectId: 'p1', range });
    // the last 7 events (ids EVENTS-6 .. EVENTS, 2.592 s apart from day 0) fall on days 29 and 30, p1's too (the
    // even ids): read raw whole, beside the range's partial first day
    expect(plan.raw.map((r) => [(r.from - DAY0 * DAY_MS) / DAY_MS, (r.to - DAY0 * DAY_MS) / DAY_MS])).toEqual([
      [5000 / DAY_MS, 1],
      [29, 30],
      [30, 31],
    ]);
    expect(plan.days).toEqual([[DAY0 + 1, DAY0 + 29]]);
    const scans = await plansMatching(
      sql,
      statements,
      /"Node Type":\s*"Seq Scan"[^}]*"Relation Name":\s*"AnalyticsEvent"/,
    );
    expect(statements.some(([text]) => text.includes('"AnalyticsEvent"'))).toBe(true);
    expect(scans).toEqual([]);
  });
});
