import type { ClickHouseClient } from '@clickhouse/client';
import {
  clickHouseMigrations,
  createDatabase,
  migrationsTable,
  MIGRATIONS_TABLE,
  type ClickHouseLayout,
} from './clickhouse-schema.js';
import { queryRows } from './clickhouse-client.js';

/**
 * ClickHouse answers, but its database is one Scribe must not use as it is (a migration's check refused it): retrying
 * does not help until an operator acts on `message`.
 */
export class ClickHouseRefused extends Error {}

/**
 * Brings the ClickHouse schema up to date at start-up: creates the database and the migrations table, then runs
 * every migration not recorded there, recording each after its statements. Statements are idempotent, so two
 * processes starting together, or a start-up killed half way, end in the same schema. Returns the versions it ran;
 * rejects with ClickHouseRefused when a check refuses the database.
 */
export async function migrateClickHouse(client: ClickHouseClient, layout: ClickHouseLayout): Promise<number[]> {
  await client.command({ query: createDatabase(layout) });
  for (const statement of migrationsTable(layout)) await client.command({ query: statement });
  const versions = await queryRows<{ version: number | string }>(
    client,
    `SELECT DISTINCT version FROM ${layout.database}.${MIGRATIONS_TABLE}`,
  );
  const applied = new Set(versions.map((r) => Number(r.version)));
  const ran: number[] = [];
  for (const migration of clickHouseMigrations(layout)) {
    if (applied.has(migration.version)) continue;
    for (const statement of migration.statements) {
      try {
        await client.command({ query: statement });
      } catch (err) {
        if (migration.refusal && (err as Error).message?.includes(migration.refusal))
          throw new ClickHouseRefused(migration.refusal);
        throw err;
      }
    }
    await client.insert({
      table: `${layout.database}.${MIGRATIONS_TABLE}`,
      values: [{ version: migration.version, name: migration.name }],
      format: 'JSONEachRow',
    });
    ran.push(migration.version);
  }
  return ran;
}
