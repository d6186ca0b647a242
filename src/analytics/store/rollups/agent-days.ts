import { inChunks, type Param, type Sql } from '../sql.js';
import { addPair, RoaringBitmap32 } from '../day-sets.js';
import { pairsSelection } from '../read-days.js';
import type { FoldedEvent, Rollup } from './rollup.js';
import { bumpDayGenerations } from '../derive-events.js';
import { type AgentCell, cellKey, cellOf, isPlainHuman } from './agent-cell.js';
import { PackedCounts, type PageFigures, type PageViews } from '../page-counts.js';

/**
 * Per day, who each agent brought and how many views: the rollup behind the AI traffic reports (purposes, agent
 * pages, referrals, agents). A cell is (kind, agent, verification); its visitors are (page, visitor) bitmaps split
 * into parts exactly like the day sets (page 0 is the whole site), so any union of cells over any days is exact.
 * Humans no assistant sent have a views-only cell.
 */

/**
 * A cell's pending or loaded data: (page, visitor) keys or bitmaps by part, and views by page (a map while events are
 * added one by one; once loaded, packed as stored: see PageViews).
 */
export interface CellData<T, V = Map<number, number>> {
  cell: AgentCell;
  parts: Map<number, T>;
  views: V;
}

/** Adds an event to a map of cells (key → data), creating its cell. */
export function addToCells(
  cells: Map<string, CellData<number[]>>,
  cell: AgentCell,
  e: { pageId: number; visitorId: number | null },
  /** false: the views alone (no visitor pairs for bitmaps) */
  withVisitors = true,
): void {
  const key = cellKey(cell);
  let data = cells.get(key);
  if (!data) cells.set(key, (data = { cell, parts: new Map(), views: new Map() }));
  data.views.set(e.pageId, (data.views.get(e.pageId) ?? 0) + 1);
  // spoofed views stored before they were given a visitor have views and no visitors
  if (withVisitors && e.visitorId !== null && !isPlainHuman(cell)) addPair(data.parts, e.pageId, e.visitorId);
}

/** Views by page as little-endian uint32 pairs (pageId, views), ascending by page. */
export function encodeViews(views: Map<number, number>): Buffer {
  const pages = [...views.keys()].sort((a, b) => a - b);
  const out = Buffer.alloc(pages.length * 8);
  pages.forEach((page, i) => {
    out.writeUInt32LE(page, i * 8);
    out.writeUInt32LE(views.get(page)!, i * 8 + 4);
  });
  return out;
}

/** Views by page as stored (encodeViews), packed as read. */
export function decodeViews(blob: Buffer): PackedCounts {
  const n = Math.floor(blob.length / 8);
  const [pages, counts] = [new Uint32Array(n), new Uint32Array(n)];
  for (let i = 0; i < n; i++) {
    pages[i] = blob.readUInt32LE(i * 8);
    counts[i] = blob.readUInt32LE(i * 8 + 4);
  }
  return new PackedCounts(pages, counts);
}

export function addDecodedViews(blob: Buffer, into: PageFigures): void {
  for (let at = 0; at + 8 <= blob.length; at += 8) {
    const page = blob.readUInt32LE(at);
    into.set(page, (into.get(page) ?? 0) + blob.readUInt32LE(at + 4));
  }
}

const CELL_WHERE = '"projectId" = ? AND "day" = ? AND "kind" = ? AND "agent" = ? AND "verification" = ?';

/** Merges a chunk's cell into its stored rows. */
async function mergeCell(tx: Sql, projectId: string, day: number, data: CellData<number[]>): Promise<void> {
  const { kind, agent, verification } = data.cell;
  const params: Param[] = [projectId, day, kind, agent, verification];
  const [stored] = await tx.query<{ views: Buffer }>(
    `SELECT "views" FROM "AnalyticsAgentDayViews" WHERE ${CELL_WHERE}`,
    params,
  );
  const views = new Map<number, number>();
  if (stored) addDecodedViews(stored.views, views);
  for (const [page, n] of data.views) views.set(page, (views.get(page) ?? 0) + n);
  await tx.run(
    'INSERT INTO "AnalyticsAgentDayViews" ("projectId", "day", "kind", "agent", "verification", "views") VALUES (?, ?, ?, ?, ?, ?) ' +
      'ON CONFLICT ("projectId", "day", "kind", "agent", "verification") DO UPDATE SET "views" = excluded."views"',
    [...params, encodeViews(views)],
  );
  if (!data.parts.size) return;
  const existing = await tx.query<{ part: number; pairs: Buffer }>(
    `SELECT "part", "pairs" FROM "AnalyticsAgentDaySet" WHERE ${CELL_WHERE}`,
    params,
  );
  const storedParts = new Map(existing.map((r) => [Number(r.part), r.pairs]));
  for (const [part, keys] of data.parts) {
    const blob = storedParts.get(part);
    const bitmap = blob ? RoaringBitmap32.deserialize(blob, true) : new RoaringBitmap32();
    bitmap.addMany(keys);
    const pairs = Buffer.from(bitmap.serialize(true) as Uint8Array);
    bitmap.dispose(); // native memory: do not wait for the garbage collector
    await tx.run(
      'INSERT INTO "AnalyticsAgentDaySet" ("projectId", "day", "kind", "agent", "verification", "part", "pairs") VALUES (?, ?, ?, ?, ?, ?, ?) ' +
        'ON CONFLICT ("projectId", "day", "kind", "agent", "verification", "part") DO UPDATE SET "pairs" = excluded."pairs"',
      [...params, part, pairs],
    );
  }
}

export const agentDaysRollup: Rollup = {
  name: 'agent days',
  tables: ['AnalyticsAgentDaySet', 'AnalyticsAgentDayViews'],
  async add(tx: Sql, events: FoldedEvent[]): Promise<void> {
    const byDay = new Map<string, Map<string, CellData<number[]>>>(); // project\0day → cells
    for (const e of events) {
      const cell = cellOf(e);
      if (!cell) continue;
      const dayKey = `${e.projectId}\0${e.day}`;
      let cells = byDay.get(dayKey);
      if (!cells) byDay.set(dayKey, (cells = new Map()));
      addToCells(cells, cell, e);
    }
    for (const [dayKey, cells] of byDay) {
      const [projectId, day] = dayKey.split('\0');
      for (const data of cells.values()) await mergeCell(tx, projectId, Number(day), data);
    }
    // cached copies of a day are checked against its generation: days with only spoofed views change here alone
    await bumpDayGenerations(tx, byDay.keys());
  },
};

/**
 * The stored cells of some days of a project, by day, each with its blobs per part (portable format, counted in place:
 * see countPartVisitors); `viewsOnly`: their views alone (a report that counts no visitors). With `pageId`, the blobs
 * of that page's parts alone, cut to its container on PostgreSQL (pairsSelection). Days without cells are absent.
 */
export async function loadAgentDays(
  sql: Sql,
  params: { projectId: string; days: number[]; viewsOnly?: boolean; pageId?: number },
): Promise<Map<number, Map<string, CellData<Buffer[], PageViews>>>> {
  const byDay = new Map<number, Map<string, CellData<Buffer[], PageViews>>>();
  const cellData = (day: unknown, kind: unknown, agent: string, verification: unknown) => {
    const cell = { kind: Number(kind), agent, verification: Number(verification) };
    const key = cellKey(cell);
    let cells = byDay.get(Number(day));
    if (!cells) byDay.set(Number(day), (cells = new Map()));
    let data = cells.get(key);
    if (!data)
      cells.set(
        key,
        (data = { cell, parts: new Map(), views: new PackedCounts(new Uint32Array(), new Uint32Array()) }),
      );
    return data;
  };
  const { projectId, pageId } = params;
  // one page's views alone: PostgreSQL cuts its pair out in the database (scribe_page_views, migration page_pairs)
  const cut = sql.provider === 'postgresql' ? pageId : undefined;
  const page = pairsSelection(sql, pageId);
  for (const days of inChunks(params.days)) {
    const where = `WHERE "projectId" = ? AND "day" IN (${days.map(() => '?').join(', ')})`;
    const viewRows = await sql.rows(
      `SELECT "day", "kind", "agent", "verification", ${cut === undefined ? '"views"' : 'scribe_page_views("views", ?)'} FROM "AnalyticsAgentDayViews" ${where}`,
      [...(cut === undefined ? [] : [cut]), projectId, ...days],
      ['int', 'int', 'text', 'int', 'bytes'],
    );
    for (const [day, kind, agent, verification, views] of viewRows)
      if (views !== null) cellData(day, kind, agent as string, verification).views = decodeViews(views as Buffer);
    if (params.viewsOnly) continue;
    const setRows = await sql.rows(
      `SELECT "day", "kind", "agent", "verification", "part", ${page.column} FROM "AnalyticsAgentDaySet" ${where}${page.parts}`,
      [...page.columnArgs, projectId, ...days, ...page.partArgs],
      ['int', 'int', 'text', 'int', 'int', 'bytes'],
    );
    for (const [day, kind, agent, verification, part, pairs] of setRows) {
      if (pairs === null) continue;
      const { parts } = cellData(day, kind, agent as string, verification);
      const list = parts.get(Number(part));
      if (list) list.push(pairs as Buffer);
      else parts.set(Number(part), [pairs as Buffer]);
    }
  }
  return byDay;
}
