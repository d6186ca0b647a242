/**
 * One migrated database per provider for a whole jest run, which test/support/databases.ts copies for every test
 * database instead of applying each migration again. The global setup runs `test-templates.ts create` and puts the
 * JSON it prints (the TEMPLATE_ENV variables) in the environment the workers inherit; the global teardown runs
 * `test-templates.ts drop` with that environment (test/support/global-setup.mjs, global-teardown.mjs).
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { migrateDatabase } from '../../src/db/migrate.js';
import { createEmptyDatabase, POSTGRES_ADMIN_URL, PROVIDERS, TEMPLATE_ENV } from './databases.js';

/** The TEMPLATE_ENV variables naming the templates it made. */
export async function createTemplates(): Promise<Record<string, string>> {
  const made = await Promise.all(
    PROVIDERS.map(async (provider) => {
      const { target } = await createEmptyDatabase(provider);
      await migrateDatabase(target);
      const name = target.provider === 'sqlite' ? target.filePath : new URL(target.url).pathname.slice(1);
      return [TEMPLATE_ENV[provider], name] as const;
    }),
  );
  return Object.fromEntries(made);
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

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  if (process.argv[2] === 'create') process.stdout.write(`${JSON.stringify(await createTemplates())}\n`);
  else if (process.argv[2] === 'drop') await dropTemplates();
  else throw new Error('usage: test-templates.ts create|drop');
}
