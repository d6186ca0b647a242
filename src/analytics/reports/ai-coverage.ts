import { operatorOf } from '../ingest/classify-user-agent.js';
import { KIND } from '../store/day-sets.js';
import { purposeOf } from '../store/rollups/agent-columns.js';
import type { AgentView } from '../store/robots-txt.js';
import { compareCodePoints } from './compare-code-points.js';
import { VIA_PREFIX } from '../store/write-events.js';

/** A docs navigation group and its pages' site paths. */
export interface CoverageSection {
  group: string;
  pages: string[];
}

export interface SectionCoverage {
  group: string;
  pages: number;
  pagesRead: number;
  share: number;
}

export interface CoverageRow {
  operator: string;
  purpose: string;
  views: number;
  /** distinct navigation pages the operator's agents of this purpose read in the range */
  pagesRead: number;
  share: number;
  mostReadSections: SectionCoverage[];
  neverReadSections: string[];
}

/** AI views against the human views an operator's assistants sent (null ratio: none sent). */
export interface CrawlToReferral {
  aiViews: number;
  referrals: number;
  ratio: number | null;
}

export interface CoverageReport {
  /** distinct pages of the navigation */
  pages: number;
  rows: CoverageRow[];
  /**
   * per operator, over the site and per page: the pages with either count, most AI views first (then referrals,
   * then path), at most PAGES_PER_OPERATOR of them; `morePages` how many more there were
   */
  crawlToReferral: ({
    operator: string;
    pages: ({ path: string } & CrawlToReferral)[];
    morePages: number;
  } & CrawlToReferral)[];
}

/** At most this many pages per operator in `crawlToReferral` (the operator's totals count every page). */
export const PAGES_PER_OPERATOR = 50;

/** The assistants the referrer list names (classify-referrer.ts), by the operator the agent list gives them. */
const ASSISTANT_OPERATORS: Record<string, string> = {
  ChatGPT: 'OpenAI',
  Claude: 'Anthropic',
  Perplexity: 'Perplexity',
  Gemini: 'Google',
  Copilot: 'Microsoft',
  Mistral: 'Mistral',
  DeepSeek: 'DeepSeek',
  'Meta AI': 'Meta',
  Grok: 'xAI',
  Phind: 'phind',
};

const round = (x: number) => Math.round(x * 10_000) / 10_000;

/**
 * How much of the docs each AI operator reads, per purpose: the distinct pages of the navigation (at the project's
 * ref) its agents read in the range, exactly, their share, the sections read most (by share) and never; and per
 * operator the ratio of its AI views to the humans its assistants sent. Spoofed views count in neither.
 */
export function aiCoverage(params: { sections: CoverageSection[]; views: AgentView[] }): CoverageReport {
  const navigation = new Set(params.sections.flatMap((s) => s.pages));
  const read = new Map<string, { operator: string; purpose: string; views: number; pages: Set<string> }>();
  // per operator and page: [AI views, human views its assistants sent]
  const byOperator = new Map<string, Map<string, [number, number]>>();
  const count = (operator: string, path: string, column: 0 | 1, n: number) => {
    let pages = byOperator.get(operator);
    if (!pages) byOperator.set(operator, (pages = new Map()));
    let counts = pages.get(path);
    if (!counts) pages.set(path, (counts = [0, 0]));
    counts[column] += n;
  };
  // views come in runs of one agent (the counts are per cell): its operator and purpose are found once per run
  let last: { agent: string; operator: string; row: { views: number; pages: Set<string> } } | undefined;
  for (const view of params.views) {
    if (view.kind === KIND.human && view.agent.startsWith(VIA_PREFIX)) {
      const assistant = view.agent.slice(VIA_PREFIX.length);
      count(ASSISTANT_OPERATORS[assistant] ?? assistant, view.path, 1, view.views ?? 1);
      continue;
    }
    if (view.kind !== KIND.ai) continue;
    if (last?.agent !== view.agent) {
      const operator = operatorOf(view.agent);
      const purpose = purposeOf(view.agent || null);
      const key = `${operator}\0${purpose}`;
      let row = read.get(key);
      if (!row) read.set(key, (row = { operator, purpose, views: 0, pages: new Set() }));
      last = { agent: view.agent, operator, row };
    }
    const weight = view.views ?? 1;
    count(last.operator, view.path, 0, weight);
    last.row.views += weight;
    if (navigation.has(view.path)) last.row.pages.add(view.path);
  }
  const rows = [...read.values()].map((row): CoverageRow => {
    const sections = params.sections.map((s) => {
      const pagesRead = s.pages.filter((p) => row.pages.has(p)).length;
      return {
        group: s.group,
        pages: s.pages.length,
        pagesRead,
        share: s.pages.length ? round(pagesRead / s.pages.length) : 0,
      };
    });
    return {
      operator: row.operator,
      purpose: row.purpose,
      views: row.views,
      pagesRead: row.pages.size,
      share: navigation.size ? round(row.pages.size / navigation.size) : 0,
      mostReadSections: sections
        .filter((s) => s.pagesRead > 0)
        .sort((a, b) => b.share - a.share || compareCodePoints(a.group, b.group))
        .slice(0, 3),
      neverReadSections: sections.filter((s) => s.pagesRead === 0 && s.pages > 0).map((s) => s.group),
    };
  });
  const ratioOf = (aiViews: number, referrals: number): CrawlToReferral => ({
    aiViews,
    referrals,
    ratio: referrals ? round(aiViews / referrals) : null,
  });
  return {
    pages: navigation.size,
    rows: rows.sort(
      (a, b) =>
        b.pagesRead - a.pagesRead ||
        b.views - a.views ||
        compareCodePoints(a.operator, b.operator) ||
        compareCodePoints(a.purpose, b.purpose),
    ),
    crawlToReferral: [...byOperator.keys()].sort(compareCodePoints).map((operator) => {
      const pages = [...byOperator.get(operator)!]
        .map(([path, [aiViews, referrals]]) => ({ path, ...ratioOf(aiViews, referrals) }))
        .sort((a, b) => b.aiViews - a.aiViews || b.referrals - a.referrals || compareCodePoints(a.path, b.path));
      const total = (column: 'aiViews' | 'referrals') => pages.reduce((n, p) => n + p[column], 0);
      return {
        operator,
        ...ratioOf(total('aiViews'), total('referrals')),
        pages: pages.slice(0, PAGES_PER_OPERATOR),
        morePages: Math.max(0, pages.length - PAGES_PER_OPERATOR),
      };
    }),
  };
}
