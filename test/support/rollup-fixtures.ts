import path from 'node:path';
import { openSql, type Sql } from '../../src/analytics/store/sql.js';
import type { PageFigures } from '../../src/analytics/store/page-counts.js';
import type { Rollup } from '../../src/analytics/store/rollups/rollup.js';
import type { PageView } from '../../src/analytics/ingest/prepare-event.js';
import type { Miss } from '../../src/analytics/ingest/record-ai-misses.js';
import type { FeedbackSubmission } from '../../src/analytics/signals/submit-feedback.js';
import type { SearchSubmission } from '../../src/analytics/signals/submit-searches.js';
import { Analytics } from '../../src/analytics/analytics.js';
import type { TimeRange } from '../../src/calendar.js';
import type { DatabaseTarget } from '../../src/db/database-url.js';
import { createLogger } from '../../src/logger.js';
import { createTestDatabase, type Provider } from './databases.js';

export const DAY = 86_400_000;
export const START = Date.UTC(2026, 9, 1);

/** human browsers, two verified-looking AI agents, a search bot */
export const UAS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
];

/** Counts per page as a map, in the order forEach visits them (ascending by page). */
export function countsMap(counts: PageFigures): Map<number, number> {
  const map = new Map<number, number>();
  counts.forEach((n, page) => {
    map.set(page, n);
  });
  return map;
}

/** Deterministic pseudo-random numbers, so a failure can be replayed. */
export function rng(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

/**
 * Page views over `days` days from START + `fromDay`: humans, AI agents (some from addresses outside their
 * operator's ranges when the test loads ranges: stored as `unverified <agent>` bots), other bots, a third with a
 * caller visitor id (one visitor seen as human and as AI), and repeated idempotency keys (duplicates).
 */
export function randomViews(random: () => number, n: number, fromDay: number, days: number): PageView[] {
  return Array.from({ length: n }, () => {
    const v = Math.floor(random() * 60);
    const view: PageView = {
      timestamp: Math.floor(START + (fromDay + random() * days) * DAY),
      url: `/p${Math.floor(random() * random() * 25)}`,
      userAgent: UAS[Math.floor(random() * UAS.length)],
    };
    if (v % 3 === 0) view.visitorId = `u${v}`;
    else view.ip = v % 5 === 1 ? `203.0.113.${v}` : `198.51.100.${v}`;
    if (random() < 0.1) view.key = `k${Math.floor(random() * 20)}`;
    return view;
  });
}

/**
 * A rollup of raw event counts per project, day and kind in its own table (created here), with readers of what it
 * stored and of the same counts recounted from the raw events.
 */
export async function countingRollup(sql: Sql, table: string, fail?: () => boolean) {
  await sql.run(
    `CREATE TABLE "${table}" ("projectId" TEXT NOT NULL, "day" INTEGER NOT NULL, "kind" INTEGER NOT NULL, "n" INTEGER NOT NULL, PRIMARY KEY ("projectId", "day", "kind"))`,
  );
  const rollup: Rollup = {
    name: table,
    tables: [table],
    async add(tx, events) {
      if (fail?.()) throw new Error('interrupted');
      const counts = new Map<string, number>();
      for (const e of events) {
        const key = `${e.projectId}\0${e.day}\0${e.kind}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      await tx.insertMany({
        table,
        columns: [
          ['projectId', 'text'],
          ['day', 'int'],
          ['kind', 'int'],
          ['n', 'int'],
        ],
        rows: [...counts].map(([key, n]) => {
          const [projectId, day, kind] = key.split('\0');
          return [projectId, Number(day), Number(kind), n];
        }),
        suffix: `ON CONFLICT ("projectId", "day", "kind") DO UPDATE SET "n" = "${table}"."n" + excluded."n"`,
      });
    },
  };
  const read = async (text: string, projectId?: string) => {
    const rows = await sql.query<{ projectId: string; day: unknown; kind: unknown; n: unknown }>(
      projectId ? `${text} WHERE "projectId" = ? ${GROUP}` : `${text} ${GROUP}`,
      projectId ? [projectId] : [],
    );
    return new Map(rows.map((r) => [`${r.projectId}:${Number(r.day)}:${Number(r.kind)}`, Number(r.n)]));
  };
  const GROUP = 'GROUP BY "projectId", "day", "kind"';
  return {
    rollup,
    stored: (projectId?: string) =>
      read(`SELECT "projectId", "day", "kind", SUM("n") AS "n" FROM "${table}"`, projectId),
    recount: (projectId?: string) =>
      read(
        `SELECT "projectId", "day", "kind", COUNT(*) AS "n" FROM (SELECT "projectId", CAST("ts" / ${DAY} AS INTEGER) AS "day", "kind" FROM "AnalyticsEvent") e`,
        projectId,
      ),
  };
}

/** AI requests a log showed answered 404, 410 or 5xx, some lines repeated (a re-import adds nothing). */
export function randomMisses(random: () => number, n: number, fromDay: number, days: number): Miss[] {
  return Array.from({ length: n }, () => ({
    key: `miss${Math.floor(random() * n * 3)}`,
    status: [404, 410, 500, 503][Math.floor(random() * 4)],
    view: {
      timestamp: Math.floor(START + (fromDay + random() * days) * DAY),
      url: `/gone${Math.floor(random() * 6)}`,
      userAgent: UAS[2 + Math.floor(random() * 2)],
    },
  }));
}

/**
 * Traffic over 40 days in rounds, each folded before the next, later rounds bringing late events into days folded
 * already: humans, AI, bots, unverified agents, duplicates, AI misses.
 */
export async function seedTraffic(analytics: Analytics, projectId: string, seed: number): Promise<void> {
  const random = rng(seed);
  for (let round = 0; round < 4; round++) {
    const result = await analytics.ingest(projectId, randomViews(random, 350, round * 4, 40 - round * 8));
    expect(result.rejected).toEqual([]);
    await analytics.recordAiMisses(projectId, randomMisses(random, 60, round * 4, 40 - round * 8));
    await analytics.fold();
  }
}

/** The clock of the report tests: not a midnight, so the default range has partial days at both ends. */
export const NOW = START + 45 * DAY + 7 * 3_600_000 + 123;

/**
 * Ranges of every shape: the default range, empty ones (before the data, one millisecond), whole days, partial days,
 * one day, edges one millisecond either side of midnight UTC, ranges inside one day.
 */
export function randomRanges(random: () => number, n: number): TimeRange[] {
  const day = () => START + Math.floor(random() * 50 - 5) * DAY;
  const ms = () => 1 + Math.floor(random() * (DAY - 2));
  const ranges: TimeRange[] = [
    { from: NOW - 30 * DAY, to: NOW },
    { from: START - 10 * DAY, to: START - 2 * DAY },
    { from: START + 3 * DAY + 5, to: START + 3 * DAY + 6 },
    { from: START, to: START + 40 * DAY },
  ];
  for (let i = 0; ranges.length < n; i++) {
    const a = day();
    const shapes: TimeRange[] = [
      { from: a, to: a + (1 + Math.floor(random() * 30)) * DAY },
      { from: a + ms(), to: a + ms() + Math.floor(random() * 30) * DAY + DAY },
      { from: a, to: a + DAY },
      { from: a - 1, to: a + Math.floor(random() * 20) * DAY + 1 },
      { from: a + 1, to: a + Math.floor(random() * 20) * DAY - 1 + DAY },
      { from: a + ms(), to: a + DAY },
    ];
    const range = shapes[i % shapes.length];
    if (range.from < range.to) ranges.push(range);
  }
  return ranges;
}

/** GPTBot's published range in the report tests: 203.0.113.0/24 (others of its views are unverified) */
const RANGES = path.resolve(import.meta.dirname, '../fixtures/analytics/ai-ranges.json');

/** An analytics service for report tests (verifying agents against the shipped ranges: some are unverified). */
export function reportAnalytics(target: DatabaseTarget): Analytics {
  return new Analytics({
    target,
    secret: 'report-rollups-secret-report-rollups-00',
    config: { saltRotation: 'never', trustedProxyHeader: undefined, cacheMb: 64, aiRangesFile: RANGES },
    logger: createLogger('silent'),
    clock: () => new Date(NOW),
    autoFold: false,
  });
}

const SOURCES = ['code_snippet', 'contextual', 'agent', 'thumbs_only'] as const;
export const STATUSES = ['pending', 'in_progress', 'resolved', 'dismissed'] as const;

/** Feedback from a trusted server (no visitor limit): any source, votes and comments, repeated keys. */
export function randomFeedback(random: () => number, n: number, fromDay: number, days: number): FeedbackSubmission[] {
  return Array.from({ length: n }, () => {
    const source = SOURCES[Math.floor(random() * SOURCES.length)];
    const vote = random();
    const item: FeedbackSubmission = {
      timestamp: Math.floor(START + (fromDay + random() * days) * DAY),
      path: `/p${Math.floor(random() * random() * 12)}`,
      source,
      helpful: vote < 0.4 ? true : vote < 0.8 ? false : null,
      comment: source === 'thumbs_only' ? null : `c${Math.floor(random() * 5)}`,
    };
    if (source === 'thumbs_only' && item.helpful === null) item.helpful = true;
    if (source === 'code_snippet') item.code = 'x = 1';
    if (random() < 0.15) item.key = `f${Math.floor(random() * 40)}`;
    return item;
  });
}

/** Searches and result clicks from a trusted server, repeated keys among them. */
export function randomSearches(random: () => number, n: number, fromDay: number, days: number): SearchSubmission[] {
  return Array.from({ length: n }, () => {
    const item: SearchSubmission = {
      timestamp: Math.floor(START + (fromDay + random() * days) * DAY),
      query: `term ${Math.floor(random() * random() * 15)}`,
    };
    if (random() < 0.35) item.clickedPath = `/p${Math.floor(random() * 6)}`;
    if (random() < 0.15) item.key = `s${Math.floor(random() * 40)}`;
    return item;
  });
}

/**
 * For the enclosing `describe`: a migrated database with two projects' traffic (`prj_a`, `prj_b`, seeded as
 * `seedTraffic` does), the report service over it and a connection for naive recounts; read `seeded()` inside tests.
 */
export function useSeededReports(
  provider: Provider,
  seeds: [number, number],
): () => { analytics: Analytics; sql: Sql; target: DatabaseTarget } {
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  let state: { analytics: Analytics; sql: Sql; target: DatabaseTarget } | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
    state = {
      analytics: reportAnalytics(database.target),
      sql: openSql(database.target),
      target: database.target,
    };
    await seedTraffic(state.analytics, 'prj_a', seeds[0]);
    await seedTraffic(state.analytics, 'prj_b', seeds[1]);
  });
  afterAll(async () => {
    await state?.analytics.close();
    await state?.sql.close();
    await database?.drop();
  });
  return () => state!;
}
