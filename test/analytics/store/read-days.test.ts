import { DAY_MS } from '../../../src/calendar.js';
import { openSql, type Sql } from '../../../src/analytics/store/sql.js';
import { dayVersions } from '../../../src/analytics/store/read-days.js';
import { foldEvents } from '../../../src/analytics/store/fold-events.js';
import { addPageVisitors, RoaringBitmap32 } from '../../../src/analytics/store/day-sets.js';
import { pageBitmaps } from '../../support/page-bitmaps.js';
import { decodeViews } from '../../../src/analytics/store/rollups/agent-days.js';
import { createMigratedDatabase, PROVIDERS, type TestDatabase } from '../../support/databases.js';

const DAY0 = Date.UTC(2026, 10, 10) / DAY_MS;

describe.each(PROVIDERS)('day versions on %s', (provider) => {
  let database: TestDatabase;
  let sql: Sql;
  beforeAll(async () => {
    database = await createMigratedDatabase(provider);
    sql = openSql(database.target);
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
    const found = await dayVersions(sql, { projectId, fromDay: DAY0, toDay: DAY0 + 3 });
    return found && Object.fromEntries([...found].map(([day, version]) => [day - DAY0, version]));
  };

  it('changes the version of a day a view lands in, folded or not, and of no other day or project', async () => {
    await view('p1', 0, 1);
    await view('p1', 1, 2);
    await view('p2', 0, 3);
    await foldEvents(sql);
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
    await foldEvents(sql);
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

/**
 * PostgreSQL cuts one page's pairs (scribe_page_pairs) and views (scribe_page_views) out of stored blobs in the
 * database, so a reader of one page is sent that page's share alone: what arrives must say exactly what the whole
 * blob says of that page, for every kind of container and header the portable format has.
 */
describe('page cuts in PostgreSQL', () => {
  let database: TestDatabase;
  let sql: Sql;
  beforeAll(async () => {
    database = await createMigratedDatabase('postgresql');
    sql = openSql(database.target);
  });
  afterAll(async () => {
    await sql?.close();
    await database?.drop();
  });

  let seed = 11;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return Math.floor(seed / 65536) % n;
  };

  it("cuts a page's container from a day set: arrays, bitsets and runs, with and without offsets", async () => {
    let checked = 0;
    let absent = 0;
    for (const { blob, pages, random } of pageBitmaps(11, 120)) {
      const part = 2 * 65536 + random(4);
      const asked = [...pages, random(65_536)];
      const rows = await sql.rows(
        `SELECT k, scribe_page_pairs(?, k) FROM unnest(string_to_array(?, ',')::int[]) AS k`,
        [blob, asked.join(',')],
      );
      expect(rows).toHaveLength(asked.length);
      for (const [key, cut] of rows) {
        const pageId = 2 * 65536 + Number(key);
        const visitorsOf = (stored: Buffer) => {
          const into = new RoaringBitmap32();
          addPageVisitors(part, stored, pageId, into);
          return into;
        };
        const whole = visitorsOf(blob);
        if (whole.isEmpty) {
          expect(cut).toBeNull();
          absent++;
        } else {
          // a portable bitmap of that one container: the same visitors, read as the whole blob would be
          const copy = RoaringBitmap32.deserialize(cut as Buffer, true);
          expect(copy.size).toBe(whole.size);
          const read = visitorsOf(cut as Buffer);
          expect(read.isEqual(whole)).toBe(true);
          checked += read.size;
          read.dispose();
          copy.dispose();
        }
        whole.dispose();
      }
    }
    expect(checked).toBeGreaterThan(100_000);
    expect(absent).toBeGreaterThan(50);
  });

  it("cuts a page's views from a cell's views", async () => {
    for (let round = 0; round < 40; round++) {
      const pages = [...new Set(Array.from({ length: random(200) }, () => random(100_000)))].sort((a, b) => a - b);
      const blob = Buffer.alloc(pages.length * 8);
      pages.forEach((page, i) => {
        blob.writeUInt32LE(page, i * 8);
        blob.writeUInt32LE(1 + random(1_000_000), i * 8 + 4);
      });
      const whole = decodeViews(blob);
      const asked = [...pages.slice(0, 5), pages.at(-1) ?? 1, random(100_000), 0];
      const rows = await sql.rows(
        `SELECT k, scribe_page_views(?, k) FROM unnest(string_to_array(?, ',')::int[]) AS k`,
        [blob, asked.join(',')],
      );
      for (const [key, cut] of rows) {
        const views = whole.get(Number(key));
        if (views === undefined) expect(cut).toBeNull();
        else {
          expect((cut as Buffer).readUInt32LE(0)).toBe(Number(key));
          expect(decodeViews(cut as Buffer).get(Number(key))).toBe(views);
        }
      }
    }
  });
});
