import { createClient } from '@clickhouse/client';
import { PROVIDERS, createTestDatabase } from '../support/databases.js';
import { scribeEnv, startScribeProcess, type ScribeProcess } from '../support/scribe-process.js';
import { startClickHouseStandIn } from '../support/clickhouse-server.js';
import { killUnderTrackerLoad, sendPageView } from '../support/tracker-load.js';
import { waitFor } from '../support/wait-for.js';
import { addProject } from '../../src/projects/projects.js';
import { createApiKey } from '../../src/keys/api-keys.js';

const CLIENTS = 20;

describe.each(PROVIDERS)('page views on ClickHouse, kill -9 and ClickHouse down, on %s', (provider) => {
  it('every event answered 202 reaches ClickHouse exactly once across a kill -9 and a ClickHouse outage', async () => {
    const database = await createTestDatabase(provider);
    const clickhouse = await startClickHouseStandIn();
    const env = scribeEnv({
      databaseUrl: database.target.url,
      extra: { CLICKHOUSE_URL: clickhouse.url, SCRIBE_TRACKER_COMMIT_MS: '20' },
    });
    const reader = createClient({ url: clickhouse.url });
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
      // killed while batches are claimed, being shipped and being acknowledged
      const load = await killUnderTrackerLoad({ scribe, projectId: project.id, clients: CLIENTS, killAfter: 600 });
      const { acked } = load;
      let { sent } = load;

      // ClickHouse down: Scribe starts, accepts into the outbox, and says so
      await clickhouse.stop();
      scribe = await startScribeProcess({ env });
      for (let n = sent; n < sent + 10; n++) {
        expect(await sendPageView(scribe.url, project.id, n)).toBe(202);
        acked.push(n);
      }
      sent += 10;
      const notReady = await fetch(`${scribe.url}/readyz`);
      expect(notReady.status).toBe(503);
      expect(((await notReady.json()) as { error: string }).error).toMatch(
        /^ClickHouse \(CLICKHOUSE_URL\) is not reachable; \d+ page view\(s\) wait in the outbox$/,
      );
      const { key } = await createApiKey({
        db: database.db,
        clock: () => new Date(),
        projectId: project.id,
        scope: 'read',
      });
      for (const report of ['visitors', 'ai/purposes']) {
        const answer = await fetch(`${scribe.url}/v1/analytics/${project.id}/${report}`, {
          headers: { authorization: `Bearer ${key}` },
        });
        expect(answer.status).toBe(503);
        expect(answer.headers.get('retry-after')).toBe('5');
        expect(((await answer.json()) as { error: string }).error).toMatch(
          /^ClickHouse \(CLICKHOUSE_URL\), where page views are stored, is not reachable \(.*\); try again later$/,
        );
      }
      const metrics = await (await fetch(`${scribe.url}/metrics`)).text();
      expect(Number(/^scribe_clickhouse_outbox_depth (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(10);

      await clickhouse.restart();
      const current = scribe;
      await waitFor(
        async () => {
          const ready = await fetch(`${current.url}/readyz`);
          if (ready.status !== 200) return false;
          return ((await ready.json()) as { clickhouse: { outbox: number } }).clickhouse.outbox === 0;
        },
        'the outbox to be shipped',
        30_000,
        100,
      );

      const rows = await reader.query({
        query: `SELECT path, count() AS n FROM ${clickhouse.database}.page_views WHERE project = {p:String} GROUP BY path`,
        query_params: { p: project.id },
        format: 'JSONEachRow',
      });
      const stored = new Map(((await rows.json()) as { path: string; n: string }[]).map((r) => [r.path, Number(r.n)]));
      expect(acked.filter((n) => stored.get(`/e/${n}`) !== 1)).toEqual([]);
      expect([...stored.values()].every((n) => n === 1)).toBe(true);
      expect(sent - stored.size).toBeLessThanOrEqual(CLIENTS);
    } finally {
      await scribe?.stop();
      await reader.close();
      await clickhouse.close();
      await database.drop();
    }
  }, 120_000);
});
