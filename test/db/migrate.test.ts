import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { migrateDatabase, migrationNames, schemaDrift } from '../../src/db/migrate.js';
import { createEmptyDatabase, PROVIDERS, type TestDatabase } from '../support/databases.js';

describe.each(PROVIDERS)('migrations on %s', (provider) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createEmptyDatabase(provider);
  });
  afterEach(async () => {
    await database.drop();
  });

  it('applies every migration and leaves no drift from the schema', async () => {
    expect(await schemaDrift(database.target)).toMatch(/CREATE TABLE/);
    const applied = await migrateDatabase(database.target);
    expect(applied).toEqual(migrationNames(database.target));
    expect(applied.length).toBeGreaterThan(0);
    expect(await schemaDrift(database.target)).toBe('');
    expect(await migrateDatabase(database.target)).toEqual([]);
  });

  it('records migrations in _prisma_migrations the way prisma migrate does', async () => {
    await migrateDatabase(database.target);
    const { db, close } = (await import('../../src/db/client.js')).openDatabase(database.target);
    try {
      const rows = await db.$queryRawUnsafe<
        { migration_name: string; checksum: string; finished_at: unknown; applied_steps_count: number | bigint }[]
      >(
        'SELECT migration_name, checksum, finished_at, applied_steps_count FROM _prisma_migrations ORDER BY migration_name',
      );
      expect(rows.map((r) => r.migration_name)).toEqual(migrationNames(database.target));
      const { createHash } = await import('node:crypto');
      const fs = await import('node:fs');
      const { prismaDir } = await import('../../src/db/migrate.js');
      for (const row of rows) {
        const sql = fs.readFileSync(`${prismaDir(database.target)}/migrations/${row.migration_name}/migration.sql`);
        expect(row.checksum).toBe(createHash('sha256').update(sql).digest('hex'));
        expect(row.finished_at).not.toBeNull();
        expect(Number(row.applied_steps_count)).toBe(1);
      }
    } finally {
      await close();
    }
  });
});

describe('concurrent start-ups on one PostgreSQL', () => {
  it('migrate once: the second waits on the advisory lock and finds nothing to apply', async () => {
    const database = await createEmptyDatabase('postgresql');
    try {
      const results = await Promise.all([
        migrateDatabase(database.target),
        migrateDatabase(database.target),
        migrateDatabase(database.target),
      ]);
      const names = migrationNames(database.target);
      expect(results.filter((applied) => applied.length === names.length)).toHaveLength(1);
      expect(results.filter((applied) => applied.length === 0)).toHaveLength(2);
      const client = new pg.Client({ connectionString: database.target.url });
      await client.connect();
      const { rows } = await client.query(
        'SELECT migration_name, count(*)::int AS n FROM _prisma_migrations GROUP BY migration_name ORDER BY migration_name',
      );
      await client.end();
      expect(rows).toEqual(names.map((migration_name) => ({ migration_name, n: 1 })));
    } finally {
      await database.drop();
    }
  });
});

describe('two scribe processes starting at once on one PostgreSQL', () => {
  it('one applies the migrations, the other finds the database up to date', async () => {
    const database = await createEmptyDatabase('postgresql');
    try {
      const bin = path.resolve(import.meta.dirname, '../../bin/scribe.js');
      const run = () =>
        promisify(execFile)(process.execPath, [bin, 'migrate'], {
          env: { PATH: process.env.PATH, DATABASE_URL: database.target.url },
        });
      const outputs = (await Promise.all([run(), run()])).map((r) => r.stdout.trim()).sort();
      expect(outputs).toEqual([`applied ${migrationNames(database.target).join(', ')}`, 'database is up to date']);
      expect(await schemaDrift(database.target)).toBe('');
    } finally {
      await database.drop();
    }
  });
});

describe.each(PROVIDERS)('migrations that add per-day counts fill them from rows stored before, on %s', (provider) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createEmptyDatabase(provider);
    await migrateDatabase(database.target);
  });
  afterAll(async () => {
    await database.drop();
  });

  it('as the writes that keep them would have', async () => {
    const fs = await import('node:fs');
    const { prismaDir } = await import('../../src/db/migrate.js');
    const { openSql } = await import('../../src/analytics/store/sql.js');
    const { reportAnalytics, randomFeedback, randomMisses, randomSearches, rng } = await import(
      '../support/rollup-fixtures.js'
    );
    const analytics = reportAnalytics(database.target);
    const sql = openSql(database.target);
    try {
      const random = rng(81);
      for (const projectId of ['prj_a', 'prj_b']) {
        await analytics.recordAiMisses(projectId, randomMisses(random, 80, 0, 20));
        await analytics.readerSignals().submitFeedback(projectId, randomFeedback(random, 80, 0, 20), 'update');
        await analytics.readerSignals().submitSearches(projectId, randomSearches(random, 80, 0, 20));
      }
      const tables = [
        'AnalyticsDayAiMisses',
        'AnalyticsDayFeedback',
        'AnalyticsDaySearches',
        'AnalyticsDaySearchClicks',
      ];
      const contents = async () => {
        const out: Record<string, string[]> = {};
        for (const table of tables)
          out[table] = (await sql.query(`SELECT * FROM "${table}"`))
            .map((r) => JSON.stringify(r, (_, v) => (typeof v === 'bigint' ? Number(v) : v)))
            .sort();
        return out;
      };
      const kept = await contents();
      expect(Object.values(kept).every((rows) => rows.length > 0)).toBe(true);
      // the database as the release before left it: the rows, and empty per-day tables
      for (const table of tables) await sql.run(`DELETE FROM "${table}"`);
      const filling = /ai_miss_rollup|signal_rollups/;
      for (const name of migrationNames(database.target).filter((n) => filling.test(n))) {
        const text = fs.readFileSync(`${prismaDir(database.target)}/migrations/${name}/migration.sql`, 'utf8');
        const fill = text.slice(text.indexOf('-- Fill'));
        for (const statement of fill.split(';').map((s) => s.replace(/^--.*$/gm, '').trim()))
          if (statement) await sql.run(statement);
      }
      expect(await contents()).toEqual(kept);
    } finally {
      await analytics.close();
      await sql.close();
    }
  });
});
