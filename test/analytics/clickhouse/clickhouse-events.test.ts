import { createHash } from 'node:crypto';
import type { ClickHouseClient } from '@clickhouse/client';
import { loadConfig, type ClickHouseConfig } from '../../../src/config.js';
import { createLogger } from '../../../src/logger.js';
import { Unavailable } from '../../../src/errors.js';
import { openSql, type Sql } from '../../../src/analytics/store/sql.js';
import type { NewEvent } from '../../../src/analytics/store/write-events.js';
import { ClickHouseEvents } from '../../../src/analytics/clickhouse/clickhouse-events.js';
import { openClickHouse } from '../../../src/analytics/clickhouse/clickhouse-client.js';
import { shipOutbox } from '../../../src/analytics/clickhouse/ship-outbox.js';
import { clickHouseMigrations } from '../../../src/analytics/clickhouse/clickhouse-schema.js';
import { PROVIDERS, useTestDatabase } from '../../support/databases.js';
import { startClickHouseStandIn, type ClickHouseStandIn } from '../../support/clickhouse-server.js';

const logger = createLogger('silent');
const hash = (who: string) => createHash('sha256').update(who).digest('base64url').slice(0, 22);
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 30, 23, 59, 59, 999);

function event(i: number, extra: Partial<NewEvent> = {}): NewEvent {
  return {
    ts: T0 + (i % 3) * (DAY / 2),
    path: i % 2 ? '/docs/ünïcode' : '/docs/start',
    visitorHash: hash(`visitor-${i % 5}`),
    kind: 1,
    agent: null,
    referrer: null,
    key: `k${i}`,
    ...extra,
  };
}

let standIn: ClickHouseStandIn;
beforeAll(async () => {
  standIn = await startClickHouseStandIn();
});
afterAll(() => standIn.close());

describe.each(PROVIDERS)('ClickHouse events through the outbox on %s', (provider) => {
  const database = useTestDatabase(provider);
  let sql: Sql;
  let config: ClickHouseConfig;
  let events: ClickHouseEvents;
  let client: ClickHouseClient;
  beforeEach(async () => {
    sql = openSql(database.target);
    await sql.run('DELETE FROM "AnalyticsOutbox"');
    await sql.run('DELETE FROM "AnalyticsEventKey"');
    config = { ...loadConfig({ CLICKHOUSE_URL: standIn.url }).analytics.clickhouse!, outboxLimit: 50 };
    events = new ClickHouseEvents({ sql, config, logger, autoShip: false });
    client = openClickHouse(config);
    await events.start();
    await events.ship();
    await client.command({ query: `TRUNCATE TABLE ${config.database}.page_views` });
    await client.command({ query: `TRUNCATE TABLE ${config.database}.page_days` });
  });
  afterEach(async () => {
    await events.close();
    await client.close();
    await sql.close();
  });

  const stored = async () => {
    const result = await client.query({
      query: `SELECT project, toString(day) AS day, toUnixTimestamp64Milli(ts) AS ts, path, toString(visitor) AS visitor, kind, agent, referrer, verification
              FROM ${config.database}.page_views ORDER BY ts, path, visitor`,
      format: 'JSONEachRow',
    });
    return (await result.json()) as Record<string, unknown>[];
  };

  /** The visitor's id in the primary's visitor dictionary, as a decimal string. */
  const dictionaryId = async (visitorHash: string) => {
    const rows = await sql.query<{ id: unknown }>('SELECT "id" FROM "AnalyticsVisitor" WHERE "hash" = ?', [
      visitorHash,
    ]);
    expect(rows).toHaveLength(1);
    return String(rows[0]!.id);
  };

  it('ships visitors as their ids in the primary visitor dictionary: one per hash, the same in every batch', async () => {
    await events.insertEvents(
      'prj_a',
      [0, 1, 2, 3, 4].map((i) => event(i)),
    );
    await events.insertEvents(
      'prj_a',
      [5, 6, 7].map((i) => event(i)),
    );
    // a new process numbers them the same: the ids are read back from the dictionary, not made up per process
    const later = new ClickHouseEvents({ sql, config, logger, autoShip: false, client: openClickHouse(config) });
    await later.insertEvents('prj_a', [event(8), event(9, { visitorHash: hash('visitor-new') })]);
    await later.close();
    await events.ship();
    const rows = await stored();
    expect(rows).toHaveLength(10);
    const expected = new Map<string, string>();
    for (const who of ['visitor-0', 'visitor-1', 'visitor-2', 'visitor-3', 'visitor-4', 'visitor-new']) {
      expected.set(hash(who), await dictionaryId(hash(who)));
    }
    const sent = [0, 1, 2, 3, 4, 5, 6, 7, 8].map((i) => expected.get(hash(`visitor-${i % 5}`))!);
    sent.push(expected.get(hash('visitor-new'))!);
    expect(rows.map((r) => r.visitor).sort()).toEqual(sent.sort());
    expect(new Set(expected.values()).size).toBe(6);
    // small integers, as the embedded store's: ClickHouse's 64-bit bitmaps stay in one 32-bit container
    for (const id of expected.values()) expect(BigInt(id) < 2n ** 32n).toBe(true);
  });

  it('a shipment asked for while start-up migrates waits for that run: each step runs and is recorded once', async () => {
    const fresh = { ...config, database: `${config.database}_${provider}_race` };
    const racing = new ClickHouseEvents({ sql, config: fresh, logger, autoShip: false, client: openClickHouse(fresh) });
    try {
      await Promise.all([racing.start(), racing.ship()]);
      const result = await client.query({
        query: `SELECT version, count() AS runs FROM ${fresh.database}.scribe_migrations GROUP BY version ORDER BY version`,
        format: 'JSONEachRow',
      });
      const recorded = (await result.json()) as { version: number; runs: string }[];
      expect(recorded.map((r) => r.version)).toEqual(
        clickHouseMigrations({ database: fresh.database }).map((m) => m.version),
      );
      expect(recorded.every((r) => Number(r.runs) === 1)).toBe(true);
      expect(racing.reachable).toBe(true);
    } finally {
      await racing.close();
    }
  });

  it('calls made while a shipment runs share the next one, which ships what they wrote before calling', async () => {
    // each shipment ends by recounting the outbox: counted on a connection that otherwise is the test's
    let recounts = 0;
    // the recount runs in a transaction of its own: its connection is counted too
    const countingQueries = (inner: Sql): Sql =>
      Object.create(inner, {
        query: {
          value: (text: string, params?: unknown[]) => {
            if (text.startsWith('SELECT COUNT(*) AS "n" FROM "AnalyticsOutbox"')) recounts++;
            return inner.query(text, params as never);
          },
        },
      });
    const counting: Sql = Object.create(countingQueries(sql), {
      transaction: { value: <T>(fn: (tx: Sql) => Promise<T>) => sql.transaction((tx) => fn(countingQueries(tx))) },
    });
    const shipper = new ClickHouseEvents({ sql: counting, config, logger, autoShip: false });
    try {
      await shipper.start();
      await shipper.insertEvents('p', [event(1)]);
      recounts = 0;
      const running = shipper.ship();
      await new Promise((resolve) => setImmediate(resolve)); // it has begun: waiting on the database or ClickHouse
      await shipper.insertEvents('p', [event(2, { key: 'later' })]);
      const calls = Array.from({ length: 20 }, () => shipper.ship());
      expect(new Set(calls).size).toBe(1);
      expect(calls[0]).not.toBe(running);
      await Promise.all([running, ...calls]);
      expect(recounts).toBe(2);
      expect((await stored()).map((r) => Number(r.ts))).toEqual([event(1).ts, event(2).ts].sort((a, b) => a - b));
      expect(shipper.depth).toBe(0);
    } finally {
      await shipper.close();
    }
  });

  it('stores what ingest accepted exactly once, duplicates of earlier keys dropped', async () => {
    const batch = [0, 1, 2, 3].map((i) => event(i));
    expect(await events.insertEvents('prj_a', batch)).toEqual(new Set());
    const bot = event(9, { visitorHash: null, kind: 0, agent: 'SomeBot', key: null });
    const ai = event(10, { kind: 2, agent: 'GPTBot', verification: 1, referrer: 'https://x.test/a' });
    expect(await events.insertEvents('prj_a', [event(1), bot, ai])).toEqual(new Set([0]));
    expect(events.depth).toBe(6);
    expect(await events.ship()).toBe(6);
    expect(events.depth).toBe(0);
    const rows = await stored();
    expect(rows).toHaveLength(6);
    expect(rows[0]).toEqual({
      project: 'prj_a',
      day: '2026-11-30',
      ts: String(T0),
      path: '/docs/start',
      visitor: await dictionaryId(hash('visitor-0')),
      kind: 1,
      agent: null,
      referrer: null,
      verification: null,
    });
    expect(rows.find((r) => r.agent === 'SomeBot')).toMatchObject({ visitor: null, kind: 0 });
    expect(rows.find((r) => r.agent === 'GPTBot')).toMatchObject({
      kind: 2,
      verification: 1,
      referrer: 'https://x.test/a',
    });
    expect(rows.filter((r) => r.day === '2026-12-01')).toHaveLength(3);
    expect(rows.filter((r) => r.path === '/docs/ünïcode')).toHaveLength(3);
  });

  it('a long shipment lowers the depth batch by batch, so the limit and /readyz count what still waits', async () => {
    const seen: number[] = [];
    // a client that notes the depth as each batch is sent (and leaves closing the shared one to afterEach)
    const watching = new Proxy(client, {
      get(target, prop, receiver) {
        if (prop === 'close') return async () => undefined;
        if (prop === 'insert')
          return (...args: Parameters<ClickHouseClient['insert']>) => {
            seen.push(batched.depth);
            return target.insert(...args);
          };
        return Reflect.get(target, prop, receiver);
      },
    });
    const batched = new ClickHouseEvents({ sql, config, logger, autoShip: false, client: watching, shipBatchSize: 2 });
    try {
      expect(
        await batched.insertEvents(
          'prj_a',
          [0, 1, 2, 3, 4, 5].map((i) => event(i)),
        ),
      ).toEqual(new Set());
      expect(batched.depth).toBe(6);
      expect(await batched.ship()).toBe(6);
      expect(seen).toEqual([6, 4, 2]);
      expect(batched.depth).toBe(0);
      expect(await stored()).toHaveLength(6);
    } finally {
      await batched.close();
    }
  });

  it("ships interleaved projects whole in one shipment: a batch of one project leaves the other project's views to the next one", async () => {
    // ids interleave: a0 b1 a2 b3 a4 b5 a6 b7
    for (let i = 0; i < 8; i++) await events.insertEvents(i % 2 ? 'prj_b' : 'prj_a', [event(i, { key: `i${i}` })]);
    const batches: string[][] = [];
    const watching = new Proxy(client, {
      get(target, prop, receiver) {
        if (prop === 'insert')
          return (args: Parameters<ClickHouseClient['insert']>[0]) => {
            batches.push((args.values as { project: string }[]).map((v) => v.project));
            return target.insert(args);
          };
        return Reflect.get(target, prop, receiver);
      },
    });
    expect(await shipOutbox({ sql, client: watching, database: config.database, batchSize: 3 })).toBe(8);
    // a batch is one project's views among the next 3 ids
    expect(batches).toEqual([
      ['prj_a', 'prj_a'],
      ['prj_b', 'prj_b'],
      ['prj_a', 'prj_a'],
      ['prj_b', 'prj_b'],
    ]);
    expect(await stored()).toHaveLength(8);
  });

  it('a batch inserted but not acknowledged (process killed) is resent and counted once', async () => {
    await events.insertEvents(
      'prj_a',
      [0, 1, 2].map((i) => event(i)),
    );
    await events.insertEvents(
      'prj_b',
      [3, 4].map((i) => event(i)),
    );
    const dying: Sql = {
      ...sql,
      run: async (text, params) => {
        if (text.startsWith('DELETE')) throw new Error('killed');
        return sql.run(text, params);
      },
    };
    await expect(shipOutbox({ sql: dying, client, database: config.database, maxBatches: 1 })).rejects.toThrow(
      'killed',
    );
    expect(await stored()).toHaveLength(3);
    await expect(shipOutbox({ sql, client, database: config.database })).resolves.toBe(5);
    expect(await stored()).toHaveLength(5);
    expect(await shipOutbox({ sql, client, database: config.database })).toBe(0);
    // the dropped resend never reached the per-day aggregates either
    const days = await client.query({
      query: `SELECT sum(views) AS n FROM ${config.database}.page_days`,
      format: 'JSONEachRow',
    });
    expect(await days.json()).toEqual([{ n: '5' }]);
  });

  it('a search that finds nothing waiting moves the cursor past every id handed out; later views still ship', async () => {
    await events.insertEvents(
      'prj_a',
      [0, 1, 2].map((i) => event(i)),
    );
    const [{ top }] = await sql.query<{ top: number | string }>('SELECT MAX("id") AS "top" FROM "AnalyticsOutbox"');
    await events.ship();
    // a new process: its cursor starts at 0, and its first shipment finds the outbox empty
    const cursor = { id: 0n };
    expect(await shipOutbox({ sql, client, database: config.database, cursor })).toBe(0);
    expect(cursor.id).toBe(BigInt(top));
    await events.insertEvents('prj_a', [event(3)]);
    expect(await shipOutbox({ sql, client, database: config.database, cursor })).toBe(1);
    expect(await stored()).toHaveLength(4);
  });

  it('vacuums the outbox (PostgreSQL) once shipments have deleted enough rows, in the background', async () => {
    const vacuums = async () => {
      const [row] = await sql.query<{ n: number | string }>(
        `SELECT vacuum_count AS "n" FROM pg_stat_user_tables WHERE relname = 'AnalyticsOutbox'`,
      );
      return Number(row?.n ?? 0);
    };
    const before = provider === 'postgresql' ? await vacuums() : 0;
    const shipper = new ClickHouseEvents({ sql, config, logger, autoShip: false, vacuumAfterRows: 3 });
    try {
      await shipper.insertEvents('prj_a', [event(0), event(1)]);
      await shipper.ship();
      await shipper.insertEvents('prj_a', [event(2)]);
      await shipper.ship();
    } finally {
      await shipper.close(); // waits for the vacuum it started
    }
    expect(await stored()).toHaveLength(3);
    if (provider === 'postgresql') expect(await vacuums()).toBe(before + 1);
  });

  it('two batches of identical rows (a reload within the same millisecond) both count: batches differ by token', async () => {
    await events.insertEvents('prj_a', [event(0, { key: 'first' })]);
    await events.ship();
    await events.insertEvents('prj_a', [event(0, { key: 'second' })]);
    await events.ship();
    expect(await stored()).toHaveLength(2);
  });

  it('a batch named but never inserted is sent whole at the next round, with what arrived meanwhile after it', async () => {
    await events.insertEvents(
      'prj_a',
      [0, 1].map((i) => event(i)),
    );
    const failing = openClickHouse({ ...config, url: 'http://127.0.0.1:9' });
    await expect(shipOutbox({ sql, client: failing, database: config.database })).rejects.toThrow();
    await failing.close();
    await events.insertEvents(
      'prj_a',
      [2, 3].map((i) => event(i)),
    );
    expect(await shipOutbox({ sql, client, database: config.database, batchSize: 100 })).toBe(4);
    expect(await stored()).toHaveLength(4);
  });

  it('while ClickHouse is down accepts into the outbox up to its limit, then 503 with Retry-After; ships when back', async () => {
    await standIn.stop();
    await events.insertEvents(
      'prj_a',
      Array.from({ length: 30 }, (_, i) => event(i)),
    );
    await expect(events.ship()).rejects.toThrow();
    expect(events.reachable).toBe(false);
    await events.insertEvents(
      'prj_a',
      Array.from({ length: 20 }, (_, i) => event(100 + i)),
    );
    const refused = await events.insertEvents('prj_a', [event(200)]).catch((e) => e);
    expect(refused).toBeInstanceOf(Unavailable);
    expect(refused).toMatchObject({ retryAfterSeconds: 30 });
    expect((refused as Error).message).toMatch(/^ClickHouse .* 50 wait in the outbox \(limit 50\)/);
    await standIn.restart();
    expect(await events.ship()).toBe(50);
    expect(events.reachable).toBe(true);
    expect(await stored()).toHaveLength(50);
    await events.insertEvents('prj_a', [event(200)]);
  });
});
