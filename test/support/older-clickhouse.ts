import type { ClickHouseClient } from '@clickhouse/client';
import { clickHouseMigrations, MIGRATIONS_TABLE } from '../../src/analytics/clickhouse/clickhouse-schema.js';

/**
 * A ClickHouse database as a build before visitor numbers left it: migrations 1-3 run and recorded, and `views`
 * page views with a visitor id taken from the hash (0: none shipped).
 */
export async function olderClickHouseDatabase(
  client: ClickHouseClient,
  database: string,
  views: number,
): Promise<{ database: string }> {
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
  for (let i = 0; i < views; i++) {
    await client.command({
      query: `INSERT INTO ${database}.page_views (project, day, ts, path, visitor, kind) VALUES ('p', '2026-11-01', '2026-11-01 10:00:00', '/a', ${9223372036854775807n - BigInt(i)}, 1)`,
    });
  }
  return layout;
}
