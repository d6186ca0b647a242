import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { DatabaseTarget } from './database-url.js';
import { openSchemaEngine, readSchemaFile, type SchemaEngine } from './schema-engine.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** Prisma's own migrate lock id is 72707369; Scribe holds a neighbour around the whole run so that the
 * engine's own locking (if any) never waits on ours. */
const MIGRATION_LOCK_ID = 72707370;

export function prismaDir(target: DatabaseTarget): string {
  return path.join(ROOT, 'prisma', target.provider === 'sqlite' ? 'sqlite' : 'postgres');
}

export function migrationNames(target: DatabaseTarget): string[] {
  const dir = path.join(prismaDir(target), 'migrations');
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

async function withEngine<T>(
  target: DatabaseTarget,
  fn: (engine: SchemaEngine, schema: ReturnType<typeof readSchemaFile>) => Promise<T>,
) {
  const schema = readSchemaFile(path.join(prismaDir(target), 'schema.prisma'));
  const engine = await openSchemaEngine(target, [schema]);
  try {
    return await fn(engine, schema);
  } finally {
    await engine.close();
  }
}

/** Applies pending migrations like `prisma migrate deploy`; returns the names it applied. */
export async function migrateDatabase(target: DatabaseTarget): Promise<string[]> {
  if (target.provider === 'sqlite') {
    if (target.filePath !== ':memory:') fs.mkdirSync(path.dirname(target.filePath), { recursive: true });
    return withEngine(target, (engine) => engine.applyMigrations(path.join(prismaDir(target), 'migrations')));
  }
  // Several replicas may start at once: one migrates, the others wait here and then find nothing to do.
  const lock = new pg.Client({ connectionString: target.url });
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    return await withEngine(target, (engine) => engine.applyMigrations(path.join(prismaDir(target), 'migrations')));
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    await lock.end();
  }
}

/** SQL that would bring the live database to the schema; empty when there is no drift. */
export async function schemaDrift(target: DatabaseTarget): Promise<string> {
  const sql = await withEngine(target, (engine, schema) => engine.diff({ from: 'database', schemaFiles: [schema] }));
  return isEmptyMigration(sql) ? '' : sql;
}

/** The engine answers "-- This is an empty migration." (or nothing) when two schemas agree. */
export function isEmptyMigration(sql: string): boolean {
  return /^\s*(-- This is an empty migration\.?)?\s*$/.test(sql);
}
