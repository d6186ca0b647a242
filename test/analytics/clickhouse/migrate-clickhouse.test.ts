import type { ClickHouseClient } from '@clickhouse/client';
import { loadConfig } from '../../../src/config.js';
import { openClickHouse } from '../../../src/analytics/clickhouse/clickhouse-client.js';
import {
  clickHouseMigrations,
  MIGRATIONS_TABLE,
  OLDER_VISITOR_IDS,
} from '../../../src/analytics/clickhouse/clickhouse-schema.js';
import { ClickHouseRefused, migrateClickHouse } from '../../../src/analytics/clickhouse/migrate-clickhouse.js';
import { olderClickHouseDatabase } from '../../support/older-clickhouse.js';
import { startClickHouseStandIn, type ClickHouseStandIn } from '../../support/clickhouse-server.js';

let standIn: ClickHouseStandIn;
let client: ClickHouseClient;
beforeAll(async () => {
  standIn = await startClickHouseStandIn();
  client = openClickHouse(loadConfig({ CLICKHOUSE_URL: standIn.url }).analytics.clickhouse!);
});
afterAll(async () => {
  await client.close();
  await standIn.close();
});

describe('migrateClickHouse', () => {
  it('creates the database and every table once, recording versions; running again changes nothing', async () => {
    const layout = { database: standIn.database };
    const all = clickHouseMigrations(layout).map((m) => m.version);
    expect(await migrateClickHouse(client, layout)).toEqual(all);
    expect(await Promise.all([migrateClickHouse(client, layout), migrateClickHouse(client, layout)])).toEqual([[], []]);
    const tables = await client.query({
      query:
        'SELECT name, engine, partition_key, sorting_key FROM system.tables WHERE database = {db:String} ORDER BY name',
      query_params: { db: standIn.database },
      format: 'JSONEachRow',
    });
    expect(await tables.json()).toEqual([
      {
        name: 'agent_days',
        engine: 'AggregatingMergeTree',
        partition_key: 'toYYYYMM(day)',
        sorting_key: 'project, day, kind, agent, verification, path',
      },
      { name: 'agent_days_mv', engine: 'MaterializedView', partition_key: '', sorting_key: '' },
      {
        name: 'page_days',
        engine: 'AggregatingMergeTree',
        partition_key: 'toYYYYMM(day)',
        sorting_key: 'project, day, path, kind',
      },
      { name: 'page_days_mv', engine: 'MaterializedView', partition_key: '', sorting_key: '' },
      {
        name: 'page_views',
        engine: 'MergeTree',
        partition_key: 'toYYYYMM(day)',
        sorting_key: 'project, day, path, kind',
      },
      { name: 'scribe_migrations', engine: 'MergeTree', partition_key: '', sorting_key: 'version' },
      {
        name: 'site_days',
        engine: 'AggregatingMergeTree',
        partition_key: 'toYYYYMM(day)',
        sorting_key: 'project, day, kind',
      },
      { name: 'site_days_mv', engine: 'MaterializedView', partition_key: '', sorting_key: '' },
    ]);
    const versions = await client.query({
      query: `SELECT version, name FROM ${standIn.database}.scribe_migrations ORDER BY version`,
      format: 'JSONEachRow',
    });
    expect(await versions.json()).toEqual([
      { version: 1, name: 'page_views' },
      { version: 2, name: 'page_days' },
      { version: 3, name: 'agent_days' },
      { version: 4, name: 'visitor_numbers' },
      { version: 5, name: 'site_days' },
    ]);
  });

  it('finishes a migration a killed start-up left half done', async () => {
    const layout = { database: `${standIn.database}_half` };
    const [first] = clickHouseMigrations(layout)[0]!.statements;
    await client.command({ query: `CREATE DATABASE ${layout.database}` });
    await client.command({ query: first! });
    expect(await migrateClickHouse(client, layout)).toEqual([1, 2, 3, 4, 5]);
    expect(await migrateClickHouse(client, layout)).toEqual([]);
  });

  it('refuses a database an older build filled with hash-derived visitor ids, and takes one it left empty', async () => {
    const older = (database: string, views: number) => olderClickHouseDatabase(client, database, views);
    const filled = await older(`${standIn.database}_hashed`, 1);
    const refused = migrateClickHouse(client, filled);
    await expect(refused).rejects.toBeInstanceOf(ClickHouseRefused);
    await expect(refused).rejects.toThrow(OLDER_VISITOR_IDS);
    // nothing recorded: every start-up refuses it again, and the views are left as they were
    await expect(migrateClickHouse(client, filled)).rejects.toThrow(OLDER_VISITOR_IDS);
    const kept = await client.query({
      query: `SELECT count() AS n FROM ${filled.database}.page_views`,
      format: 'JSONEachRow',
    });
    expect(await kept.json()).toEqual([{ n: '1' }]);
    const empty = await older(`${standIn.database}_unused`, 0);
    expect(await migrateClickHouse(client, empty)).toEqual([4, 5]);
  });

  it('fills site_days from the views stored before it, once, however often the step is rerun', async () => {
    const layout = { database: `${standIn.database}_site` };
    const migrations = clickHouseMigrations(layout);
    // the schema as a build before site_days left it (steps 1-4 run and recorded), then views stored
    await client.command({ query: `CREATE DATABASE ${layout.database}` });
    await client.command({
      query: `CREATE TABLE ${layout.database}.${MIGRATIONS_TABLE} (version UInt32, name String) ENGINE = MergeTree ORDER BY version`,
    });
    for (const migration of migrations.filter((m) => m.version <= 4)) {
      for (const statement of migration.statements) await client.command({ query: statement });
      await client.command({
        query: `INSERT INTO ${layout.database}.${MIGRATIONS_TABLE} VALUES (${migration.version}, '${migration.name}')`,
      });
    }
    // 2 days: humans 1-3 and AI 3-4 on day one, human 1 on day two; a bot (no visitor) and kind 0 are not counted
    await client.command({
      query: `INSERT INTO ${layout.database}.page_views (project, day, ts, path, visitor, kind) VALUES
        ('p', '2026-11-01', '2026-11-01 01:00:00', '/a', 1, 1), ('p', '2026-11-01', '2026-11-01 02:00:00', '/b', 2, 1),
        ('p', '2026-11-01', '2026-11-01 03:00:00', '/b', 3, 1), ('p', '2026-11-01', '2026-11-01 04:00:00', '/a', 3, 2),
        ('p', '2026-11-01', '2026-11-01 05:00:00', '/c', 4, 2), ('p', '2026-11-01', '2026-11-01 06:00:00', '/c', NULL, 0),
        ('p', '2026-11-02', '2026-11-02 01:00:00', '/a', 1, 1), ('q', '2026-11-01', '2026-11-01 01:00:00', '/a', 9, 1)`,
    });
    const site = async () => {
      const result = await client.query({
        query: `SELECT project, toString(day) AS day, kind, bitmapToArray(groupBitmapMergeState(visitors)) AS visitors
                FROM ${layout.database}.site_days GROUP BY project, day, kind ORDER BY project, day, kind`,
        format: 'JSONEachRow',
      });
      return result.json();
    };
    const expected = [
      { project: 'p', day: '2026-11-01', kind: 1, visitors: ['1', '2', '3'] },
      { project: 'p', day: '2026-11-01', kind: 2, visitors: ['3', '4'] },
      { project: 'p', day: '2026-11-02', kind: 1, visitors: ['1'] },
      { project: 'q', day: '2026-11-01', kind: 1, visitors: ['9'] },
    ];
    // a start-up killed after the backfill but before recording the step: the next one runs it all again
    for (const statement of migrations.find((m) => m.version === 5)!.statements)
      await client.command({ query: statement });
    expect(await migrateClickHouse(client, layout)).toEqual([5]);
    expect(await site()).toEqual(expected);
    // kept by the view from then on
    await client.command({
      query: `INSERT INTO ${layout.database}.page_views (project, day, ts, path, visitor, kind) VALUES ('p', '2026-11-02', '2026-11-02 09:00:00', '/z', 5, 2)`,
    });
    expect(await site()).toEqual([
      ...expected.slice(0, 3),
      { project: 'p', day: '2026-11-02', kind: 2, visitors: ['5'] },
      expected[3],
    ]);
  });
});
