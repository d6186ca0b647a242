import { DAY_MS, type TimeRange } from '../calendar.js';
import { noVisitors, PURPOSES, type SideCounts, type WindowCounts } from '../analytics/reports/outcome-counts.js';
import type { ChangedPage } from './changed-pages.js';
import {
  MIN_READERS,
  WINDOW_DAYS,
  clickThroughChange,
  helpfulChange,
  missChange,
  trafficChange,
  verdictOf,
  type SignalChange,
  type Verdict,
} from './outcome-rules.js';

export type WindowStatus = 'pending' | 'partial' | 'complete';
type Pair = { before: number; after: number };
type Compared = Pair & { ratio: number | null };

export interface MeasuredSide {
  humanVisitors: Compared;
  aiVisitors: Compared;
  /**
   * AI visitors by what their agent reads for (`searchIndex`, `training`, `assistant`, `agent`, `other`: unlisted
   * agents), as the AI purposes report puts them; a visitor whose agents read for two purposes counts in each
   */
  aiVisitorsByPurpose: Record<(typeof PURPOSES)[number], Compared>;
  /** distinct humans an AI assistant's answer sent into the page(s) */
  assistantReferrals: Compared;
  thumbsUp: Pair;
  thumbsDown: Pair;
  /** new feedback comments (with a vote or without) */
  comments: Pair;
  helpfulShare: { before: number | null; after: number | null };
  misses: Pair;
  changes: { traffic: SignalChange; misses: SignalChange; helpful: SignalChange };
  /** `pending` until the window is complete */
  verdict: Verdict;
}

export interface OutcomeWindow {
  days: number;
  status: WindowStatus;
  /** whole days of the after window passed so far */
  daysSoFar: number;
  before: { from: string; to: string };
  after: { from: string; to: string };
  total: MeasuredSide;
  /** a moved or redirected page names the path it came from (whose readers before count as its own) */
  pages: (MeasuredSide & { path: string; change: ChangedPage['change']; from?: string })[];
  misses: { url: string; before: number; after: number }[];
  /**
   * site searches of the queries of the search gaps the pull request was started to fix, and of those that led
   * readers into the pages (in either side): click-through into them, and each gap's query on its own
   */
  searches: { queries: string[]; before: SearchSide; after: SearchSide; gaps: SearchGapOutcome[] };
  /** later merged pull requests that changed some of the same pages while this window's after side ran */
  laterChanges: LaterChange[];
}

/** A search-gap problem the pull request was started to fix: its query's click-through into the pages. */
export interface SearchGapOutcome {
  problem: string;
  query: string;
  before: SearchSide;
  after: SearchSide;
  /** what moves the problem to verified or regressed once the window is complete */
  change: SignalChange;
}

export interface SearchSide {
  searches: number;
  clicks: number;
  /** clicks ÷ searches; null without searches */
  clickThrough: number | null;
}

/** Another merged docs pull request that changed a page of this one later (its own outcome overlaps this one). */
export interface LaterChange {
  jobId: string;
  repository: string;
  number: number;
  mergedAt: string;
  paths: string[];
}

export interface Outcome {
  mergedAt: string;
  liveAt: string;
  /** the verdict of the longest complete window; `pending` while none is */
  verdict: Verdict;
  windows: OutcomeWindow[];
  /** pages the pull request deleted: no after to measure; their old address's misses count in `misses` */
  deleted: { path: string }[];
}

/** The ranges one window reads: before ends and after starts at live time; after stops at now while partial. */
export function outcomeRanges(params: { liveAt: number; now: number; days: number }) {
  const { liveAt, now, days } = params;
  const span = days * DAY_MS;
  const status: WindowStatus = now < liveAt ? 'pending' : now < liveAt + span ? 'partial' : 'complete';
  const before: TimeRange = { from: liveAt - span, to: liveAt };
  const after: TimeRange = { from: liveAt, to: Math.max(liveAt, Math.min(now, liveAt + span)) };
  return { status, before, after, daysSoFar: Math.floor((after.to - after.from) / DAY_MS) };
}

/**
 * The pages whose traffic is read (where a page is now, and where a moved page was: its readers there are its
 * before) and the URLs whose misses are (an added page's, a moved or deleted page's old address, a redirect's source).
 */
export function measuredOf(pages: readonly ChangedPage[]): { paths: string[]; urls: string[] } {
  const paths = pages.flatMap((p) =>
    p.change === 'deleted' ? [] : p.change === 'moved' ? [p.path, p.from] : [p.path],
  );
  const urls = pages.flatMap((p) =>
    p.change === 'added' || p.change === 'deleted'
      ? [p.path]
      : p.change === 'moved' || p.change === 'redirected'
        ? [p.from]
        : [],
  );
  return { paths: [...new Set(paths)], urls: [...new Set(urls)] };
}

const compared = (before: number, after: number): Compared => ({
  before,
  after,
  ratio: before < MIN_READERS || after < MIN_READERS ? null : after / before,
});
const share = (up: number, down: number) => (up + down ? up / (up + down) : null);
type Side = SideCounts;
const NONE: Side = { ...noVisitors(), thumbsUp: 0, thumbsDown: 0, comments: 0 };
const searchSide = (s: { searches: number; clicks: number } | undefined): SearchSide => ({
  searches: s?.searches ?? 0,
  clicks: s?.clicks ?? 0,
  clickThrough: s?.searches ? s.clicks / s.searches : null,
});

function measure(before: Side, after: Side, misses: Pair, status: WindowStatus): MeasuredSide {
  const changes = {
    traffic: trafficChange(before.human, after.human),
    misses: missChange(misses.before, misses.after),
    helpful: helpfulChange(
      { up: before.thumbsUp, down: before.thumbsDown },
      { up: after.thumbsUp, down: after.thumbsDown },
    ),
  };
  return {
    humanVisitors: compared(before.human, after.human),
    aiVisitors: compared(before.ai, after.ai),
    aiVisitorsByPurpose: Object.fromEntries(
      PURPOSES.map((p) => [p, compared(before.aiByPurpose[p], after.aiByPurpose[p])]),
    ) as MeasuredSide['aiVisitorsByPurpose'],
    assistantReferrals: compared(before.referred, after.referred),
    thumbsUp: { before: before.thumbsUp, after: after.thumbsUp },
    thumbsDown: { before: before.thumbsDown, after: after.thumbsDown },
    comments: { before: before.comments, after: after.comments },
    helpfulShare: { before: share(before.thumbsUp, before.thumbsDown), after: share(after.thumbsUp, after.thumbsDown) },
    misses,
    changes,
    verdict: status === 'complete' ? verdictOf(Object.values(changes)) : 'pending',
  };
}

/**
 * A complete window's verdict for the pull request as a whole, from its two sides' counts: computeOutcome's `verdict`
 * when this window decides it (a list's summary reads it alone).
 */
export function windowVerdict(pages: readonly ChangedPage[], before: WindowCounts, after: WindowCounts): Verdict {
  const { urls } = measuredOf(pages);
  const missed = (side: WindowCounts) => urls.reduce((n, u) => n + (side.misses.get(u) ?? 0), 0);
  return measure(before.total, after.total, { before: missed(before), after: missed(after) }, 'complete').verdict;
}

/**
 * The outcome of one merged docs pull request from the counts of each window (pure): per changed page and for the
 * pull request as a whole. Misses count for the page a URL now leads to and for the whole.
 */
export function computeOutcome(params: {
  mergedAt: number;
  liveAt: number;
  now: number;
  pages: readonly ChangedPage[];
  counts: ReadonlyMap<number, { before: WindowCounts; after: WindowCounts; queries?: string[] }>;
  /** the search-gap problems the pull request was started to fix (their queries are among each window's) */
  gaps?: readonly { id: string; query: string }[];
  /** later merges that changed some of the same pages (any time after this one) */
  later?: readonly LaterChange[];
}): Outcome {
  const { liveAt, now, pages } = params;
  const iso = (ms: number) => new Date(ms).toISOString();
  const windows = WINDOW_DAYS.map((days): OutcomeWindow => {
    const { status, before, after, daysSoFar } = outcomeRanges({ liveAt, now, days });
    const counts = params.counts.get(days);
    const missesOf = (urls: string[]): Pair => ({
      before: urls.reduce((n, u) => n + (counts?.before.misses.get(u) ?? 0), 0),
      after: urls.reduce((n, u) => n + (counts?.after.misses.get(u) ?? 0), 0),
    });
    const { urls } = measuredOf(pages);
    return {
      days,
      status,
      daysSoFar,
      before: { from: iso(before.from), to: iso(before.to) },
      after: { from: iso(after.from), to: iso(after.to) },
      total: measure(counts?.before.total ?? NONE, counts?.after.total ?? NONE, missesOf(urls), status),
      pages: pages
        .filter((p) => p.change !== 'deleted')
        .map((p) => ({
          path: p.path,
          change: p.change,
          ...('from' in p ? { from: p.from } : {}),
          ...measure(
            counts?.before.pages.get(p.path) ?? NONE,
            counts?.after.pages.get(p.path) ?? NONE,
            missesOf(measuredOf([p]).urls),
            status,
          ),
        })),
      misses: urls.map((url) => ({ url, ...missesOf([url]) })),
      searches: {
        queries: counts?.queries ?? [],
        before: searchSide(counts?.before.searches),
        after: searchSide(counts?.after.searches),
        gaps: (params.gaps ?? []).map(({ id, query }) => {
          const [before, after] = [
            searchSide(counts?.before.searches.byQuery.get(query)),
            searchSide(counts?.after.searches.byQuery.get(query)),
          ];
          return { problem: id, query, before, after, change: clickThroughChange(before, after) };
        }),
      },
      laterChanges: (params.later ?? []).filter((c) => Date.parse(c.mergedAt) < after.to),
    };
  });
  const decided = windows.filter((w) => w.status === 'complete').at(-1);
  return {
    mergedAt: iso(params.mergedAt),
    liveAt: iso(liveAt),
    verdict: decided?.total.verdict ?? 'pending',
    windows,
    deleted: pages.filter((p) => p.change === 'deleted').map((p) => ({ path: p.path })),
  };
}
