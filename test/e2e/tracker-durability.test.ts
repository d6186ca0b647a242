import { PROVIDERS } from '../support/databases.js';
import { createTestDatabase } from '../support/databases.js';
import { scribeEnv, startScribeProcess, type ScribeProcess } from '../support/scribe-process.js';
import { addProject } from '../../src/projects/projects.js';
import { openSql } from '../../src/analytics/store/sql.js';
import { killUnderTrackerLoad, sendPageView } from '../support/tracker-load.js';

const CLIENTS = 40;

describe.each(PROVIDERS)('tracker group commit and kill -9 on %s', (provider) => {
  it('every event answered 202 is stored exactly once; only unanswered events are lost, at most one group commit', async () => {
    const database = await createTestDatabase(provider);
    const env = scribeEnv({
      databaseUrl: database.target.url,
      extra: { SCRIBE_TRACKER_COMMIT_MS: '20', SCRIBE_TRACKER_COMMIT_EVENTS: '500' },
    });
    let scribe: ScribeProcess | undefined;
    try {
      const project = await addProject({
        db: database.db,
        clock: () => new Date(),
        repository: 'acme/docs',
        ref: 'main',
        hostnames: ['docs.example.com'],
      });
      scribe = await startScribeProcess({ env });
      // every client posts one event at a time; the server is killed while all of them are waiting for answers
      const { acked, sent } = await killUnderTrackerLoad({
        scribe,
        projectId: project.id,
        clients: CLIENTS,
        killAfter: 400,
      });

      const sql = openSql(database.target);
      const rows = await sql.query<{ path: string; n: number }>(
        'SELECT p."path" AS "path", COUNT(*) AS "n" FROM "AnalyticsEvent" e JOIN "AnalyticsPage" p ON p."id" = e."pageId" WHERE e."projectId" = ? GROUP BY p."path"',
        [project.id],
      );
      await sql.close();
      const stored = new Map(rows.map((r) => [r.path, Number(r.n)]));
      expect(acked.filter((n) => stored.get(`/e/${n}`) !== 1)).toEqual([]);
      expect([...stored.values()].every((n) => n === 1)).toBe(true);
      // lost: sent but not stored — all of them unanswered, so no more than were in flight (≤ one group commit)
      const lost = sent - stored.size;
      expect(lost).toBeGreaterThanOrEqual(0);
      expect(lost).toBeLessThanOrEqual(CLIENTS);

      // a restarted process serves the tracker again
      scribe = await startScribeProcess({ env });
      expect(await sendPageView(scribe.url, project.id, sent)).toBe(202);
    } finally {
      await scribe?.stop();
      await database.drop();
    }
  }, 60_000);
});
