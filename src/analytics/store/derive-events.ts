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
  const projects = groupChunk(rows);
  for (const [projectId, chunk] of projects) await mergeDaySets(tx, projectId, chunk.pairs);
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
    rows: [...projects].flatMap(([projectId, chunk]) =>
      [...chunk.views].map(([key, n]) => {
        const kind = key % 4;
        const dayPage = (key - kind) / 4;
        const pageId = dayPage % PAGE_IDS;
        return [projectId, (dayPage - pageId) / PAGE_IDS, pageId, kind, n];
      }),
    ),
    suffix:
      'ON CONFLICT ("projectId", "day", "pageId", "kind") DO UPDATE SET "views" = "AnalyticsDayViews"."views" + excluded."views"',
  });
  await bumpDayGenerations(
    tx,
    [...projects].flatMap(([projectId, chunk]) => [...chunk.days].map((day) => `${projectId}\0${day}`)),
  );
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

/** Page ids are 32-bit integers: a view's key (day, page, class) packs them below 2^53. */
const PAGE_IDS = 2 ** 31;

/** One project's events of a chunk, keyed by numbers (with string keys, grouping took a fifth of the fold's time). */
interface ProjectChunk {
  /** day × 4 + class → part → pending pair keys */
  pairs: Map<number, Map<number, number[]>>;
  /** (day × PAGE_IDS + page) × 4 + class → views */
  views: Map<number, number>;
  /** every day an event falls on, bots' too: a rollup may count them, and a changed day must be reloaded */
  days: Set<number>;
}

/** A chunk's counted events per project: pending pairs per day set, views per day and page, and the days touched. */
function groupChunk(rows: EventRow[]): Map<string, ProjectChunk> {
  const projects = new Map<string, ProjectChunk>();
  for (const [, projectId, ts, pageId, visitorId, kind] of rows) {
    let chunk = projects.get(projectId);
    if (!chunk) projects.set(projectId, (chunk = { pairs: new Map(), views: new Map(), days: new Set() }));
    const day = Math.floor(Number(ts) / DAY_MS);
    chunk.days.add(day);
    if (kind === KIND.bot || visitorId === null) continue;
    const setKey = day * 4 + kind;
    let parts = chunk.pairs.get(setKey);
    if (!parts) chunk.pairs.set(setKey, (parts = new Map()));
    addPair(parts, pageId, visitorId);
    const viewKey = (day * PAGE_IDS + pageId) * 4 + kind;
    chunk.views.set(viewKey, (chunk.views.get(viewKey) ?? 0) + 1);
  }
  return projects;
}

/** Adds a project's pending pairs to its stored day sets: a read, a union and a write per part. */
async function mergeDaySets(tx: Sql, projectId: string, pairs: Map<number, Map<number, number[]>>): Promise<void> {
  for (const [setKey, parts] of pairs) {
    const kind = setKey % 4;
    const day = (setKey - kind) / 4;
    for (const [part, keys] of parts) {
      const params: Param[] = [projectId, day, kind, part];
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
