/**
 * Other layouts of the raw events' time index (issue 20 §5), tried on a loaded benchmark database by bench/storage.ts
 * `--index-variants`: for each, the index's bytes per page view, a partial-day edge read (what a report reads beside
 * its rollups: the counted events of a project in a time range, src/analytics/store/read-events.ts) over 1 hour and
 * 6 hours (and the 6 hours of a project with no views there: what a small site beside a busy one pays on a shared
 * server), and the cost of appending 100,000 events (copies of stored ones moved 30 days on, so they land where new
 * events do). The fold reads by primary key (`id > mark ORDER BY id`), which no variant changes.
 */
import type { DatabaseTarget } from '../src/db/database-url.js';
import { openSql, type Sql } from '../src/analytics/store/sql.js';
import { storageObjects } from './storage-report.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const TODAY = 'AnalyticsEvent_projectId_ts_idx';
const VARIANT = 'bench_variant_idx';
const APPENDED = 100_000;

interface Variant {
  name: string;
  /** CREATE INDEX statement of the variant (null: today's index, left as it is) */
  create: string | null;
}

const VARIANTS: Record<DatabaseTarget['provider'], Variant[]> = {
  sqlite: [
    { name: 'today: (projectId, ts)', create: null },
    { name: '(ts)', create: `CREATE INDEX "${VARIANT}" ON "AnalyticsEvent" ("ts")` },
    {
      name: 'covering (projectId, ts, kind, pageId, visitorId)',
      create: `CREATE INDEX "${VARIANT}" ON "AnalyticsEvent" ("projectId", "ts", "kind", "pageId", "visitorId")`,
    },
  ],
  postgresql: [
    { name: 'today: (projectId, ts)', create: null },
    { name: '(ts)', create: `CREATE INDEX "${VARIANT}" ON "AnalyticsEvent" ("ts")` },
    {
      name: '(projectId, ts) INCLUDE (kind, pageId, visitorId)',
      create: `CREATE INDEX "${VARIANT}" ON "AnalyticsEvent" ("projectId", "ts") INCLUDE ("kind", "pageId", "visitorId")`,
    },
    { name: 'BRIN (ts)', create: `CREATE INDEX "${VARIANT}" ON "AnalyticsEvent" USING brin ("ts")` },
  ],
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const ms = (x: number) => (x < 10 ? x.toFixed(2) : Math.round(x).toString());

async function timeEdge(sql: Sql, projectId: string, from: number, hours: number): Promise<number> {
  const read = async () => {
    const t = performance.now();
    await sql.rows(
      'SELECT "pageId", "visitorId", "kind" FROM "AnalyticsEvent" WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ? AND "kind" > 0',
      [projectId, from, from + hours * HOUR],
    );
    return performance.now() - t;
  };
  await read();
  const times = [];
  for (let i = 0; i < 5; i++) times.push(await read());
  return median(times);
}

/** Appends copies of the first 100,000 events 30 days later, timed, then removes them. */
async function timeAppend(sql: Sql): Promise<number> {
  const [top] = await sql.query<{ top: unknown }>('SELECT MAX("id") AS top FROM "AnalyticsEvent"');
  const t = performance.now();
  await sql.transaction((tx) =>
    tx.run(
      `INSERT INTO "AnalyticsEvent" ("projectId", "ts", "pageId", "visitorId", "kind", "agent", "referrer", "verification")
       SELECT "projectId", "ts" + ${30 * DAY}, "pageId", "visitorId", "kind", "agent", "referrer", "verification"
         FROM "AnalyticsEvent" WHERE "id" <= ? ORDER BY "id"`,
      [APPENDED],
    ),
  );
  const elapsed = performance.now() - t;
  await sql.transaction((tx) => tx.run('DELETE FROM "AnalyticsEvent" WHERE "id" > ?', [Number(top.top)]));
  return elapsed;
}

export const VARIANTS_HEADER =
  '| database | page views | raw events time index | index MiB | index B/view | edge read 1 h ms | edge read 6 h ms | 6 h of another project (no views) ms | append 100,000 events ms |\n|---|---|---|---|---|---|---|---|---|';

/** One markdown row per variant; leaves today's index in place afterwards. */
export async function indexVariants(params: {
  target: DatabaseTarget;
  projectId: string;
  views: number;
  endDay: number;
  log: (msg: string) => void;
}): Promise<string> {
  const { target, projectId, views, endDay, log } = params;
  const sql = openSql(target);
  const provider = target.provider;
  const lines: string[] = [];
  // a weekday mid-range, from 06:00 UTC
  const from = (endDay - 15) * DAY + 6 * HOUR;
  try {
    for (const variant of VARIANTS[provider]) {
      if (variant.create) {
        await sql.run(`DROP INDEX IF EXISTS "${TODAY}"`);
        await sql.run(`DROP INDEX IF EXISTS "${VARIANT}"`);
        await sql.run(variant.create);
      }
      await sql.run(provider === 'sqlite' ? 'ANALYZE' : 'VACUUM ANALYZE "AnalyticsEvent"');
      const objects = await storageObjects(sql);
      const name = variant.create ? VARIANT : TODAY;
      const bytes = objects.find((o) => o.table === 'AnalyticsEvent' && o.index === name)?.bytes ?? 0;
      const edge1 = await timeEdge(sql, projectId, from, 1);
      const edge6 = await timeEdge(sql, projectId, from, 6);
      // a project with no views beside the busy one: what a small site pays on a shared server
      const quiet = await timeEdge(sql, 'prj_quiet_neighbour', from, 6);
      const append = await timeAppend(sql);
      const row = `| ${provider} | ${views.toLocaleString('en')} | ${variant.name} | ${(bytes / 1_048_576).toFixed(1)} | ${(bytes / views).toFixed(1)} | ${ms(edge1)} | ${ms(edge6)} | ${ms(quiet)} | ${Math.round(append)} |`;
      log(row);
      lines.push(row);
    }
    await sql.run(`DROP INDEX IF EXISTS "${VARIANT}"`);
    await sql.run(`CREATE INDEX IF NOT EXISTS "${TODAY}" ON "AnalyticsEvent" ("projectId", "ts")`);
    return lines.join('\n');
  } finally {
    await sql.close();
  }
}
