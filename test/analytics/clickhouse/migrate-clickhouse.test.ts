import type { ClickHouseClient } from '@clickhouse/client';
import { loadConfig } from '../../../src/config.js';
import { openClickHouse } from '../../../src/analytics/clickhouse/clickhouse-client.js';
import {
  clickHouseMigrations,
  MIGRATIONS_TABLE,
  OLDER_VISITOR_IDS,
} from '../../../src/analytics/clickhouse/clickhouse-schema.js';
import { migrateClickHouse } from '../../../src/analytics/clickhouse/migrate-clickhouse.js';
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
    ]);
  });

  it('finishes a migration a killed start-up left half done', async () => {
    const layout = { database: `${standIn.database}_half` };
    const [first] = clickHouseMigrations(layout)[0]!.statements;
    await client.command({ query: `CREATE DATABASE ${layout.database}` });
    await client.command({ query: first! });
    expect(await migrateClickHouse(client, layout)).toEqual([1, 2, 3, 4]);
    expect(await migrateClickHouse(client, layout)).toEqual([]);
  });

  it('refuses a database an older build filled with hash-derived visitor ids, and takes one it left empty', async () => {
    const older = async (database: string, views: number) => {
      const layout = { database };
      await client.command({ query: `CREATE DATABASE ${database}` });
      await client.command({
        query: `CREATE TABLE ${database}.${MIGRATIONS_TABLE} (version UInt32, name String) ENGINE = MergeTree ORDER BY version`,
      });
      for (const migration of clickHouseMigrations(layout).filter((m) => m.version <= 3)) {
        for (const statement of migration.statements) await client.command({ query: statement });
        await client.command({
          query: `INSERT INTO ${database}.${MIGRATIONS_TABLE} VALUES (${migration.version}, '${migration.name}')`,
        });
      }
      if (views) {
        await client.command({
          query: `INSERT INTO ${database}.page_views (project, day, ts, path, visitor, kind) VALUES ('p', '2026-11-01', '2026-11-01 10:00:00', '/a', 9223372036854775807, 1)`,
        });
      }
      return layout;
    };
    const filled = await older(`${standIn.database}_hashed`, 1);
    await expect(migrateClickHouse(client, filled)).rejects.toThrow(OLDER_VISITOR_IDS);
    // nothing recorded: every start-up refuses it again, and the views are left as they were
    await expect(migrateClickHouse(client, filled)).rejects.toThrow(OLDER_VISITOR_IDS);
    const kept = await client.query({
      query: `SELECT count() AS n FROM ${filled.database}.page_views`,
      format: 'JSONEachRow',
    });
    expect(await kept.json()).toEqual([{ n: '1' }]);
    const empty = await older(`${standIn.database}_unused`, 0);
    expect(await migrateClickHouse(client, empty)).toEqual([4]);
  });
});
