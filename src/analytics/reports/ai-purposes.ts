import type { TimeRange } from '../../calendar.js';
import { SITE_PAGE } from '../store/day-sets.js';
import type { Sql } from '../store/sql.js';
import type { Dictionaries } from '../store/dictionaries.js';
import type { DayCache } from '../store/day-cache.js';
import { compareCodePoints } from './compare-code-points.js';
import { pageByPath } from './weighted-page.js';
import { distinctByPage, type RangeCell, viewsByPage, withAgentCells } from './agent-cells.js';
import { PageCounts, type PageFigures } from '../store/page-counts.js';
import { type PurposeGroup, purposeGroupsOf } from '../store/rollups/agent-columns.js';
import { countVisitors, type Counts } from './visitors.js';

/** The compatible export's columns, plus the assistant/agent split that `otherAiViews` sums. */
export interface PurposeCounts {
  humanViews: number;
  aiViews: number;
  searchIndexViews: number;
  trainingViews: number;
  assistantViews: number;
  agentViews: number;
  /** assistant + agent + unidentified AI agents */
  otherAiViews: number;
  totalViews: number;
  /**
   * AI user agents from outside their operator's published ranges (spoofed): stored as bots, so in none of the
   * other columns; under `visitors`, the distinct visitor ids among them (0 for views stored before spoofed views
   * were given one)
   */
  unverifiedAiViews: number;
}

export interface PurposeSplit {
  totals: { views: PurposeCounts; visitors: PurposeCounts };
  /** every page with traffic in the range: views desc, then path asc */
  pages: { path: string; views: PurposeCounts; visitors: PurposeCounts }[];
}

type Group = PurposeGroup;
const GROUPS: Group[] = ['human', 'ai', 'searchIndex', 'training', 'assistant', 'agent', 'otherAi', 'unverifiedAi'];
/** Columns whose visitors come from the day sets (as in the export), not from unions of agent cells. */
const VIEWS_ONLY = new Set<Group>(['human', 'ai']);

/** Each purpose column's cells (a cell is in every column its agent counts in: otherAi holds assistant and agent). */
function groupCells(cells: RangeCell[]): Map<Group, RangeCell[]> {
  const members = new Map<Group, RangeCell[]>(GROUPS.map((g) => [g, []]));
  for (const data of cells)
    for (const g of purposeGroupsOf(data.cell.kind, data.cell.agent)) members.get(g)!.push(data);
  return members;
}

/** Each purpose column's visitors (but human and AI's), counted over its cells: of `pages` alone, when given. */
function groupVisitors(members: Map<Group, RangeCell[]>, pages?: number[]): Map<Group, PageFigures> {
  const only = pages && new Set(pages);
  return new Map(GROUPS.filter((g) => !VIEWS_ONLY.has(g)).map((g) => [g, distinctByPage(members.get(g)!, only)]));
}

/**
 * Views and distinct visitors by purpose, per page and site-wide. Every visitors figure is a distinct count over
 * its whole cell: `totalViews` is the visitors export's `total` (a visitor id seen as a browser and as an AI agent
 * counts once), `aiViews` its `ai` (a visitor id used by two agents counts once), and each purpose column the union
 * of its agents. Human, AI and total visitors come from the day sets (as in the export), everything else from the
 * agent rollup; both answer whole days from derived data and partial-day edges from raw events.
 */
export async function purposeSplit(params: PurposeParams): Promise<PurposeSplit & { hasMore: boolean }> {
  return splitPurposes(params, false);
}

interface PurposeParams {
  sql: Sql;
  dictionaries: Dictionaries;
  cache: DayCache;
  projectId: string;
  range: TimeRange;
  /** one page of the pages' rows (the JSON answer); absent: every row */
  page?: { limit: number; offset: number };
}

/**
 * Every page's views by purpose (the CSV's columns), as purposeSplit gives them: no visitors are counted, so neither
 * the day sets' nor the purposes' distinct counts are read.
 */
export async function purposeViews(
  params: Omit<PurposeParams, 'page'>,
): Promise<{ path: string; views: PurposeCounts }[]> {
  const { pages } = await splitPurposes(params, true);
  return pages.map(({ path, views }) => ({ path, views }));
}

/** The split from the range's cells: rows chosen by views first, then their visitors counted (none with `viewsOnly`). */
function splitPurposes(params: PurposeParams, viewsOnly: boolean): Promise<PurposeSplit & { hasMore: boolean }> {
  const { sql, dictionaries, projectId } = params;
  return withAgentCells({ ...params, viewsOnly }, async (cells) => {
    const grouped = groupCells(cells);
    const views = new Map(GROUPS.map((g) => [g, viewsByPage(grouped.get(g)!)]));
    const v = (group: Group) => views.get(group)!;
    const viewCounts = (count: (sums: PageCounts) => number): PurposeCounts => ({
      humanViews: count(v('human')),
      aiViews: count(v('ai')),
      searchIndexViews: count(v('searchIndex')),
      trainingViews: count(v('training')),
      assistantViews: count(v('assistant')),
      agentViews: count(v('agent')),
      otherAiViews: count(v('otherAi')),
      totalViews: count(v('human')) + count(v('ai')),
      unverifiedAiViews: count(v('unverifiedAi')),
    });
    // the pages with human, AI or unverified views
    const anyViews = new PageCounts();
    for (const group of ['human', 'ai', 'unverifiedAi'] as const) anyViews.addSums(v(group));
    const { pages: pageIds } = anyViews.pageEntries();
    const weights = new Float64Array(pageIds.length);
    const [human, ai] = [v('human'), v('ai')];
    for (let i = 0; i < pageIds.length; i++) weights[i] = (human.get(pageIds[i]) ?? 0) + (ai.get(pageIds[i]) ?? 0);
    // most views first, then path: only the rows that can be on the asked page (every row: the CSV) get their path
    const chosen = await pageByPath({
      weights,
      pageOf: (i) => pageIds[i],
      paths: (ids) => dictionaries.paths(sql, projectId, ids),
      tieOrder: (a, b, pathOf) => compareCodePoints(pathOf(pageIds[a]), pathOf(pageIds[b])),
      page: params.page ?? { offset: 0, limit: pageIds.length },
    });
    // the visitors of the site and of the chosen rows' pages alone (the CSV counts none)
    const ids = chosen.rows.map((i) => pageIds[i]);
    const [people, visitors] = viewsOnly
      ? [undefined, new Map<Group, PageFigures>()]
      : [await countVisitors({ ...params, pages: ids }), groupVisitors(grouped, params.page && [SITE_PAGE, ...ids])];
    const at = (group: Group, page: number) => visitors.get(group)?.get(page) ?? 0;
    const visitorCounts = (page: number, counts: Counts | undefined): PurposeCounts => ({
      humanViews: counts?.human ?? 0,
      aiViews: counts?.ai ?? 0,
      searchIndexViews: at('searchIndex', page),
      trainingViews: at('training', page),
      assistantViews: at('assistant', page),
      agentViews: at('agent', page),
      otherAiViews: at('otherAi', page),
      totalViews: counts?.total ?? 0,
      unverifiedAiViews: at('unverifiedAi', page),
    });
    // without visitors the rows share one row of zeros
    const noVisitors = visitorCounts(SITE_PAGE, undefined);
    return {
      totals: { views: viewCounts((sums) => sums.total()), visitors: visitorCounts(SITE_PAGE, people?.totals) },
      pages: ids.map((id) => ({
        path: chosen.pathOf(id),
        views: viewCounts((sums) => sums.get(id) ?? 0),
        visitors: people ? visitorCounts(id, people.pages.get(id)) : noVisitors,
      })),
      hasMore: chosen.hasMore,
    };
  });
}
