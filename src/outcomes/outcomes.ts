import type { Db } from '../db/client.js';
import type { Clock } from '../clock.js';
import { queryRange, type TimeRange } from '../calendar.js';
import type { Project } from '../projects/projects.js';
import type { WindowCounts } from '../analytics/reports/outcome-counts.js';
import { settleOutcome, type SettledProblem } from '../problems/problem-store.js';
import { searchGapsOfJob } from '../problems/fix-cause.js';
import type { Logger } from '../logger.js';
import type { DbTransaction } from '../db/client.js';
import { changedPages } from './changed-pages.js';
import type { ReadPullRequestFiles } from './github-pull-request-files.js';
import { computeOutcome, measuredOf, outcomeRanges, type LaterChange, type Outcome } from './compute-outcome.js';
import {
  claimComment,
  claimSettled,
  findDocsMerge,
  listDocsMerges,
  mergesToSweep,
  recordDocsMerge,
  settleComment,
  type DocsMerge,
  type SweptMerge,
} from './merge-store.js';
import {
  COMMENT_DAYS,
  outcomeCommentBody,
  permanentCommentFailure,
  type PostOutcomeComment,
} from './outcome-comment.js';
import { DAY_MS } from '../calendar.js';
import { WINDOW_DAYS, type Verdict } from './outcome-rules.js';
import { decodeOutcomeCursor, encodeOutcomeCursor } from './outcome-cursor.js';
import { rememberedAnswers } from '../problems/remembered-answers.js';

/** How often main.ts sweeps for completed outcome windows: a comment comes at most this late. */
export const OUTCOME_SWEEP_EVERY_MS = 10 * 60_000;

/** The counts of the same pages over several ranges (a merge's windows, both sides), one per range in order. */
export type ReadOutcomeCounts = (params: {
  projectId: string;
  paths: readonly string[];
  urls: readonly string[];
  ranges: readonly TimeRange[];
  queries?: readonly string[];
  /** groups of paths whose visitors are counted together as well (`WindowCounts.together`, in this order) */
  together?: readonly (readonly string[])[];
  /** what a verdict reads alone: the pages' human visitors together, their thumbs, the misses (other counts 0) */
  only?: 'verdict';
}) => Promise<WindowCounts[]>;

/** The site-search queries that led readers into some pages within a range, most searched first. */
export type ReadOutcomeQueries = (params: {
  projectId: string;
  paths: readonly string[];
  range: TimeRange;
  limit: number;
}) => Promise<string[]>;

/**
 * What reads of a project's pages within `span` are derived from, as a function of a read's ranges (null for one
 * outside the span); null where nothing can say. The same stamp twice: the same counts.
 */
export type ReadOutcomeStamps = (
  projectId: string,
  span: TimeRange,
) => Promise<((ranges: readonly TimeRange[]) => string | null) | null>;
type StampOf = Awaited<ReturnType<ReadOutcomeStamps>>;

/** the reads of completed windows kept, at most: a list's summary reads one per merge of its range */
const REMEMBERED = 10_000;

/**
 * Merges whose verdicts a list's summary reads at once: one merge's statements wait on the database while another's
 * counts are made, and only a few merges' bitmaps are held at a time.
 */
export const SUMMARY_READS = 4;

/** at most this many queries' click-through is measured per window */
const MAX_QUERIES = 20;

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
  /**
   * Finds the merges whose windows completed since the last sweep and does, once across processes, what a completed
   * window brings: the problems the job fixed move to verified/regressed (and `onSettled` is told, in the same
   * transaction), and the pull request's outcome comment is posted (7 days) or edited (28 days). Returns how many
   * merges it handled. Reads never do any of this.
   */
  sweep(): Promise<number>;
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
 * each time it is read, so a late page view or a rebuilt rollup is never out of step with a stored result. What a
 * completed window brings (problems verified or regressed, events, the pull request comment) is done by `sweep`,
 * on a schedule, never by a read.
 */
export function createOutcomes(deps: {
  db: Db;
  clock: Clock;
  /** the site's pages after the merge: they place the docs root for page paths */
  pages: (projectId: string) => Promise<string[]>;
  /** the merged pull request's files, as GitHub lists them */
  pullRequestFiles: ReadPullRequestFiles;
  counts: ReadOutcomeCounts;
  /**
   * the versions reads of completed windows are kept under (their counts read again only when it changed); every
   * read is made afresh when absent
   */
  stamps?: ReadOutcomeStamps;
  /** the searches that led to the pages; none measured when absent */
  queries?: ReadOutcomeQueries;
  deployDelayMs: number;
  /** posts or edits the outcome comment; null: no comments (no GitHub App, or SCRIBE_OUTCOME_COMMENTS=off) */
  comment?: PostOutcomeComment | null;
  /** whether the job's automation wants the comment (`outcome: { comment: false }` says no); yes when absent */
  commentWanted?: (merge: DocsMerge) => Promise<boolean>;
  /**
   * a window completed for a merge: called once across processes, inside the transaction that records it, with the
   * problems the outcome moved (the hook for the `outcome.ready` and `problem.status_changed` events)
   */
  onSettled?: (
    tx: DbTransaction,
    settled: { merge: DocsMerge; days: number; outcome: Outcome; problems: SettledProblem[] },
  ) => Promise<void>;
  logger?: Logger;
  /** how long a sweep's claim on a comment holds before another process may take it over */
  claimMs?: number;
}): Outcomes {
  const { db, clock } = deps;
  const claimMs = deps.claimMs ?? 5 * 60_000;
  const remembered = rememberedAnswers(REMEMBERED);

  /** later merges of the project that changed some of the same pages, up to the end of the longest window */
  const laterOf = async (merge: DocsMerge): Promise<LaterChange[]> => {
    const mine = new Set(merge.pages.flatMap((p) => ('from' in p ? [p.path, p.from] : [p.path])));
    const end = merge.mergedAt.getTime() + deps.deployDelayMs + WINDOW_DAYS.at(-1)! * DAY_MS;
    const later = await listDocsMerges({
      db,
      projectId: merge.projectId,
      from: merge.mergedAt,
      to: new Date(end),
    });
    return later
      .filter((m) => m.jobId !== merge.jobId && m.mergedAt.getTime() >= merge.mergedAt.getTime())
      .map((m) => ({
        jobId: m.jobId,
        repository: m.repository,
        number: m.number,
        mergedAt: m.mergedAt.toISOString(),
        paths: [...new Set(m.pages.flatMap((p) => ('from' in p ? [p.path, p.from] : [p.path])))].filter((p) =>
          mine.has(p),
        ),
      }))
      .filter((m) => m.paths.length)
      .reverse();
  };

  /**
   * An answer about some ranges, kept under their stamp when every range has ended (a window still open reads up to
   * now, so it is never asked the same way twice), else derived afresh.
   */
  const keptWhileEnded = <T>(
    key: unknown[],
    ranges: readonly TimeRange[],
    stampOf: StampOf,
    derive: () => Promise<T>,
  ) => {
    const stamp = ranges.every((r) => r.to <= clock().getTime()) ? stampOf?.(ranges) : null;
    return stamp ? remembered(JSON.stringify(key), stamp, derive) : derive();
  };

  /** One read of the same pages over several ranges. */
  const readRanges = async (
    params: Omit<Parameters<ReadOutcomeCounts>[0], 'ranges'>,
    ranges: readonly TimeRange[],
    stampOf: StampOf,
  ): Promise<WindowCounts[]> =>
    ranges.length
      ? keptWhileEnded(['counts', params, ranges], ranges, stampOf, () => deps.counts({ ...params, ranges }))
      : [];

  /** The queries that led into the pages (they read the searches alone). */
  const queriesOf = async (params: Parameters<ReadOutcomeQueries>[0], stampOf: StampOf): Promise<string[]> => {
    const read = deps.queries;
    return read ? keptWhileEnded(['queries', params], [params.range], stampOf, () => read(params)) : [];
  };

  /** The stamps of reads about a project's merges: their windows' days, the longest window either side. */
  const stampsOf = async (projectId: string, merges: readonly DocsMerge[]): Promise<StampOf> => {
    if (!deps.stamps || !merges.length) return null;
    const live = merges.map((m) => m.mergedAt.getTime() + deps.deployDelayMs);
    const span = WINDOW_DAYS.at(-1)! * DAY_MS;
    return deps.stamps(projectId, { from: Math.min(...live) - span, to: Math.max(...live) + span });
  };

  const outcomeOf = async (merge: DocsMerge, stampOf: StampOf = null): Promise<Outcome> => {
    const now = clock().getTime();
    const mergedAt = merge.mergedAt.getTime();
    const liveAt = mergedAt + deps.deployDelayMs;
    const { paths, urls } = measuredOf(merge.pages);
    const moved = merge.pages.filter((p) => p.change === 'moved');
    const counts = new Map<number, { before: WindowCounts; after: WindowCounts; queries: string[] }>();
    // a moved page's readers are those of its old path and its new one, each reader once
    const together = moved.map((page) => [page.path, page.from]);
    // a new copy: a read may be kept and answered again
    const merged = (read: WindowCounts): WindowCounts => {
      const pages = new Map(read.pages);
      moved.forEach((page, i) => {
        const [now, was] = [read.pages.get(page.path)!, read.pages.get(page.from)!];
        pages.set(page.path, {
          ...read.together![i],
          thumbsUp: now.thumbsUp + was.thumbsUp,
          thumbsDown: now.thumbsDown + was.thumbsDown,
          comments: now.comments + was.comments,
        });
      });
      return { ...read, pages };
    };
    const windows: { days: number; complete: boolean; ranges: TimeRange[]; queries: string[] }[] = [];
    // the queries of the search gaps the job was started to fix are measured whether or not they led anywhere
    const gaps = await searchGapsOfJob(db, merge.projectId, merge.jobId);
    const gapQueries = [...new Set(gaps.map((g) => g.query))];
    for (const days of WINDOW_DAYS) {
      const { status, before, after } = outcomeRanges({ liveAt, now, days });
      if (status === 'pending') continue;
      // the same queries on both sides: the gaps', then those that led into the pages before or after
      const led = await queriesOf(
        { projectId: merge.projectId, paths, range: { from: before.from, to: after.to }, limit: MAX_QUERIES },
        stampOf,
      );
      const queries = [...gapQueries, ...led.filter((q) => !gapQueries.includes(q))].slice(
        0,
        Math.max(MAX_QUERIES, gapQueries.length),
      );
      windows.push({ days, complete: status === 'complete', ranges: [before, after], queries });
    }
    const readSides = (ranges: TimeRange[], queries: string[]) =>
      readRanges({ projectId: merge.projectId, paths, urls, queries, together }, ranges, stampOf);
    const sides = new Map<number, WindowCounts[]>();
    // the complete windows' sides in one read when they share the queries (none asked: always), else per window
    const complete = windows.filter((w) => w.complete);
    if (complete.every((w) => w.queries.join('\n') === complete[0].queries.join('\n'))) {
      const read = await readSides(
        complete.flatMap((w) => w.ranges),
        complete[0]?.queries ?? [],
      );
      for (const [i, w] of complete.entries()) sides.set(w.days, read.slice(2 * i, 2 * i + 2));
    } else for (const w of complete) sides.set(w.days, await readSides(w.ranges, w.queries));
    // an open window's before side has ended (kept as the others are); its after side reads up to now, never kept
    for (const w of windows.filter((w) => !w.complete))
      sides.set(w.days, [
        ...(await readSides([w.ranges[0]], w.queries)),
        ...(await readSides([w.ranges[1]], w.queries)),
      ]);
    for (const w of windows) {
      const [before, after] = sides.get(w.days)!;
      counts.set(w.days, { before: merged(before), after: merged(after), queries: w.queries });
    }
    return computeOutcome({ mergedAt, liveAt, now, pages: merge.pages, counts, gaps, later: await laterOf(merge) });
  };

  /**
   * A merge's verdict alone, as outcomeOf gives it: its longest complete window's verdict for the pull request as a
   * whole, which reads that window's totals alone (no per-page groups, searches or later changes).
   */
  const verdictOf = async (merge: DocsMerge, stampOf: StampOf): Promise<Verdict> => {
    const now = clock().getTime();
    const mergedAt = merge.mergedAt.getTime();
    const liveAt = mergedAt + deps.deployDelayMs;
    const days = [...WINDOW_DAYS].reverse().find((d) => outcomeRanges({ liveAt, now, days: d }).status === 'complete');
    if (days === undefined) return 'pending';
    const { paths, urls } = measuredOf(merge.pages);
    const { before, after } = outcomeRanges({ liveAt, now, days });
    const judge = async () => {
      const [b, a] = await readRanges(
        { projectId: merge.projectId, paths, urls, only: 'verdict' },
        [before, after],
        null,
      );
      const counts = new Map([[days, { before: b, after: a }]]);
      return computeOutcome({ mergedAt, liveAt, now, pages: merge.pages, counts }).verdict;
    };
    // the window has ended: its verdict is kept as its counts would be
    return keptWhileEnded(['verdict', merge.projectId, merge.pages, liveAt, days], [before, after], stampOf, judge);
  };

  const settle = async (merge: SweptMerge, outcome: Outcome, days: number) => {
    const window = outcome.windows.find((w) => w.days === days)!;
    await db.$transaction(async (tx) => {
      if (!(await claimSettled(tx, { jobId: merge.jobId, from: merge.settledDays, to: days }))) return;
      const searchGaps = new Map(window.searches.gaps.map((g) => [g.problem, g.change]));
      const problems = await settleOutcome({
        db: tx,
        clock,
        jobId: merge.jobId,
        changes: window.total.changes,
        searchGaps,
      });
      await deps.onSettled?.(tx, { merge, days, outcome, problems });
    });
  };

  const comment = async (merge: SweptMerge, outcome: Outcome, days: number) => {
    const post = deps.comment;
    const wanted = post ? await (deps.commentWanted?.(merge) ?? true) : false;
    if (!(await claimComment({ db, now: clock(), leaseMs: claimMs, jobId: merge.jobId, days }))) return;
    if (!post || !wanted) {
      // comments are off for this pull request: nothing is owed later either
      await settleComment(db, { jobId: merge.jobId, result: { days: 28, commentId: null } });
      return;
    }
    try {
      const commentId = await post({
        projectId: merge.projectId,
        jobId: merge.jobId,
        repository: merge.repository,
        number: merge.number,
        commentId: merge.commentId,
        body: outcomeCommentBody({ jobId: merge.jobId, outcome, days }),
      });
      await settleComment(db, { jobId: merge.jobId, result: { days, commentId } });
    } catch (err) {
      const status = permanentCommentFailure(err);
      deps.logger?.warn({ err, jobId: merge.jobId, status }, 'the outcome comment could not be posted');
      // GitHub will not take it (no access, pull request gone): given up; anything else is tried at the next sweep
      await settleComment(db, {
        jobId: merge.jobId,
        result: status ? { days: 28, commentId: null } : 'released',
      });
    }
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

    async sweep() {
      const now = clock().getTime();
      const completeBy = new Date(now - deps.deployDelayMs - WINDOW_DAYS[0] * DAY_MS);
      const merges = await mergesToSweep({ db, completeBy, limit: 200 });
      for (const merge of merges) {
        const outcome = await outcomeOf(merge);
        const complete = outcome.windows.filter((w) => w.status === 'complete').map((w) => w.days);
        const days = Math.max(0, ...complete);
        if (days > merge.settledDays) await settle(merge, outcome, days);
        const commentDays = Math.max(0, ...COMMENT_DAYS.filter((d) => complete.includes(d)));
        if (commentDays > merge.commentDays) await comment(merge, outcome, commentDays);
      }
      return merges.length;
    },

    async ofJob(projectId, jobId) {
      const merge = await findDocsMerge(db, projectId, jobId);
      return merge && outcomeOf(merge, await stampsOf(projectId, [merge]));
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
      const start = cursor
        ? all.findIndex(
            (m) =>
              m.mergedAt.getTime() < cursor.mergedAt ||
              (m.mergedAt.getTime() === cursor.mergedAt && m.jobId > cursor.jobId),
          )
        : 0;
      const rest = start < 0 ? [] : all.slice(start);
      // read before any count: a write while they are read makes the next call read again
      const stampOf = await stampsOf(project.id, all);
      // the page's merges in full; the summary of the others from their deciding window's totals alone
      // the page's merges side by side: their reads wait on the database, one merge's on its answers alone
      const page: ListedOutcome[] = await Promise.all(
        rest.slice(0, query.limit).map(async (merge) => {
          const { jobId, repository, number, pages } = merge;
          return { jobId, repository, number, pages, outcome: await outcomeOf(merge, stampOf) };
        }),
      );
      const shown = new Map(page.map((o) => [o.jobId, o.outcome.verdict]));
      const summary = { helped: 0, noEffect: 0, regressed: 0 };
      // the others' verdicts a few at a time: one merge's reads wait on the database while another's are counted
      const verdicts = await mapAtMost(SUMMARY_READS, all, (merge) =>
        Promise.resolve(shown.get(merge.jobId) ?? verdictOf(merge, stampOf)),
      );
      for (const verdict of verdicts) {
        if (verdict === 'helped') summary.helped++;
        else if (verdict === 'no effect') summary.noEffect++;
        else if (verdict === 'regressed') summary.regressed++;
      }
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

/** `map` over `items` with at most `limit` calls pending at once; results in the items' order. */
async function mapAtMost<T, R>(limit: number, items: readonly T[], map: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await map(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
