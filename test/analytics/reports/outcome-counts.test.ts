import { DAY_MS, type TimeRange } from '../../../src/calendar.js';
import {
  countOutcomeVisitors,
  noVisitors,
  readOutcomeCounts,
  readOutcomeSignals,
  readQueriesInto,
  type VisitorCounts,
} from '../../../src/analytics/reports/outcome-counts.js';
import { openSql, type Sql } from '../../../src/analytics/store/sql.js';
import { DayCache } from '../../../src/analytics/store/day-cache.js';
import { plansMatching, recordingSql, viewReads } from '../../support/recording-sql.js';
import { insertEvents, type NewEvent } from '../../../src/analytics/store/write-events.js';
import { foldEvents } from '../../../src/analytics/store/fold-events.js';
import { describeAiReport, event, useReportStore, type ReportContext } from '../../support/ai-report-suite.js';
import { createMigratedDatabase, PROVIDERS, type TestDatabase } from '../../support/databases.js';
import type { RawEvent } from '../../support/naive-ai-reports.js';
import { purposeOf } from '../../../src/analytics/store/rollups/agent-columns.js';

/** Groups of pages as outcomes ask for them: single pages, a pull request's pages together, a moved page, none seen. */
const GROUPS = [['/p1'], ['/p4'], ['/p1', '/p4', '/p9'], ['/p2', '/p3'], ['/p5', '/never'], ['/never']];

/**
 * Distinct human, AI (in all and by their agent's purpose) and assistant-sent visitor ids of the group's events, as
 * COUNT(DISTINCT …) counts them.
 */
function naiveCounts(events: RawEvent[], group: string[]): VisitorCounts {
  const on = events.filter((e) => group.includes(e.path));
  const ids = (keep: (e: RawEvent) => boolean) => new Set(on.filter(keep).map((e) => e.visitorId)).size;
  const ofPurpose = (p: string) => ids((e) => e.kind === 2 && purposeOf(e.agent) === p);
  return {
    human: ids((e) => e.kind === 1),
    ai: ids((e) => e.kind === 2),
    aiByPurpose: {
      searchIndex: ofPurpose('searchIndex'),
      training: ofPurpose('training'),
      assistant: ofPurpose('assistant'),
      agent: ofPurpose('agent'),
      other: ofPurpose('other'),
    },
    referred: ids((e) => e.kind === 1 && (e.agent ?? '').startsWith('via ')),
  };
}

/** GROUPS as page ids (a path never viewed has none). */
async function groupIds(ctx: ReportContext): Promise<number[][]> {
  const byId = await ctx.dictionaries.paths(ctx.sql, ctx.projectId, []);
  const ids = new Map([...byId].map(([id, path]) => [path, id]));
  return GROUPS.map((group) => group.flatMap((path) => ids.get(path) ?? []));
}

describeAiReport({
  name: 'outcome visitors of groups of pages',
  report: async (ctx, range) => {
    const groups = await groupIds(ctx);
    return (await countOutcomeVisitors({ ...ctx, ranges: [range], groups }))[0];
  },
  naive: (events, range) => {
    const counted = events.filter((e) => e.ts >= range.from && e.ts < range.to && (e.kind === 1 || e.kind === 2));
    return GROUPS.map((group) => naiveCounts(counted, group));
  },
});

/** An outcome's sides as they fall: before and after a live time, over windows of several lengths. */
const sidesOf = ({ from, to }: TimeRange): TimeRange[] => [
  { from, to },
  { from: from - DAY_MS - 12_345, to: from },
  { from: to, to: to + 2 * DAY_MS + 54_321 },
  { from: from - 3 * DAY_MS, to: from },
  { from: to, to: to + 3 * DAY_MS },
];

describeAiReport({
  name: 'outcome visitors of groups of pages over several ranges at once',
  report: async (ctx, range) => {
    const groups = await groupIds(ctx);
    return countOutcomeVisitors({ ...ctx, ranges: sidesOf(range), groups });
  },
  naive: (events, range) =>
    sidesOf(range).map((side) => {
      const counted = events.filter((e) => e.ts >= side.from && e.ts < side.to && (e.kind === 1 || e.kind === 2));
      return GROUPS.map((group) => naiveCounts(counted, group));
    }),
});

describeAiReport({
  name: 'outcome human visitors alone (what a verdict reads) over several ranges',
  report: async (ctx, range) => {
    const groups = await groupIds(ctx);
    return countOutcomeVisitors({ ...ctx, ranges: sidesOf(range), groups, humans: 'alone' });
  },
  naive: (events, range) =>
    sidesOf(range).map((side) => {
      const counted = events.filter((e) => e.ts >= side.from && e.ts < side.to && e.kind === 1);
      return GROUPS.map((group) => ({ ...naiveCounts(counted, group), ai: 0, referred: 0 }));
    }),
});

describe.each(PROVIDERS)('outcome visitors read from page days on %s', (provider) => {
  const ctx = useReportStore(provider);

  it("reads its pages' rows of every day at once, a day with views not folded from raw events, and keeps them for the next merge", async () => {
    const { sql, dictionaries, projectId } = ctx();
    const at = (day: number, hour: number) => Date.UTC(2026, 10, 20 + day, hour);
    const view = (path: string, visitorHash: string, ts: number) => event({ kind: 1, path, visitorHash, ts });
    const store = (events: NewEvent[]) => insertEvents({ sql, dictionaries, projectId, events });
    await store([
      view('/a', 'h1', at(0, 6)),
      view('/a', 'h2', at(0, 9)),
      view('/b', 'h3', at(0, 10)),
      view('/a', 'h4', at(1, 12)),
      view('/a', 'h5', at(2, 11)),
      view('/a', 'h6', at(2, 13)),
      view('/b', 'h2', at(1, 10)),
    ]);
    await foldEvents(sql);
    const ids = new Map([...(await dictionaries.paths(sql, projectId, []))].map(([id, path]) => [path, id]));
    const { recording, statements } = recordingSql(sql);
    const reads = () => viewReads(statements.splice(0));
    const cache = new DayCache(64 * 1024 * 1024);
    // 08:00 on the 20th to noon on the 22nd: the 20th and the 22nd are edges, the 21st whole
    const range = { from: at(0, 8), to: at(2, 12) };
    const [a, b] = [ids.get('/a')!, ids.get('/b')!];
    const count = async (groups: number[][]) =>
      (await countOutcomeVisitors({ sql: recording, cache, projectId, ranges: [range], groups }))[0];
    const day = (n: number) => Date.UTC(2026, 10, 20 + n) / DAY_MS;

    // every day folded: the page's rows of the three days in one read
    expect((await count([[a]]))[0].human).toBe(3); // h2, h4, h5
    expect(reads()).toEqual([{ from: 'page days', days: [day(0), day(1), day(2)], pageIds: [a] }]);
    // kept: another merge of the same page reads nothing; one with another page reads that page's rows alone
    const humans = (human: number) => ({ ...noVisitors(), human });
    expect(await count([[a]])).toEqual([humans(3)]);
    expect(reads()).toEqual([]);
    expect(await count([[a], [b], [a, b]])).toEqual([
      humans(3),
      humans(2), // h3, h2
      humans(4), // h2 once
    ]);
    expect(reads()).toEqual([{ from: 'page days', days: [day(0), day(1), day(2)], pageIds: [b] }]);
    // a view not folded yet: that day is read from raw events, the pages' alone, until the fold settles the day
    await store([view('/a', 'h7', at(2, 10))]);
    expect((await count([[a]]))[0].human).toBe(4);
    expect(reads()).toEqual([{ from: 'raw', days: [day(2)], pageIds: [a] }]);
    await foldEvents(sql);
    expect((await count([[a]]))[0].human).toBe(4);
    expect(reads()).toEqual([{ from: 'page days', days: [day(2)], pageIds: [a] }]);
  });
});

describe.each(PROVIDERS)('outcome visitors at a range’s edges on %s', (provider) => {
  const ctx = useReportStore(provider);

  it('counts a view landing in an edge day already read, folded or not yet, and only within the edge', async () => {
    const { sql, dictionaries, projectId } = ctx();
    const at = (hour: number) => Date.UTC(2026, 10, 20, hour);
    const view = (visitorHash: string, ts: number) => event({ kind: 1, path: '/a', visitorHash, ts });
    const store = (events: NewEvent[]) => insertEvents({ sql, dictionaries, projectId, events });
    await store([view('h1', at(10))]);
    await foldEvents(sql);
    const [pageId] = [...(await dictionaries.paths(sql, projectId, []))].find(([, path]) => path === '/a')!;
    // 08:00 on the 20th to noon on the 22nd: the 20th and the 22nd are partial
    const range = { from: at(8), to: at(2 * 24 + 12) };
    const humans = async () =>
      (await countOutcomeVisitors({ ...ctx(), ranges: [range], groups: [[pageId]] }))[0][0].human;
    expect(await humans()).toBe(1);
    expect(await humans()).toBe(1);
    await store([view('h2', at(11))]);
    expect(await humans()).toBe(2); // not folded yet
    await foldEvents(sql);
    expect(await humans()).toBe(2);
    await store([view('h3', at(7)), view('h4', at(2 * 24 + 13))]);
    expect(await humans()).toBe(2); // outside the range's part of those days
    await store([view('h5', at(2 * 24 + 11))]);
    expect(await humans()).toBe(3);
  });
});

/**
 * The thumbs, comments and misses of outcome windows, each window's own or many merges' at once (a list's summary):
 * each equal to a naive count of the entries stored, at the ranges' edges (an entry at a range's first and last
 * millisecond), for pages and URLs asked by several merges or never seen, with a few pages (read page by page) and
 * with many (read from all the project's feedback).
 */
describe.each(PROVIDERS)('outcome signals of many windows at once on %s', (provider) => {
  const DAY0 = Date.UTC(2026, 10, 1);
  const SOURCES = ['contextual', 'thumbs_only', 'code_snippet', 'agent'];
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

  it.each([
    ['a few pages', 5],
    ['many pages', 300],
  ])('counts each window as a naive count does, edges included, with %s', async (_, pageCount) => {
    const projectId = `p${pageCount}`;
    const paths = Array.from({ length: pageCount }, (_, i) => `/page${i}`);
    let seed = pageCount;
    const next = (n: number) => {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      return seed % n;
    };
    // entries on whole minutes, so ranges starting and ending on them test both edges
    const at = () => DAY0 + next(20 * 24 * 60) * 60_000;
    const range = () => {
      const from = at();
      return { from, to: from + next(6 * 24 * 60) * 60_000 };
    };
    const asks = Array.from({ length: 40 }, (_, i) => ({
      paths: i === 0 ? [] : [...new Set([paths[next(pageCount)], paths[next(5)], paths[next(5)]])],
      urls: i === 1 ? [] : [...new Set([`/old${next(5)}`, `/old${next(5)}`])],
      ranges: [range(), range()],
    }));
    // every page asked by some merge
    asks.push({ paths, urls: [], ranges: [{ from: DAY0, to: DAY0 + 30 * 24 * 3600_000 }] });
    const feedback: {
      project: string;
      ts: number;
      path: string;
      source: string;
      helpful: number | null;
      comment: boolean;
    }[] = [];
    const misses: { project: string; ts: number; path: string }[] = [];
    // an entry and a miss at the first and at the last millisecond of a range, and at its end
    const edge = asks[2];
    for (const ts of [edge.ranges[0].from, edge.ranges[0].to - 1, edge.ranges[0].to]) {
      feedback.push({ project: projectId, ts, path: edge.paths[0], source: 'contextual', helpful: 1, comment: false });
      misses.push({ project: projectId, ts, path: edge.urls[0] });
    }
    for (let i = 0; i < 600; i++) {
      // a tenth in another project, a page never asked about now and then
      const project = i % 10 ? projectId : 'another';
      const path = next(8) ? paths[next(5)] : '/not-asked';
      const helpful = [0, 1, null][next(3)];
      feedback.push({ project, ts: at(), path, source: SOURCES[next(4)], helpful, comment: !next(3) });
      misses.push({ project, ts: at(), path: `/old${next(6)}` });
    }
    for (const [i, f] of feedback.entries()) {
      await sql.run(
        `INSERT INTO "AnalyticsFeedback" ("projectId", "ts", "receivedAt", "path", "source", "status", "helpful", "comment")
         VALUES (?, ?, 0, ?, ?, 'pending', ?, ?)`,
        [f.project, f.ts, f.path, f.source, f.helpful, f.comment ? `comment ${i}` : null],
      );
    }
    for (const [i, m] of misses.entries())
      await sql.run(
        `INSERT INTO "AnalyticsPageMiss" ("projectId", "key", "ts", "path", "class", "status", "visitorHash")
         VALUES (?, ?, ?, ?, 'human', 404, 'v')`,
        [m.project, `${projectId}-${i}`, m.ts, m.path],
      );

    const batched = await readOutcomeSignals(sql, { projectId, asks });
    let counted = 0;
    for (const [i, ask] of asks.entries())
      for (const [j, side] of ask.ranges.entries()) {
        const within = (e: { project: string; ts: number }) =>
          e.project === projectId && e.ts >= side.from && e.ts < side.to;
        const vote = (f: (typeof feedback)[number], helpful: number) =>
          within(f) && ['contextual', 'thumbs_only'].includes(f.source) && f.helpful === helpful;
        const naive = new Map(
          ask.paths.map((path) => {
            const of = feedback.filter((f) => f.path === path);
            const thumbsUp = of.filter((f) => vote(f, 1)).length;
            const thumbsDown = of.filter((f) => vote(f, 0)).length;
            const comments = of.filter((f) => within(f) && f.comment).length;
            return [path, { ...noVisitors(), thumbsUp, thumbsDown, comments }];
          }),
        );
        expect(batched[i][j].pages).toEqual(naive);
        const sum = (key: 'thumbsUp' | 'thumbsDown' | 'comments') =>
          [...naive.values()].reduce((n, page) => n + page[key], 0);
        expect(batched[i][j].total).toEqual({
          ...noVisitors(),
          thumbsUp: sum('thumbsUp'),
          thumbsDown: sum('thumbsDown'),
          comments: sum('comments'),
        });
        const missed = new Map(ask.urls.map((url) => [url, misses.filter((m) => m.path === url && within(m)).length]));
        expect(batched[i][j].misses).toEqual(missed);
        counted += sum('thumbsUp') + sum('thumbsDown') + sum('comments');
        for (const n of missed.values()) counted += n;
      }
    expect(counted).toBeGreaterThan(100);
    // the edge range: the entries at its first and last millisecond count, the one at its end does not
    expect(batched[2][0].misses.get(edge.urls[0])).toBeGreaterThanOrEqual(2);
    expect(await readOutcomeSignals(sql, { projectId, asks: [] })).toEqual([]);
  });
});

/**
 * An outcome window's feedback and searches on PostgreSQL right after a bulk import (no statistics yet): each page's
 * feedback and each query's searches are read along the index that leads with it, never by scanning every row of
 * the range (what an IN list got: 8–60 ms for each side of each window at 10M), and counted exactly.
 */
describe('outcome signals on PostgreSQL before the tables are analysed', () => {
  const DAY0 = Date.UTC(2026, 10, 1);
  let database: TestDatabase;
  let sql: Sql;
  beforeAll(async () => {
    database = await createMigratedDatabase('postgresql');
    sql = openSql(database.target);
    // 200,000 feedback entries and searches over 30 days and 500 pages and queries
    await sql.run(
      `INSERT INTO "AnalyticsFeedback" ("projectId", "ts", "receivedAt", "path", "source", "status", "helpful")
       SELECT 'p1', ?::bigint + i::bigint * 12960, 0, '/p' || (i % 500), CASE WHEN i % 7 = 0 THEN 'agent' ELSE 'contextual' END,
              'pending', i % 3 % 2 FROM generate_series(1, 200000) AS i`,
      [DAY0],
    );
    await sql.run(
      `INSERT INTO "AnalyticsSearch" ("projectId", "ts", "receivedAt", "query", "clickedPath")
       SELECT 'p1', ?::bigint + i::bigint * 12960, 0, 'q' || (i % 500), CASE WHEN i % 4 = 0 THEN NULL ELSE '/p' || (i % 11) END
         FROM generate_series(1, 200000) AS i`,
      [DAY0],
    );
  }, 60_000);
  afterAll(async () => {
    await sql?.close();
    await database?.drop();
  });

  it('reads each page and query along its index, and counts them exactly', async () => {
    const { recording, statements } = recordingSql(sql);
    const range = { from: DAY0 + 3 * DAY_MS + 5_000_000, to: DAY0 + 17 * DAY_MS + 5_000_000 };
    const paths = ['/p3', '/p7', '/p3'];
    const queries = await readQueriesInto(recording, { projectId: 'p1', paths, range, limit: 5 });
    const zero = noVisitors();
    const [counts] = await readOutcomeCounts(
      recording,
      { projectId: 'p1', paths: ['/p3', '/p7'], urls: [], ranges: [range], queries },
      [[zero, zero, zero]],
    );
    // the same counts by plain SQL
    const [[up, down]] = await sql.rows(
      `SELECT SUM(CASE WHEN "source" <> 'agent' AND "helpful" = 1 THEN 1 ELSE 0 END),
              SUM(CASE WHEN "source" <> 'agent' AND "helpful" = 0 THEN 1 ELSE 0 END)
         FROM "AnalyticsFeedback" WHERE "path" IN ('/p3', '/p7') AND "ts" >= ? AND "ts" < ?`,
      [range.from, range.to],
    );
    expect(counts.total).toMatchObject({ thumbsUp: Number(up), thumbsDown: Number(down) });
    expect(Number(up) + Number(down)).toBeGreaterThan(200);
    const led = await sql.rows(
      `SELECT "query", COUNT(*) AS n FROM "AnalyticsSearch" WHERE "clickedPath" IN ('/p3', '/p7') AND "ts" >= ? AND "ts" < ?
        GROUP BY "query" ORDER BY n DESC, "query" COLLATE "C" LIMIT 5`,
      [range.from, range.to],
    );
    expect(queries).toEqual(led.map(([query]) => query));
    const [[searches, clicks]] = await sql.rows(
      `SELECT COUNT(*), SUM(CASE WHEN "clickedPath" IN ('/p3', '/p7') THEN 1 ELSE 0 END) FROM "AnalyticsSearch"
        WHERE "query" IN (${queries.map(() => '?').join(', ')}) AND "ts" >= ? AND "ts" < ?`,
      [...queries, range.from, range.to],
    );
    const byQuery = await sql.rows(
      `SELECT "query", COUNT(*), SUM(CASE WHEN "clickedPath" IN ('/p3', '/p7') THEN 1 ELSE 0 END) FROM "AnalyticsSearch"
        WHERE "query" IN (${queries.map(() => '?').join(', ')}) AND "ts" >= ? AND "ts" < ? GROUP BY "query"`,
      [...queries, range.from, range.to],
    );
    expect(counts.searches).toEqual({
      searches: Number(searches),
      clicks: Number(clicks),
      // and each query's own
      byQuery: new Map(byQuery.map(([query, n, c]) => [query, { searches: Number(n), clicks: Number(c) }])),
    });
    // no statement scans every row of the range by time alone
    const byTime = await plansMatching(
      sql,
      statements,
      /"Index Name":\s*"Analytics(Feedback|Search)_projectId_ts_idx"|"Seq Scan"/,
    );
    expect(statements.length).toBeGreaterThanOrEqual(3);
    expect(byTime).toEqual([]);
  });
});
