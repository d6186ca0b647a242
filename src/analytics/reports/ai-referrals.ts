import type { TimeRange } from '../../calendar.js';
import { KIND, SITE_PAGE } from '../store/day-sets.js';
import { cellColumn } from '../store/rollups/agent-columns.js';
import type { AnalyticsStore } from '../store/event-store.js';
import type { DayCache } from '../store/day-cache.js';
import { isPlainHuman } from '../store/rollups/agent-cell.js';
import { compareCodePoints } from './compare-code-points.js';
import {
  distinctByPage,
  pageRows,
  type RangeCell,
  siteDistinct,
  totalViews,
  withAgentCells,
  type AgentReportStore,
} from './agent-cells.js';
import { pageByPath } from './weighted-page.js';
import { sortedPages } from '../store/gap-counts.js';
import { PageCounts, type PageFigures } from '../store/page-counts.js';

export interface Referrals {
  /** per assistant: human views and distinct human visitors it sent */
  assistants: { assistant: string; views: number; visitors: number }[];
  /** per assistant × page, most views first */
  pages: { assistant: string; path: string; views: number; visitors: number }[];
}

/**
 * Humans who arrived from an AI assistant (by referrer or `utm_source`), per assistant and per page: every assistant,
 * and one page of the assistant × page rows (most views first, then assistant and path in code-point order), or every
 * row when no page is asked for. The rows are chosen by their views, then visitors are counted for the site and the
 * rows' pages alone where the gap counts answer (else from the union of each assistant's cells).
 */
export async function aiReferrals(params: {
  store: AgentReportStore & Pick<AnalyticsStore, 'paths'>;
  cache: DayCache;
  projectId: string;
  range: TimeRange;
  page?: { limit: number; offset: number };
}): Promise<Referrals & { hasMore: boolean }> {
  const { store, projectId } = params;
  // the cells' bitmaps are read only when the gap counts cannot answer
  return withAgentCells(
    params,
    async (cells, gapColumns) => {
      const referred = cells.filter((data) => data.cell.kind === KIND.human && !isPlainHuman(data.cell));
      const assistantOf = (data: RangeCell) => data.cell.agent.replace(/^via /, '');
      const { groupAt: cellAt, pageAt, viewsAt } = pageRows(referred.map((data) => data.sums));
      // most views first, then assistant and path: only the rows that can be on the page (every row when none is
      // asked for) get their path
      const { rows, hasMore, pathOf } = await pageByPath({
        weights: viewsAt,
        pageOf: (i) => pageAt[i],
        paths: (ids) => store.paths(projectId, ids),
        tieOrder: (a, b, pathOf) =>
          compareCodePoints(assistantOf(referred[cellAt[a]]), assistantOf(referred[cellAt[b]])) ||
          compareCodePoints(pathOf(pageAt[a]), pathOf(pageAt[b])),
        page: params.page ?? { offset: 0, limit: viewsAt.length },
      });
      const chosen = {
        rows: rows.map((i) => ({ data: referred[cellAt[i]], page: pageAt[i], views: viewsAt[i] })),
        hasMore,
      };
      const asked = sortedPages([SITE_PAGE, ...chosen.rows.map((row) => row.page)]);
      const counts = await gapColumns(
        referred.map((data) => cellColumn(data.cell)),
        { pages: asked },
      );
      const visitorsOf = new Map<RangeCell, PageFigures>(
        referred.map((data) => [
          data,
          counts ? (counts.get(cellColumn(data.cell)) ?? new PageCounts()) : distinctByPage([data]),
        ]),
      );
      const assistants = referred
        .map((data) => ({
          assistant: assistantOf(data),
          views: totalViews([data]),
          visitors: counts ? (visitorsOf.get(data)!.get(SITE_PAGE) ?? 0) : siteDistinct([data]),
        }))
        .sort((a, b) => b.views - a.views || compareCodePoints(a.assistant, b.assistant));
      return {
        assistants,
        pages: chosen.rows.map(({ data, page, views }) => ({
          assistant: assistantOf(data),
          path: pathOf(page),
          views,
          visitors: visitorsOf.get(data)!.get(page) ?? 0,
        })),
        hasMore: chosen.hasMore,
      };
    },
    'unless-gaps',
  );
}
