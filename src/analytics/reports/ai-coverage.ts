import { operatorOf } from '../ingest/classify-user-agent.js';
import { KIND } from '../store/day-sets.js';
import { purposeOf } from '../store/rollups/agent-columns.js';
import type { AgentView } from '../store/robots-txt.js';
import { compareCodePoints } from './compare-code-points.js';

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

export interface CoverageReport {
  /** distinct pages of the navigation */
  pages: number;
  rows: CoverageRow[];
  /** per operator: its AI views against the humans its assistants sent (null ratio: none sent) */
  crawlToReferral: { operator: string; aiViews: number; referrals: number; ratio: number | null }[];
}

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
export function aiCoverage(params: {
  sections: CoverageSection[];
  views: AgentView[];
  referrals: { assistant: string; views: number }[];
}): CoverageReport {
  const navigation = new Set(params.sections.flatMap((s) => s.pages));
  const read = new Map<string, { operator: string; purpose: string; views: number; pages: Set<string> }>();
  const aiViews = new Map<string, number>();
  // views come in runs of one agent (the counts are per cell): its operator and purpose are found once per run
  let last: { agent: string; operator: string; row: { views: number; pages: Set<string> } } | undefined;
  for (const view of params.views) {
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
    aiViews.set(last.operator, (aiViews.get(last.operator) ?? 0) + weight);
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
  const referrals = new Map<string, number>();
  for (const r of params.referrals) {
    const operator = ASSISTANT_OPERATORS[r.assistant] ?? r.assistant;
    referrals.set(operator, (referrals.get(operator) ?? 0) + r.views);
  }
  const operators = [...new Set([...aiViews.keys(), ...referrals.keys()])].sort(compareCodePoints);
  return {
    pages: navigation.size,
    rows: rows.sort(
      (a, b) =>
        b.pagesRead - a.pagesRead ||
        b.views - a.views ||
        compareCodePoints(a.operator, b.operator) ||
        compareCodePoints(a.purpose, b.purpose),
    ),
    crawlToReferral: operators.map((operator) => {
      const views = aiViews.get(operator) ?? 0;
      const sent = referrals.get(operator) ?? 0;
      return { operator, aiViews: views, referrals: sent, ratio: sent ? round(views / sent) : null };
    }),
  };
}
