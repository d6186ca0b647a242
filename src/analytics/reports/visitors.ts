import {
  addPageCardinalities,
  addPair,
  KIND,
  pageMasks,
  RoaringBitmap32,
  SITE_PAGE,
  type Bitmap,
} from '../store/day-sets.js';
import type { CacheLease } from '../store/day-cache.js';
import { gatherSets, pushTo, unionOf, type Sources } from './range-sources.js';
import { plannedOnce, type Planning, rangeAnswer } from './segments.js';

export interface Counts {
  human: number;
  ai: number;
  total: number;
}

export interface RangeCounts {
  totals: Counts;
  /** page id → counts, pages with at least one counted view in the range */
  pages: Map<number, Counts>;
}

/**
 * Exact distinct visitors per page and site-wide over a range: per part the union of the range's day sets (and of
 * the edges' pairs) per class and across classes, each page's count its container's cardinality. With `pages`, those
 * pages' counts alone (and the totals), from unions of their containers alone.
 */
export async function countVisitors(params: VisitorsQuery): Promise<RangeCounts> {
  // every page's: the same counts answer each page of an export's rows; some pages': the same rows asked again
  const name = params.pages ? `visitors of pages ${params.pages.join(',')}` : 'visitors by page';
  // the range planned once: the kept answer's key and, when it is counted, the day sets read by the same plan
  const query = await plannedOnce(params);
  return rangeAnswer({ ...query, name }, async () => keptCounts(await countDistinctVisitors(query)));
}

interface VisitorsQuery extends Planning {
  cache: CacheLease;
  pages?: readonly number[];
}

/** Counts as the analytics cache keeps them: with about what they hold, for its byte budget. */
export const keptCounts = (counts: RangeCounts) => ({ ...counts, bytes: 64 + counts.pages.size * 64 });

async function countDistinctVisitors(params: VisitorsQuery): Promise<RangeCounts> {
  // a few pages' counts are cut from the days' sets (or the segments cached), with no union built for them
  const { byKind, owned } = groupByPart(await gatherSets({ ...params, unite: !params.pages }));
  try {
    return rangeCounts(countDistinct(byKind, params.pages && [SITE_PAGE, ...params.pages]), params.pages);
  } finally {
    for (const bitmap of owned) bitmap.dispose();
  }
}

/** Per column, distinct visitors per page (page 0 the site). */
type ColumnFigures = Record<'human' | 'ai' | 'total', Map<number, number>>;

/** Per-page figures of the three columns (page 0 the site) as the export's counts; of `pages` alone if given. */
function rangeCounts({ human, ai, total }: ColumnFigures, pages?: readonly number[]): RangeCounts {
  const counts = (page: number): Counts => ({
    human: human.get(page) ?? 0,
    ai: ai.get(page) ?? 0,
    total: total.get(page) ?? 0,
  });
  const byPage = new Map<number, Counts>();
  for (const page of pages ?? total.keys())
    if (page !== SITE_PAGE && total.get(page) !== undefined) byPage.set(page, counts(page));
  return { totals: counts(SITE_PAGE), pages: byPage };
}

type ByKind = Map<number, Map<number, Bitmap[]>>;

/**
 * The range's day sets and its edge events (as bitmaps built here, `owned`: the caller disposes of them), grouped
 * by kind and part.
 */
function groupByPart(sources: Sources): { byKind: ByKind; owned: Bitmap[] } {
  const byKind: ByKind = new Map([
    [KIND.human, new Map()],
    [KIND.ai, new Map()],
  ]);
  for (const segment of sources.segments)
    for (const [kind, parts] of segment.sets)
      for (const [part, bitmap] of parts) pushTo(byKind.get(kind)!, part, bitmap);
  const edgeKeys = new Map<number, Map<number, number[]>>([
    [KIND.human, new Map()],
    [KIND.ai, new Map()],
  ]);
  for (const e of sources.edges) addPair(edgeKeys.get(e.kind)!, e.pageId, e.visitorId);
  const owned: Bitmap[] = [];
  for (const [kind, parts] of edgeKeys) {
    for (const [part, keys] of parts) {
      const bitmap = new RoaringBitmap32(keys);
      owned.push(bitmap);
      pushTo(byKind.get(kind)!, part, bitmap);
    }
  }
  return { byKind, owned };
}

/** Distinct visitors per page (and for the site, page 0) of each kind and of both together; of `pages` at least. */
function countDistinct(byKind: ByKind, pages?: readonly number[]): ColumnFigures {
  const human = new Map<number, number>();
  const ai = new Map<number, number>();
  const total = new Map<number, number>();
  const allParts = new Set([...byKind.get(KIND.human)!.keys(), ...byKind.get(KIND.ai)!.keys()]);
  // Unions are large and live in native memory the JS garbage collector does not see: they are freed
  // explicitly as soon as their cardinalities are read (cached sets are never freed here).
  const temporary: Bitmap[] = [];
  const masks = pages && pageMasks(pages);
  let mask: Bitmap | undefined;
  const union = (list: Bitmap[] | undefined) => {
    if (list?.length === 1) return list[0];
    const result = list ? unionOf(list, mask) : new RoaringBitmap32();
    temporary.push(result);
    return result;
  };
  try {
    for (const part of allParts) {
      mask = masks?.of(part);
      if (masks && !mask) continue;
      const h = union(byKind.get(KIND.human)!.get(part));
      const a = union(byKind.get(KIND.ai)!.get(part));
      addPageCardinalities(part, h, human);
      addPageCardinalities(part, a, ai);
      // the human union is ours to change once read: merging the (smaller) AI union into it saves a copy
      if (temporary.includes(h)) addPageCardinalities(part, h.orInPlace(a), total);
      else addPageCardinalities(part, union([h, a]), total);
      for (const bitmap of temporary.splice(0)) bitmap.dispose();
    }
  } finally {
    for (const bitmap of temporary) bitmap.dispose();
    masks?.dispose();
  }
  return { human, ai, total };
}
