import type { Param, Sql } from './sql.js';
import { addPair, KIND, RoaringBitmap32 } from './day-sets.js';
import { DAY_MS } from '../../calendar.js';
import type { FoldedEvent, Rollup } from './rollups/rollup.js';

/** An event row as the fold and the rebuild select it (`EVENT_COLUMNS`, in order). */
export type EventRow = [
  id: number | string,
  projectId: string,
  ts: number | string,
  pageId: number,
  visitorId: number | null,
  kind: number,
  agent: string | null,
  verification: number | null,
  referrer: string | null,
];

export const EVENT_COLUMNS =
  '"id", "projectId", "ts", "pageId", "visitorId", "kind", "agent", "verification", "referrer"';

/**
 * Adds a chunk of raw events to the derived tables: the day sets, the day views, the generations of the days they
 * touch (so cached copies are reloaded), and each given rollup. Additive: chunks may come in any order, as a rebuild re-adds a
 * project's old events after newer ones were folded.
 */
export async function deriveEvents(tx: Sql, rows: EventRow[], rollups: Rollup[]): Promise<void> {
  const { pairs, views, days } = groupChunk(rows);
  await mergeDaySets(tx, pairs);
  const events = rows.map(foldedEvent);
  for (const rollup of rollups) await rollup.add(tx, events);
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
  await bumpDayGenerations(tx, days);
}

/**
 * Bumps the generation of each day (keys `<projectId>\0<day>`), so copies of its derived rows cached under the old
 * generation are read again.
 */
export async function bumpDayGenerations(tx: Sql, days: Iterable<string>): Promise<void> {
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
}

export function foldedEvent([
  id,
  projectId,
  ts,
  pageId,
  visitorId,
  kind,
  agent,
  verification,
  referrer,
]: EventRow): FoldedEvent {
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
    referrer,
  };
}

/**
 * A chunk's counted events as pending pairs per day set, views per day and page, and the days they touch (any
 * event's day, bots' too: a rollup may count them, and a changed day must be reloaded).
 */
function groupChunk(rows: EventRow[]) {
  const pairs = new Map<string, Map<number, number[]>>(); // project\0day\0kind → part → keys
  const views = new Map<string, number>(); // project\0day\0page\0kind → views
  const days = new Set<string>();
  for (const [, projectId, ts, pageId, visitorId, kind] of rows) {
    const day = Math.floor(Number(ts) / DAY_MS);
    const dayKey = `${projectId}\0${day}`;
    days.add(dayKey);
    if (kind === KIND.bot || visitorId === null) continue;
    const setKey = `${dayKey}\0${kind}`;
    let parts = pairs.get(setKey);
    if (!parts) pairs.set(setKey, (parts = new Map()));
    addPair(parts, pageId, visitorId);
    const viewKey = `${dayKey}\0${pageId}\0${kind}`;
    views.set(viewKey, (views.get(viewKey) ?? 0) + 1);
  }
  return { pairs, views, days };
}

/** Adds pending pairs to the stored day sets: a read, a union and a write per part. */
async function mergeDaySets(tx: Sql, pairs: Map<string, Map<number, number[]>>): Promise<void> {
  for (const [setKey, parts] of pairs) {
    const [projectId, dayText, kind] = setKey.split('\0');
    const day = Number(dayText);
    for (const [part, keys] of parts) {
      const params: Param[] = [projectId, day, Number(kind), part];
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
