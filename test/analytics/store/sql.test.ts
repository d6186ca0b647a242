import { openSql } from '../../../src/analytics/store/sql.js';
import { expectIdleConnectionKept } from '../../support/idle-connections.js';
import { PROVIDERS, useTestDatabase } from '../../support/databases.js';

describe.each(PROVIDERS)('the analytics connection on %s', (provider) => {
  const database = useTestDatabase(provider);

  it('answers query() as objects whatever the same statement text was last asked as', async () => {
    const sql = openSql(database.target);
    try {
      const projectId = `prj_sql_${provider}`;
      const [first] = [
        ...(await sql.dictionaryIds({ table: 'AnalyticsPage', column: 'path', projectId, keys: ['/a'] })).values(),
      ];
      // the text the dictionary lookup prepares (pluck) and rows() asks for (raw), then query()
      const text = 'SELECT "id" FROM "AnalyticsPage" WHERE "projectId" = ? AND "path" = ?';
      await sql.transaction((tx) =>
        tx.dictionaryIds({ table: 'AnalyticsPage', column: 'path', projectId, keys: ['/a'] }),
      );
      expect((await sql.query<{ id: unknown }>(text, [projectId, '/a'])).map((r) => Number(r.id))).toEqual([first]);
      expect((await sql.rows(text, [projectId, '/a'])).map((r) => Number(r[0]))).toEqual([first]);
      expect((await sql.query<{ id: unknown }>(text, [projectId, '/a'])).map((r) => Number(r.id))).toEqual([first]);
    } finally {
      await sql.close();
    }
  });

  it.each([0, 1, 99, 100, 101, 250])(
    'inserts %i rows, returning each, and adds to the rows they meet',
    async (count) => {
      const sql = openSql(database.target);
      const projectId = `prj_many_${count}_${provider}`;
      const pagesOf = (tx: typeof sql) =>
        tx.insertMany<{ id: unknown; path: string }>({
          table: 'AnalyticsPage',
          columns: [
            ['projectId', 'text'],
            ['path', 'text'],
          ],
          rows: Array.from({ length: count }, (_, i) => [projectId, `/p${i}`]),
          suffix: 'ON CONFLICT DO NOTHING RETURNING "id", "path"',
        });
      const addViews = () =>
        sql.insertMany({
          table: 'AnalyticsDayViews',
          columns: [
            ['projectId', 'text'],
            ['day', 'int'],
            ['pageId', 'int'],
            ['kind', 'int'],
            ['views', 'int'],
          ],
          rows: Array.from({ length: count }, (_, i) => [projectId, 1, i, 1, i + 1]),
          suffix:
            'ON CONFLICT ("projectId", "day", "pageId", "kind") DO UPDATE SET "views" = "AnalyticsDayViews"."views" + excluded."views"',
        });
      try {
        const returned = await sql.transaction(pagesOf);
        expect(returned.map((r) => r.path).sort()).toEqual(Array.from({ length: count }, (_, i) => `/p${i}`).sort());
        expect(new Set(returned.map((r) => Number(r.id))).size).toBe(count);
        // stored before: nothing new to return
        expect(await sql.transaction(pagesOf)).toEqual([]);
        await addViews();
        await addViews();
        const stored = await sql.query<{ pageId: number; views: unknown }>(
          'SELECT "pageId", "views" FROM "AnalyticsDayViews" WHERE "projectId" = ? ORDER BY "pageId"',
          [projectId],
        );
        expect(stored.map((r) => [r.pageId, Number(r.views)])).toEqual(
          Array.from({ length: count }, (_, i) => [i, 2 * (i + 1)]),
        );
      } finally {
        await sql.close();
      }
    },
  );

  it('commits a write while a snapshot is open, and the snapshot keeps the state it began with', async () => {
    const sql = openSql(database.target);
    const projectId = `prj_snapshot_${provider}`;
    const paths = (tx: typeof sql) =>
      tx.query<{ path: string }>('SELECT "path" FROM "AnalyticsPage" WHERE "projectId" = ? ORDER BY "path"', [
        projectId,
      ]);
    try {
      await sql.transaction((tx) =>
        tx.dictionaryIds({ table: 'AnalyticsPage', column: 'path', projectId, keys: ['/a'] }),
      );
      const seen = await sql.snapshot(async (snapshot) => {
        const before = await paths(snapshot);
        // on SQLite's rollback journal this commit waited for the snapshot's shared lock: busy until it gave up
        await sql.transaction((tx) =>
          tx.dictionaryIds({ table: 'AnalyticsPage', column: 'path', projectId, keys: ['/b'] }),
        );
        return { before, after: await paths(snapshot) };
      });
      expect(seen.before.map((r) => r.path)).toEqual(['/a']);
      expect(seen.after.map((r) => r.path)).toEqual(['/a']);
      expect((await paths(sql)).map((r) => r.path)).toEqual(['/a', '/b']);
    } finally {
      await sql.close();
    }
  });
});

describe('the analytics connection on postgresql, idle', () => {
  const database = useTestDatabase('postgresql');

  it('keeps an idle connection (its server process, its prepared statements) for minutes, not ten seconds', async () => {
    const sql = openSql(database.target);
    await expectIdleConnectionKept(
      async () => Number((await sql.rows('SELECT pg_backend_pid()'))[0][0]),
      () => sql.close(),
    );
  });
});
