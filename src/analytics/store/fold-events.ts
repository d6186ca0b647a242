import type { Param, Sql } from './sql.js';
import { addPair, KIND, RoaringBitmap32 } from './day-sets.js';
import { DAY_MS } from '../../calendar.js';
import { ROLLUPS } from './rollups/all-rollups.js';
import type { FoldedEvent } from './rollups/rollup.js';

const FOLD_CHUNK = 200_000;

/**
 * Folds raw events after the watermark into the day sets and view counts, chunk by chunk, each chunk in the
 * transaction that advances the watermark; returns how many events it read.
 */
export async function foldEvents(sql: Sql): Promise<number> {
  // the common case, nothing new, costs one read and no write lock
  const [pending] = await sql.query<{ mark: unknown; top: unknown }>(
    'SELECT (SELECT "value" FROM "AnalyticsState" WHERE "name" = ?) AS mark, (SELECT MAX("id") FROM "AnalyticsEvent") AS top',
    ['folded'],
  );
  if (pending.top === null || Number(pending.top) <= Number(pending.mark ?? 0)) return 0;
  let total = 0;
  for (;;) {
    const n = await sql.transaction((tx) => foldChunk(tx));
    total += n;
    if (n < FOLD_CHUNK) return total;
  }
}

type EventRow = [
  id: number,
  projectId: string,
  ts: number | string,
  pageId: number,
  visitorId: number | null,
  kind: number,
  agent: string | null,
  verification: number | null,
];

async function foldChunk(tx: Sql): Promise<number> {
  const [state] = await tx.query<{ value: unknown }>('SELECT "value" FROM "AnalyticsState" WHERE "name" = ?', [
    'folded',
  ]);
  const mark = Number(state?.value ?? 0);
  const rows = (await tx.rows(
    'SELECT "id", "projectId", "ts", "pageId", "visitorId", "kind", "agent", "verification" FROM "AnalyticsEvent" WHERE "id" > ? ORDER BY "id" LIMIT ?',
    [mark, FOLD_CHUNK],
  )) as EventRow[];
  if (!rows.length) return 0;
  const { pairs, views, days } = groupChunk(rows);
  await mergeDaySets(tx, pairs);
  if (ROLLUPS.length) {
    const events = rows.map(foldedEvent);
    for (const rollup of ROLLUPS) await rollup.add(tx, events);
  }
  await tx.insertMany({
    table: 'AnalyticsDayViews',
    columns: [
      ['projectId', 'text'],
      ['day', 'int'],
      ['pageId', 'int'],
      ['kind', 'int'],
      ['views', 'int'],
    ],
    rows: [...views].map(([key, n]) => {
      const [projectId, day, page, kind] = key.split('\0');
      return [projectId, Number(day), Number(page), Number(kind), n];
    }),
    suffix:
      'ON CONFLICT ("projectId", "day", "pageId", "kind") DO UPDATE SET "views" = "AnalyticsDayViews"."views" + excluded."views"',
  });
  await tx.insertMany({
    table: 'AnalyticsDay',
    columns: [
      ['projectId', 'text'],
      ['day', 'int'],
      ['generation', 'int'],
    ],
    rows: [...days].map((key) => {
      const [projectId, day] = key.split('\0');
      return [projectId, Number(day), 1];
    }),
    suffix: 'ON CONFLICT ("projectId", "day") DO UPDATE SET "generation" = "AnalyticsDay"."generation" + 1',
  });
  await tx.run(
    'INSERT INTO "AnalyticsState" ("name", "value") VALUES (?, ?) ON CONFLICT ("name") DO UPDATE SET "value" = excluded."value"',
    ['folded', rows[rows.length - 1][0]],
  );
  return rows.length;
}

function foldedEvent([id, projectId, ts, pageId, visitorId, kind, agent, verification]: EventRow): FoldedEvent {
  const at = Number(ts);
  return {
    id: Number(id),
    projectId,
    ts: at,
    day: Math.floor(at / DAY_MS),
    pageId,
    visitorId,
    kind,
    agent,
    verification,
  };
}

/** A chunk's counted events as pending pairs per day set, views per day and page, and the days they touch. */
function groupChunk(rows: EventRow[]) {
  const pairs = new Map<string, Map<number, number[]>>(); // project\0day\0kind → part → keys
  const views = new Map<string, number>(); // project\0day\0page\0kind → views
  const days = new Set<string>();
  for (const [, projectId, ts, pageId, visitorId, kind] of rows) {
    if (kind === KIND.bot || visitorId === null) continue;
    const day = Math.floor(Number(ts) / DAY_MS);
    const dayKey = `${projectId}\0${day}`;
    days.add(dayKey);
    const setKey = `${dayKey}\0${kind}`;
    let parts = pairs.get(setKey);
    if (!parts) pairs.set(setKey, (parts = new Map()));
    addPair(parts, pageId, visitorId);
    const viewKey = `${dayKey}\0${pageId}\0${kind}`;
    views.set(viewKey, (views.get(viewKey) ?? 0) + 1);
  }
  return { pairs, views, days };
}

/** Adds pending pairs to the stored day sets (a read, an addMany and a write per part). */
async function mergeDaySets(tx: Sql, pairs: Map<string, Map<number, number[]>>): Promise<void> {
  for (const [setKey, parts] of pairs) {
    const [projectId, day, kind] = setKey.split('\0');
    for (const [part, keys] of parts) {
      const params: Param[] = [projectId, Number(day), Number(kind), part];
      const [existing] = await tx.query<{ pairs: Buffer }>(
        'SELECT "pairs" FROM "AnalyticsDaySet" WHERE "projectId" = ? AND "day" = ? AND "kind" = ? AND "part" = ?',
        params,
      );
      const bitmap = existing ? RoaringBitmap32.deserialize(existing.pairs, true) : new RoaringBitmap32();
      bitmap.addMany(keys);
      const blob = Buffer.from(bitmap.serialize(true) as Uint8Array);
      bitmap.dispose(); // native memory: do not wait for the garbage collector
      await tx.run(
        'INSERT INTO "AnalyticsDaySet" ("projectId", "day", "kind", "part", "pairs") VALUES (?, ?, ?, ?, ?) ' +
          'ON CONFLICT ("projectId", "day", "kind", "part") DO UPDATE SET "pairs" = excluded."pairs"',
        [...params, blob],
      );
    }
  }
}
