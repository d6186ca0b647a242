import type { TimeRange } from '../../calendar.js';
import { addPageCardinalities, RoaringBitmap32, type Bitmap } from '../store/day-sets.js';
import type { AnalyticsStore } from '../store/event-store.js';
import { addToCells, cellOf, type CellData } from '../store/rollups/agent-days.js';
import { splitRange, unionOf } from './range-sources.js';

/** A range's agent cells: every bitmap in them belongs to the caller until `dispose()`. */
export interface RangeCells {
  cells: CellData<Bitmap[]>[];
  dispose(): void;
}

/**
 * The agent rollup's cells over a range, answered as the visitors export answers a range: its whole days from the
 * rollup, its partial-day edges from raw events (see splitRange).
 */
export async function gatherAgentCells(params: {
  store: Pick<AnalyticsStore, 'agentDays' | 'agentEdgeEvents'>;
  projectId: string;
  range: TimeRange;
}): Promise<RangeCells> {
  const { store, projectId, range } = params;
  const { days, edges } = splitRange(range);
  const cells = days ? await store.agentDays(projectId, days[0], days[1]) : new Map<string, CellData<Bitmap[]>>();
  const pending = new Map<string, CellData<number[]>>();
  for (const edge of edges) {
    for (const e of await store.agentEdgeEvents(projectId, edge)) {
      const cell = cellOf(e);
      if (cell) addToCells(pending, cell, e);
    }
  }
  for (const [key, data] of pending) {
    let target = cells.get(key);
    if (!target) cells.set(key, (target = { cell: data.cell, parts: new Map(), views: new Map() }));
    for (const [page, n] of data.views) target.views.set(page, (target.views.get(page) ?? 0) + n);
    for (const [part, keys] of data.parts) {
      const list = target.parts.get(part);
      const bitmap = new RoaringBitmap32(keys);
      if (list) list.push(bitmap);
      else target.parts.set(part, [bitmap]);
    }
  }
  const list = [...cells.values()];
  return {
    cells: list,
    dispose: () => {
      for (const data of list) for (const bitmaps of data.parts.values()) for (const b of bitmaps) b.dispose();
    },
  };
}

/** Runs `read` over the range's cells and frees their bitmaps afterwards. */
export async function withAgentCells<T>(
  params: Parameters<typeof gatherAgentCells>[0],
  read: (cells: CellData<Bitmap[]>[]) => T,
): Promise<T> {
  const range = await gatherAgentCells(params);
  try {
    return read(range.cells);
  } finally {
    range.dispose();
  }
}

function byPart(cells: CellData<Bitmap[]>[]): Map<number, Bitmap[]> {
  const parts = new Map<number, Bitmap[]>();
  for (const data of cells) {
    for (const [part, bitmaps] of data.parts) {
      const list = parts.get(part);
      if (list) list.push(...bitmaps);
      else parts.set(part, [...bitmaps]);
    }
  }
  return parts;
}

/**
 * Distinct visitors per page (page 0: the whole site) of the union of the cells: a visitor seen in several of them,
 * on several days, counts once.
 */
export function distinctByPage(cells: CellData<Bitmap[]>[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const [part, list] of byPart(cells)) {
    if (list.length === 1) {
      addPageCardinalities(part, list[0], counts);
      continue;
    }
    const union = unionOf(list);
    addPageCardinalities(part, union, counts);
    union.dispose();
  }
  return counts;
}

/** Every key of the site page within a part (its container 0), as one run. */
const SITE_KEYS = new RoaringBitmap32();
SITE_KEYS.addRange(0, 65536);
SITE_KEYS.runOptimize();

/** Distinct visitors site-wide of the union of the cells (only the site page's containers are merged). */
export function siteDistinct(cells: CellData<Bitmap[]>[]): number {
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
export function viewsByPage(cells: CellData<Bitmap[]>[]): Map<number, number> {
  const views = new Map<number, number>();
  for (const data of cells) for (const [page, n] of data.views) views.set(page, (views.get(page) ?? 0) + n);
  return views;
}

export function totalViews(cells: CellData<Bitmap[]>[]): number {
  let total = 0;
  for (const data of cells) for (const n of data.views.values()) total += n;
  return total;
}
