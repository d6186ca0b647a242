import fs from 'node:fs';
import path from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient as SqliteClient } from '../../prisma/generated/sqlite/client.js';
import { PrismaClient as PostgresClient } from '../../prisma/generated/postgres/client.js';
import type { DatabaseTarget } from './database-url.js';
import { IDLE_POOL_OPTIONS } from './connection-pool.js';

/**
 * The application's database handle. Both generated clients have the same models; the SQLite one is used as the
 * type and the PostgreSQL one is cast to it once, here (their types differ only in provider-specific options).
 */
export type Db = SqliteClient;

/** The handle inside `db.$transaction(async (tx) => …)`: the models and raw queries, without connection control. */
export type DbTransaction = Omit<Db, '$connect' | '$disconnect' | '$on' | '$use' | '$extends'>;

export interface Database {
  db: Db;
  target: DatabaseTarget;
  close(): Promise<void>;
}

export function openDatabase(target: DatabaseTarget): Database {
  if (target.provider === 'sqlite') {
    if (target.filePath !== ':memory:') fs.mkdirSync(path.dirname(target.filePath), { recursive: true });
    const db = new SqliteClient({ adapter: new PrismaBetterSqlite3({ url: target.url, timeout: 10_000 }) });
    return { db, target, close: () => db.$disconnect() };
  }
  const adapter = new PrismaPg({ connectionString: target.url, max: 10, ...IDLE_POOL_OPTIONS });
  const db = new PostgresClient({ adapter }) as unknown as Db;
  return { db, target, close: () => db.$disconnect() };
}
