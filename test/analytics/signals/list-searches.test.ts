import type { Analytics } from '../../../src/analytics/analytics.js';
import type { ReaderSignals } from '../../../src/analytics/signals/reader-signals.js';
import type { ListWindow } from '../../../src/analytics/signals/store/list-window.js';
import { compareCodePoints } from '../../../src/analytics/reports/compare-code-points.js';
import { openSql, type Sql } from '../../../src/analytics/store/sql.js';
import { createTestDatabase, PROVIDERS } from '../../support/databases.js';
import { DAY, randomRanges, randomSearches, reportAnalytics, rng, START } from '../../support/rollup-fixtures.js';

/** The searches report of a window (its rows up to its snapshot), counted here from the rows. */
async function naiveSearches(sql: Sql, window: ListWindow, path?: string) {
  const rows = await sql.query<{ query: string; clickedPath: string | null; ts: unknown }>(
    'SELECT "query", "clickedPath", "ts" FROM "AnalyticsSearch" WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ? AND "id" <= ?',
    [window.projectId, window.from, window.to, window.snapshot],
  );
  const terms = new Map<string, { hits: number; last: number; clicks: Map<string, number> }>();
  const term = (q: string) => {
    let t = terms.get(q);
    if (!t) terms.set(q, (t = { hits: 0, last: 0, clicks: new Map() }));
    return t;
  };
  for (const r of rows) {
    const t = term(r.query);
    if (r.clickedPath === null) {
      t.hits++;
      t.last = Math.max(t.last, Number(r.ts));
    } else t.clicks.set(r.clickedPath, (t.clicks.get(r.clickedPath) ?? 0) + 1);
  }
  // with a page: the terms a reader clicked a result of to reach it
  const searched = [...terms].filter(([, t]) => t.hits > 0 && (path === undefined || t.clicks.has(path)));
  const report = searched.map(([query, t]) => {
    const clicked = [...t.clicks.values()].reduce((a, b) => a + b, 0);
    const top = [...t.clicks].sort((a, b) => b[1] - a[1] || compareCodePoints(a[0], b[0]))[0];
    return {
      query,
      hits: t.hits,
      ctr: Math.round(Math.min(1, clicked / t.hits) * 10_000) / 10_000,
      topClickedPage: top?.[0] ?? null,
      lastSearchedAt: t.last,
    };
  });
  report.sort((a, b) => b.hits - a.hits || compareCodePoints(a.query, b.query));
  return { rows: report, totalSearches: searched.reduce((n, [, t]) => n + t.hits, 0) };
}

describe.each(PROVIDERS)('searches agree with a recount on %s', (provider) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let analytics: Analytics;
  let signals: ReaderSignals;
  let sql: Sql;
  const random = rng(71);

  async function store(projectId: string, fromDay: number, days: number) {
    const result = await signals.submitSearches(projectId, randomSearches(random, 80, fromDay, days));
    expect(result.rejected).toEqual([]);
  }

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    analytics = reportAnalytics(database.target);
    signals = analytics.readerSignals();
    sql = openSql(database.target);
    for (const projectId of ['prj_a', 'prj_b'])
      for (let round = 0; round < 4; round++) await store(projectId, round * 4, 40 - round * 8);
  });
  afterAll(async () => {
    await analytics.close();
    await sql.close();
    await database.drop();
  });

  it('over random ranges, walked page by page while searches are stored', async () => {
    let walked = 0;
    for (const range of randomRanges(rng(72), 24)) {
      let page = await signals.searches('prj_a', { dateFrom: range.from, dateTo: range.to, limit: 4 });
      const window = page.window;
      const rows = [...page.rows];
      const totals = [page.totalSearches];
      while (page.nextCursor) {
        // searches stored during the walk, in the walked days too: the walk leaves them out
        await store('prj_a', Math.floor((range.from - START) / DAY), 3);
        page = await signals.searches('prj_a', { cursor: page.nextCursor, limit: 4 });
        rows.push(...page.rows);
        totals.push(page.totalSearches);
        walked++;
      }
      const naive = await naiveSearches(sql, window);
      expect({ range, rows }).toEqual({ range, rows: naive.rows });
      expect(new Set(totals)).toEqual(new Set([naive.totalSearches]));
    }
    expect(walked).toBeGreaterThan(10);
  });

  it('narrowed to one page: the terms that led to it, over random ranges, walked page by page', async () => {
    let walked = 0;
    let listed = 0;
    const random = rng(73);
    for (const range of randomRanges(rng(74), 24)) {
      const path = `/p${Math.floor(random() * 7)}`; // /p6 is clicked by no one
      let page = await signals.searches('prj_a', { dateFrom: range.from, dateTo: range.to, limit: 2, path });
      const window = page.window;
      const rows = [...page.rows];
      const totals = [page.totalSearches];
      while (page.nextCursor) {
        await store('prj_a', Math.floor((range.from - START) / DAY), 2);
        page = await signals.searches('prj_a', { cursor: page.nextCursor, limit: 2, path });
        rows.push(...page.rows);
        totals.push(page.totalSearches);
        walked++;
      }
      const naive = await naiveSearches(sql, window, path);
      expect({ range, path, rows }).toEqual({ range, path, rows: naive.rows });
      expect(new Set(totals)).toEqual(new Set([naive.totalSearches]));
      listed += rows.length;
    }
    expect(walked).toBeGreaterThan(5);
    expect(listed).toBeGreaterThan(20);
    // a cursor is honoured only with the page it was made for
    const first = await signals.searches('prj_a', { dateFrom: START, dateTo: START + 40 * DAY, limit: 1, path: '/p1' });
    expect(first.nextCursor).not.toBeNull();
    for (const path of ['/p2', undefined])
      await expect(signals.searches('prj_a', { cursor: first.nextCursor!, limit: 1, path })).rejects.toThrow(
        'Invalid query parameters',
      );
  });

  it('leaves out of a walk every search stored since its first page, over a thousand of them too', async () => {
    const range = { dateFrom: START, dateTo: START + 40 * DAY, limit: 3 };
    const first = await signals.searches('prj_a', range);
    expect(first.nextCursor).not.toBeNull();
    // more rows since the first page than one batch of the reads by id (1,000), on the last of them a new term
    for (let i = 0; i < 3; i++) await store('prj_a', 30 + i, 1);
    // the last hundred on a day of their own: only a read past the first batch finds that day
    const late = Array.from({ length: 1100 }, (_, i) => ({
      timestamp: START + (i < 1000 ? 35 : 37) * DAY + i,
      query: 'late',
    }));
    for (let i = 0; i < late.length; i += 500) {
      const result = await signals.submitSearches('prj_a', late.slice(i, i + 500));
      expect(result.rejected).toEqual([]);
    }
    const second = await signals.searches('prj_a', { cursor: first.nextCursor!, limit: 1000 });
    const naive = await naiveSearches(sql, first.window);
    expect([...first.rows, ...second.rows]).toEqual(naive.rows);
    expect(second.totalSearches).toBe(naive.totalSearches);
    expect(second.rows.map((r) => r.query)).not.toContain('late');
  });

  it('keeps the tally of a window for the same window asked again, and counts anew once a search is stored', async () => {
    const range = { dateFrom: START + 2 * DAY, dateTo: START + 9 * DAY + 3_600_000, limit: 5 };
    const first = await signals.searches('prj_a', range);
    expect(first.totalSearches).toBeGreaterThan(0);
    // searches moved out of the window behind the service's back: a counted tally would change, a kept one does not
    const moved = 'UPDATE "AnalyticsSearch" SET "ts" = "ts" + ? WHERE "projectId" = ? AND "id" <= ?';
    await sql.run(moved, [1000 * DAY, 'prj_a', first.window.snapshot]);
    const again = await signals.searches('prj_a', range);
    expect({ rows: again.rows, total: again.totalSearches }).toEqual({ rows: first.rows, total: first.totalSearches });
    expect(first.rows.some((t) => t.topClickedPage !== null)).toBe(true);
    // a search stored since: a first page takes a new snapshot, counted again
    await store('prj_a', 30, 2);
    const anew = await signals.searches('prj_a', range);
    expect(anew.window.snapshot).toBeGreaterThan(first.window.snapshot);
    expect(anew.totalSearches).toBeLessThan(first.totalSearches);
    expect(anew.totalSearches).toBe((await naiveSearches(sql, anew.window)).totalSearches);
    await sql.run(moved, [-1000 * DAY, 'prj_a', first.window.snapshot]);
  });
});
