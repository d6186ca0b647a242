import type { TimeRange } from '../../calendar.js';
import { KIND } from '../store/day-sets.js';
import type { AnalyticsStore } from '../store/event-store.js';
import type { CacheLease } from '../store/day-cache.js';
import type { AgentView } from '../store/robots-txt.js';
import { type AgentReportStore, withAgentCells } from './agent-cells.js';

/**
 * The range's AI views and spoofed AI user agents' views, counted per agent cell and page as the other AI reports
 * read them: whole days from the agent rollup, the rest (partial days, days not folded yet) from raw events. The
 * range is first cut at `cuts` (times at which what judges a view changes: a new robots.txt version); the counts of
 * each piece carry the piece's start as their `ts`, and nothing that judges them changes inside a piece.
 */
export async function agentViewCounts(params: {
  store: AgentReportStore & Pick<AnalyticsStore, 'paths'>;
  cache: CacheLease;
  projectId: string;
  range: TimeRange;
  cuts?: number[];
}): Promise<AgentView[]> {
  const { store, projectId, range } = params;
  const inside = [...new Set(params.cuts ?? [])].filter((t) => t > range.from && t < range.to).sort((a, b) => a - b);
  const bounds = [range.from, ...inside, range.to];
  const runs: {
    ts: number;
    kind: number;
    agent: string;
    verification: number;
    pages: Uint32Array;
    counts: Float64Array;
  }[] = [];
  for (let i = 0; i + 1 < bounds.length; i++) {
    const piece = { from: bounds[i], to: bounds[i + 1] };
    await withAgentCells({ ...params, range: piece, viewsOnly: true, aiOnly: true }, (cells) => {
      for (const { cell, sums } of cells) {
        if (cell.kind !== KIND.ai && cell.kind !== KIND.bot) continue;
        runs.push({ ts: piece.from, ...cell, ...sums.pageEntries() });
      }
    });
  }
  const wanted = new Set<number>();
  for (const run of runs) for (const page of run.pages) wanted.add(page);
  const paths = await store.paths(projectId, wanted);
  const views: AgentView[] = [];
  for (const { ts, kind, agent, verification, pages, counts } of runs)
    for (let j = 0; j < pages.length; j++)
      if (counts[j] > 0)
        views.push({ ts, path: paths.get(pages[j]) ?? '', kind, agent, verification, views: counts[j] });
  return views;
}
