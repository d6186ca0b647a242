import path from 'node:path';
import { DAY_MS } from '../../../../src/calendar.js';
import { Dictionaries } from '../../../../src/analytics/store/dictionaries.js';
import { openSql, type Sql } from '../../../../src/analytics/store/sql.js';
import { foldEvents } from '../../../../src/analytics/store/fold-events.js';
import { rebuildDerived } from '../../../../src/analytics/store/rebuild-derived.js';
import { rebuildMark, writeMarks } from '../../../../src/analytics/store/rollups/rollup-marks.js';
import { agentDaysRollup } from '../../../../src/analytics/store/rollups/agent-days.js';
import { siteDaysRollup } from '../../../../src/analytics/store/rollups/site-days.js';
import { pageDays, readPageDays } from '../../../../src/analytics/store/rollups/page-days.js';
import { dayEvents } from '../../../../src/analytics/store/read-events.js';
import { dayVersions } from '../../../../src/analytics/store/read-days.js';
import type { DayEvents, TimedVisitors } from '../../../../src/analytics/store/page-day-views.js';
import { countOutcomeVisitors } from '../../../../src/analytics/reports/outcome-counts.js';
import { DayCache } from '../../../../src/analytics/store/day-cache.js';
import { migrationNames, prismaDir } from '../../../../src/db/migrate.js';
import { readMigrationFiles } from '../../../../src/db/migration-files.js';
import { migrateSqlite } from '../../../../src/db/migrate-sqlite.js';
import { migratePostgres } from '../../../../src/db/migrate-postgres.js';
import { insertEvents, type NewEvent } from '../../../../src/analytics/store/write-events.js';
import { recordingSql, viewReads } from '../../../support/recording-sql.js';
import { createEmptyDatabase, PROVIDERS, type Provider, type TestDatabase } from '../../../support/databases.js';
import { event } from '../../../support/ai-report-suite.js';
import { rng } from '../../../support/rollup-fixtures.js';

const pairsOf = (t: TimedVisitors) => [...t.at].map((at, i) => [at, t.visitors[i]]);

/** A day's events with each class's views as sorted (time, visitor) pairs: equal views read in any order of ties. */
function normalized(events: DayEvents) {
  const sorted = (t: TimedVisitors) => pairsOf(t).sort(([a, x], [b, y]) => a - b || x - y);
  return {
    start: events.start,
    pages: [...events.pages]
      .sort(([a], [b]) => a - b)
      .map(([page, { human, referred, ai }]) => [
        page,
        sorted(human),
        sorted(referred),
        ai.map((a) => [a.agent, sorted(a)]),
      ]),
  };
}

const DAY0 = Date.UTC(2026, 10, 20);

/** AI agents of each purpose, and one the agent list does not name. */
const AI_AGENTS = ['GPTBot', 'OAI-SearchBot', 'ChatGPT-User', 'Claude-Code', 'unlisted-bot'];

/** Views of pages /p0–/p4 over four days: humans (some an assistant sent), AI agents, other bots. */
function randomEvents(random: () => number, n: number): NewEvent[] {
  return Array.from({ length: n }, () => {
    const kind = Math.floor(random() * 3);
    const agent =
      kind === 2
        ? AI_AGENTS[Math.floor(random() * AI_AGENTS.length)]
        : kind === 1 && random() < 0.3
          ? 'via ChatGPT'
          : null;
    return event({
      kind,
      path: `/p${Math.floor(random() * random() * 5)}`,
      // ingest gives every human and AI view a visitor, other bots none
      visitorHash: kind === 0 ? null : `v${Math.floor(random() * 40)}`,
      agent,
      // now and then two views in the same millisecond
      ts: DAY0 + Math.floor(random() * 4 * 24) * 3_600_000 + Math.floor(random() * 3) * 1000,
    });
  });
}

/** Applies the committed migrations, or those before `before` alone (a database of an earlier release). */
async function migrate(database: TestDatabase, before?: string): Promise<void> {
  const files = readMigrationFiles(path.join(prismaDir(database.target), 'migrations')).filter(
    (f) => before === undefined || f.name < before,
  );
  if (database.target.provider === 'sqlite') migrateSqlite({ filePath: database.target.filePath, files });
  else await migratePostgres({ url: database.target.url, files });
}

describe.each(PROVIDERS)('page days on %s', (provider: Provider) => {
  let database: TestDatabase;
  let sql: Sql;
  let dictionaries: Dictionaries;
  beforeEach(async () => {
    database = await createEmptyDatabase(provider);
  });
  afterEach(async () => {
    await sql?.close();
    await database.drop();
  });
  const days = [0, 1, 2, 3].map((n) => DAY0 / DAY_MS + n);
  const ids = async (projectId: string) => [...(await dictionaries.paths(sql, projectId, []))].map(([id]) => id).sort();
  const store = (projectId: string, events: NewEvent[]) => insertEvents({ sql, dictionaries, projectId, events });
  const raw = (projectId: string, day: number, pageIds: number[]) => dayEvents(sql, { projectId, day, pageIds });
  /** the days' page days, of every page of the project's unless given */
  const folded = async (projectId: string, asked: number[], pageIds?: number[]) =>
    pageDays(sql, { projectId, days: asked, pageIds: pageIds ?? (await ids(projectId)) });

  /** Every day's page days equal its raw events, every page's and a few pages', or the project's are absent. */
  async function expectEqualToRaw(projectId: string) {
    const pages = await ids(projectId);
    for (const day of days) {
      expect(normalized((await folded(projectId, [day], pages))!.get(day)!)).toEqual(
        normalized(await raw(projectId, day, pages)),
      );
      const some = pages.filter((_, i) => i % 2 === 1);
      expect(normalized((await readPageDays(sql, { projectId, days: [day], pageIds: some })).get(day)!)).toEqual(
        normalized(await raw(projectId, day, some)),
      );
    }
  }

  it("hold each folded day's counted views exactly, folded in small chunks with late views, and again after a rebuild", async () => {
    await migrate(database);
    sql = openSql(database.target);
    dictionaries = new Dictionaries();
    const random = rng(11);
    for (let round = 0; round < 3; round++) {
      // every round lands in days folded already
      await store('prj_a', randomEvents(random, 300));
      await store('prj_b', randomEvents(random, 50));
      await foldEvents(sql, { chunk: 37 });
      await expectEqualToRaw('prj_a');
      await expectEqualToRaw('prj_b');
    }
    const [{ n }] = await sql.query<{ n: unknown }>('SELECT COUNT(*) AS n FROM "AnalyticsPageDay"');
    expect(Number(n)).toBeGreaterThan(20);
    await rebuildDerived(sql, { projectId: 'prj_a', chunk: 53 });
    await expectEqualToRaw('prj_a');
    // several days in one read, as each alone; a day with no views, empty
    const all = await readPageDays(sql, {
      projectId: 'prj_a',
      days: [days[0] - 1, ...days],
      pageIds: await ids('prj_a'),
    });
    expect([...all.keys()]).toEqual([days[0] - 1, ...days]);
    const pagesOfA = await ids('prj_a');
    for (const day of days) expect(normalized(all.get(day)!)).toEqual(normalized(await raw('prj_a', day, pagesOfA)));
    expect(all.get(days[0] - 1)).toEqual({ start: (days[0] - 1) * DAY_MS, pages: new Map(), bytes: 0 });
  });

  it("are dropped by the migration that kept each AI view's agent, and read raw until a rebuild derives them again", async () => {
    const agentsMigration = migrationNames(database.target).find((name) => name.endsWith('_page_day_agents'))!;
    await migrate(database, agentsMigration);
    sql = openSql(database.target);
    dictionaries = new Dictionaries();
    const random = rng(13);
    await store('prj_old', randomEvents(random, 200));
    await foldEvents(sql);
    // a row as the release before packed it: three classes' lengths (human, AI, referred), then their views
    const older = Buffer.from(Uint32Array.from([1, 1, 0, 5, 6, 7, 8]).buffer);
    await sql.run('UPDATE "AnalyticsPageDay" SET "views" = ? WHERE "projectId" = ?', [older, 'prj_old']);
    await store('prj_unfolded', randomEvents(random, 40));
    await migrate(database);

    const [{ n }] = await sql.query<{ n: unknown }>('SELECT COUNT(*) AS n FROM "AnalyticsPageDay"');
    expect(Number(n)).toBe(0);
    // the project with folded views reads raw; the one whose views were not folded yet keeps its page days
    expect(await folded('prj_old', [days[0]])).toBeNull();
    await foldEvents(sql);
    await expectEqualToRaw('prj_unfolded');
    expect(await folded('prj_old', [days[0]])).toBeNull();
    await rebuildDerived(sql, { projectId: 'prj_old' });
    await expectEqualToRaw('prj_old');
    // the rebuilt rows hold AI views of every agent apart
    const agents = new Set<string>();
    for (const day of days)
      for (const views of (await folded('prj_old', [day]))!.get(day)!.pages.values())
        for (const a of views.ai) agents.add(a.agent);
    expect([...agents].sort()).toEqual([...AI_AGENTS].sort());
  });

  it('are not read for a project whose views were folded before they existed, until a rebuild derives them', async () => {
    // the release before: no page days, its fold maintaining the rollups it had
    const pageDaysMigration = migrationNames(database.target).find((name) => name.endsWith('_page_day_views'))!;
    await migrate(database, pageDaysMigration);
    sql = openSql(database.target);
    dictionaries = new Dictionaries();
    const random = rng(12);
    await store('prj_old', randomEvents(random, 200));
    await foldEvents(sql, { rollups: [agentDaysRollup, siteDaysRollup] });
    await store('prj_unfolded', randomEvents(random, 40));
    await migrate(database);
    await store('prj_new', randomEvents(random, 50));
    await foldEvents(sql);

    // the old project's rows hold only what came after: read raw instead, so outcome counts stay exact
    expect(await folded('prj_old', [days[0]])).toBeNull();
    const [page] = await ids('prj_old');
    const range = { from: DAY0 + 3_600_000, to: DAY0 + 3 * DAY_MS + 7_200_000 };
    // raw reads of some pages alone: how an outcome reads a day its page days cannot answer
    const { recording, statements } = recordingSql(sql);
    const pagesReadRaw = () =>
      viewReads(statements.splice(0)).flatMap((read) => (read.from === 'raw' ? read.days : []));
    const count = async () =>
      countOutcomeVisitors({
        sql: recording,
        cache: new DayCache(1024 * 1024),
        projectId: 'prj_old',
        ranges: [range],
        groups: [[page]],
      });
    // every day read from the page's raw views instead of its page days
    const before = await count();
    expect(before[0][0].human + before[0][0].ai).toBeGreaterThan(0);
    expect(pagesReadRaw()).toEqual([days[0], days[1], days[2], days[3]]);
    // a project whose views the old release had not folded yet, and a new one, hold them all
    await expectEqualToRaw('prj_unfolded');
    await expectEqualToRaw('prj_new');
    await rebuildDerived(sql, { projectId: 'prj_old' });
    await expectEqualToRaw('prj_old');
    expect(await count()).toEqual(before);
    expect(pagesReadRaw()).toEqual([]);
    // while a rebuild runs (its mark set), every day is read raw, the page's alone: the same counts
    await writeMarks(sql, [[rebuildMark('prj_old'), 1]]);
    expect(await dayVersions(sql, { projectId: 'prj_old', fromDay: days[0], toDay: days[3] })).toBeNull();
    expect(await count()).toEqual(before);
    expect(pagesReadRaw()).toEqual([days[0], days[1], days[2], days[3]]);
  });
});
