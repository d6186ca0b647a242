import { addPair, countPartVisitors, KIND, pairsBlob, SITE_PAGE } from '../store/day-sets.js';
import type { DayCache } from '../store/day-cache.js';
import { gatherDayBlobs, pushTo } from './range-sources.js';
import { plannedOnce, type Planning, rangeAnswer } from './range-days.js';

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
 * Exact distinct visitors per page and site-wide over a range, per class and across classes: per part, the range's
 * stored day sets (and the edges' pairs) counted in place, page by page (countPartVisitors). With `pages`, those
 * pages' counts alone (and the totals).
 */
export async function countVisitors(params: VisitorsQuery): Promise<RangeCounts> {
  // every page's: the same counts answer each page of an export's rows; some pages': the same rows asked again
  const name = params.pages ? `visitors of pages ${params.pages.join(',')}` : 'visitors by page';
  // the range planned once: the kept answer's key and, when it is counted, the day sets read by the same plan
  const query = await plannedOnce(params);
  return rangeAnswer({ ...query, name }, async () => keptCounts(await countDistinctVisitors(query)));
}

interface VisitorsQuery extends Planning {
  cache: DayCache;
  pages?: readonly number[];
}

/** Counts as the analytics cache keeps them: with about what they hold, for its byte budget. */
export const keptCounts = (counts: RangeCounts) => ({ ...counts, bytes: 64 + counts.pages.size * 64 });

async function countDistinctVisitors(params: VisitorsQuery): Promise<RangeCounts> {
  const { days, edges } = await gatherDayBlobs(params);
  // per kind and part, the blobs to count: each day's, and the edges' pairs serialized alike
  const byKind = new Map<number, Map<number, Buffer[]>>([
    [KIND.human, new Map()],
    [KIND.ai, new Map()],
  ]);
  for (const day of days)
    for (const [kind, parts] of day.blobs) for (const [part, blob] of parts) pushTo(byKind.get(kind)!, part, blob);
  const edgeKeys = new Map<number, Map<number, number[]>>([
    [KIND.human, new Map()],
    [KIND.ai, new Map()],
  ]);
  for (const e of edges) addPair(edgeKeys.get(e.kind)!, e.pageId, e.visitorId);
  for (const [kind, parts] of edgeKeys)
    for (const [part, keys] of parts) pushTo(byKind.get(kind)!, part, pairsBlob(keys));
  const counted: ColumnFigures = { human: new Map(), ai: new Map(), total: new Map() };
  const pages = params.pages && new Set([SITE_PAGE, ...params.pages]);
  const [human, ai] = [byKind.get(KIND.human)!, byKind.get(KIND.ai)!];
  for (const part of new Set([...human.keys(), ...ai.keys()])) {
    const classes = [
      { blobs: human.get(part) ?? [], counts: counted.human },
      { blobs: ai.get(part) ?? [], counts: counted.ai },
    ];
    countPartVisitors(part, classes, { both: counted.total, pages });
  }
  return rangeCounts(counted, params.pages);
}

/** Distinct visitors per page (page 0 the site) of each class and of both together. */
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
