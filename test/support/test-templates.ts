/**
 * One migrated database per provider for a whole jest run, which test/support/databases.ts copies for every test
 * database instead of applying each migration again. Made by the global setup and dropped by the global teardown
 * (test/support/global-setup.mjs, global-teardown.mjs); the workers find them in the environment set here.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { migrateDatabase } from '../../src/db/migrate.js';
import { createEmptyDatabase, POSTGRES_ADMIN_URL, PROVIDERS, TEMPLATE_ENV } from './databases.js';

export async function createTemplates(): Promise<void> {
  await Promise.all(
    PROVIDERS.map(async (provider) => {
      const { target } = await createEmptyDatabase(provider);
      await migrateDatabase(target);
      process.env[TEMPLATE_ENV[provider]] =
        target.provider === 'sqlite' ? target.filePath : new URL(target.url).pathname.slice(1);
    }),
  );
}

export async function dropTemplates(): Promise<void> {
  const sqlite = process.env[TEMPLATE_ENV.sqlite];
  if (sqlite) fs.rmSync(path.dirname(sqlite), { recursive: true, force: true });
  const postgres = process.env[TEMPLATE_ENV.postgresql];
  if (!postgres) return;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${postgres} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
