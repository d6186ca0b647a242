import type { Analytics } from '../../../src/analytics/analytics.js';
import type { ReaderSignals } from '../../../src/analytics/signals/reader-signals.js';
import type { FeedbackFilter } from '../../../src/analytics/signals/feedback-filter.js';
import type { FeedbackSource, FeedbackStatus } from '../../../src/analytics/signals/feedback-kinds.js';
import { feedbackWhere } from '../../../src/analytics/signals/store/feedback-where.js';
import type { ListWindow } from '../../../src/analytics/signals/store/list-window.js';
import { compareCodePoints } from '../../../src/analytics/reports/compare-code-points.js';
import { openSql, type Sql } from '../../../src/analytics/store/sql.js';
import { createTestDatabase, PROVIDERS } from '../../support/databases.js';
import {
  DAY,
  randomFeedback,
  randomRanges,
  reportAnalytics,
  rng,
  START,
  STATUSES,
} from '../../support/rollup-fixtures.js';

/** Feedback counts per page of a window, from its entries as they stood at its first page, counted here. */
async function naiveByPage(sql: Sql, window: ListWindow, filter: FeedbackFilter) {
  // the page is picked here, not by the listing's own condition
  const { from, where, params } = feedbackWhere(window, { ...filter, path: undefined });
  const rows = (
    await sql.query<{ path: string; source: string; helpful: unknown }>(
      `SELECT "path", "source", "helpful" FROM ${from} WHERE ${where.join(' AND ')}`,
      params,
    )
  ).filter((r) => filter.path === undefined || r.path === filter.path);
  const pages = new Map<string, { path: string; thumbsUp: number; thumbsDown: number; code: number; total: number }>();
  for (const r of rows) {
    const page = pages.get(r.path) ?? { path: r.path, thumbsUp: 0, thumbsDown: 0, code: 0, total: 0 };
    const vote = r.source === 'contextual' || r.source === 'thumbs_only';
    if (vote && r.helpful !== null && Number(r.helpful) === 1) page.thumbsUp++;
    if (vote && r.helpful !== null && Number(r.helpful) === 0) page.thumbsDown++;
    if (r.source === 'code_snippet') page.code++;
    page.total++;
    pages.set(r.path, page);
  }
  return [...pages.values()].sort((a, b) => b.total - a.total || compareCodePoints(a.path, b.path));
}

describe.each(PROVIDERS)('feedback by page agrees with a recount on %s', (provider) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let analytics: Analytics;
  let signals: ReaderSignals;
  let sql: Sql;
  const random = rng(61);

  async function changeStatuses(projectId: string, n: number) {
    const ids = await sql.query<{ id: unknown }>('SELECT "id" FROM "AnalyticsFeedback" WHERE "projectId" = ?', [
      projectId,
    ]);
    for (let i = 0; i < n; i++) {
      const id = ids[Math.floor(random() * ids.length)].id;
      await signals.setFeedbackStatus(projectId, String(id), STATUSES[Math.floor(random() * STATUSES.length)]);
    }
  }

  async function store(projectId: string, fromDay: number, days: number) {
    // widget-style updates of keyed entries half the time: a later submission with a key changes its row
    const result = await signals.submitFeedback(
      projectId,
      randomFeedback(random, 60, fromDay, days),
      random() < 0.5 ? 'update' : 'skip',
    );
    expect(result.rejected).toEqual([]);
  }

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    analytics = reportAnalytics(database.target);
    signals = analytics.readerSignals();
    sql = openSql(database.target);
    for (const projectId of ['prj_a', 'prj_b'])
      for (let round = 0; round < 4; round++) {
        // later rounds bring entries for days past
        await store(projectId, round * 4, 40 - round * 8);
        await changeStatuses(projectId, 15);
      }
  });
  afterAll(async () => {
    await analytics.close();
    await sql.close();
    await database.drop();
  });

  it('over random ranges and filters, walked page by page while entries are stored and changed', async () => {
    const filters = () => {
      const filter: FeedbackFilter = {};
      if (random() < 0.4)
        filter.source = (['code_snippet', 'contextual', 'agent', 'thumbs_only'] as FeedbackSource[])[
          Math.floor(random() * 4)
        ];
      if (random() < 0.4) filter.status = STATUSES.filter(() => random() < 0.5) as FeedbackStatus[];
      if (filter.status && !filter.status.length) filter.status = undefined;
      if (random() < 0.4) filter.path = `/p${Math.floor(random() * 13)}`; // /p12 has no feedback
      return filter;
    };
    let walked = 0;
    for (const range of randomRanges(rng(62), 24)) {
      const filter = filters();
      const rows = [];
      let page = await signals.feedbackByPage('prj_a', { dateFrom: range.from, dateTo: range.to, limit: 3, ...filter });
      const window = page.window;
      rows.push(...page.rows);
      while (page.nextCursor) {
        // entries stored and changed during the walk, in the walked days too: the walk reads them as they stood
        await store('prj_a', Math.floor((range.from - START) / DAY), 3);
        await changeStatuses('prj_a', 2);
        page = await signals.feedbackByPage('prj_a', { cursor: page.nextCursor, limit: 3, ...filter });
        rows.push(...page.rows);
        walked++;
      }
      expect({ range, filter, rows }).toEqual({ range, filter, rows: await naiveByPage(sql, window, filter) });
    }
    expect(walked).toBeGreaterThan(10);
  });

  it("narrowed to one page: that page's entries and counts, and a cursor only for that page", async () => {
    const range = { dateFrom: START, dateTo: START + 40 * DAY };
    for (const path of ['/p0', '/p3', '/p12']) {
      const entries = await signals.feedback('prj_a', { ...range, limit: 100, path });
      const { from, where, params } = feedbackWhere(entries.window, {});
      const naive = (
        await sql.query<{ id: unknown; path: string }>(
          `SELECT "id", "path" FROM ${from} WHERE ${where.join(' AND ')} ORDER BY "ts" DESC, "id" DESC`,
          params,
        )
      ).filter((r) => r.path === path);
      expect(entries.rows.map((e) => e.id)).toEqual(naive.slice(0, 100).map((r) => Number(r.id)));
      const byPage = await signals.feedbackByPage('prj_a', { ...range, limit: 10, path });
      expect(byPage.rows).toEqual(await naiveByPage(sql, byPage.window, { path }));
      expect(byPage.rows.length).toBe(path === '/p12' ? 0 : 1);
    }
    const first = await signals.feedback('prj_a', { ...range, limit: 1, path: '/p1' });
    expect(first.nextCursor).not.toBeNull();
    const next = await signals.feedback('prj_a', { cursor: first.nextCursor!, limit: 1, path: '/p1' });
    expect(next.rows[0].path).toBe('/p1');
    for (const path of ['/p2', undefined])
      await expect(signals.feedback('prj_a', { cursor: first.nextCursor!, limit: 1, path })).rejects.toThrow(
        'Invalid query parameters',
      );
  });
});
