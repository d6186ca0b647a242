import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { MigrationFile } from './migration-files.js';
import { failedMigrationMessage, MigrationError, pendingMigrations, type MigrationRow } from './pending-migrations.js';

/** The advisory lock `prisma migrate deploy` takes: replicas and a concurrent Prisma CLI wait on one another. */
const PRISMA_MIGRATE_LOCK = 72707369;

/** Prisma's own definition, so `prisma migrate` reads and writes the same table. */
const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

/**
 * Applies the pending migrations under Prisma's advisory lock. Each script is sent as one simple query, which
 * PostgreSQL runs as one implicit transaction: a failed migration leaves nothing half-applied, only its row with the
 * error (finished_at empty), as Prisma records it.
 */
export async function migratePostgres(params: { url: string; files: MigrationFile[] }): Promise<string[]> {
  const client = new pg.Client({ connectionString: params.url });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [PRISMA_MIGRATE_LOCK]);
    try {
      return await applyPending(client, params.files);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [PRISMA_MIGRATE_LOCK]).catch(() => undefined);
    }
  } finally {
    await client.end();
  }
}

async function applyPending(client: pg.Client, files: MigrationFile[]): Promise<string[]> {
  await client.query(MIGRATIONS_TABLE);
  const { rows } = await client.query<MigrationRow>(
    'SELECT migration_name, checksum, started_at, finished_at, rolled_back_at, logs FROM _prisma_migrations',
  );
  const applied: string[] = [];
  for (const migration of pendingMigrations(files, rows)) {
    const id = randomUUID();
    await client.query(
      'INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)',
      [id, migration.checksum, migration.name],
    );
    try {
      await client.query(migration.script);
    } catch (err) {
      const error = (err as Error).message;
      await client.query('UPDATE _prisma_migrations SET logs = $2 WHERE id = $1', [id, error]);
      throw new MigrationError(failedMigrationMessage({ name: migration.name, error }));
    }
    await client.query('UPDATE _prisma_migrations SET finished_at = now(), applied_steps_count = 1 WHERE id = $1', [
      id,
    ]);
    applied.push(migration.name);
  }
  return applied;
}
