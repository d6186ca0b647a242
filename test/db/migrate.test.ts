import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import fs from 'node:fs';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { DatabaseTarget } from '../../src/db/database-url.js';
import { migrateDatabase, migrationNames, prismaDir } from '../../src/db/migrate.js';
import { migratePostgres } from '../../src/db/migrate-postgres.js';
import { migrateSqlite } from '../../src/db/migrate-sqlite.js';
import { readMigrationFiles, type MigrationFile } from '../../src/db/migration-files.js';
import { MigrationError } from '../../src/db/pending-migrations.js';
import { openSql } from '../../src/analytics/store/sql.js';
import { schemaDrift } from '../../scripts/db-schema-engine.js';
import { createEmptyDatabase, PROVIDERS, type TestDatabase } from '../support/databases.js';
import { waitFor } from '../support/wait-for.js';

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

/** Whether every one of `pids` has the SQLite file open: each is then at its BEGIN IMMEDIATE, waiting for the lock. */
function allHoldOpen(pids: number[], file: string): boolean {
  return pids.every((pid) => {
    try {
      return fs.readdirSync(`/proc/${pid}/fd`).some((fd) => {
        try {
          return fs.readlinkSync(`/proc/${pid}/fd/${fd}`) === file;
        } catch {
          return false;
        }
      });
    } catch {
      return false;
    }
  });
}

describe.each(PROVIDERS)('two scribe processes starting at once on one %s', (provider) => {
  it('both wait on the migration lock; then one applies each migration once, the other finds it up to date', async () => {
    const database = await createEmptyDatabase(provider);
    const bin = path.resolve(import.meta.dirname, '../../bin/scribe.js');
    // the CLI builds dist/ when stale; built first, so the two processes race for the database and nothing else
    await promisify(execFile)(process.execPath, [bin, 'help']);
    // The lock is taken here first, so that both processes are surely waiting on it when it is let go.
    const holder =
      database.target.provider === 'sqlite'
        ? new Database(database.target.filePath)
        : new pg.Client({ connectionString: database.target.url });
    try {
      if (holder instanceof Database) holder.exec('BEGIN IMMEDIATE');
      else {
        await holder.connect();
        await holder.query('SELECT pg_advisory_lock(72707369)');
      }
      const runs = [0, 1].map(() => {
        const child = execFile(process.execPath, [bin, 'migrate'], {
          env: { PATH: process.env.PATH, DATABASE_URL: database.target.url },
        });
        let stdout = '';
        child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        const exited = new Promise<{ code: number | null; stdout: string }>((resolve) =>
          child.on('close', (code) => resolve({ code, stdout: stdout.trim() })),
        );
        return { pid: child.pid!, exited };
      });
      await waitFor(
        async () =>
          holder instanceof Database
            ? allHoldOpen(
                runs.map((r) => r.pid),
                database.target.provider === 'sqlite' ? database.target.filePath : '',
              )
            : (
                await holder.query(
                  "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND objid = 72707369 AND NOT granted",
                )
              ).rows[0].n === 2,
        'both processes to wait on the migration lock',
        60_000,
      );
      if (holder instanceof Database) holder.exec('COMMIT');
      else await holder.query('SELECT pg_advisory_unlock(72707369)');
      const results = await Promise.all(runs.map((r) => r.exited));
      expect(results.map((r) => r.code)).toEqual([0, 0]);
      const names = migrationNames(database.target);
      expect(results.map((r) => r.stdout).sort()).toEqual([`applied ${names.join(', ')}`, 'database is up to date']);
      expect(await appliedNames(database.target)).toEqual(names);
      expect(await schemaDrift(database.target)).toBe('');
    } finally {
      if (holder instanceof Database) holder.close();
      else await holder.end();
      await database.drop();
    }
  });
});

/** Every row of `_prisma_migrations`, oldest first (a failed row included). */
async function migrationRows(target: DatabaseTarget) {
  const sql = openSql(target);
  try {
    return await sql.query<{
      migration_name: string;
      finished_at: unknown;
      logs: string | null;
      applied_steps_count: number | bigint;
    }>('SELECT migration_name, finished_at, logs, applied_steps_count FROM _prisma_migrations ORDER BY migration_name');
  } finally {
    await sql.close();
  }
}

async function appliedNames(target: DatabaseTarget): Promise<string[]> {
  return (await migrationRows(target)).filter((r) => r.finished_at != null).map((r) => r.migration_name);
}

function migrateWith(target: DatabaseTarget, files: MigrationFile[]): Promise<string[]> {
  return target.provider === 'sqlite'
    ? Promise.resolve().then(() => migrateSqlite({ filePath: target.filePath, files }))
    : migratePostgres({ url: target.url, files });
}

describe.each(PROVIDERS)('what start-up refuses, on %s', (provider) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createEmptyDatabase(provider);
  });
  afterEach(async () => {
    await database.drop();
  });

  it('an applied migration whose file changed since: a checksum mismatch, named', async () => {
    await migrateDatabase(database.target);
    const [first] = migrationNames(database.target);
    const sql = openSql(database.target);
    try {
      await sql.run(`UPDATE _prisma_migrations SET checksum = '${'0'.repeat(64)}' WHERE migration_name = '${first}'`);
    } finally {
      await sql.close();
    }
    await expect(migrateDatabase(database.target)).rejects.toThrow(
      `migration ${first} was changed after it was applied: the database recorded checksum ${'0'.repeat(64)}`,
    );
  });

  it('a migration that fails is recorded with its error, undone, and blocks the next start until resolved', async () => {
    const files = readMigrationFiles(path.join(prismaDir(database.target), 'migrations'));
    const broken: MigrationFile = {
      name: '29990101000000_broken',
      script: 'CREATE TABLE "Half" ("id" INTEGER);\nINSERT INTO "NoSuchTable" VALUES (1);\n',
      checksum: 'f'.repeat(64),
    };
    const attempt = migrateWith(database.target, [...files, broken]);
    await expect(attempt).rejects.toThrow(MigrationError);
    await expect(attempt).rejects.toThrow(/migration 29990101000000_broken failed: .*NoSuchTable/);

    const rows = await migrationRows(database.target);
    expect(rows.filter((r) => r.finished_at != null).map((r) => r.migration_name)).toEqual(files.map((f) => f.name));
    const failed = rows.find((r) => r.migration_name === broken.name)!;
    expect(failed.finished_at).toBeNull();
    expect(failed.logs).toMatch(/NoSuchTable/);
    expect(Number(failed.applied_steps_count)).toBe(0);
    // the half that ran before the error is gone: the next attempt starts from a clean slate
    const sql = openSql(database.target);
    try {
      const tables =
        provider === 'sqlite'
          ? "SELECT name FROM sqlite_master WHERE name = 'Half'"
          : "SELECT table_name FROM information_schema.tables WHERE table_name = 'Half'";
      expect(await sql.query(tables)).toEqual([]);
    } finally {
      await sql.close();
    }

    await expect(migrateDatabase(database.target)).rejects.toThrow(
      /migration 29990101000000_broken failed \(started .*\) and blocks every later one; its error: .*NoSuchTable/,
    );
    // resolved as `prisma migrate resolve --rolled-back` does: the next start goes on
    const resolve = openSql(database.target);
    try {
      await resolve.run(
        `UPDATE _prisma_migrations SET rolled_back_at = CURRENT_TIMESTAMP WHERE migration_name = '${broken.name}'`,
      );
    } finally {
      await resolve.close();
    }
    expect(await migrateDatabase(database.target)).toEqual([]);
  });
});

describe.each(PROVIDERS)(
  'the per-day search counts migration fills them from rows stored before, on %s',
  (provider) => {
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
      const { reportAnalytics, randomSearches, rng } = await import('../support/rollup-fixtures.js');
      const analytics = reportAnalytics(database.target);
      const sql = openSql(database.target);
      try {
        const random = rng(81);
        for (const projectId of ['prj_a', 'prj_b']) {
          await analytics.readerSignals().submitSearches(projectId, randomSearches(random, 80, 0, 20));
        }
        const tables = ['AnalyticsDaySearches', 'AnalyticsDaySearchClicks'];
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
        // the fills of the tables still kept (a later migration dropped the per-day feedback counts)
        const fills = new RegExp(`^INSERT INTO "(${tables.join('|')})"`);
        for (const name of migrationNames(database.target).filter((n) => /signal_rollups/.test(n))) {
          const text = fs.readFileSync(`${prismaDir(database.target)}/migrations/${name}/migration.sql`, 'utf8');
          const fill = text.slice(text.indexOf('-- Fill'));
          for (const statement of fill.split(';').map((s) => s.replace(/^--.*$/gm, '').trim()))
            if (fills.test(statement)) await sql.run(statement);
        }
        expect(await contents()).toEqual(kept);
      } finally {
        await analytics.close();
        await sql.close();
      }
    });
  },
);
