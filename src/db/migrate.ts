import fs from 'node:fs';
import path from 'node:path';
import type { DatabaseTarget } from './database-url.js';
import { migrationNamesIn, readMigrationFiles } from './migration-files.js';
import { migratePostgres } from './migrate-postgres.js';
import { migrateSqlite } from './migrate-sqlite.js';

// the repository root from src/db (and from dist/src/db, where the build copies prisma/*/migrations)
const ROOT = path.resolve(import.meta.dirname, '../..');

export function prismaDir(target: DatabaseTarget): string {
  return path.join(ROOT, 'prisma', target.provider === 'sqlite' ? 'sqlite' : 'postgres');
}

export function migrationNames(target: DatabaseTarget): string[] {
  return migrationNamesIn(path.join(prismaDir(target), 'migrations'));
}

/**
 * Applies the committed migrations that the database lacks, like `prisma migrate deploy`: in order, each once, under
 * one lock across processes, recorded in Prisma's `_prisma_migrations`. Returns the names it applied; throws a
 * MigrationError (a failed, blocking or edited migration) with what to do about it.
 */
export async function migrateDatabase(target: DatabaseTarget): Promise<string[]> {
  const files = readMigrationFiles(path.join(prismaDir(target), 'migrations'));
  if (target.provider === 'postgresql') return migratePostgres({ url: target.url, files });
  if (target.filePath !== ':memory:') fs.mkdirSync(path.dirname(target.filePath), { recursive: true });
  return migrateSqlite({ filePath: target.filePath, files });
}
