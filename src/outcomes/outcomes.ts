import type { Db } from '../db/client.js';
import type { Clock } from '../clock.js';
import { queryRange, type TimeRange } from '../calendar.js';
import type { Project } from '../projects/projects.js';
import type { VisitorCounts, WindowCounts } from '../analytics/reports/outcome-counts.js';
import { settleOutcome, type SettledProblem } from '../problems/problem-store.js';
import { searchGapsOfJob } from '../problems/fix-cause.js';
import type { Logger } from '../logger.js';
import type { DbTransaction } from '../db/client.js';
import { changedPages } from './changed-pages.js';
import type { ReadPullRequestFiles } from './github-pull-request-files.js';
import {
  computeOutcome,
  measuredOf,
  outcomeRanges,
  windowVerdict,
  type LaterChange,
  type Outcome,
} from './compute-outcome.js';
import {
  claimComment,
  claimSettled,
  findDocsMerge,
  keepVisitors,
  listDocsMerges,
  mergesBy,
  mergesToSweep,
  recordDocsMerge,
  settleComment,
  type DocsMerge,
  type KeptVisitors,
  type SweptMerge,
} from './merge-store.js';
import {
  COMMENT_DAYS,
  outcomeCommentBody,
  permanentCommentFailure,
  type PostOutcomeComment,
} from './outcome-comment.js';
import { createHash } from 'node:crypto';
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
  /** the visitors of some ranges counted before, in the groups' order (null: not known): not read again */
  known?: readonly (readonly VisitorCounts[] | null)[];
}) => Promise<WindowCounts[]>;

/**
 * The thumbs, comments and misses of many merges' windows at once, no page views read (every visitor count 0): for
 * each ask, one per range in order, as ReadOutcomeCounts would count them.
 */
export type ReadOutcomeSignals = (params: {
  projectId: string;
  asks: readonly { paths: readonly string[]; urls: readonly string[]; ranges: readonly TimeRange[] }[];
}) => Promise<WindowCounts[][]>;

/** The site-search queries that led readers into some pages within a range, most searched first. */
export type ReadOutcomeQueries = (params: {
  projectId: string;
  paths: readonly string[];
  range: TimeRange;
  limit: number;
}) => Promise<string[]>;

/**
 * What reads of a project's pages within `span` are derived from, as a function of a read's ranges (null for one
 * outside the span); null where nothing can say. The same stamp twice: the same counts. With `'views'`: what the
 * ranges' page views alone are derived from (the same stamp twice: the same visitor counts).
 */
export type ReadOutcomeStamps = (
  projectId: string,
  span: TimeRange,
) => Promise<((ranges: readonly TimeRange[], of?: 'views') => string | null) | null>;
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

/** part of every kept side's key: a release that counts visitors otherwise changes it, and they are counted afresh */
const KEPT_VISITORS_FORMAT = 1;

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
   * transaction), and the pull request's outcome comment is posted (7 days) or edited (28 days); then counts the human
   * visitors of each merge's deciding window where the kept count is missing or out of date, so that a list's summary
   * reads no page views for them. Returns how many merges it handled and how many verdict counts it made. Reads never
   * do any of this.
   */
  sweep(): Promise<{ handled: number; counted: number }>;
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
  /**
   * a list's summary reads the thumbs and misses of merges whose human visitors the sweep kept at once with this;
   * absent, every verdict reads page views
   */
  signals?: ReadOutcomeSignals;
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

  /**
   * One read of a merge's pages over several ranges; the visitors of a range the sweep counted (keepSides) are not
   * read again while the page views they were counted from are as they were.
   */
  const countRanges = (
    merge: DocsMerge,
    params: Omit<Parameters<ReadOutcomeCounts>[0], 'ranges'>,
    ranges: readonly TimeRange[],
    stampOf: StampOf,
  ): Promise<WindowCounts[]> => {
    const known = ranges.map((range) => keptSide(merge, range, stampOf));
    return deps.counts({ ...params, ranges, ...(known.some(Boolean) ? { known } : {}) });
  };

  /** countRanges, its answer kept in memory while the ranges have ended (keptWhileEnded). */
  const readRanges = async (...args: Parameters<typeof countRanges>): Promise<WindowCounts[]> => {
    const [, params, ranges, stampOf] = args;
    return ranges.length ? keptWhileEnded(['counts', params, ranges], ranges, stampOf, () => countRanges(...args)) : [];
  };

  /** The visitors of one side of a merge's window as the sweep kept them, when they still hold; else null. */
  const keptSide = (merge: DocsMerge, range: TimeRange, stampOf: StampOf) => {
    const side = merge.keptVisitors?.[sideName(range)];
    return side && range.to <= clock().getTime() && side.key === sideKey(merge, range, stampOf) ? side.visitors : null;
  };

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
    const { together } = groupsOf(merge);
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
      readRanges(merge, { projectId: merge.projectId, paths, urls, queries, together }, ranges, stampOf);
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
   * The verdicts of a list's summary, each as outcomeOf gives it: its longest complete window's verdict for the pull
   * request as a whole, which reads that window's totals alone (no per-page groups, searches or later changes). A
   * verdict is kept in memory as counts are (keptWhileEnded). Of the others, a merge whose deciding sides the sweep
   * kept, while the page views they were counted from are as they were, is judged from their human visitors and its
   * thumbs and misses (read for all such merges at once); any other from the page views, a few merges at a time.
   */
  const verdictsOf = async (projectId: string, merges: readonly DocsMerge[], stampOf: StampOf): Promise<Verdict[]> => {
    const now = clock().getTime();
    // the merges whose verdict is not in memory, each settled once judged below
    const judging: { merge: DocsMerge; window: DecidingWindow; settle: (verdict: Promise<Verdict>) => void }[] = [];
    const verdicts = merges.map((merge) => {
      const window = decidingWindow(merge, now);
      if (!window) return Promise.resolve<Verdict>('pending');
      const key = ['verdict', merge.projectId, merge.pages, window.liveAt, window.days];
      return keptWhileEnded(
        key,
        [window.before, window.after],
        stampOf,
        () => new Promise<Verdict>((settle) => judging.push({ merge, window, settle })),
      );
    });
    const fromViews: typeof judging = [];
    const kept: { merge: DocsMerge; window: DecidingWindow; humans: [number, number] }[] = [];
    const settles: ((verdict: Promise<Verdict>) => void)[] = [];
    for (const judged of judging) {
      const { merge, window } = judged;
      const sides = deps.signals ? [window.before, window.after].map((r) => keptSide(merge, r, stampOf)) : [];
      // the pull request's human visitors: its pages together, the group after each page's own
      const total = measuredOf(merge.pages).paths.length;
      if (sides[0] && sides[1]) {
        kept.push({ merge, window, humans: [sides[0][total].human, sides[1][total].human] });
        settles.push(judged.settle);
      } else fromViews.push(judged);
    }
    const signals = kept.length
      ? deps.signals!({
          projectId,
          asks: kept.map(({ merge, window }) => ({
            ...measuredOf(merge.pages),
            ranges: [window.before, window.after],
          })),
        })
      : Promise.resolve([]);
    kept.forEach(({ merge, humans }, i) => {
      settles[i](
        signals.then((all) => {
          const [before, after] = all[i];
          return windowVerdict(merge.pages, withHumans(before, humans[0]), withHumans(after, humans[1]));
        }),
      );
    });
    const judged = mapAtMost(SUMMARY_READS, fromViews, async ({ merge, window }) => {
      const { before, after } = window;
      const params = { projectId, ...groupsOf(merge), urls: measuredOf(merge.pages).urls, only: 'verdict' as const };
      const [b, a] = await countRanges(merge, params, [before, after], stampOf);
      return windowVerdict(merge.pages, b, a);
    });
    fromViews.forEach(({ settle }, i) => {
      settle(judged.then((all) => all[i]));
    });
    return Promise.all(verdicts);
  };

  /** A merge's longest complete window (the one its verdict is read from), null while none is. */
  const decidingWindow = (merge: DocsMerge, now: number): DecidingWindow | null => {
    const liveAt = merge.mergedAt.getTime() + deps.deployDelayMs;
    const days = [...WINDOW_DAYS].reverse().find((d) => outcomeRanges({ liveAt, now, days: d }).status === 'complete');
    return days === undefined ? null : { liveAt, days, ...outcomeRanges({ liveAt, now, days }) };
  };

  /**
   * Counts the visitors of every ended side of every live merge's windows where the kept ones are missing or no longer
   * match the page views, and keeps them with the merge (so a process just started need not read those page views).
   * Returns how many merges it counted sides of.
   */
  const keepSides = async (now: number): Promise<number> => {
    let counted = 0;
    for (const [projectId, merges] of await mergesBy(db, new Date(now - deps.deployDelayMs))) {
      // read before any count: a write while they are counted leaves a key the next sweep finds out of date
      const stampOf = await stampsOf(projectId, merges);
      for (const merge of merges) {
        const liveAt = merge.mergedAt.getTime() + deps.deployDelayMs;
        const ended = new Map<string, TimeRange>();
        for (const days of WINDOW_DAYS) {
          const { status, before, after } = outcomeRanges({ liveAt, now, days });
          for (const side of status === 'complete' ? [before, after] : [before]) ended.set(sideName(side), side);
        }
        const kept: KeptVisitors = {};
        const missing: TimeRange[] = [];
        for (const [name, range] of ended) {
          const visitors = keptSide(merge, range, stampOf);
          if (visitors) kept[name] = merge.keptVisitors![name];
          else if (sideKey(merge, range, stampOf)) missing.push(range);
        }
        if (!missing.length) continue;
        const { paths, together } = groupsOf(merge);
        const reads = await deps.counts({ projectId, paths, urls: [], together, ranges: missing });
        missing.forEach((range, i) => {
          kept[sideName(range)] = { key: sideKey(merge, range, stampOf)!, visitors: visitorsOf(reads[i], paths) };
        });
        await keepVisitors(db, merge.jobId, kept);
        counted++;
      }
    }
    return counted;
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
      const counted = await keepSides(now);
      return { handled: merges.length, counted };
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
        kept: true,
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
      // the page's merges in full, side by side (their reads wait on the database, one merge's on its answers alone);
      // meanwhile the summary of the others from their deciding windows' totals alone
      const shown = new Set(rest.slice(0, query.limit).map((merge) => merge.jobId));
      const [page, others] = await Promise.all([
        Promise.all(
          rest.slice(0, query.limit).map(async (merge): Promise<ListedOutcome> => {
            const { jobId, repository, number, pages } = merge;
            return { jobId, repository, number, pages, outcome: await outcomeOf(merge, stampOf) };
          }),
        ),
        verdictsOf(
          project.id,
          all.filter((merge) => !shown.has(merge.jobId)),
          stampOf,
        ),
      ]);
      const summary = { helped: 0, noEffect: 0, regressed: 0 };
      for (const verdict of [...page.map((listed) => listed.outcome.verdict), ...others]) {
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

/** The groups of paths an outcome counts visitors of: each page, and each moved page with its old path (together). */
function groupsOf(merge: DocsMerge): { paths: string[]; together: string[][] } {
  // a moved page's readers are those of its old path and its new one, each reader once
  const together = merge.pages.flatMap((page) => (page.change === 'moved' ? [[page.path, page.from]] : []));
  return { paths: measuredOf(merge.pages).paths, together };
}

/** A merge's longest complete window: its days, and its before and after sides around the live time. */
interface DecidingWindow {
  liveAt: number;
  days: number;
  before: TimeRange;
  after: TimeRange;
}

/** How a side of a merge's window is named among its kept ones. */
const sideName = (range: TimeRange) => `${range.from}:${range.to}`;

/**
 * The key a side's visitors are kept under: what they are counted from (the pages, the range, the versions of its
 * days' page views); null where no version can say (ClickHouse, a rebuild under way).
 */
function sideKey(merge: DocsMerge, range: TimeRange, stampOf: StampOf): string | null {
  const views = stampOf?.([range], 'views');
  if (!views) return null;
  const counted = [KEPT_VISITORS_FORMAT, groupsOf(merge), range.from, range.to, views];
  return createHash('sha256').update(JSON.stringify(counted)).digest('base64url');
}

/** A read's visitors in the groups' order (readOutcomeCounts' `visitors`): each page, all of them, then `together`. */
function visitorsOf(read: WindowCounts, paths: readonly string[]): VisitorCounts[] {
  const visitors = ({ human, ai, aiByPurpose, referred }: VisitorCounts): VisitorCounts => ({
    human,
    ai,
    aiByPurpose,
    referred,
  });
  return [...paths.map((path) => read.pages.get(path)!), read.total, ...(read.together ?? [])].map(visitors);
}

/** A side's counts with the pull request's human visitors as counted before. */
function withHumans(counts: WindowCounts, human: number): WindowCounts {
  return { ...counts, total: { ...counts.total, human } };
}
