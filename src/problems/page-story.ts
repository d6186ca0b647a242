import type { Db } from '../db/client.js';
import type { Clock } from '../clock.js';
import { DAY_MS, queryRange, type TimeRange } from '../calendar.js';
import type { Project } from '../projects/projects.js';
import type { ProblemSignals } from '../analytics/reports/problem-signals.js';
import { MAX_DAILY_DAYS } from '../analytics/reports/daily-visitors.js';
import { Invalid } from '../errors.js';
import { jobsThatChanged } from '../jobs/jobs-that-changed.js';
import { pullRequestStates } from '../github/pull-request-state.js';
import { reviewsNamingPage } from '../reviews/reviews-naming-page.js';
import { previousRange } from './derive-problems.js';
import { problemId } from './problem-id.js';
import { isRedirectCandidate } from './redirect-candidates.js';
import type { ReadSitePages } from './read-site-pages.js';
import { rememberedAnswers } from './remembered-answers.js';

type Traffic = { human: number; ai: number };

/** One page's whole story over a range, as GET /v1/analytics/{projectId}/page answers it. */
export interface PageStoryBody {
  path: string;
  range: { from: string; to: string };
  previousRange: { from: string; to: string };
  days: { date: string; human: number; ai: number; previous: Traffic }[];
  totals: Traffic & { previous: Traffic };
  agents: { agent: string; purpose: string; views: number; visitors: number }[];
  referrals: { assistant: string; views: number; visitors: number }[];
  misses: { problemId: string; url: string; requests: number; readers: number }[];
  feedback: {
    thumbsUp: number;
    thumbsDown: number;
    comments: { id: string; comment: string; helpful: boolean | null; status: string; createdAt: string }[];
  };
  searches: { query: string; clicks: number }[];
  reviews: {
    repository: string;
    number: number;
    headSha: string;
    conclusion: string | null;
    findings: number;
    reviewedAt: string;
  }[];
  pullRequests: {
    jobId: string;
    prLink: string;
    state: 'open' | 'closed';
    merged: boolean;
    mergedAt: string | null;
    createdAt: string;
  }[];
}

export type PageStory = (
  project: Project,
  query: { path: string; dateFrom?: number; dateTo?: number },
) => Promise<PageStoryBody>;

const LISTED = 20;
/** signal answers kept per process: a range's misses (shared by every page's story) and pages' feedback and searches */
const REMEMBERED = 64;
const iso = (ms: number) => new Date(ms).toISOString();
const isoRange = (r: TimeRange) => ({ from: iso(r.from), to: iso(r.to) });

/**
 * Everything Scribe knows about one page, read from where each fact is kept: its page views and reader signals
 * (analytics), the missing URLs whose redirect candidates are this page, the docs reviews that named its file, and
 * the Scribe pull requests whose agent changed it.
 */
export function createPageStory(deps: {
  db: Db;
  clock: Clock;
  signals: ProblemSignals;
  pages: ReadSitePages;
}): PageStory {
  const { db, signals } = deps;
  const remembered = rememberedAnswers(REMEMBERED);
  return async (project, query) => {
    const projectId = project.id;
    const { path } = query;
    const range = queryRange({ ...query, now: deps.clock().getTime() });
    // a row per day, as visitors/daily lists them: the same bound
    if (range.to - range.from > MAX_DAILY_DAYS * DAY_MS)
      throw new Invalid('Invalid query parameters', [{ message: `the range may span at most ${MAX_DAILY_DAYS} days` }]);
    const before = previousRange(range);
    // what comes from the signals alone is derived again only when they changed (the page views have their own cache)
    const stamp = await signals.stamp(projectId);
    const site = deps.pages(project);
    // the missing URLs that could redirect here are scored while the page views are read (CPU beside I/O)
    const missesHere = Promise.all([
      remembered(JSON.stringify(['misses', projectId, range]), stamp, () => signals.missingUrls({ projectId, range })),
      site,
    ]).then(([misses, pages]) => misses.filter((m) => isRedirectCandidate(m.path, path, pages)));
    const [now, then, said, misses] = await Promise.all([
      signals.pageTraffic({ projectId, path, range }),
      signals.pageTraffic({ projectId, path, range: before }),
      remembered(JSON.stringify(['said', projectId, path, range]), stamp, () =>
        signals.pageReaderSignals({ projectId, path, range }),
      ),
      missesHere,
    ]);
    const served = (await site).filter((p) => p.path === path);
    const file = served[0]?.file;
    const [reviews, jobs] = file
      ? await Promise.all([
          reviewsNamingPage(db, { projectId, file, limit: LISTED }),
          jobsThatChanged(db, { projectId, file, limit: LISTED }),
        ])
      : [[], []];
    const states = await pullRequestStates(db, jobs);
    const shift = Math.round((range.to - range.from) / DAY_MS);
    const days: PageStoryBody['days'] = [];
    for (let day = Math.floor(range.from / DAY_MS); day * DAY_MS < range.to; day++) {
      const cell = now.days.get(day) ?? { human: 0, ai: 0 };
      const earlier = then.days.get(day - shift) ?? { human: 0, ai: 0 };
      days.push({ date: iso(day * DAY_MS).slice(0, 10), ...cell, previous: { ...earlier } });
    }
    return {
      path,
      range: isoRange(range),
      previousRange: isoRange(before),
      days,
      totals: { ...now.totals, previous: then.totals },
      agents: now.agents,
      referrals: now.referrals,
      misses: misses.map((m) => ({
        problemId: problemId('missing-page', m.path),
        url: m.path,
        requests: m.requests,
        readers: m.readers,
      })),
      feedback: {
        thumbsUp: said.thumbsUp,
        thumbsDown: said.thumbsDown,
        comments: said.comments.map((c) => ({
          id: String(c.id),
          comment: c.comment,
          helpful: c.helpful,
          status: c.status,
          createdAt: iso(c.ts),
        })),
      },
      searches: said.searches,
      reviews: reviews.map((r) => ({ ...r, reviewedAt: r.reviewedAt.toISOString() })),
      pullRequests: jobs.flatMap((job) => {
        if (!job.prLink) return [];
        const pr = states.get(job.id) ?? { state: 'open' as const, merged: false, mergedAt: null };
        return [{ jobId: job.id, prLink: job.prLink, ...pr, createdAt: job.createdAt.toISOString() }];
      }),
    };
  };
}
