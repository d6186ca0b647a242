import type { TimeRange } from '../../calendar.js';
import { aiKindOf } from '../ingest/classify-user-agent.js';
import { KIND, SITE_PAGE, type Bitmap } from '../store/day-sets.js';
import type { AnalyticsStore } from '../store/event-store.js';
import type { DayCache } from '../store/day-cache.js';
import type { CellData } from '../store/rollups/agent-days.js';
import { compareCodePoints } from './compare-code-points.js';
import { distinctByPage, viewsByPage, withAgentCells } from './agent-cells.js';
import { countViews } from './views.js';
import { countVisitors, type Counts } from './visitors.js';

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

type Group = 'searchIndex' | 'training' | 'assistant' | 'agent' | 'otherAi' | 'unverifiedAi';
const GROUPS: Group[] = ['searchIndex', 'training', 'assistant', 'agent', 'otherAi', 'unverifiedAi'];

/** The purpose columns an agent cell counts in (views add up across them; visitors are unions per column). */
function groupsOf(kind: number, agent: string): Group[] {
  if (kind === KIND.bot) return ['unverifiedAi'];
  if (kind !== KIND.ai) return [];
  const purpose = purposeOf(agent || null);
  if (purpose === 'searchIndex' || purpose === 'training') return [purpose];
  return purpose === 'other' ? ['otherAi'] : [purpose, 'otherAi'];
}

/** Views and distinct visitors per page (page 0: the site) of each purpose column, from the agent cells. */
function countGroups(cells: CellData<Bitmap[]>[]) {
  const members = new Map<Group, CellData<Bitmap[]>[]>(GROUPS.map((g) => [g, []]));
  for (const data of cells) for (const g of groupsOf(data.cell.kind, data.cell.agent)) members.get(g)!.push(data);
  return new Map(
    GROUPS.map((g) => [g, { views: viewsByPage(members.get(g)!), visitors: distinctByPage(members.get(g)!) }]),
  );
}

/**
 * Views and distinct visitors by purpose, per page and site-wide. Every visitors figure is a distinct count over
 * its whole cell: `totalViews` is the visitors export's `total` (a visitor id seen as a browser and as an AI agent
 * counts once), `aiViews` its `ai` (a visitor id used by two agents counts once), and each purpose column the union
 * of its agents. Human, AI and total figures come from the day sets, the purpose columns from the agent rollup; both
 * answer whole days from derived data and partial-day edges from raw events.
 */
export async function purposeSplit(params: {
  store: AnalyticsStore;
  cache: DayCache;
  projectId: string;
  range: TimeRange;
}): Promise<PurposeSplit> {
  const { store, projectId } = params;
  const [views, visitors, groups] = await Promise.all([
    countViews(params),
    countVisitors(params),
    withAgentCells(params, countGroups),
  ]);
  const counts = (page: number): { views: PurposeCounts; visitors: PurposeCounts } => {
    const site = page === SITE_PAGE;
    const v = site ? views.totals : views.pages.get(page);
    const u = site ? visitors.totals : visitors.pages.get(page);
    const groupViews = (g: Group) =>
      site ? sum(groups.get(g)!.views.values()) : (groups.get(g)!.views.get(page) ?? 0);
    const groupVisitors = (g: Group) => groups.get(g)!.visitors.get(page) ?? 0;
    const column = (base: Counts | undefined, of: (g: Group) => number): PurposeCounts => ({
      humanViews: base?.human ?? 0,
      aiViews: base?.ai ?? 0,
      searchIndexViews: of('searchIndex'),
      trainingViews: of('training'),
      assistantViews: of('assistant'),
      agentViews: of('agent'),
      otherAiViews: of('otherAi'),
      totalViews: base?.total ?? 0,
      unverifiedAiViews: of('unverifiedAi'),
    });
    return { views: column(v, groupViews), visitors: column(u, groupVisitors) };
  };
  const pageIds = new Set([...views.pages.keys(), ...groups.get('unverifiedAi')!.views.keys()]);
  const paths = await store.paths(projectId, pageIds);
  const rows = [...pageIds].map((id) => ({ path: paths.get(id) ?? `#${id}`, ...counts(id) }));
  rows.sort((a, b) => b.views.totalViews - a.views.totalViews || compareCodePoints(a.path, b.path));
  return { totals: counts(SITE_PAGE), pages: rows };
}

function sum(values: Iterable<number>): number {
  let total = 0;
  for (const n of values) total += n;
  return total;
}
