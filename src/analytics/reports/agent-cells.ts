import type { TimeRange } from '../../calendar.js';
import { addPageCardinalities, RoaringBitmap32, type Bitmap } from '../store/day-sets.js';
import type { Sql } from '../store/sql.js';
import type { Cached, CacheLease } from '../store/day-cache.js';
import { addToCells, type CellData, loadAgentDays } from '../store/rollups/agent-days.js';
import { agentEdgeEvents } from '../store/ai-traffic-queries.js';
import { cellKey, cellOf, type AgentCell } from '../store/rollups/agent-cell.js';
import { pushTo, unionOf } from './range-sources.js';
import type { pageMasks } from '../store/day-sets.js';
import { type Planning, rangeSegments, type SegmentFamily } from './segments.js';
import { PageCounts, type PageViews } from '../store/page-counts.js';

/** A range's cell: its bitmaps per part, and its views per page added up. */
export type RangeCell = CellData<Bitmap[], PageCounts>;

/** What a visitor count reads of a cell: its bitmaps per part. */
type CellParts = Pick<CellData<Bitmap[]>, 'parts'>;

/** A day's or an aligned segment's cells, one bitmap per part: cached, shared, never disposed by a reader. */
interface SegmentCells extends Cached {
  cells: Map<string, CellData<Bitmap, PageViews>>;
  owned: Bitmap[];
}

/**
 * The agent rollup: a segment's cells are its days' cells merged per key. Views only: the same without bitmaps, stored
 * apart (`agent-views`), a few hundred kilobytes where the cells with bitmaps take megabytes. With a page: its pairs
 * alone, cut from each stored bitmap as read (the entry owns them).
 */
const AGENT_CELLS = (sql: Sql, options: { viewsOnly: boolean; pageId?: number }): SegmentFamily<SegmentCells> => ({
  name: options.viewsOnly
    ? 'agent-views'
    : options.pageId === undefined
      ? 'agents'
      : `agents of page ${options.pageId}`,
  loadDay: async (projectId, day) => {
    const cells = [...(await loadAgentDays(sql, { projectId, fromDay: day, toDay: day + 1, ...options })).values()];
    const segment = mergeCells(cells);
    if (options.pageId !== undefined)
      for (const data of cells) for (const list of data.parts.values()) segment.owned.push(...list);
    return segment;
  },
  unite: (pieces) =>
    mergeCells(
      pieces.flatMap((piece) =>
        [...piece.cells.values()].map((cell) => ({
          ...cell,
          parts: new Map([...cell.parts].map(([part, bitmap]) => [part, [bitmap]])),
        })),
      ),
    ),
});

/**
 * One page's pairs of the agent rollup's cells of the range's whole days (cached segments, one bitmap per part, never
 * to be disposed) and the ranges to read from raw events, unread: for a page's story, which reads its edge events alone.
 */
export function agentCellSegments(
  params: Planning & { cache: CacheLease; pageId: number },
): Promise<{ segments: { cells: Map<string, CellData<Bitmap, PageViews>> }[]; edges: TimeRange[] }> {
  return rangeSegments(params, AGENT_CELLS(params.sql, { viewsOnly: false, pageId: params.pageId }));
}

/**
 * Cells of the same key merged: views added, bitmaps united per part. A cell met once (every cell of a day as loaded)
 * is shared, not copied.
 */
function mergeCells(list: CellData<Bitmap[], PageViews>[]): SegmentCells {
  const grouped = new Map<string, CellData<Bitmap[], PageViews>[]>();
  for (const data of list) pushTo(grouped, cellKey(data.cell), data);
  const cells = new Map<string, CellData<Bitmap, PageViews>>();
  const owned: Bitmap[] = [];
  let bytes = 0;
  for (const [key, group] of grouped) {
    let views = group[0].views;
    if (group.length > 1) {
      const sum = new PageCounts();
      for (const data of group) data.views.addTo(sum);
      views = sum;
    }
    const parts = partUnions(group, owned);
    for (const union of parts.values()) bytes += union.getSerializationSizeInBytes(true);
    bytes += views.byteLength;
    cells.set(key, { cell: group[0].cell, parts, views });
  }
  return { cells, bytes, owned };
}

/**
 * Runs `read` over the agent rollup's cells of a range and frees the bitmaps built for it afterwards (cached ones
 * stay). The range is answered as the visitors export answers it: its whole days from the rollup (cached unions of
 * aligned segments of days), the rest from raw events (see planRange).
 */
export async function withAgentCells<T>(
  params: Planning & {
    cache: CacheLease;
    /** the views alone, no bitmaps (a report that counts no visitors) */
    viewsOnly?: boolean;
    /** AI and spoofed AI cells alone: the edges' human views are not read */
    aiOnly?: boolean;
    /** with aiOnly: the humans an assistant sent as well */
    referred?: boolean;
    /** false: the reader counts a few pages' (or the site's) visitors: no union is built for it (see rangeSegments) */
    unite?: boolean;
  },
  read: (cells: RangeCell[]) => T | Promise<T>,
): Promise<T> {
  const { sql, projectId, aiOnly, referred } = params;
  // while the project is being rebuilt, the raw events answer it all
  const family = AGENT_CELLS(sql, { viewsOnly: params.viewsOnly ?? false });
  const { segments, edges } = await rangeSegments(params, family);
  const cells = new Map<string, RangeCell>();
  const cellFor = (data: { cell: AgentCell }) => {
    const key = cellKey(data.cell);
    let target = cells.get(key);
    if (!target) cells.set(key, (target = { cell: data.cell, parts: new Map(), views: new PageCounts() }));
    return target;
  };
  for (const segment of segments) {
    for (const data of segment.cells.values()) {
      const target = cellFor(data);
      data.views.addTo(target.views);
      for (const [part, bitmap] of data.parts) pushTo(target.parts, part, bitmap);
    }
  }
  const pending = new Map<string, CellData<number[]>>();
  for (const range of edges) {
    for (const e of await agentEdgeEvents(sql, { projectId, range, aiOnly, referred })) {
      const cell = cellOf(e);
      if (cell) addToCells(pending, cell, e, !params.viewsOnly);
    }
  }
  // the edges' bitmaps are built here and are the only ones freed afterwards
  const owned: Bitmap[] = [];
  try {
    for (const data of pending.values()) {
      const target = cellFor(data);
      data.views.forEach(target.views.add);
      for (const [part, keys] of data.parts) {
        const bitmap = new RoaringBitmap32(keys);
        owned.push(bitmap);
        pushTo(target.parts, part, bitmap);
      }
    }
    return await read([...cells.values()]);
  } finally {
    for (const bitmap of owned) bitmap.dispose();
  }
}

function byPart(cells: CellParts[]): Map<number, Bitmap[]> {
  const parts = new Map<number, Bitmap[]>();
  for (const data of cells) for (const [part, bitmaps] of data.parts) pushTo(parts, part, ...bitmaps);
  return parts;
}

/**
 * Distinct visitors per page (page 0: the whole site) of the union of the cells: a visitor seen in several of them,
 * on several days, counts once.
 */
export function distinctByPage(cells: CellParts[]): Map<number, number> {
  const built: Bitmap[] = [];
  try {
    return pageCardinalities(partUnions(cells, built));
  } finally {
    for (const bitmap of built) bitmap.dispose();
  }
}

/**
 * Per part, the union of the cells' bitmaps (or of already united ones, as single-bitmap cells); with `masks`, of the
 * masked pages' keys alone. A part held by one bitmap shares it; the unions built are added to `built` for the caller
 * to dispose once it has read them.
 */
export function partUnions(
  cells: CellParts[],
  built: Bitmap[],
  masks?: ReturnType<typeof pageMasks>,
): Map<number, Bitmap> {
  const unions = new Map<number, Bitmap>();
  for (const [part, list] of byPart(cells)) {
    const mask = masks?.of(part);
    if (masks && !mask) continue;
    if (list.length === 1) {
      unions.set(part, list[0]);
      continue;
    }
    const union = unionOf(list, mask);
    built.push(union);
    unions.set(part, union);
  }
  return unions;
}

/** Distinct visitors per page (page 0: the site) of per-part unions. */
export function pageCardinalities(unions: Map<number, Bitmap>): Map<number, number> {
  const counts = new Map<number, number>();
  for (const [part, union] of unions) addPageCardinalities(part, union, counts);
  return counts;
}

/** Per-part unions as a cell, so they can be united further (views are not carried). */
export function unionsAsCell(cell: AgentCell, unions: Map<number, Bitmap>): RangeCell {
  return { cell, parts: new Map([...unions].map(([part, union]) => [part, [union]])), views: new PageCounts() };
}

/** Every key of the site page within a part (its container 0), as one run. */
const SITE_KEYS = new RoaringBitmap32();
SITE_KEYS.addRange(0, 65536);
SITE_KEYS.runOptimize();

/** Distinct visitors site-wide of the union of the cells (only the site page's containers are merged). */
export function siteDistinct(cells: CellParts[]): number {
  let total = 0;
  // page 0 lives in the parts of page block 0, as the keys below 65536
  for (const [part, list] of byPart(cells)) {
    if (part >= 65536) continue;
    if (list.length === 1) {
      total += list[0].rangeCardinality(0, 65536);
      continue;
    }
    const union = new RoaringBitmap32();
    for (const bitmap of list) {
      const sitePairs = RoaringBitmap32.and(bitmap, SITE_KEYS);
      union.orInPlace(sitePairs);
      sitePairs.dispose();
    }
    total += union.size;
    union.dispose();
  }
  return total;
}

/** Views per page of the cells together. */
export function viewsByPage(cells: RangeCell[]): PageCounts {
  const sum = new PageCounts();
  for (const data of cells) sum.addSums(data.views);
  return sum;
}

/**
 * A row per group and page with views (the site's figures are no row), from each group's views: as positions in
 * three typed arrays, so that a report of tens of thousands of (agent, page) rows builds them in a few copies.
 */
export function pageRows(views: PageCounts[]): { groupAt: Uint32Array; pageAt: Uint32Array; viewsAt: Float64Array } {
  const entries = views.map((sums) => sums.pageEntries());
  const count = entries.reduce((n, e) => n + e.pages.length, 0);
  const groupAt = new Uint32Array(count);
  const pageAt = new Uint32Array(count);
  const viewsAt = new Float64Array(count);
  let at = 0;
  entries.forEach(({ pages, counts }, group) => {
    groupAt.fill(group, at, at + pages.length);
    pageAt.set(pages, at);
    viewsAt.set(counts, at);
    at += pages.length;
  });
  return { groupAt, pageAt, viewsAt };
}

export function totalViews(cells: RangeCell[]): number {
  let total = 0;
  for (const data of cells) total += data.views.total();
  return total;
}
