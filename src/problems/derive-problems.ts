import type { TimeRange } from '../calendar.js';
import type { ProblemSignals } from '../analytics/reports/problem-signals.js';
import type { ProblemKind } from './problem-kinds.js';
import type { DerivedProblem, MissingPageEvidence } from './problem.js';
import { problemId } from './problem-id.js';
import { redirectCandidates, type SitePage } from './redirect-candidates.js';

/** A query searched at least this often, with no result clicked, is a gap (once is a typo, twice is a pattern). */
export const SEARCH_GAP_MIN_SEARCHES = 2;

/** The range of equal length just before `range`: what `trend` compares with. */
export const previousRange = (range: TimeRange): TimeRange => ({
  from: range.from - (range.to - range.from),
  to: range.from,
});

/**
 * The problems the stored signals of `range` show (of `kinds`), each with its readers in the range before. Derived
 * afresh on every read, never stored: the signals are the one copy. A missing page's evidence beyond its requests
 * (who asked, its redirect candidates) is left empty here: withDetails adds it to the problems answered.
 */
export async function deriveProblems(params: {
  signals: ProblemSignals;
  projectId: string;
  range: TimeRange;
  kinds: ReadonlySet<ProblemKind>;
}): Promise<DerivedProblem[]> {
  const { signals, projectId, range, kinds } = params;
  const before = previousRange(range);
  // the kinds read different tables: asked at once, so a database with several connections answers them side by side
  const derived = await Promise.all([
    kinds.has('missing-page') ? missingPages(signals, projectId, range, before) : [],
    kinds.has('negative-feedback') ? negativeFeedback(signals, projectId, range, before) : [],
    kinds.has('search-gap') ? searchGaps(signals, projectId, range, before) : [],
  ]);
  return derived.flat();
}

async function missingPages(
  signals: ProblemSignals,
  projectId: string,
  range: TimeRange,
  before: TimeRange,
): Promise<DerivedProblem[]> {
  const misses = await withEarlier(
    (r) => signals.missingUrls({ projectId, range: r }),
    range,
    before,
    (m) => m.path,
  );
  return misses.map(([m, previousReaders]) => ({
    id: problemId('missing-page', m.path),
    kind: 'missing-page',
    title: `Not found: ${m.path}`,
    paths: [m.path],
    readers: m.readers,
    previousReaders,
    firstSeen: m.firstSeen,
    lastSeen: m.lastSeen,
    // who asked, and the redirect candidates, are worked out for the problems answered alone (withDetails): a
    // queue may hold thousands of URLs
    evidence: {
      url: m.path,
      requests: m.requests,
      humanReaders: 0,
      aiReaders: 0,
      statuses: [],
      agents: [],
      verifiedShare: null,
      candidates: [],
    },
  }));
}

async function negativeFeedback(
  signals: ProblemSignals,
  projectId: string,
  range: TimeRange,
  before: TimeRange,
): Promise<DerivedProblem[]> {
  const pages = await withEarlier(
    (r) => signals.negativeFeedback({ projectId, range: r }),
    range,
    before,
    (f) => f.path,
  );
  return pages.map(([f, previousReaders]) => ({
    id: problemId('negative-feedback', f.path),
    kind: 'negative-feedback',
    title: `Readers say ${f.path} falls short`,
    paths: [f.path],
    readers: f.readers,
    previousReaders,
    firstSeen: f.firstSeen,
    lastSeen: f.lastSeen,
    evidence: {
      thumbsDown: f.thumbsDown,
      thumbsUp: f.thumbsUp,
      comments: f.comments.map((c) => ({
        id: String(c.id),
        comment: c.comment,
        helpful: c.helpful,
        createdAt: new Date(c.ts).toISOString(),
      })),
    },
  }));
}

async function searchGaps(
  signals: ProblemSignals,
  projectId: string,
  range: TimeRange,
  before: TimeRange,
): Promise<DerivedProblem[]> {
  const gaps = await signals.searchTerms({ projectId, range, gapsOnly: true, minSearches: SEARCH_GAP_MIN_SEARCHES });
  if (!gaps.length) return [];
  // the range before is asked for these queries alone
  const earlier = readersBy(
    await signals.searchTerms({
      projectId,
      range: before,
      gapsOnly: false,
      minSearches: 0,
      queries: gaps.map((g) => g.query),
    }),
    (t) => t.query,
  );
  return gaps.map((g) => ({
    id: problemId('search-gap', g.query),
    kind: 'search-gap',
    title: `Searches for "${g.query}" lead nowhere`,
    paths: [],
    readers: g.readers,
    previousReaders: earlier.get(g.query) ?? 0,
    firstSeen: g.firstSeen,
    lastSeen: g.lastSeen,
    evidence: { query: g.query, searches: g.searches, clicks: g.clicks },
  }));
}

/**
 * The problems with each missing page's evidence: who asked for its URL over the range (humans and AI agents, statuses,
 * verified share, read for these URLs alone) and its redirect candidates among the site's pages (read only when one
 * is a missing page).
 */
export async function withDetails<T extends DerivedProblem>(
  problems: T[],
  params: { signals: ProblemSignals; projectId: string; range: TimeRange; pages: () => Promise<SitePage[]> },
): Promise<T[]> {
  const urls = problems.filter((p) => p.kind === 'missing-page').map((p) => (p.evidence as MissingPageEvidence).url);
  if (!urls.length) return problems;
  const [site, misses] = await Promise.all([
    params.pages(),
    params.signals.missingPages({ projectId: params.projectId, range: params.range, paths: urls }),
  ]);
  const asked = new Map(misses.map((m) => [m.path, m]));
  return problems.map((p) => {
    if (p.kind !== 'missing-page') return p;
    const evidence = p.evidence as MissingPageEvidence;
    const m = asked.get(evidence.url);
    return {
      ...p,
      evidence: {
        ...evidence,
        ...(m && {
          humanReaders: m.humanReaders,
          aiReaders: m.aiReaders,
          statuses: m.statuses,
          agents: m.agents,
          verifiedShare: m.aiRequests ? Math.round((m.verifiedRequests / m.aiRequests) * 1000) / 1000 : null,
        }),
        candidates: redirectCandidates(evidence.url, site),
      },
    };
  });
}

/** A kind's rows of the range, each with its readers in the range before (both read at once). */
async function withEarlier<T extends { readers: number }>(
  read: (range: TimeRange) => Promise<T[]>,
  range: TimeRange,
  before: TimeRange,
  key: (row: T) => string,
): Promise<[T, number][]> {
  const [rows, previous] = await Promise.all([read(range), read(before)]);
  const earlier = readersBy(previous, key);
  return rows.map((row) => [row, earlier.get(key(row)) ?? 0]);
}

function readersBy<T extends { readers: number }>(rows: T[], key: (row: T) => string): Map<string, number> {
  return new Map(rows.map((row) => [key(row), row.readers]));
}
