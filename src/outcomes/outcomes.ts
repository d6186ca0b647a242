import type { Db } from '../db/client.js';
import type { Clock } from '../clock.js';
import { queryRange, type TimeRange } from '../calendar.js';
import type { Project } from '../projects/projects.js';
import type { WindowCounts } from '../analytics/reports/outcome-counts.js';
import { settleOutcome } from '../problems/problem-store.js';
import { changedPages } from './changed-pages.js';
import type { ReadPullRequestFiles } from './github-pull-request-files.js';
import { computeOutcome, measuredOf, outcomeRanges, type Outcome } from './compute-outcome.js';
import { findDocsMerge, listDocsMerges, recordDocsMerge, type DocsMerge } from './merge-store.js';
import { WINDOW_DAYS } from './outcome-rules.js';
import { decodeOutcomeCursor, encodeOutcomeCursor } from './outcome-cursor.js';

export type ReadOutcomeCounts = (params: {
  projectId: string;
  paths: readonly string[];
  urls: readonly string[];
  range: TimeRange;
}) => Promise<WindowCounts>;

export interface OutcomesQuery {
  dateFrom?: number;
  dateTo?: number;
  limit: number;
  cursor?: string;
}

export interface ListedOutcome {
  jobId: string;
  repository: string;
  number: number;
  pages: DocsMerge['pages'];
  outcome: Outcome;
}

export interface Outcomes {
  /** a Scribe pull request closed: a merge's time and changed pages are kept */
  onJobPullRequestClosed(event: {
    jobId: string;
    projectId: string;
    repository: string;
    number: number;
    merged: boolean;
    mergedAt: string | null;
  }): Promise<void>;
  /** null until the job's pull request merged */
  ofJob(projectId: string, jobId: string): Promise<Outcome | null>;
  list(
    project: Project,
    query: OutcomesQuery,
  ): Promise<{
    outcomes: ListedOutcome[];
    summary: { helped: number; noEffect: number; regressed: number };
    nextCursor: string | null;
  }>;
}

/**
 * Did a docs pull request help: its merge is kept (time, changed pages), and its outcome computed from the analytics
 * each time it is read, so a late page view or a rebuilt rollup is never out of step with a stored result.
 */
export function createOutcomes(deps: {
  db: Db;
  clock: Clock;
  /** the site's pages after the merge: they place the docs root for page paths */
  pages: (projectId: string) => Promise<string[]>;
  /** the merged pull request's files, as GitHub lists them */
  pullRequestFiles: ReadPullRequestFiles;
  counts: ReadOutcomeCounts;
  deployDelayMs: number;
}): Outcomes {
  const { db, clock } = deps;

  const outcomeOf = async (merge: DocsMerge): Promise<Outcome> => {
    const now = clock().getTime();
    const mergedAt = merge.mergedAt.getTime();
    const liveAt = mergedAt + deps.deployDelayMs;
    const { paths, urls } = measuredOf(merge.pages);
    const counts = new Map<number, { before: WindowCounts; after: WindowCounts }>();
    for (const days of WINDOW_DAYS) {
      const { status, before, after } = outcomeRanges({ liveAt, now, days });
      if (status === 'pending') continue;
      const read = (range: TimeRange) => deps.counts({ projectId: merge.projectId, paths, urls, range });
      counts.set(days, { before: await read(before), after: await read(after) });
    }
    const outcome = computeOutcome({ mergedAt, liveAt, now, pages: merge.pages, counts });
    const decided = outcome.windows.filter((w) => w.status === 'complete').at(-1);
    if (decided) await settleOutcome({ db, clock, jobId: merge.jobId, changes: decided.total.changes });
    return outcome;
  };

  return {
    async onJobPullRequestClosed(event) {
      if (!event.merged) return;
      const [files, siteFiles] = await Promise.all([deps.pullRequestFiles(event), deps.pages(event.projectId)]);
      await recordDocsMerge({
        db,
        clock,
        merge: {
          jobId: event.jobId,
          projectId: event.projectId,
          repository: event.repository,
          number: event.number,
          mergedAt: event.mergedAt ? new Date(event.mergedAt) : clock(),
          pages: changedPages(files, siteFiles),
        },
      });
    },

    async ofJob(projectId, jobId) {
      const merge = await findDocsMerge(db, projectId, jobId);
      return merge && outcomeOf(merge);
    },

    async list(project, query) {
      const cursor = query.cursor ? decodeOutcomeCursor(query.cursor, query) : null;
      const range = cursor ?? queryRange({ ...query, now: clock().getTime() });
      const all = await listDocsMerges({
        db,
        projectId: project.id,
        from: new Date(range.from),
        to: new Date(range.to),
      });
      const listed: ListedOutcome[] = [];
      for (const merge of all) {
        const { jobId, repository, number, pages } = merge;
        listed.push({ jobId, repository, number, pages, outcome: await outcomeOf(merge) });
      }
      const count = (verdict: string) => listed.filter((o) => o.outcome.verdict === verdict).length;
      const summary = { helped: count('helped'), noEffect: count('no effect'), regressed: count('regressed') };
      const start = cursor
        ? all.findIndex(
            (m) =>
              m.mergedAt.getTime() < cursor.mergedAt ||
              (m.mergedAt.getTime() === cursor.mergedAt && m.jobId > cursor.jobId),
          )
        : 0;
      const rest = start < 0 ? [] : listed.slice(start);
      const page = rest.slice(0, query.limit);
      const last = page.at(-1);
      return {
        outcomes: page,
        summary,
        nextCursor:
          rest.length > query.limit && last
            ? encodeOutcomeCursor({
                from: range.from,
                to: range.to,
                mergedAt: Date.parse(last.outcome.mergedAt),
                jobId: last.jobId,
              })
            : null,
      };
    },
  };
}
