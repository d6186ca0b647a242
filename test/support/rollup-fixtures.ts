import type { Sql } from '../../src/analytics/store/sql.js';
import type { Rollup } from '../../src/analytics/store/rollups/rollup.js';
import type { PageView } from '../../src/analytics/ingest/prepare-event.js';

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
    else view.ip = `198.51.100.${v}`;
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
