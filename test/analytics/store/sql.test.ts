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
