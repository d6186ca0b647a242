import type { TimeRange } from '../../calendar.js';
import { KIND } from '../store/day-sets.js';
import type { Sql } from '../store/sql.js';
import type { Dictionaries } from '../store/dictionaries.js';
import type { DayCache } from '../store/day-cache.js';
import { isPlainHuman } from '../store/rollups/agent-cell.js';
import { compareCodePoints } from './compare-code-points.js';
import { pageRows, type RangeCell, siteDistinct, totalViews, visitorsOfRows, withAgentCells } from './agent-cells.js';
import { pageByPath } from './weighted-page.js';

export interface Referrals {
  /** per assistant: human views and distinct human visitors it sent */
  assistants: { assistant: string; views: number; visitors: number }[];
  /** per assistant × page, most views first */
  pages: { assistant: string; path: string; views: number; visitors: number }[];
}

/**
 * Humans who arrived from an AI assistant (by referrer or `utm_source`), per assistant and per page: every assistant,
 * and one page of the assistant × page rows (most views first, then assistant and path in code-point order), or every
 * row when no page is asked for. The rows are chosen by their views; visitors are distinct counts over each
 * assistant's cells.
 */
export async function aiReferrals(params: {
  sql: Sql;
  dictionaries: Dictionaries;
  cache: DayCache;
  projectId: string;
  range: TimeRange;
  page?: { limit: number; offset: number };
}): Promise<Referrals & { hasMore: boolean }> {
  const { sql, dictionaries, projectId } = params;
  return withAgentCells(params, async (cells) => {
    const referred = cells.filter((data) => data.cell.kind === KIND.human && !isPlainHuman(data.cell));
    const assistantOf = (data: RangeCell) => data.cell.agent.replace(/^via /, '');
    const { groupAt: cellAt, pageAt, viewsAt } = pageRows(referred.map((data) => data.views));
    // most views first, then assistant and path: only the rows that can be on the page (every row when none is
    // asked for) get their path
    const { rows, hasMore, pathOf } = await pageByPath({
      weights: viewsAt,
      pageOf: (i) => pageAt[i],
      paths: (ids) => dictionaries.paths(sql, projectId, ids),
      tieOrder: (a, b, pathOf) =>
        compareCodePoints(assistantOf(referred[cellAt[a]]), assistantOf(referred[cellAt[b]])) ||
        compareCodePoints(pathOf(pageAt[a]), pathOf(pageAt[b])),
      page: params.page ?? { offset: 0, limit: viewsAt.length },
    });
    const visitorsOf = visitorsOfRows(
      rows.map((i) => [referred[cellAt[i]], pageAt[i]]),
      (data) => [data],
    );
    const assistants = referred
      .map((data) => ({
        assistant: assistantOf(data),
        views: totalViews([data]),
        visitors: siteDistinct([data]),
      }))
      .sort((a, b) => b.views - a.views || compareCodePoints(a.assistant, b.assistant));
    return {
      assistants,
      pages: rows.map((i) => ({
        assistant: assistantOf(referred[cellAt[i]]),
        path: pathOf(pageAt[i]),
        views: viewsAt[i],
        visitors: visitorsOf.get(referred[cellAt[i]])!.get(pageAt[i]) ?? 0,
      })),
      hasMore,
    };
  });
}
