import type { TimeRange } from '../../calendar.js';
import { KIND, SITE_PAGE } from '../store/day-sets.js';
import { cellColumn } from '../store/rollups/agent-columns.js';
import type { AnalyticsStore } from '../store/event-store.js';
import type { DayCache } from '../store/day-cache.js';
import { isPlainHuman } from '../store/rollups/agent-cell.js';
import { compareCodePoints } from './compare-code-points.js';
import { distinctByPage, siteDistinct, totalViews, withAgentCells, type AgentReportStore } from './agent-cells.js';

export interface Referrals {
  /** per assistant: human views and distinct human visitors it sent */
  assistants: { assistant: string; views: number; visitors: number }[];
  /** per assistant × page, most views first */
  pages: { assistant: string; path: string; views: number; visitors: number }[];
}

/** Humans who arrived from an AI assistant (by referrer or `utm_source`), per assistant and per page. */
export async function aiReferrals(params: {
  store: AgentReportStore & Pick<AnalyticsStore, 'paths'>;
  cache: DayCache;
  projectId: string;
  range: TimeRange;
}): Promise<Referrals> {
  const { store, projectId } = params;
  // the visitors from the gap counts when they answer: the cells' bitmaps are read only when they cannot
  const counted = await withAgentCells(
    params,
    async (cells, gapColumns) => {
      const referred = cells.filter((data) => data.cell.kind === KIND.human && !isPlainHuman(data.cell));
      const counts = await gapColumns(referred.map((data) => cellColumn(data.cell)));
      return referred.map((data) => {
        const pageVisitors = counts ? (counts.get(cellColumn(data.cell)) ?? new Map()) : distinctByPage([data]);
        return {
          assistant: data.cell.agent.replace(/^via /, ''),
          views: totalViews([data]),
          visitors: counts ? (pageVisitors.get(SITE_PAGE) ?? 0) : siteDistinct([data]),
          pageViews: data.views,
          pageVisitors,
        };
      });
    },
    'unless-gaps',
  );
  const paths = await store.paths(projectId, new Set(counted.flatMap((c) => [...c.pageViews.keys()])));
  const assistants = counted
    .map(({ assistant, views, visitors }) => ({ assistant, views, visitors }))
    .sort((a, b) => b.views - a.views || compareCodePoints(a.assistant, b.assistant));
  const pages = counted
    .flatMap(({ assistant, pageViews, pageVisitors }) =>
      [...pageViews].map(([page, views]) => ({
        assistant,
        path: paths.get(page) ?? `#${page}`,
        views,
        visitors: pageVisitors.get(page) ?? 0,
      })),
    )
    .sort(
      (a, b) => b.views - a.views || compareCodePoints(a.assistant, b.assistant) || compareCodePoints(a.path, b.path),
    );
  return { assistants, pages };
}
