import fs from 'node:fs';
import { Analytics } from '../../../src/analytics/analytics.js';
import { openSql, type Sql } from '../../../src/analytics/store/sql.js';
import { naiveVisitors } from '../../../src/analytics/store/naive-counts.js';
import { AnalyticsStore } from '../../../src/analytics/store/event-store.js';
import { prismaDir } from '../../../src/db/migrate.js';
import { createLogger } from '../../../src/logger.js';
import { createTestDatabase, PROVIDERS } from '../../support/databases.js';
import { DAY, randomViews, rng, START } from '../../support/rollup-fixtures.js';

const PROJECTS = ['prj_a', 'prj_b'];

const TABLES = ['AnalyticsGapCounts', 'AnalyticsAgentGapCounts'];

/** Every stored gap-count row of both families, as comparable text. */
async function gapRows(sql: Sql): Promise<string[]> {
  const out: string[] = [];
  for (const table of TABLES) {
    const rows = await sql.query<{ projectId: string; day: unknown; column: string; counts: Buffer }>(
      `SELECT "projectId", "day", "column", "counts" FROM "${table}"`,
    );
    for (const r of rows) out.push(`${table} ${r.projectId} ${Number(r.day)} ${r.column} ${r.counts.toString('hex')}`);
  }
  return out.sort();
}

/** The gap-count migrations' statements that mark the projects folded before them for a recount. */
function markStatements(target: Parameters<typeof prismaDir>[0]): string[] {
  const dir = `${prismaDir(target)}/migrations`;
  return fs
    .readdirSync(dir)
    .filter((n) => n.endsWith('gap_counts'))
    .map((name) => {
      const text = fs.readFileSync(`${dir}/${name}/migration.sql`, 'utf8');
      return text.slice(text.indexOf('INSERT INTO "AnalyticsState"')).replace(/;\s*$/, '').trim();
    });
}

describe.each(PROVIDERS)('gap counts of a database folded before they existed, on %s', (provider) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let analytics: Analytics;
  let sql: Sql;
  let store: AnalyticsStore;

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    analytics = new Analytics({
      target: database.target,
      secret: 'gap-counts-secret-gap-counts-secret-0000',
      config: { saltRotation: 'never', trustedProxyHeader: undefined, cacheMb: 64 },
      logger: createLogger('silent'),
      clock: () => new Date(START + 60 * DAY),
      autoFold: false,
    });
    sql = openSql(database.target);
    store = new AnalyticsStore(sql);
  });
  afterAll(async () => {
    await analytics.close();
    await sql.close();
    await database.drop();
  });

  /** The release before: no gap counts, and the upgrade's migration marks every project with day sets. */
  async function asBeforeTheUpgrade() {
    for (const table of TABLES) await sql.run(`DELETE FROM "${table}"`);
    const statements = markStatements(database.target);
    expect(statements).toHaveLength(2);
    for (const statement of statements) await sql.run(statement);
  }

  const ranges: [number, number][] = [
    [START + 2 * DAY, START + 32 * DAY],
    [START + 20 * DAY, START + 21 * DAY],
    [START + 9 * DAY, START + 41 * DAY],
    [START + 4 * DAY + 3_600_000, START + 30 * DAY + 7_200_000],
  ];

  async function expectNaiveAnswers() {
    for (const projectId of PROJECTS) {
      for (const [from, to] of ranges) {
        const range = { from, to };
        const ours = await analytics.visitors(projectId, range, { limit: 250, offset: 0 });
        const naive = await naiveVisitors({ sql, projectId, range, limit: 250, offset: 0 });
        expect({ projectId, from, totals: ours.totals, rows: ours.rows }).toEqual({
          projectId,
          from,
          totals: naive.totals,
          rows: naive.visitors,
        });
      }
    }
  }

  it('are recounted a day at a time, the fold keeping the recounted days meanwhile, to what the fold keeps', async () => {
    const random = rng(23);
    for (const projectId of PROJECTS) await analytics.ingest(projectId, randomViews(random, 1200, 0, 45));
    await analytics.fold();
    const kept = await gapRows(sql);
    expect(kept.length).toBeGreaterThan(0);

    // a full recount gives what the fold kept
    await asBeforeTheUpgrade();
    expect(await store.gapCountsReady('prj_a')).toBe(false);
    // meanwhile the export unites day sets, as before the upgrade
    await expectNaiveAnswers();
    const days = await store.recountGaps();
    expect(days).toBeGreaterThanOrEqual(90);
    expect(await gapRows(sql)).toEqual(kept);
    expect(await store.gapCountsReady('prj_a')).toBe(true);

    // stopped part-way, with late events folded into days on both sides of where it stopped, then resumed
    await asBeforeTheUpgrade();
    let budget = 20;
    expect(await store.recountGaps({ stop: () => budget-- <= 0 })).toBe(20);
    for (const projectId of PROJECTS) await analytics.ingest(projectId, randomViews(random, 300, 5, 35));
    await analytics.fold();
    expect(await store.recountGaps()).toBeGreaterThan(0);
    const interleaved = await gapRows(sql);
    await expectNaiveAnswers();

    // the same rows as a recount of the final sets from nothing
    await asBeforeTheUpgrade();
    await store.recountGaps();
    expect(interleaved).toEqual(await gapRows(sql));
  });

  it('are recounted by the service after start-up, its exports uniting day sets until then', async () => {
    await asBeforeTheUpgrade();
    const kept = (await sql.query('SELECT "name" FROM "AnalyticsState" WHERE "name" LIKE ?', ['gap recount:%'])).length;
    expect(kept).toBe(PROJECTS.length);
    await expectNaiveAnswers();
    await analytics.startBackfill();
    expect(await sql.query('SELECT "name" FROM "AnalyticsState" WHERE "name" LIKE ?', ['gap recount:%'])).toEqual([]);
    await expectNaiveAnswers();
  });
});

describe.each(PROVIDERS)('gap counts kept in memory by the reports, on %s', (provider) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let sql: Sql;
  const service = (target: typeof database.target) =>
    new Analytics({
      target,
      secret: 'gap-counts-secret-gap-counts-secret-0000',
      config: { saltRotation: 'never', trustedProxyHeader: undefined, cacheMb: 64 },
      logger: createLogger('silent'),
      clock: () => new Date(START + 60 * DAY),
      autoFold: false,
    });

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    sql = openSql(database.target);
  });
  afterAll(async () => {
    await sql.close();
    await database.drop();
  });

  it('are read once, and again for the days another service folded late events into', async () => {
    const analytics = service(database.target);
    const replica = service(database.target);
    try {
      const random = rng(29);
      await analytics.ingest('prj_a', randomViews(random, 1500, 0, 40));
      await analytics.fold();
      const range = { from: START + 5 * DAY, to: START + 35 * DAY };
      const answer = async () => {
        const ours = await analytics.visitors('prj_a', range, { limit: 250, offset: 0 });
        return { totals: ours.totals, rows: ours.rows };
      };
      const naive = async () => {
        const counted = await naiveVisitors({ sql, projectId: 'prj_a', range, limit: 250, offset: 0 });
        return { totals: counted.totals, rows: counted.visitors };
      };
      const first = await answer();
      expect(first).toEqual(await naive());

      // read from memory: the same answer with the rows gone from the database, then put back
      const stored = await sql.query<{ day: unknown; column: string; counts: Buffer }>(
        'SELECT "day", "column", "counts" FROM "AnalyticsGapCounts" WHERE "projectId" = ?',
        ['prj_a'],
      );
      expect(stored.length).toBeGreaterThan(60);
      await sql.run('DELETE FROM "AnalyticsGapCounts" WHERE "projectId" = ?', ['prj_a']);
      expect(await answer()).toEqual(first);
      for (const row of stored)
        await sql.run('INSERT INTO "AnalyticsGapCounts" ("projectId", "day", "column", "counts") VALUES (?, ?, ?, ?)', [
          'prj_a',
          Number(row.day),
          row.column,
          row.counts,
        ]);

      // late events folded by another service move the counts of days in the range: they are read again
      await replica.ingest('prj_a', randomViews(random, 400, 3, 20));
      await replica.fold();
      const after = await answer();
      expect(after).toEqual(await naive());
      expect(after).not.toEqual(first);
    } finally {
      await analytics.close();
      await replica.close();
    }
  });
});
