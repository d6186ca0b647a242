import { Analytics } from '../../../src/analytics/analytics.js';
import { openSql, type Sql } from '../../../src/analytics/store/sql.js';
import { foldEvents } from '../../../src/analytics/store/fold-events.js';
import { rebuildDerived, type RebuildProgress } from '../../../src/analytics/store/rebuild-derived.js';
import { derivedMark } from '../../../src/analytics/store/rollups/rollup-marks.js';

const derivedReady = async (sql: Sql, p: { projectId: string }) => (await derivedMark(sql, p.projectId)) !== undefined;
import { RoaringBitmap32 } from '../../../src/analytics/store/day-sets.js';
import { naiveVisitors } from '../../support/naive-visitors.js';
import { createLogger } from '../../../src/logger.js';
import { createTestDatabase, PROVIDERS } from '../../support/databases.js';
import {
  countingRollup,
  DAY,
  randomFeedback,
  randomSearches,
  randomViews,
  rng,
  START,
  UAS,
} from '../../support/rollup-fixtures.js';

/** Every derived row of a project, decoded (day sets as sorted members), and the days' generations apart. */
async function derivedState(sql: Sql, projectId: string, tables: string[]) {
  const sets = await sql.query<{ day: unknown; kind: unknown; part: unknown; pairs: Buffer }>(
    'SELECT "day", "kind", "part", "pairs" FROM "AnalyticsDaySet" WHERE "projectId" = ?',
    [projectId],
  );
  const state: Record<string, unknown> = {
    sets: Object.fromEntries(
      sets
        .map((r) => [`${r.day}:${r.kind}:${r.part}`, RoaringBitmap32.deserialize(r.pairs, true).toArray()] as const)
        .sort(([a], [b]) => (a < b ? -1 : 1)),
    ),
  };
  for (const table of ['AnalyticsDayViews', 'AnalyticsDaySearches', 'AnalyticsDaySearchClicks', ...tables]) {
    const rows = await sql.query(`SELECT * FROM "${table}" WHERE "projectId" = ?`, [projectId]);
    state[table] = rows.map((r) => JSON.stringify(r, (_, v) => (typeof v === 'bigint' ? Number(v) : v))).sort();
  }
  const days = await sql.query<{ day: unknown; generation: unknown }>(
    'SELECT "day", "generation" FROM "AnalyticsDay" WHERE "projectId" = ? ORDER BY "day"',
    [projectId],
  );
  return { state, generations: new Map(days.map((d) => [Number(d.day), Number(d.generation)])) };
}

describe.each(PROVIDERS)('rebuilding derived rows from raw events on %s', (provider) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let analytics: Analytics;
  let sql: Sql;
  let failing = false;
  let counting: Awaited<ReturnType<typeof countingRollup>>;

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    analytics = new Analytics({
      target: database.target,
      secret: 'rebuild-derived-secret-rebuild-derived-00',
      config: { saltRotation: 'never', trustedProxyHeader: undefined, cacheMb: 64 },
      logger: createLogger('silent'),
      clock: () => new Date(START + 60 * DAY),
      autoFold: false,
    });
    sql = openSql(database.target);
    counting = await countingRollup(sql, 'TestCountsRebuild', () => failing);
    const random = rng(5);
    for (let round = 0; round < 3; round++) {
      // later rounds bring late events into days folded already
      await analytics.ingest('prj_a', randomViews(random, 400, round * 3, 20));
      await analytics.ingest('prj_b', randomViews(random, 200, 0, 20));
      await analytics.recordAiMisses('prj_a', [
        {
          key: `m${round}a`,
          status: 404,
          view: { timestamp: START + round * DAY + 5, url: '/gone', userAgent: UAS[2] },
        },
        {
          key: `m${round}b`,
          status: 404,
          view: { timestamp: START + round * DAY + 7, url: '/gone', userAgent: UAS[2] },
        },
      ]);
      await analytics.readerSignals().submitFeedback('prj_a', randomFeedback(random, 30, round * 3, 20), 'update');
      await analytics.readerSignals().submitSearches('prj_a', randomSearches(random, 30, round * 3, 20));
      await foldEvents(sql, { rollups: [counting.rollup], chunk: 170 });
    }
  });
  afterAll(async () => {
    await analytics.close();
    await sql.close();
    await database.drop();
  });

  const options = () => ({ rollups: [counting.rollup], chunk: 90 });

  it("re-derives a project's rows equal to what folding made, bumps its days, and leaves other projects alone", async () => {
    const before = await derivedState(sql, 'prj_a', counting.rollup.tables);
    const other = await derivedState(sql, 'prj_b', counting.rollup.tables);
    expect(Object.keys(before.state.sets as object).length).toBeGreaterThan(0);
    const progress: RebuildProgress[] = [];
    const result = await rebuildDerived(sql, { ...options(), projectId: 'prj_a', onProgress: (p) => progress.push(p) });
    expect(result).toEqual({ projects: 1, events: progress.at(-1)!.total });
    expect(progress.at(-1)!.done).toBe(progress.at(-1)!.total);
    expect(progress.length).toBeGreaterThan(2);
    const after = await derivedState(sql, 'prj_a', counting.rollup.tables);
    expect(after.state).toEqual(before.state);
    for (const [day, generation] of before.generations) expect(after.generations.get(day)).toBeGreaterThan(generation);
    expect(await derivedState(sql, 'prj_b', counting.rollup.tables)).toEqual(other);
    expect(await counting.stored('prj_a')).toEqual(await counting.recount('prj_a'));
  });

  it('clears rows that raw events no longer justify (derived state is a function of the raw events)', async () => {
    // derived rows with no raw events behind them, as a bug or a hand edit might leave
    await sql.run('UPDATE "AnalyticsDayViews" SET "views" = "views" + 5 WHERE "projectId" = ?', ['prj_b']);
    await sql.run(`UPDATE "${counting.rollup.tables[0]}" SET "n" = "n" + 1 WHERE "projectId" = ?`, ['prj_b']);
    // a visitor no event brought, added to a day set of the site (page 0, visitor 65535 of its part), read and kept
    // in memory by the service: the rebuild must make it read the day again
    const [set] = await sql.query<{ day: unknown; kind: unknown; part: unknown; pairs: Buffer }>(
      'SELECT "day", "kind", "part", "pairs" FROM "AnalyticsDaySet" WHERE "projectId" = ? AND "kind" = 1 AND "part" = 0',
      ['prj_b'],
    );
    const forged = RoaringBitmap32.deserialize(set.pairs, true);
    forged.add(65535);
    await sql.run(
      'UPDATE "AnalyticsDaySet" SET "pairs" = ? WHERE "projectId" = ? AND "day" = ? AND "kind" = ? AND "part" = ?',
      [Buffer.from(forged.serialize(true)), 'prj_b', Number(set.day), Number(set.kind), Number(set.part)],
    );
    const exportRange = { from: START, to: START + 31 * DAY };
    const exported = async () => (await analytics.visitors('prj_b', exportRange, { limit: 100, offset: 0 })).totals;
    const naiveTotals = async () =>
      (await naiveVisitors({ sql, projectId: 'prj_b', range: exportRange, limit: 100, offset: 0 })).totals;
    expect((await exported()).total).toBe((await naiveTotals()).total + 1);
    const missRange = { from: START, to: START + 10 * DAY };
    const signals = await derivedState(sql, 'prj_a', []);
    const feedbackRange = { dateFrom: START, dateTo: START + 30 * DAY, limit: 100 };
    const byPage = async () => (await analytics.readerSignals().feedbackByPage('prj_a', feedbackRange)).rows;
    const entries = async () => {
      const [row] = await sql.query<{ n: unknown }>(
        'SELECT COUNT(*) AS n FROM "AnalyticsFeedback" WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ?',
        ['prj_a', feedbackRange.dateFrom, feedbackRange.dateTo],
      );
      return Number(row.n);
    };
    const sumTotals = (rows: { total: number }[]) => rows.reduce((n, r) => n + r.total, 0);
    const searchRange = { dateFrom: START, dateTo: START + 30 * DAY, limit: 100 };
    const [stored] = await sql.query<{ n: unknown }>(
      'SELECT COUNT(*) AS n FROM "AnalyticsSearch" WHERE "projectId" = ? AND "clickedPath" IS NULL AND "ts" >= ? AND "ts" < ?',
      ['prj_a', searchRange.dateFrom, searchRange.dateTo],
    );
    expect(Number(stored.n)).toBeGreaterThan(0);
    // the per-day search counts (the problems queue's) emptied: the rebuild counts them again from the searches
    await sql.run('DELETE FROM "AnalyticsDaySearches" WHERE "projectId" = ?', ['prj_a']);
    const result = await rebuildDerived(sql, options());
    expect(result.projects).toBe(2);
    expect(await counting.stored()).toEqual(await counting.recount());
    const [views] = await sql.query<{ n: unknown }>(
      'SELECT SUM("views") AS n FROM "AnalyticsDayViews" WHERE "projectId" = ?',
      ['prj_b'],
    );
    const [raw] = await sql.query<{ n: unknown }>(
      'SELECT COUNT(*) AS n FROM "AnalyticsEvent" WHERE "projectId" = ? AND "kind" > 0',
      ['prj_b'],
    );
    expect(Number(views.n)).toBe(Number(raw.n));
    const rebuilt = (await derivedState(sql, 'prj_a', [])).state;
    for (const table of ['AnalyticsDaySearches', 'AnalyticsDaySearchClicks'])
      expect(rebuilt[table]).toEqual(signals.state[table]);
    expect((await analytics.readerSignals().searches('prj_a', searchRange)).totalSearches).toBe(Number(stored.n));
    expect(sumTotals(await byPage())).toBe(await entries());
    expect(await exported()).toEqual(await naiveTotals());
    const misses = await analytics.aiMisses('prj_a', missRange, { offset: 0, limit: 50 });
    expect(misses).toEqual({ rows: [{ path: '/gone', agent: 'GPTBot', status: 404, count: 6 }], hasMore: false });
  });

  it('a rebuild cut short leaves reports right (from raw events) and a rerun ends right', async () => {
    const before = await derivedState(sql, 'prj_a', counting.rollup.tables);
    let calls = 0;
    const interrupted = rebuildDerived(sql, {
      ...options(),
      projectId: 'prj_a',
      onProgress: () => {
        if (++calls === 3) failing = true;
      },
    });
    await expect(interrupted).rejects.toThrow('interrupted');
    failing = false;
    expect(await derivedReady(sql, { projectId: 'prj_a' })).toBe(false);
    expect(await derivedReady(sql, { projectId: 'prj_b' })).toBe(true);
    // half the day sets are gone: the visitors export must not read them
    for (const [from, to] of [
      [START, START + 30 * DAY],
      [START + 2.5 * DAY, START + 9 * DAY],
    ]) {
      const ours = await analytics.visitors('prj_a', { from, to }, { limit: 100, offset: 0 });
      const naive = await naiveVisitors({ sql, projectId: 'prj_a', range: { from, to }, limit: 100, offset: 0 });
      expect({ totals: ours.totals, rows: ours.rows }).toEqual({ totals: naive.totals, rows: naive.visitors });
    }
    // events stored and folded while the rebuild is cut short are kept by the rerun
    await analytics.ingest('prj_a', randomViews(rng(9), 100, 4, 4));
    await foldEvents(sql, { rollups: [counting.rollup] });
    await rebuildDerived(sql, { ...options(), projectId: 'prj_a' });
    expect(await derivedReady(sql, { projectId: 'prj_a' })).toBe(true);
    expect(await counting.stored('prj_a')).toEqual(await counting.recount('prj_a'));
    const after = await derivedState(sql, 'prj_a', counting.rollup.tables);
    expect(after.state).not.toEqual(before.state);
    // the same rows a rebuild from scratch makes
    await rebuildDerived(sql, { ...options(), projectId: 'prj_a' });
    expect((await derivedState(sql, 'prj_a', counting.rollup.tables)).state).toEqual(after.state);
  });
});
