import path from 'node:path';
import type { ClickHouseClient } from '@clickhouse/client';
import { runCli } from '../../src/cli/run-cli.js';
import type { CliIo } from '../../src/cli/command.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { Analytics } from '../../src/analytics/analytics.js';
import { openSql } from '../../src/analytics/store/sql.js';
import { openClickHouse } from '../../src/analytics/clickhouse/clickhouse-client.js';
import { copyProjectEvents } from '../../src/analytics/clickhouse/copy-events.js';
import { migrateClickHouse } from '../../src/analytics/clickhouse/migrate-clickhouse.js';
import { PROVIDERS } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { startClickHouseStandIn, type ClickHouseStandIn } from '../support/clickhouse-server.js';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/analytics');
const SECRET = 'test-secret-test-secret-test-secret-0123';

let standIn: ClickHouseStandIn;
beforeAll(async () => {
  standIn = await startClickHouseStandIn();
});
afterAll(() => standIn.close());

describe.each(PROVIDERS)('scribe analytics copy --to clickhouse on %s', (provider) => {
  let app: TestApp;
  let projectId: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    app = await startTestApp({ provider, routes: () => [], env: { SCRIBE_SECRET: SECRET } });
    projectId = (await app.project()).id;
    env = { DATABASE_URL: app.ctx.database.url, SCRIBE_SECRET: SECRET };
  });
  afterAll(() => app.close());

  const run = async (argv: string[], extra: Record<string, string> = {}) => {
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = { out: (l) => out.push(l), err: (l) => err.push(l), stdin: process.stdin, interactive: false };
    const code = await runCli(argv, io, { ...env, ...extra });
    return { code, out, err };
  };

  it('copies every raw event once, resuming after an interruption, with the totals checked and the same report', async () => {
    expect(
      (await run(['logs', 'import', '--project', projectId, path.join(FIXTURES, 'access-combined.txt')])).code,
    ).toBe(0);
    const config = loadConfig({ ...env, CLICKHOUSE_URL: standIn.url });
    const clickhouse = config.analytics.clickhouse!;
    // interrupted after its first chunk (the insert of the second fails)
    const real = openClickHouse(clickhouse);
    let inserts = 0;
    const dying = {
      ...real,
      command: real.command.bind(real),
      query: real.query.bind(real),
      insert: (async (params: Parameters<ClickHouseClient['insert']>[0]) => {
        if (++inserts === 2) throw new Error('interrupted');
        return real.insert(params);
      }) as ClickHouseClient['insert'],
    } as ClickHouseClient;
    const sql = openSql(app.ctx.database);
    await migrateClickHouse(real, { database: clickhouse.database });
    await expect(
      copyProjectEvents({ sql, client: dying, database: clickhouse.database, projectId, chunk: 3 }),
    ).rejects.toThrow('interrupted');
    await sql.close();
    await real.close();

    const copy = await run(['analytics', 'copy', '--to', 'clickhouse', '--project', projectId], {
      CLICKHOUSE_URL: standIn.url,
    });
    expect(copy.err).toEqual([]);
    expect(copy.code).toBe(0);
    expect(copy.out[0]).toMatch(new RegExp(`^copying ${projectId} \\((\\d+) events, 3 copied before\\)$`));
    const total = Number(/\((\d+) events/.exec(copy.out[0]!)![1]);
    expect(total).toBeGreaterThan(3);
    expect(copy.out.at(-1)).toBe(
      `${projectId}: copied ${total - 3}; ${total} events in the primary database, ${total} in ClickHouse (verified)`,
    );
    // again: nothing more to copy, still verified
    const again = await run(['analytics', 'copy', '--to', 'clickhouse'], { CLICKHOUSE_URL: standIn.url });
    expect(again.out.at(-1)).toBe(
      `${projectId}: copied 0; ${total} events in the primary database, ${total} in ClickHouse (verified)`,
    );

    const logger = createLogger('silent');
    const range = { from: Date.UTC(2020, 0, 1), to: Date.UTC(2030, 0, 1) };
    const page = { limit: 1000, offset: 0 };
    const embedded = new Analytics({
      target: app.ctx.database,
      secret: SECRET,
      config: { ...config.analytics, clickhouse: undefined },
      logger,
      clock: () => new Date(),
    });
    // the test ships by hand: no fold or shipping of its own after ingestion
    const onClickHouse = new Analytics({
      target: app.ctx.database,
      secret: SECRET,
      config: config.analytics,
      logger,
      clock: () => new Date(),
      autoFold: false,
    });
    try {
      const expected = await embedded.visitors(projectId, range, page);
      expect(expected.totals.total).toBeGreaterThan(0);
      expect(await onClickHouse.visitors(projectId, range, page)).toEqual(expected);
      const views = await embedded.views(projectId, range, page);
      expect(await onClickHouse.views(projectId, range, page)).toEqual(views);
      // after the move, a visitor of the copied log reads a new page: shipped through the outbox, it is the same
      // visitor number the copy sent, so it counts once (the view counts)
      const again = await onClickHouse.ingest(projectId, [
        {
          timestamp: Date.UTC(2026, 10, 20, 10, 30),
          url: '/after-the-move',
          ip: '203.0.113.5',
          userAgent:
            'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
        },
      ]);
      expect(again.accepted).toBe(1);
      expect(await onClickHouse.shipToClickHouse()).toBe(1);
      const after = await onClickHouse.visitors(projectId, range, page);
      expect(after.totals).toEqual(expected.totals);
      expect(after.rows.find((r) => r.path === '/after-the-move')).toMatchObject({ human: 1, total: 1 });
      expect((await onClickHouse.views(projectId, range, page)).totals.total).toBe(views.totals.total + 1);
    } finally {
      await embedded.close();
      await onClickHouse.close();
    }
  });

  it('refuses without CLICKHOUSE_URL or another destination (2)', async () => {
    expect((await run(['analytics', 'copy', '--to', 'clickhouse'])).code).toBe(2);
    expect((await run(['analytics', 'copy', '--to', 's3'], { CLICKHOUSE_URL: standIn.url })).code).toBe(2);
  });
});
