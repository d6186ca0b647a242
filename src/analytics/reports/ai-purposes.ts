import type { TimeRange } from '../../calendar.js';
import { aiKindOf } from '../ingest/classify-user-agent.js';
import { KIND } from '../store/day-sets.js';
import type { AnalyticsStore } from '../store/event-store.js';
import { compareCodePoints } from './compare-code-points.js';

/** What an AI agent reads for, by its kind in the agent list (src/analytics/ingest/ai-user-agents/ai-agents.json). */
export type Purpose = 'searchIndex' | 'training' | 'assistant' | 'agent' | 'other';
const PURPOSE_OF_KIND = { search: 'searchIndex', crawler: 'training', assistant: 'assistant', agent: 'agent' } as const;

export function purposeOf(agent: string | null): Purpose {
  const kind = agent === null ? undefined : aiKindOf(agent);
  return kind ? PURPOSE_OF_KIND[kind] : 'other';
}

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
   * other columns; always 0 under `visitors` (bots have no visitor identity)
   */
  unverifiedAiViews: number;
}

export interface PurposeSplit {
  totals: { views: PurposeCounts; visitors: PurposeCounts };
  /** every page with traffic in the range: views desc, then path asc */
  pages: { path: string; views: PurposeCounts; visitors: PurposeCounts }[];
}

const zero = (): PurposeCounts => ({
  humanViews: 0,
  aiViews: 0,
  searchIndexViews: 0,
  trainingViews: 0,
  assistantViews: 0,
  agentViews: 0,
  otherAiViews: 0,
  totalViews: 0,
  unverifiedAiViews: 0,
});

function add(counts: PurposeCounts, kind: number, agent: string | null, n: number): void {
  if (kind === KIND.bot) {
    counts.unverifiedAiViews += n;
    return;
  }
  counts.totalViews += n;
  if (kind === KIND.human) {
    counts.humanViews += n;
    return;
  }
  counts.aiViews += n;
  const purpose = purposeOf(agent);
  if (purpose === 'searchIndex') counts.searchIndexViews += n;
  else if (purpose === 'training') counts.trainingViews += n;
  else {
    counts.otherAiViews += n;
    if (purpose === 'assistant') counts.assistantViews += n;
    if (purpose === 'agent') counts.agentViews += n;
  }
}

/**
 * Views and distinct visitors by purpose, per page and site-wide. An AI visitor is a client address with one agent,
 * so visitors of different agents are distinct and add up; a human counts once per page and once site-wide.
 */
export async function purposeSplit(params: {
  store: Pick<AnalyticsStore, 'purposeRows' | 'paths'>;
  projectId: string;
  range: TimeRange;
}): Promise<PurposeSplit> {
  const { store, projectId, range } = params;
  const { byPage, site } = await store.purposeRows(projectId, range);
  const totals = { views: zero(), visitors: zero() };
  for (const r of site) {
    add(totals.views, Number(r.kind), r.agent, Number(r.views));
    add(totals.visitors, Number(r.kind), r.agent, Number(r.visitors));
  }
  const pages = new Map<number, { views: PurposeCounts; visitors: PurposeCounts }>();
  for (const r of byPage) {
    const id = Number(r.pageId);
    let page = pages.get(id);
    if (!page) pages.set(id, (page = { views: zero(), visitors: zero() }));
    add(page.views, Number(r.kind), r.agent, Number(r.views));
    add(page.visitors, Number(r.kind), r.agent, Number(r.visitors));
  }
  const paths = await store.paths(projectId, pages.keys());
  const rows = [...pages].map(([id, c]) => ({ path: paths.get(id) ?? `#${id}`, ...c }));
  rows.sort((a, b) => b.views.totalViews - a.views.totalViews || compareCodePoints(a.path, b.path));
  return { totals, pages: rows };
}
