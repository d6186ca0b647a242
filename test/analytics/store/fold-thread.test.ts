import Database from 'better-sqlite3';
import { FoldThread } from '../../../src/analytics/store/fold-thread.js';
import { openSql } from '../../../src/analytics/store/sql.js';
import { KIND } from '../../../src/analytics/store/day-sets.js';
import { FOLDED, readMarks } from '../../../src/analytics/store/rollups/rollup-marks.js';
import { PROVIDERS, useTestDatabase } from '../../support/databases.js';

const DAY = 86_400_000;
const START = Date.UTC(2026, 10, 2);

describe.each(PROVIDERS)('the fold thread on %s', (provider) => {
  const database = useTestDatabase(provider);

  it('folds the stored events on a thread of its own, each once, and stops when closed', async () => {
    const projectId = `prj_fold_thread_${provider}`;
    const sql = openSql(database.target);
    const thread = new FoldThread(database.target);
    try {
      await sql.transaction((tx) =>
        tx.insertMany({
          table: 'AnalyticsEvent',
          columns: [
            ['projectId', 'text'],
            ['ts', 'bigint'],
            ['pageId', 'int'],
            ['visitorId', 'int'],
            ['kind', 'int'],
          ],
          // two visitors on one page of one day, one of them twice
          rows: [1, 2, 1].map((visitor, i) => [projectId, START + i * 1000, 1, visitor, KIND.human]),
        }),
      );
      expect(await thread.fold()).toBe(3);
      expect(await thread.fold()).toBe(0);
      const views = await sql.query<{ views: unknown }>(
        'SELECT "views" FROM "AnalyticsDayViews" WHERE "projectId" = ? AND "day" = ? AND "pageId" = 1',
        [projectId, START / DAY],
      );
      expect(views.map((r) => Number(r.views))).toEqual([3]);
      const [[top]] = await sql.rows('SELECT MAX("id") FROM "AnalyticsEvent"');
      expect((await readMarks(sql, [FOLDED])).get(FOLDED)).toBe(Number(top));
    } finally {
      await thread.close();
      await sql.close();
    }
    // closed: a fold after it starts a thread again
    const again = new FoldThread(database.target);
    try {
      expect(await again.fold()).toBe(0);
    } finally {
      await again.close();
    }
  });

  it("rejects with the thread's error when its fold fails, and folds again once the cause is gone", async () => {
    const sql = openSql(database.target);
    const thread = new FoldThread(database.target);
    try {
      await sql.run('ALTER TABLE "AnalyticsState" RENAME TO "AnalyticsStateAway"');
      await expect(thread.fold()).rejects.toThrow(/AnalyticsState/);
      await sql.run('ALTER TABLE "AnalyticsStateAway" RENAME TO "AnalyticsState"');
      expect(await thread.fold()).toBe(0);
    } finally {
      await thread.close();
      await sql.close();
    }
  });
});

describe('the fold thread beside a busy event loop', () => {
  const database = useTestDatabase('sqlite');

  it('folds while this thread is kept busy: the fold does not run on it', async () => {
    const target = database.target as Extract<typeof database.target, { provider: 'sqlite' }>;
    const sql = openSql(target);
    const thread = new FoldThread(target);
    const reader = new Database(target.filePath, { readonly: true });
    try {
      expect(await thread.fold()).toBe(0); // the thread is up
      await sql.run(
        `INSERT INTO "AnalyticsEvent" ("projectId", "ts", "pageId", "visitorId", "kind") VALUES ('prj_busy', ?, 1, 1, ${KIND.human})`,
        [START],
      );
      const top = Number(reader.prepare('SELECT MAX("id") FROM "AnalyticsEvent"').pluck().get());
      const folding = thread.fold();
      // this thread reads the watermark synchronously, never yielding: only a fold elsewhere can move it
      const mark = reader.prepare('SELECT "value" FROM "AnalyticsState" WHERE "name" = ?').pluck();
      const deadline = Date.now() + 10_000;
      let seen = 0;
      while (seen < top && Date.now() < deadline) seen = Number(mark.get(FOLDED) ?? 0);
      expect(seen).toBe(top);
      expect(await folding).toBe(1);
    } finally {
      reader.close();
      await thread.close();
      await sql.close();
    }
  });
});
