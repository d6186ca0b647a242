import { DAY_MS, type TimeRange } from '../../src/calendar.js';
import { openSql, type Sql } from '../../src/analytics/store/sql.js';
import { Dictionaries } from '../../src/analytics/store/dictionaries.js';
import { foldEvents } from '../../src/analytics/store/fold-events.js';
import { DayCache } from '../../src/analytics/store/day-cache.js';
import { insertEvents, VERIFICATION, type NewEvent } from '../../src/analytics/store/write-events.js';
import { createMigratedDatabase, PROVIDERS, type TestDatabase } from './databases.js';
import { readRawEvents, type RawEvent } from './naive-ai-reports.js';
import { seeded } from './ai-traffic.js';

/**
 * A property suite for the AI traffic reports: on both databases, random traffic (shared visitor ids across
 * humans and agents, duplicates, late events, spoofed and unverifiable agents, other bots) is stored and folded,
 * and a report's answer is compared with a naive recount from the raw events over many ranges.
 */

const DAY0 = Date.UTC(2026, 10, 10) / DAY_MS; // 2026-11-10
const DAYS = 6;
const PAGES = Array.from({ length: 12 }, (_, i) => `/p${i}`);
const AGENTS = ['GPTBot', 'OAI-SearchBot', 'ChatGPT-User', 'ClaudeBot', 'Claude-Code', 'unidentified agent'];

/** Random events over DAYS days from DAY0, some exactly on or next to midnight UTC. */
function randomEvents(next: (n: number) => number, count: number, days = DAYS): NewEvent[] {
  const events: NewEvent[] = [];
  for (let i = 0; i < count; i++) {
    const day = DAY0 + next(days);
    const edge = next(10);
    const ts = edge === 0 ? day * DAY_MS : edge === 1 ? (day + 1) * DAY_MS - 1 : day * DAY_MS + next(DAY_MS);
    // humans and agents draw from the same visitor ids: one id seen as a browser and as GPTBot must count once
    const visitor = `v${next(30)}`;
    const who = next(100);
    const base = { ts, path: PAGES[next(PAGES.length)], referrer: null, key: next(6) === 0 ? `k${next(40)}` : null };
    if (who < 40) {
      const agent = next(3) === 0 ? ['via ChatGPT', 'via Perplexity'][next(2)] : null;
      events.push({ ...base, visitorHash: visitor, kind: 1, agent });
    } else if (who < 85) {
      const verification = [VERIFICATION.verified, VERIFICATION.unverifiable, null][next(3)];
      events.push({ ...base, visitorHash: visitor, kind: 2, agent: AGENTS[next(AGENTS.length)], verification });
    } else if (who < 93) {
      // spoofed: stored as bots; rows from before ingest gave them a visitor have none
      const visitorHash = next(4) === 0 ? null : visitor;
      events.push({ ...base, visitorHash, kind: 0, agent: ['unverified GPTBot', 'unverified ClaudeBot'][next(2)] });
    } else {
      events.push({ ...base, visitorHash: null, kind: 0, agent: 'Googlebot' });
    }
  }
  return events;
}

/** Named ranges every report is checked over, then random ones. */
function ranges(next: (n: number) => number): [string, TimeRange][] {
  const at = (day: number, ms = 0) => (DAY0 + day) * DAY_MS + ms;
  const fixed: [string, TimeRange][] = [
    ['all whole days', { from: at(0), to: at(DAYS) }],
    ['some whole days', { from: at(1), to: at(4) }],
    ['one day', { from: at(2), to: at(3) }],
    ['partial days on both sides', { from: at(1, 3_600_000), to: at(4, 7_200_000) }],
    ['inside one day', { from: at(2, 1000), to: at(2, 50_000_000) }],
    [
      'the default range (30 days to now)',
      { from: at(DAYS - 1, 40_000_000) - 30 * DAY_MS, to: at(DAYS - 1, 40_000_000) },
    ],
    ['an empty range', { from: at(-40), to: at(-39) }],
    ['midnight to one millisecond after', { from: at(3), to: at(3, 1) }],
    ['one millisecond either side of midnight', { from: at(3, -1), to: at(3, 1) }],
    ['from one millisecond before midnight', { from: at(2, -1), to: at(5) }],
  ];
  const random: [string, TimeRange][] = Array.from({ length: 8 }, (_, i) => {
    const from = at(next(DAYS + 1) - 1, next(DAY_MS));
    const to = from + 1 + next(4 * DAY_MS);
    return [`random range ${i + 1}`, { from, to }];
  });
  return [...fixed, ...random];
}

export interface ReportContext {
  sql: Sql;
  dictionaries: Dictionaries;
  cache: DayCache;
  projectId: string;
}

export function describeAiReport<T>(params: {
  name: string;
  report: (ctx: ReportContext, range: TimeRange) => Promise<T>;
  naive: (events: RawEvent[], range: TimeRange) => T;
}): void {
  describe.each(PROVIDERS)(`${params.name} against a naive recount on %s`, (provider) => {
    let database: TestDatabase;
    let sql: Sql;
    let ctx: ReportContext;
    let raw: RawEvent[];
    const next = seeded(provider === 'sqlite' ? 7 : 11);

    beforeAll(async () => {
      database = await createMigratedDatabase(provider);
      sql = openSql(database.target);
      ctx = reportContext(sql);
      const other = { sql, dictionaries: new Dictionaries(), projectId: 'p2' };
      // folded in several batches; the second half arrives late (its timestamps are older than folded events')
      for (let batch = 0; batch < 4; batch++) {
        await insertEvents({ ...ctx, events: randomEvents(next, 300) });
        await insertEvents({ ...other, events: randomEvents(next, 50) }); // another project: never counted
        if (batch === 1) await foldEvents(sql);
      }
      await foldEvents(sql);
      raw = await readRawEvents(sql, 'p1');
    });
    afterAll(async () => {
      await sql?.close();
      await database?.drop();
    });

    it.each(ranges(seeded(3)))('gives the same answer over %s', async (_name, range) => {
      expect(await params.report(ctx, range)).toEqual(params.naive(raw, range));
    });

    it('answers again after late events for folded days are folded', async () => {
      await insertEvents({ ...ctx, events: randomEvents(next, 200, 3) });
      await foldEvents(sql);
      raw = await readRawEvents(sql, 'p1');
      for (const [, range] of ranges(seeded(5)))
        expect(await params.report(ctx, range)).toEqual(params.naive(raw, range));
    });

    it('answers whole days from derived data: the same after their raw events are deleted', async () => {
      const range = { from: (DAY0 + 1) * DAY_MS - 5000, to: (DAY0 + 4) * DAY_MS + 5000 };
      const expected = params.naive(raw, range);
      await sql.run('DELETE FROM "AnalyticsEvent" WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ?', [
        'p1',
        (DAY0 + 1) * DAY_MS,
        (DAY0 + 4) * DAY_MS,
      ]);
      expect((await readRawEvents(sql, 'p1')).length).toBeLessThan(raw.length);
      expect(await params.report(ctx, range)).toEqual(expected);
    });
  });
}

/** What a report is handed: the database, the numbering of paths and visitors, a cache of its own. */
function reportContext(sql: Sql): ReportContext {
  return { sql, dictionaries: new Dictionaries(), cache: new DayCache(64 * 1024 * 1024), projectId: 'p1' };
}

/** A migrated database and what a report is handed for the enclosing `describe`; read `ctx()` inside tests. */
export function useReportStore(provider: (typeof PROVIDERS)[number]): () => ReportContext {
  let database: TestDatabase | undefined;
  let sql: Sql | undefined;
  let ctx: ReportContext | undefined;
  beforeAll(async () => {
    database = await createMigratedDatabase(provider);
    sql = openSql(database.target);
    ctx = reportContext(sql);
  });
  afterAll(async () => {
    await sql?.close();
    await database?.drop();
  });
  return () => {
    if (!ctx) throw new Error('useReportStore: the database exists only inside tests and hooks');
    return ctx;
  };
}

/** Stores the events in the context's project and folds them. */
export async function storeFolded(ctx: ReportContext, events: NewEvent[]): Promise<void> {
  await insertEvents({ ...ctx, events });
  await foldEvents(ctx.sql);
}

/** A stored event with defaults: 2026-11-20 10:00 UTC, page /a, no referrer, no key. */
export function event(fields: Partial<NewEvent> & Pick<NewEvent, 'kind'>): NewEvent {
  return {
    ts: Date.UTC(2026, 10, 20, 10),
    path: '/a',
    visitorHash: null,
    agent: null,
    referrer: null,
    key: null,
    ...fields,
  };
}

/**
 * An answer over whole folded days is kept until one of them changes: asked again it is the same object; after
 * `late` is stored in `projectId` and not folded yet, that day is read raw and nothing is kept; after the fold it is
 * counted anew and kept again. `expected` gives the totals before and after `late`; returns the last answer.
 */
export async function expectKeptUntilFolded<T extends { totals: unknown }>(params: {
  sql: Sql;
  dictionaries: Dictionaries;
  projectId: string;
  answer: () => Promise<T>;
  late: NewEvent[];
  expected: { before: T['totals']; after: T['totals'] };
}): Promise<T> {
  const { sql, answer, expected } = params;
  const first = await answer();
  expect(first.totals).toEqual(expected.before);
  expect(await answer()).toBe(first);
  await insertEvents({ ...params, events: params.late });
  const unfolded = await answer();
  expect(unfolded.totals).toEqual(expected.after);
  expect(await answer()).not.toBe(unfolded);
  await foldEvents(sql);
  const folded = await answer();
  expect(folded.totals).toEqual(expected.after);
  expect(await answer()).toBe(folded);
  return folded;
}
