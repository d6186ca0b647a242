import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import type { MigrationFile } from './migration-files.js';
import { failedMigrationMessage, MigrationError, pendingMigrations, type MigrationRow } from './pending-migrations.js';

/** Prisma's own definition, so `prisma migrate` reads and writes the same table. */
const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
)`;

/** The text Prisma's SQLite adapter stores for a DateTime, so rows written here read back like Prisma's. */
const timestamp = () => new Date().toISOString().replace('Z', '+00:00');

/**
 * Applies the pending migrations to the SQLite file inside one `BEGIN IMMEDIATE` transaction: the write lock it takes
 * is the lock across processes (a second one waits up to the busy timeout, then finds nothing to apply). Each
 * migration runs in a savepoint, so a failed one leaves no half-applied schema, only its row with the error.
 */
export function migrateSqlite(params: { filePath: string; files: MigrationFile[] }): string[] {
  // A running server's writers may hold the write lock for a while: wait for it rather than fail after 5 s.
  const db = new Database(params.filePath, { timeout: 60_000 });
  try {
    // Prisma's table redefinitions turn foreign keys off around DROP/RENAME with PRAGMAs, which do nothing inside a
    // transaction: they are off for this connection before it begins, as the scripts expect.
    db.pragma('foreign_keys = OFF');
    db.exec('BEGIN IMMEDIATE');
    try {
      const applied = applyPending(db, params.files);
      db.exec('COMMIT');
      // Write-ahead log, kept in the file for every connection after this one: a commit writes its pages once and
      // syncs one file (the rollback journal wrote each twice and synced both), and readers never hold a commit up.
      // Set outside the migrations' transaction (it cannot change inside one), once no lock is held.
      db.pragma('journal_mode = WAL');
      return applied;
    } catch (err) {
      // a failed migration's row is committed (with the migrations before it); anything else is undone
      if (db.inTransaction) db.exec(err instanceof FailedMigration ? 'COMMIT' : 'ROLLBACK');
      throw err instanceof FailedMigration ? new MigrationError(err.message) : err;
    }
  } finally {
    db.close();
  }
}

class FailedMigration extends Error {}

function applyPending(db: Database.Database, files: MigrationFile[]): string[] {
  db.exec(MIGRATIONS_TABLE);
  const rows = db
    .prepare('SELECT migration_name, checksum, started_at, finished_at, rolled_back_at, logs FROM _prisma_migrations')
    .all() as MigrationRow[];
  const applied: string[] = [];
  for (const migration of pendingMigrations(files, rows)) {
    const id = randomUUID();
    db.prepare(
      'INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, applied_steps_count) VALUES (?, ?, ?, ?, 0)',
    ).run(id, migration.checksum, migration.name, timestamp());
    db.exec('SAVEPOINT migration');
    try {
      db.exec(migration.script);
      db.exec('RELEASE migration');
    } catch (err) {
      db.exec('ROLLBACK TO migration');
      db.exec('RELEASE migration');
      const error = (err as Error).message;
      db.prepare('UPDATE _prisma_migrations SET logs = ? WHERE id = ?').run(error, id);
      throw new FailedMigration(failedMigrationMessage({ name: migration.name, error }));
    }
    db.prepare('UPDATE _prisma_migrations SET finished_at = ?, applied_steps_count = 1 WHERE id = ?').run(
      timestamp(),
      id,
    );
    applied.push(migration.name);
  }
  return applied;
}
