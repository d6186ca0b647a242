import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import type { DatabaseTarget } from '../../src/db/database-url.js';
import { openDatabase, type Database } from '../../src/db/client.js';
import { migrateDatabase } from '../../src/db/migrate.js';

/** The maintenance database the test run creates its throwaway databases from. */
export const POSTGRES_ADMIN_URL =
  process.env.SCRIBE_TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export const PROVIDERS = ['sqlite', 'postgresql'] as const;
export type Provider = (typeof PROVIDERS)[number];

export interface TestDatabase {
  target: DatabaseTarget;
  /** removes the file or drops the database */
  drop(): Promise<void>;
}

/**
 * A fresh, empty database of the given kind: a temp SQLite file or a throwaway PostgreSQL database; a copy of
 * `template` (a SQLite file, a PostgreSQL database name) when given.
 */
export async function createEmptyDatabase(provider: Provider, template?: string): Promise<TestDatabase> {
  if (provider === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scribe-test-'));
    const filePath = path.join(dir, 'scribe.db');
    if (template) fs.copyFileSync(template, filePath);
    return {
      target: { provider: 'sqlite', url: `file:${filePath}`, filePath },
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `scribe_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    target: { provider: 'postgresql', url: url.toString() },
    drop: async () => {
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/**
 * Where the jest global setup (test/support/global-setup.ts) leaves one migrated database per provider for the run:
 * a copy of it is what every migration would produce, made in a fraction of the time (PostgreSQL copies a template
 * database's files; SQLite's is one file). Unset (a script outside jest), each database is migrated itself.
 */
export const TEMPLATE_ENV = {
  sqlite: 'SCRIBE_TEST_SQLITE_TEMPLATE',
  postgresql: 'SCRIBE_TEST_POSTGRES_TEMPLATE',
} as const satisfies Record<Provider, string>;

/** A fresh database with every migration applied (as `migrateDatabase` leaves it), nothing else in it. */
export async function createMigratedDatabase(provider: Provider): Promise<TestDatabase> {
  const template = process.env[TEMPLATE_ENV[provider]];
  const database = await createEmptyDatabase(provider, template);
  if (!template) await migrateDatabase(database.target);
  return database;
}

/** A migrated database with an open Prisma client; `close()` disconnects and drops it. */
export async function createTestDatabase(provider: Provider): Promise<Database & { drop(): Promise<void> }> {
  const empty = await createMigratedDatabase(provider);
  const database = openDatabase(empty.target);
  return {
    ...database,
    drop: async () => {
      await database.close();
      await empty.drop();
    },
  };
}

/**
 * A migrated throwaway database for the enclosing `describe`: created before its tests, dropped after them. Read
 * `db` and `target` inside tests and hooks (they exist once the block's beforeAll has run).
 */
export function useTestDatabase(provider: Provider): Database {
  let database: (Database & { drop(): Promise<void> }) | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
  });
  afterAll(async () => {
    await database?.drop();
  });
  const current = () => {
    if (!database) throw new Error('useTestDatabase: the database exists only inside tests and hooks');
    return database;
  };
  return {
    get db() {
      return current().db;
    },
    get target() {
      return current().target;
    },
    close: () => current().close(),
  };
}
