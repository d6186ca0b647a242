import type { TimeRange } from '../../calendar.js';
import { countPartVisitors, pairsBlob, SITE_PAGE } from '../store/day-sets.js';
import type { Sql } from '../store/sql.js';
import type { Cached, DayCache } from '../store/day-cache.js';
import { addToCells, type CellData, loadAgentDays } from '../store/rollups/agent-days.js';
import { agentEdgeEvents } from '../store/ai-traffic-queries.js';
import { cellKey, cellOf } from '../store/rollups/agent-cell.js';
import { pushTo } from './range-sources.js';
import { type DayFamily, type Planning, rangeDays } from './range-days.js';
import { PageCounts, type PageViews } from '../store/page-counts.js';

/** A range's cell: its stored blobs per part (every day's), and its views per page added up. */
export type RangeCell = CellData<Buffer[], PageCounts>;

/** What a visitor count reads of a cell: its blobs per part. */
type CellParts = Pick<CellData<Buffer[]>, 'parts'>;

/** A day's cells as stored. */
interface DayCells extends Cached {
  cells: Map<string, CellData<Buffer[], PageViews>>;
}

/**
 * The agent rollup, read day by day. Views only: the same without blobs, kept apart (`agent-views`), a few hundred
 * kilobytes where the cells with blobs take megabytes. With a page: the blobs of its parts alone (loadAgentDays).
 */
const AGENT_CELLS = (sql: Sql, options: { viewsOnly: boolean; pageId?: number }): DayFamily<DayCells> => ({
  name: options.viewsOnly
    ? 'agent-views'
    : options.pageId === undefined
      ? 'agents'
      : `agents of page ${options.pageId}`,
  loadDays: async (projectId, days) => {
    const byDay = await loadAgentDays(sql, { projectId, days, ...options });
    return new Map(
      [...byDay].map(([day, cells]) => {
        let bytes = 0;
        for (const data of cells.values()) {
          bytes += data.views.byteLength;
          for (const blobs of data.parts.values()) for (const blob of blobs) bytes += blob.length;
        }
        return [day, { cells, bytes }];
      }),
    );
  },
  empty: () => ({ cells: new Map(), bytes: 0 }),
});

/**
 * One page's share of the agent rollup's cells of the range's whole days, day by day, and the ranges to read from raw
 * events, unread: for a page's story, which reads its edge events alone.
 */
export function agentCellDays(
  params: Planning & { cache: DayCache; pageId: number },
): Promise<{ days: DayCells[]; edges: TimeRange[] }> {
  return rangeDays(params, AGENT_CELLS(params.sql, { viewsOnly: false, pageId: params.pageId }));
}

/**
 * Runs `read` over the agent rollup's cells of a range. The range is answered as the visitors export answers it: its
 * whole days from the rollup, the rest from raw events (see planRange).
 */
export async function withAgentCells<T>(
  params: Planning & {
    cache: DayCache;
    /** the views alone, no blobs (a report that counts no visitors) */
    viewsOnly?: boolean;
    /** AI and spoofed AI cells alone: the edges' human views are not read */
    aiOnly?: boolean;
    /** with aiOnly: the humans an assistant sent as well */
    referred?: boolean;
  },
  read: (cells: RangeCell[]) => T | Promise<T>,
): Promise<T> {
  const { sql, projectId, aiOnly, referred } = params;
  // while the project is being rebuilt, the raw events answer it all
  const { days, edges } = await rangeDays(params, AGENT_CELLS(sql, { viewsOnly: params.viewsOnly ?? false }));
  const cells = new Map<string, RangeCell>();
  const cellFor = (data: CellData<unknown, unknown>) => {
    const key = cellKey(data.cell);
    let target = cells.get(key);
    if (!target) cells.set(key, (target = { cell: data.cell, parts: new Map(), views: new PageCounts() }));
    return target;
  };
  for (const day of days) {
    for (const data of day.cells.values()) {
      const target = cellFor(data);
      data.views.addTo(target.views);
      for (const [part, blobs] of data.parts) pushTo(target.parts, part, ...blobs);
    }
  }
  const pending = new Map<string, CellData<number[]>>();
  for (const range of edges) {
    for (const e of await agentEdgeEvents(sql, { projectId, range, aiOnly, referred })) {
      const cell = cellOf(e);
      if (cell) addToCells(pending, cell, e, !params.viewsOnly);
    }
  }
  for (const data of pending.values()) {
    const target = cellFor(data);
    data.views.forEach(target.views.add);
    for (const [part, keys] of data.parts) pushTo(target.parts, part, pairsBlob(keys));
  }
  return read([...cells.values()]);
}

/**
 * Distinct visitors per page (page 0: the whole site) of the cells together, counted in place from their blobs: a
 * visitor seen in several of them, on several days, counts once. With `pages`, those pages' at least.
 */
export function distinctByPage(cells: CellParts[], pages?: ReadonlySet<number>): Map<number, number> {
  const byPart = new Map<number, Buffer[]>();
  for (const data of cells) for (const [part, blobs] of data.parts) pushTo(byPart, part, ...blobs);
  const counts = new Map<number, number>();
  for (const [part, blobs] of byPart) countPartVisitors(part, [{ blobs, counts }], { pages });
  return counts;
}

/**
 * Distinct visitors of the rows' pages, each row a group of cells and a page: per group, counted over its cells for
 * its rows' pages (see distinctByPage).
 */
export function visitorsOfRows<G>(
  rows: [G, number][],
  cellsOf: (group: G) => CellParts[],
): Map<G, Map<number, number>> {
  const pages = new Map<G, number[]>();
  for (const [group, page] of rows) pushTo(pages, group, page);
  return new Map([...pages].map(([group, list]) => [group, distinctByPage(cellsOf(group), new Set(list))]));
}

const SITE_ONLY = new Set([SITE_PAGE]);

/** Distinct visitors site-wide of the cells together (only the site page's containers are read). */
export function siteDistinct(cells: CellParts[]): number {
  return distinctByPage(cells, SITE_ONLY).get(SITE_PAGE) ?? 0;
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
