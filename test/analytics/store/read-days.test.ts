import { DAY_MS } from '../../../src/calendar.js';
import { openSql, type Sql } from '../../../src/analytics/store/sql.js';
import { AnalyticsStore } from '../../../src/analytics/store/event-store.js';
import { createMigratedDatabase, PROVIDERS, type TestDatabase } from '../../support/databases.js';

const DAY0 = Date.UTC(2026, 10, 10) / DAY_MS;

describe.each(PROVIDERS)('day versions on %s', (provider) => {
  let database: TestDatabase;
  let sql: Sql;
  let store: AnalyticsStore;
  beforeAll(async () => {
    database = await createMigratedDatabase(provider);
    sql = openSql(database.target);
    store = new AnalyticsStore(sql);
  });
  afterAll(async () => {
    await sql?.close();
    await database?.drop();
  });

  /** one human view of page 1 by visitor `visitor`, an hour into the day */
  const view = (projectId: string, day: number, visitor: number) =>
    sql.run('INSERT INTO "AnalyticsEvent" ("projectId", "ts", "pageId", "visitorId", "kind") VALUES (?, ?, 1, ?, 1)', [
      projectId,
      (DAY0 + day) * DAY_MS + 3_600_000,
      visitor,
    ]);
  const versions = async (projectId = 'p1') => {
    const found = await store.dayVersions(projectId, DAY0, DAY0 + 3);
    return found && Object.fromEntries([...found].map(([day, version]) => [day - DAY0, version]));
  };

  it('changes the version of a day a view lands in, folded or not, and of no other day or project', async () => {
    await view('p1', 0, 1);
    await view('p1', 1, 2);
    await view('p2', 0, 3);
    await store.fold();
    const folded = await versions();
    expect(Object.keys(folded!)).toEqual(['0', '1']); // a day without data has none

    // a late view of day 1, not folded yet: day 1 alone reads differently
    await view('p1', 1, 4);
    const late = await versions();
    expect(late![0]).toBe(folded![0]);
    expect(late![1]).not.toBe(folded![1]);
    // another project's view changes nothing of p1's
    await view('p2', 0, 5);
    expect(await versions()).toEqual(late);
    // folding it: day 1 again differs (its generation), nothing else
    await store.fold();
    const refolded = await versions();
    expect(refolded![0]).toBe(folded![0]);
    expect(new Set([folded![1], late![1], refolded![1]]).size).toBe(3);
    // a view of a day with no data yet gives it a version
    await view('p1', 2, 6);
    expect(Object.keys((await versions())!)).toEqual(['0', '1', '2']);
    // while a rebuild of the project runs nothing can say
    await sql.run('INSERT INTO "AnalyticsState" ("name", "value") VALUES (?, 1)', ['rebuild:p1']);
    expect(await versions()).toBeNull();
    expect(await versions('p2')).not.toBeNull();
  });
});
